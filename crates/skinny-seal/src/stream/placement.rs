//! Where a run's windows are worked on: a [`Job`] (the execution layer's
//! [`Placement`] and what the format's rule needs to know of the input), the
//! rule itself ([`verdict`]), which schemes a GPU serves, and how the route
//! the execution layer gives becomes the run's engines and the size of its
//! windows.
//!
//! SKINNY-AEAD payloads run on the CPU's threads or one GPU (with the
//! CPU-then-GPU hand-over); Romulus payloads run on the CPU (a GPU asked for
//! them is refused; `auto` stays on the CPU). One file runs on one GPU (the
//! first of the selection; "all" means any one): a selection naming more
//! than one GPU is refused rather than silently served by its first, so what
//! the caller asks is what runs.

use super::engine::Engines;
use super::payload::Stream;
use crate::error::EngineError;
use crate::scheme::Scheme;
use skinny_exec::{GpuSelection, Placement, Route, Verdict, WhyCpu};
use std::sync::{Arc, OnceLock};

#[cfg(not(feature = "cuda"))]
use super::engine::NoGpu;
#[cfg(feature = "cuda")]
use {
    super::gpu::{gpu_chunks_per_window, GpuWindows},
    skinny_aead::gpu::GpuDevice,
    skinny_exec::handover::{OnFailure, Opener},
};

/// Memory for a window of chunks in flight is kept near this (at least one chunk).
const WINDOW_BYTES: usize = 16 << 20;

/// Below this many input bytes `auto` stays on the CPU: opening a GPU and
/// loading its kernels takes about 0.3 s (more the first time, before the
/// kernel cache holds them), while the CPU engine seals and opens at about
/// 2 GB/s on a 16-core host: it finishes an input this size in the time the
/// GPU takes to get ready. (The CPU works while the GPU starts, but the run
/// still waits for the start to end, and the start takes the driver's time
/// and a core.)
pub const AUTO_GPU_BYTES: u64 = 512 << 20;

/// The smallest chunk size the GPU placement takes, as a power of two (16
/// KiB): skinny-aead's chunk kernels give each warp 1024 blocks (32 lanes of
/// 32), which must lie inside one chunk. Defined with or without the `cuda`
/// feature, so that a caller can tell whether a GPU could serve a file before
/// asking for one.
pub const GPU_MIN_CHUNK_LOG2: u8 = 14;

#[cfg(feature = "cuda")]
const _: () = assert!(GPU_MIN_CHUNK_LOG2 == skinny_aead::gpu::MIN_CHUNK_LOG2);

/// A run of [`seal_on`](crate::seal_on) or [`open_on`](crate::open_on): where
/// it may go, and the input's length when it is known (a file's size), which
/// `auto` weighs. The file is the same byte for byte wherever it is sealed,
/// and every engine opens every engine's files.
#[derive(Clone, Debug, Default)]
pub struct Job {
    placement: Placement,
    input_len: Option<u64>,
    #[cfg(feature = "cuda")]
    device: Option<GpuDevice>,
}

impl Job {
    /// A run on `placement`. [`Placement::Gpu`] opens the first GPU of its
    /// selection on a thread of its own while the CPU does the first windows
    /// (getting a GPU ready takes a fixed time, about 0.3 s, that the CPU
    /// spends sealing instead of waiting) and fails the run if it cannot be
    /// had; [`Placement::Auto`] does so only where [`verdict`] says the GPU
    /// pays, keeps the GPU only while it proves the faster engine, and goes on
    /// on the CPU when none opens. One GPU serves a run: its link is far faster
    /// than a file's path.
    pub fn new(placement: Placement) -> Self {
        Self { placement, ..Self::default() }
    }

    /// On the CPU, with rayon's current pool.
    pub fn cpu() -> Self {
        Self::default().placement(Placement::Cpu { threads: skinny_exec::Threads::All })
    }

    /// On `device`, already open, whatever the input's size; its kernels and
    /// buffers are had before anything is written, so a GPU that cannot serve
    /// the file leaves the output empty (feature `cuda`). For callers that
    /// seal or open many files on one GPU.
    #[cfg(feature = "cuda")]
    pub fn on_device(device: GpuDevice) -> Self {
        let placement =
            Placement::Gpu { threads: skinny_exec::Threads::All, gpus: GpuSelection::List([device.ordinal()].into()) };
        Self { placement, input_len: None, device: Some(device) }
    }

