//! Where a run's windows are worked on ([`Placement`]: the CPU, a GPU, or a
//! GPU being started while the CPU begins), and how that becomes the run's
//! engines and the size of its windows.

use super::error::SealedError;
use super::format::{MAX_CHUNK_LOG2, MIN_CHUNK_LOG2};
use super::header::Header;
use super::windows::Engines;

#[cfg(not(feature = "cuda"))]
use super::windows::NoGpu;
#[cfg(feature = "cuda")]
use {
    super::error::BoxError,
    super::format::GPU_MIN_CHUNK_LOG2,
    super::gpu,
    core::fmt,
    skinny_exec::handover::{Keep, OnFailure, Opener},
    std::boxed::Box,
    zeroize::Zeroizing,
};

/// Memory for a window of chunks in flight is kept near this (at least one chunk).
const WINDOW_BYTES: usize = 16 << 20;

/// Where [`seal_on`](super::seal_on) and [`open_on`](super::open_on) run the
/// cipher. The file is the same byte for byte whichever engine sealed it (for
/// the same nonce prefix), and either engine opens it.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub enum Placement {
    /// Every chunk on rayon's current pool (constant-time bitsliced code).
    #[default]
    Cpu,
    /// The whole blocks of a window's chunks in one launch on this GPU, the
    /// chunks' ends and tags on rayon's pool (feature `cuda`). Chunks must be
    /// at least 16 KiB ([`GPU_MIN_CHUNK_LOG2`]).
    #[cfg(feature = "cuda")]
    Gpu(crate::gpu::GpuDevice),
    /// The CPU on the first windows while a thread of its own opens a GPU
    /// and loads its kernels; the GPU (as [`Placement::Gpu`]) from the first
    /// window after it is ready (feature `cuda`). Getting a GPU ready takes a
    /// fixed time (about 0.3 s on the H200 machine) that the CPU spends
    /// sealing instead of waiting. The file is the same either way.
    #[cfg(feature = "cuda")]
    GpuStarting(GpuStart),
}

/// How [`Placement::GpuStarting`] gets its GPU, and what happens when it cannot.
#[cfg(feature = "cuda")]
#[derive(Clone)]
pub struct GpuStart {
    open: std::sync::Arc<dyn Fn() -> Result<crate::gpu::GpuDevice, BoxError> + Send + Sync>,
    or_cpu: bool,
    while_faster: bool,
}

#[cfg(feature = "cuda")]
impl GpuStart {
    /// A GPU that `open` gets (called on a thread of its own, once a run). The
    /// run must use it: if `open` fails, or the GPU's kernels or buffers
    /// cannot be had, the run fails with [`SealedError::GpuStart`] (also when
    /// the CPU finished the input first); chunks under 16 KiB are refused
    /// before anything is written ([`SealedError::GpuChunkSize`]).
    pub fn new(open: impl Fn() -> Result<crate::gpu::GpuDevice, BoxError> + Send + Sync + 'static) -> Self {
        Self { open: std::sync::Arc::new(open), or_cpu: false, while_faster: false }
    }

    /// As [`GpuStart::new`], but when the GPU cannot be had (or cannot take
    /// the file's chunks), the run goes on on the CPU, and its
    /// [`SealedReport`](super::SealedReport) says why
    /// ([`SealedReport::gpu_failure`](super::SealedReport::gpu_failure)).
    pub fn or_cpu(mut self) -> Self {
        self.or_cpu = true;
        self
    }

    /// The GPU keeps the windows only while it is the faster engine: each
    /// engine's work time a window is measured, and once the GPU has done
    /// three windows after its first, if it sealed or opened fewer bytes per
    /// second of work than the CPU did before it was ready, the rest of the
    /// run goes back to the CPU ([`SealedReport::gpu_left`](super::SealedReport::gpu_left) says so, with both
    /// rates). On a host with many cores the CPU engine can be the faster
    /// one. The file is the same either way.
    pub fn while_faster(mut self) -> Self {
        self.while_faster = true;
        self
    }
}

