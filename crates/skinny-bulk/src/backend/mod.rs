//! Backends: who runs the parallel block work.
//!
//! A [`Backend`] is a kind of hardware with its code (`cpu-serial`, `cpu`,
//! `gpu-paper`, `gpu`). For one key it opens an [`Engine`], which holds whatever
//! the key needs on that hardware (expanded round tweakeys, device buffers) and
//! runs ECB, CTR, and CBC/CFB decryption over large slices.
//!
//! The CLI knows backends only through [`open`] and [`BackendChoice`], so a new
//! backend slots in here without touching it.

pub mod auto;
pub mod cpu;
#[cfg(feature = "cuda")]
pub mod gpu;
mod gpus;
pub use gpus::{GpuSelection, GpuSelectionError};
pub mod serial;

use crate::mode::Direction;
use crate::Error;
use skinny::counter::Counter;
use skinny::{Skinny, Variant};

/// Bytes per call on the CPU engines at least (the `cpu` backend asks for four
/// of its 64 KiB pieces per worker when that is more): small enough that the
/// few buffers in flight in [`crate::stream::pipe`] stay in the cache between
/// the read, the encryption and the write. On the 2-core dev VM a 512 MiB file
/// went through the CLI in 0.47 s (CTR) with 1 MiB calls, against 0.50 s with
/// 2 or 4 MiB and 0.53 s with 16 MiB (medians of 5 to 9; docs/data-path.md).
pub const CPU_CHUNK_BYTES: usize = 1 << 20;
use std::fmt;
use std::str::FromStr;

/// One key opened on one backend: the parallel operations of the modes.
///
/// Slices hold whole blocks, except that `ctr` may end in a partial block. All
/// operations work in place. Chaining values (`counter`, `iv`) are one block.
pub trait Engine: Send {
    /// ECB: each block encrypted or decrypted on its own.
    ///
    /// # Errors
    /// When the backend fails (device error, out of memory).
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error>;

    /// CTR: XORs E(counter), E(counter + 1), ... into `data` (the counter wraps
    /// modulo 2^(block bits); see [`Counter`]).
    ///
    /// # Errors
    /// When the backend fails.
    fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), Error>;

    /// CBC decryption of whole blocks; `iv` is the ciphertext block before the
    /// first (the IV at the start of a message). The default runs on [`Engine::ecb`].
    ///
    /// # Errors
    /// When the backend fails.
    fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        let prev = shifted_by_one_block(iv, blocks);
        self.ecb(Direction::Decrypt, blocks)?;
        xor_in_place(blocks, &prev);
        Ok(())
    }

    /// Bytes per call that keep this engine at its speed: the stream layers
    /// ([`crate::stream`]) read and hand over this much at a time. The default
    /// suits the CPU engines.
    fn preferred_chunk(&self) -> usize {
        CPU_CHUNK_BYTES
    }

    /// Which engine does the work, for reports (`cpu`, `gpu`, ...).
    fn name(&self) -> &'static str {
        "unnamed engine"
    }

    /// What the engine did, in one line for a user (`auto` says how much went
    /// where and why). The default is [`Engine::name`].
    fn report(&self) -> String {
        self.name().to_string()
    }

    /// Full-block CFB decryption of whole blocks: P_i = C_i ⊕ E(C_{i-1}), C_{-1} = `iv`.
    /// The default runs on [`Engine::ecb`].
    ///
    /// # Errors
    /// When the backend fails.
    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        let mut prev = shifted_by_one_block(iv, blocks);
        self.ecb(Direction::Encrypt, &mut prev)?;
        xor_in_place(blocks, &prev);
        Ok(())
    }
}

/// `iv ‖ blocks` without the last block: the chaining input of each block.
fn shifted_by_one_block(iv: &[u8], blocks: &[u8]) -> Vec<u8> {
    let mut prev = Vec::with_capacity(blocks.len());
    if !blocks.is_empty() {
        prev.extend_from_slice(iv);
        prev.extend_from_slice(&blocks[..blocks.len() - iv.len()]);
    }
    prev
}