    /// The same run on `placement`.
    #[must_use]
    pub fn placement(mut self, placement: Placement) -> Self {
        self.placement = placement;
        self
    }

    /// The input's length, when known: `auto` takes a GPU only for inputs of
    /// [`AUTO_GPU_BYTES`] or more.
    #[must_use]
    pub fn input_len(mut self, len: Option<u64>) -> Self {
        self.input_len = len;
        self
    }

    /// The placement asked for.
    pub fn placement_asked(&self) -> &Placement {
        &self.placement
    }
}

/// The format's rule for a GPU: it cannot serve chunks under 16 KiB
/// ([`GPU_MIN_CHUNK_LOG2`]: one warp's 1024 blocks inside one chunk), and it
/// repays its opening only for inputs of [`AUTO_GPU_BYTES`] or more.
pub fn verdict(chunk_log2: u8, input_len: Option<u64>) -> Verdict {
    if chunk_log2 < GPU_MIN_CHUNK_LOG2 {
        return Verdict::Unfit("chunks under 16K".into());
    }
    match input_len {
        None => Verdict::NotWorthIt("input of unknown length".into()),
        Some(n) if n < AUTO_GPU_BYTES => Verdict::NotWorthIt("input under 512 MiB".into()),
        Some(_) => Verdict::Pays,
    }
}