#[cfg(feature = "cuda")]
impl fmt::Debug for GpuStart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GpuStart")
            .field("or_cpu", &self.or_cpu)
            .field("while_faster", &self.while_faster)
            .finish_non_exhaustive()
    }
}

impl Placement {
    /// Whether this engine seals and opens files with chunks of
    /// `2^chunk_log2` bytes (the CPU: all of them; the GPU: 16 KiB and up).
    pub fn supports_chunk_log2(&self, chunk_log2: u8) -> bool {
        match self {
            Placement::Cpu => (MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2),
            #[cfg(feature = "cuda")]
            Placement::Gpu(_) | Placement::GpuStarting(_) => {
                (GPU_MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2)
            }
        }
    }
}

/// Pieces a window: enough for every rayon thread twice, within
/// [`WINDOW_BYTES`], at least one.
fn window(piece: usize) -> usize {
    let by_threads = 2 * rayon::current_num_threads().max(1);
    by_threads.min((WINDOW_BYTES / piece).max(1))
}

/// Pieces a window of the GPU engine: [`WINDOW_BYTES`] worth (at least one),
/// whatever the CPU threads, so each launch has enough warps.
#[cfg(feature = "cuda")]
fn gpu_window(piece: usize) -> usize {
    (WINDOW_BYTES / piece).max(1)
}

/// The engines of a run, and the pieces of its first windows. A GPU given
/// ready ([`Placement::Gpu`]) gets its kernels and buffers before anything is
/// written, so a GPU that cannot serve the file (chunks too small, no kernels)
/// leaves the output empty; a starting one ([`Placement::GpuStarting`]) gets
/// them on its thread, after opening the GPU, while the CPU begins.
#[cfg(feature = "cuda")]
pub(super) fn open_engine(
    placement: &Placement,
    header: &Header,
    key: &[u8; 16],
    piece: usize,
) -> Result<(Engines<gpu::GpuChunks>, usize), SealedError> {
    let gpu_window = gpu_window(piece);
    let chunks = gpu::gpu_chunks_per_window(gpu_window);
    match placement {
        Placement::Cpu => Ok((Engines::cpu(), window(piece))),
        Placement::Gpu(g) => Ok((Engines::ready(gpu::GpuChunks::new(g, header, key, chunks)?), gpu_window)),
        Placement::GpuStarting(start) => {
            if !placement.supports_chunk_log2(header.chunk_log2) {
                let e = SealedError::GpuChunkSize { chunk_log2: header.chunk_log2 };
                return if start.or_cpu { Ok((Engines::cpu_because(e), window(piece))) } else { Err(e) };
            }
            let (open, header, key) = (start.open.clone(), *header, Zeroizing::new(*key));
            let opener: Opener<gpu::GpuChunks, SealedError> = Box::new(move || {
                let gpu = open().map_err(SealedError::GpuStart)?;
                let engine =
                    gpu::GpuChunks::new(&gpu, &header, &key, chunks).map_err(|e| SealedError::GpuStart(Box::new(e)))?;
                Ok((engine, gpu_window))
            });
            let on_failure = if start.or_cpu { OnFailure::UseCpu } else { OnFailure::Fail };
            let keep = if start.while_faster { Keep::WhileFaster } else { Keep::Always };
            Ok((Engines::starting(opener, on_failure, keep)?, window(piece)))
        }
    }
}

/// Without the `cuda` feature: the CPU engine only.
#[cfg(not(feature = "cuda"))]
pub(super) fn open_engine(
    placement: &Placement,
    _header: &Header,
    _key: &[u8; 16],
    piece: usize,
) -> Result<(Engines<NoGpu>, usize), SealedError> {
    match placement {
        Placement::Cpu => Ok((Engines::cpu(), window(piece))),
    }
}