/// `dst ^= src`, element by element.
pub fn xor_in_place(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

/// A kind of hardware with its SKINNY code.
pub trait Backend: Send + Sync {
    /// The backend's name (`cpu-serial`, `cpu`, `gpu-paper`, `gpu`, `auto`).
    fn name(&self) -> &'static str;

    /// One line about the hardware and the code.
    fn describe(&self) -> String;

    /// Whether the code is constant time (no secret-dependent branch or table index).
    fn constant_time(&self) -> bool;

    /// Whether this backend can run the variant.
    fn supports(&self, variant: Variant) -> bool;

    /// Opens an engine for one key.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a variant it cannot run; a device error when
    /// the hardware fails.
    fn engine(&self, cipher: &Skinny) -> Result<Box<dyn Engine>, Error> {
        self.engine_for(cipher, &Workload::default())
    }

    /// Opens an engine for one key and a workload described in advance (its
    /// total size when known), so that a backend that chooses hardware (`auto`)
    /// can choose well. The default ignores the description.
    ///
    /// # Errors
    /// As [`Backend::engine`].
    fn engine_for(&self, cipher: &Skinny, work: &Workload) -> Result<Box<dyn Engine>, Error>;

    /// Kernel-only timing, for device backends.
    fn device_bench(&self) -> Option<&dyn DeviceBench> {
        None
    }

    /// Why this backend could not use hardware it would have liked to (`auto`
    /// without a usable GPU for work that would have gone to one), if that
    /// happened. For the caller to report or not.
    fn fallback(&self) -> Option<String> {
        None
    }
}

/// What an engine is about to be asked to do, as far as it is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Workload {
    /// Bytes the engine will process in all, when known (a regular file).
    pub total_bytes: Option<u64>,
}

/// A description of the GPUs this build can use (name, memory, compute
/// capability, driver, NVRTC version), one line each.
///
/// # Errors
/// Why no GPU can be used (no driver, no device, no NVRTC, or a build without
/// CUDA).
pub fn describe_gpus() -> Result<Vec<String>, Error> {
    #[cfg(feature = "cuda")]
    {
        Ok(skinny_cuda::describe_gpus()?)
    }
    #[cfg(not(feature = "cuda"))]
    {
        Err(Error::NoCudaSupport)
    }
}

/// How many GPUs the driver sees (0 when it sees none).
///
/// # Errors
/// No driver, no NVRTC, or a build without CUDA.
pub fn gpu_count() -> Result<usize, Error> {
    #[cfg(feature = "cuda")]
    {
        Ok(skinny_cuda::Gpu::count()?)
    }
    #[cfg(not(feature = "cuda"))]
    {
        Err(Error::NoCudaSupport)
    }
}

/// Checks that `gpus` fits this machine when it has GPUs: a count or an
/// ordinal beyond them is an error now rather than a GPU quietly left out
/// (`auto`). With no usable GPU at all this says nothing: opening a GPU
/// backend reports why. [`GpuSelection::All`] always fits and costs nothing
/// (the driver is not started); any other selection starts the driver to
/// count the GPUs (about 0.3 s the first time in a process).
///
/// # Errors
/// [`Error::GpuSelection`].
pub fn check_gpus(gpus: &GpuSelection) -> Result<(), Error> {
    if *gpus == GpuSelection::All {
        return Ok(());
    }
    match gpu_count() {
        Ok(n) if n > 0 => gpus.resolve(n).map(|_| ()).map_err(Error::from),
        _ => Ok(()),
    }
}

/// Kernel-only timing on a device, for benchmarks: data already resident on the
/// device, transfers and compilation excluded.
pub trait DeviceBench {
    /// Runs the kernel for `mode` (ECB or CTR) in direction `dir` over `bytes`
    /// bytes of random data resident on the device, `warmup` times untimed and then
    /// `runs` times, each timed with device events. Returns the `runs` kernel
    /// times in milliseconds.
    ///
    /// # Errors
    /// Unsupported variant or mode, out of device memory, a kernel error.
    fn time_kernel(
        &self,
        cipher: &Skinny,
        mode: crate::mode::Mode,
        dir: Direction,
        bytes: usize,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error>;
}

/// The backends by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// The CPU, and the GPU for work large enough to repay its start-up (see [`auto`]).
    Auto,
    /// Portable code on one thread (the paper's CPU side).
    CpuSerial,
    /// The constant-time CPU code on all cores.
    Cpu,
    /// The paper's T-table CUDA kernel (SKINNY-128 only; not constant time).
    GpuPaper,
    /// The fast CUDA kernels.
    Gpu,
}