/// Why a job cannot run a file of some scheme.
pub(crate) enum JobError {
    /// A GPU selection of more than one GPU.
    OneGpu,
    /// A GPU asked for a scheme that runs on the CPU only (its name).
    CpuOnly(&'static str),
}

/// Whether `job` can run a file of `scheme`, checked before anything is
/// written.
pub(crate) fn check_job(job: &Job, scheme: Scheme) -> Result<(), JobError> {
    let (gpus, forced) = match job.placement_asked() {
        Placement::Cpu { .. } => (None, false),
        Placement::Auto { gpus, .. } => (Some(gpus), false),
        Placement::Gpu { gpus, .. } => (Some(gpus), true),
    };
    let many = match gpus {
        None | Some(GpuSelection::All) => false,
        Some(GpuSelection::First(n)) => *n > 1,
        Some(GpuSelection::List(l)) => l.len() > 1,
    };
    if many {
        return Err(JobError::OneGpu);
    }
    match scheme {
        Scheme::RomulusN if forced => Err(JobError::CpuOnly("Romulus-N")),
        Scheme::RomulusM if forced => Err(JobError::CpuOnly("Romulus-M")),
        _ => Ok(()),
    }
}

/// Pieces a window: enough for every rayon thread twice, within
/// [`WINDOW_BYTES`], at least one.
pub(super) fn window(piece: usize) -> usize {
    let by_threads = 2 * rayon::current_num_threads().max(1);
    by_threads.min((WINDOW_BYTES / piece).max(1))
}

/// Pieces a window of the GPU engine: [`WINDOW_BYTES`] worth (at least one),
/// whatever the CPU threads, so each launch has enough warps.
#[cfg(feature = "cuda")]
fn gpu_window(piece: usize) -> usize {
    (WINDOW_BYTES / piece).max(1)
}

/// The engine other than the CPU of this build.
#[cfg(feature = "cuda")]
pub(super) type Gpu = GpuWindows;
/// The engine other than the CPU of this build: none.
#[cfg(not(feature = "cuda"))]
pub(super) type Gpu = NoGpu;

/// A run's engines as [`open_engine`] makes them: the hand-over, the pieces
/// of the first windows, why `auto` stayed on the CPU by the rule, and the
/// GPU's description once it is open.
pub(super) struct Opened<G> {
    pub engines: Engines<G>,
    pub window: usize,
    pub why_cpu: Option<WhyCpu>,
    pub accelerator: Arc<OnceLock<String>>,
}

/// The route of `job` for a file of chunks of `2^chunk_log2` bytes: the one
/// CPU/GPU decision, by the execution layer, from this format's [`verdict`].
fn route(job: &Job, chunk_log2: u8) -> Result<Route, EngineError> {
    job.placement.route(verdict(chunk_log2, job.input_len)).map_err(|_| EngineError::GpuChunkSize { chunk_log2 })
}

/// The engines of a run of `stream` in pieces of `piece` bytes, and the
/// pieces of its first windows. Romulus runs on the CPU. A GPU given open
/// ([`Job::on_device`]) gets its kernels and buffers before anything is
/// written; one to be opened gets them on its own thread, after opening the
/// GPU, while the CPU begins.
#[cfg(feature = "cuda")]
pub(super) fn open_engine(job: &Job, stream: &Stream, piece: usize) -> Result<Opened<Gpu>, EngineError> {
    let accelerator = Arc::new(OnceLock::new());
    let (gpu_window, cpu_window) = (gpu_window(piece), window(piece));
    let chunks = gpu_chunks_per_window(gpu_window);
    let opened = |engines, window, why_cpu| Ok(Opened { engines, window, why_cpu, accelerator: accelerator.clone() });
    let Some(member) = stream.scheme.aead_member() else {
        // A GPU asked for was refused by `check_job`; `auto` stays here.
        return opened(Engines::cpu(), cpu_window, None);
    };
    let route = route(job, stream.chunk_log2)?;
    if let (Some(device), Route::Accelerator { .. }) = (&job.device, &route) {
        let _ = accelerator.set(device.describe());
        let engine = GpuWindows::new(device, member, stream.chunk_log2, &stream.key, stream.nonces, chunks)?;
        return opened(Engines::ready(engine), gpu_window, None);
    }
    let (gpus, on_failure, keep) = match route {
        Route::Cpu { why } => return opened(Engines::cpu(), cpu_window, why.map(WhyCpu::Rule)),
        Route::Accelerator { gpus, on_failure, keep } => (gpus, on_failure, keep),
    };
    let ordinal = match first_gpu(&gpus) {
        Ok(ordinal) => ordinal,
        Err(e @ EngineError::GpuStart(_)) if on_failure == OnFailure::UseCpu => {
            return opened(Engines::cpu_because(e), cpu_window, None);
        }
        Err(e) => return Err(e),
    };
    let (name, chunk_log2, key, nonces) = (accelerator.clone(), stream.chunk_log2, stream.key.clone(), stream.nonces);
    let opener: Opener<Gpu, EngineError> = Box::new(move || {
        let device = GpuDevice::open(ordinal).map_err(|e| EngineError::GpuStart(Box::new(e)))?;
        let _ = name.set(device.describe());
        let engine = GpuWindows::new(&device, member, chunk_log2, &key, nonces, chunks)
            .map_err(|e| EngineError::GpuStart(Box::new(e)))?;
        Ok((engine, gpu_window))
    });
    opened(Engines::starting(opener, on_failure, keep)?, cpu_window, None)
}

/// The first GPU of `gpus`. For all of them that is GPU 0, and nothing is
/// asked of the driver here: opening it, on the start thread, says why if
/// there is none. A selection of its own needs the driver's count first.
///
/// # Errors
/// [`EngineError::GpuStart`] when the driver cannot count its GPUs or has
/// none; [`EngineError::GpuSelection`] when the selection does not fit the
/// GPUs there are.
#[cfg(feature = "cuda")]
fn first_gpu(gpus: &GpuSelection) -> Result<usize, EngineError> {
    use skinny_cuda::{GpuSet, SelectError};
    if *gpus == GpuSelection::All {
        return Ok(0);
    }
    match GpuSet::choose(gpus) {
        Ok(ordinals) => Ok(ordinals[0]),
        Err(SelectError::Gpu(e)) => Err(EngineError::GpuStart(Box::new(e))),
        Err(SelectError::Selection(e)) => Err(EngineError::GpuSelection(e)),
    }
}

/// Without the `cuda` feature: the CPU engine only; a GPU asked for is one
/// that cannot be had ([`EngineError::NoCuda`]).
#[cfg(not(feature = "cuda"))]
pub(super) fn open_engine(job: &Job, stream: &Stream, piece: usize) -> Result<Opened<Gpu>, EngineError> {
    let accelerator = Arc::new(OnceLock::new());
    let window = window(piece);
    if stream.scheme.aead_member().is_none() {
        // A GPU asked for was refused by `check_job`; `auto` stays here.
        return Ok(Opened { engines: Engines::cpu(), window, why_cpu: None, accelerator });
    }
    let (engines, why_cpu) = match route(job, stream.chunk_log2)? {
        Route::Cpu { why } => (Engines::cpu(), why.map(WhyCpu::Rule)),
        Route::Accelerator { on_failure: skinny_exec::OnFailure::UseCpu, .. } => {
            (Engines::cpu_because(EngineError::NoCuda), None)
        }
        Route::Accelerator { .. } => return Err(EngineError::NoCuda),
    };
    Ok(Opened { engines, window, why_cpu, accelerator })
}
