//! Backends: who runs the parallel block work.
//!
//! A [`Backend`] is a kind of hardware with its code (`cpu-serial`, `cpu`,
//! `gpu-paper`, `gpu`). For one key it opens a [`BlockEngine`], which holds
//! whatever the key needs on that hardware (expanded round tweakeys, device
//! buffers) and runs ECB, CTR, and CBC/CFB decryption over large slices.
//!
//! The CLI knows backends only through [`open`] and [`BackendChoice`], so a new
//! backend slots in here without touching it. Which GPUs a run may use is the
//! execution layer's [`GpuSelection`], re-exported here.

pub mod auto;
pub mod cpu;
pub(crate) mod engine;
#[cfg(feature = "cuda")]
pub mod gpu;
mod options;
pub mod serial;

pub use engine::{xor_in_place, Backend, BlockEngine, DeviceBench, Workload, CPU_CHUNK_BYTES};
pub use options::{BackendChoice, GpuKernel, HostCopies, Options, UnknownBackend};
pub use skinny_exec::{GpuSelection, GpuSelectionError};

use crate::Error;

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
        BackendChoice::GpuPaper => open_gpu(GpuKernel::PaperTTable, opts),
        BackendChoice::Gpu => open_gpu(GpuKernel::Bitsliced, opts),
        BackendChoice::Auto => {
            Ok(Box::new(auto::AutoBackend::new(cpu::CpuBackend::new(opts.threads)?, opts.gpus.clone())))
        }
    }
}

#[cfg(feature = "cuda")]
fn open_gpu(kernel: GpuKernel, opts: &Options) -> Result<Box<dyn Backend>, Error> {
    gpu::open_set_with(kernel, &opts.gpus, opts.host_copies)
}

#[cfg(not(feature = "cuda"))]
fn open_gpu(_kernel: GpuKernel, _opts: &Options) -> Result<Box<dyn Backend>, Error> {
    Err(Error::NoCudaSupport)
}