impl BackendChoice {
    /// Every choice, in the order reports list them.
    pub const ALL: [BackendChoice; 5] = [
        BackendChoice::Auto,
        BackendChoice::CpuSerial,
        BackendChoice::Cpu,
        BackendChoice::GpuPaper,
        BackendChoice::Gpu,
    ];

    /// The name.
    pub const fn name(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::CpuSerial => "cpu-serial",
            BackendChoice::Cpu => "cpu",
            BackendChoice::GpuPaper => "gpu-paper",
            BackendChoice::Gpu => "gpu",
        }
    }

    /// Whether this choice needs a GPU to open.
    pub const fn needs_gpu(self) -> bool {
        matches!(self, BackendChoice::GpuPaper | BackendChoice::Gpu)
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A backend name that is none of [`BackendChoice::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown backend (expected auto, cpu-serial, cpu, gpu-paper or gpu)")]
pub struct UnknownBackend;

impl FromStr for BackendChoice {
    type Err = UnknownBackend;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BackendChoice::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(s.trim())).ok_or(UnknownBackend)
    }
}

/// Options for opening a backend.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Options {
    /// Worker threads for `cpu` and `auto`'s CPU side (None: one per core).
    pub threads: Option<usize>,
    /// The GPUs of `gpu`, `gpu-paper` and `auto`'s GPU side (default: all).
    pub gpus: GpuSelection,
    /// `gpu` and `gpu-paper` engines copy with plain copies from and to the
    /// caller's pageable memory, one piece at a time, instead of the fastest
    /// path (the paper's way; for benchmarks that compare with it).
    pub pageable_transfers: bool,
}

impl Options {
    /// Options with `threads` CPU workers (None: one per core).
    pub fn with_threads(threads: Option<usize>) -> Self {
        Self { threads, gpus: GpuSelection::All, pageable_transfers: false }
    }

    /// These options with plain pageable copies for the GPU engines (see
    /// [`Options::pageable_transfers`]).
    pub fn pageable_transfers(mut self, on: bool) -> Self {
        self.pageable_transfers = on;
        self
    }

    /// These options with the GPUs `gpus`.
    pub fn gpus(mut self, gpus: GpuSelection) -> Self {
        self.gpus = gpus;
        self
    }
}

/// Opens the chosen backend. Nothing is printed: `auto` opens no GPU here (it
/// does so only when a workload can repay it) and reports why it could not use
/// one through [`auto::AutoBackend::gpu_unavailable`].
///
/// # Errors
/// [`Error::ZeroThreads`] or [`Error::ThreadPool`] for the CPU side; for `gpu`
/// and `gpu-paper`, why no GPU can be used (no driver, no device, no NVRTC, a
/// build without CUDA).
pub fn open(choice: BackendChoice, opts: &Options) -> Result<Box<dyn Backend>, Error> {
    match choice {
        BackendChoice::CpuSerial => Ok(Box::new(serial::SerialBackend)),
        BackendChoice::Cpu => Ok(Box::new(cpu::CpuBackend::new(opts.threads)?)),
        BackendChoice::GpuPaper => open_gpu(true, opts),
        BackendChoice::Gpu => open_gpu(false, opts),
        BackendChoice::Auto => {
            Ok(Box::new(auto::AutoBackend::new(cpu::CpuBackend::new(opts.threads)?, opts.gpus.clone())))
        }
    }
}

/// The `cpu` backend on all cores, started once per process: what a
/// [`crate::mode::Processor`] uses when given no backend.
pub(crate) fn default_cpu() -> Result<&'static cpu::CpuBackend, Error> {
    static CPU: std::sync::OnceLock<cpu::CpuBackend> = std::sync::OnceLock::new();
    if let Some(cpu) = CPU.get() {
        return Ok(cpu);
    }
    let cpu = cpu::CpuBackend::new(None)?;
    Ok(CPU.get_or_init(|| cpu))
}

#[cfg(feature = "cuda")]
fn open_gpu(paper: bool, opts: &Options) -> Result<Box<dyn Backend>, Error> {
    gpu::open_set_with(paper, &opts.gpus, opts.pageable_transfers)
}

#[cfg(not(feature = "cuda"))]
fn open_gpu(_paper: bool, _opts: &Options) -> Result<Box<dyn Backend>, Error> {
    Err(Error::NoCudaSupport)
}
