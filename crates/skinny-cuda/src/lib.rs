//! SKINNY on NVIDIA GPUs: CUDA kernels compiled at run time with NVRTC and run
//! through the CUDA driver API (cudarc), both loaded at run time, so that this
//! crate builds and its users run on machines with no CUDA at all.
//!
//! - [`kernels`]: the registry: the CUDA sources (`kernels/*.cu`), their entry
//!   points by kind, block width and operation, launch geometry, and the
//!   constants shared with the CUDA code (passed to NVRTC as `-D` options).
//!   `bitsliced.cu` is constant time, every variant; `paper_ttable.cu` is the
//!   T-table kernel of Xie, Wei and Liu (2021), SKINNY-128 only and NOT constant
//!   time (table look-ups indexed by secret data).
//! - [`device`]: probing for the driver and NVRTC, the context, page-locked
//!   host memory, the cache of compiled kernels; `nvrtc` compiles them.
//! - [`cipher`]: one key on the GPU ([`GpuCipher`]); its data paths live in
//!   `transfer` (host memory: [`HostPath`]), `resident` (data already on the
//!   device: [`GpuCipher::run_device`]) and `timing` (kernel-only benchmarks).
//! - [`constants`]: what each kernel needs of a key in `__constant__` memory.
//! - `aead.cu` ([`kernels::AEAD`]): SKINNY-AEAD's runs of blocks (a block
//!   counter in each block's TK1, everything else shared); their host code
//!   lives with the product, in `skinny-aead`, on the registry's launch
//!   geometry and [`upload_constants`].
//! - [`multi`]: several GPUs of one host: a [`GpuSet`] and [`MultiGpuCipher`],
//!   host-to-host work striped over them.
//! - [`lab`]: the experiments of `skinny-lab` on the GPU (`lab.cu`: reduced
//!   rounds, a tweakey per query scheduled on the device).

#![warn(missing_docs)]

pub mod cipher;
pub mod constants;
pub mod device;
mod error;
pub mod kernels;
pub mod lab;
pub mod multi;
mod nvrtc;
mod resident;
mod timing;
mod transfer;

pub use cipher::GpuCipher;
/// The CUDA bindings this crate is built on, for device buffers and streams
/// handed to [`GpuCipher::run_device`].
pub use cudarc;
pub use device::{describe_gpus, Gpu, GpuOptions};
pub use error::GpuError;
pub use kernels::{KernelKind, KernelSource, LabExperiment, Op};
pub use multi::{GpuSet, MultiGpuCipher};
pub use transfer::HostPath;

/// Writes each symbol into `module`'s `__constant__` memory on `stream`, then
/// waits for the copies: how a module of the [`kernels`] registry gets its key
/// material ([`constants`] makes it), in [`GpuCipher`] and in the products'
/// own host code (`skinny-aead`'s AEAD kernels).
///
/// # Errors
/// A symbol the module lacks or that is too small; a copy failure.
pub fn upload_constants(
    module: &std::sync::Arc<cudarc::driver::CudaModule>,
    stream: &std::sync::Arc<cudarc::driver::CudaStream>,
    symbols: &[constants::Symbol],
) -> Result<(), GpuError> {
    cipher::upload(module, stream, symbols)
}
