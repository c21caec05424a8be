//! SKINNY on NVIDIA GPUs: CUDA kernels compiled at run time with NVRTC and run
//! through the CUDA driver API (cudarc), both loaded at run time, so that this
//! crate builds and its users run on machines with no CUDA at all.
//!
//! - [`kernels`]: the registry: the CUDA sources (`kernels/*.cu`), their entry
//!   points by kind, block width and operation, and the constants shared with
//!   the CUDA code (passed to NVRTC as `-D` options). `bitsliced.cu` is
//!   constant time, every variant; `paper_ttable.cu` is the T-table kernel of
//!   Xie, Wei and Liu (2021), SKINNY-128 only and NOT constant time (table
//!   look-ups indexed by secret data).
//! - [`device`]: reaching the driver and NVRTC (`driver`, `nvrtc`), one GPU
//!   ([`Gpu`]: its context, page-locked host memory, the cache of compiled
//!   kernels), and the one way to open GPUs: [`GpuSet::select`]
//!   ([`GpuSet::probe`], the selection resolved, [`GpuSet::open`]).
//! - [`constants`]: what each kernel needs of a key in `__constant__` memory,
//!   and its upload.
//! - [`cipher`]: one key on the GPU ([`GpuCipher`]), its kernels launched
//!   through `launch`; its data paths live in `transfer` (host memory:
//!   [`HostPath`], chosen by [`HostPath::auto`]), `resident` (data already on
//!   the device: [`GpuCipher::run_device`]) and `timing` (kernel-only
//!   benchmarks).
//! - `aead.cu` ([`kernels::AEAD`]): SKINNY-AEAD's runs of blocks (a block
//!   counter in each block's TK1, everything else shared); their host code
//!   lives with the product, in `skinny-aead`, on the registry's launch
//!   geometry and [`upload_constants`].
//! - [`multi`]: several GPUs of one host: [`MultiGpuCipher`], host-to-host
//!   work striped over a [`GpuSet`].
//! - `lab.cu` ([`kernels::LAB_TEXT`]) and the many-message engine's
//!   sources ([`kernels::MANY_TEXT`]): the experiments of `skinny-lab` and the
//!   batches of `skinny-many` on the GPU; their host code (entry points,
//!   launch bounds, tables, launches) is the product's, which makes its
//!   [`KernelSource`] from the text, loads it with [`Gpu::load_module`] and
//!   fills its constants with [`upload_constants`].

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod chain;
pub mod cipher;
pub mod constants;
pub mod device;
mod driver;
mod error;
pub mod kernels;
mod launch;
pub mod multi;
mod nvrtc;
mod resident;
mod timing;
mod transfer;

pub use cipher::GpuCipher;
/// The CUDA bindings this crate is built on, for device buffers and streams
/// handed to [`GpuCipher::run_device`].
pub use cudarc;
pub use device::{describe_gpus, Gpu, GpuOptions, GpuSet, SelectError};
pub use error::GpuError;
pub use kernels::{KernelKind, KernelSource, Op};
pub use multi::MultiGpuCipher;
pub use transfer::{HostMemory, HostPath};

use cudarc::driver::{CudaModule, CudaStream};
use std::sync::Arc;

/// Writes each symbol into `module`'s `__constant__` memory through `stream`
/// and waits: for crates that load kernels of their own from the registry
/// (the lab's, the AEAD's) and launch them themselves.
///
/// # Errors
/// A symbol the module lacks or smaller than its data
/// ([`GpuError::ConstantSize`]); a copy that fails.
pub fn upload_constants(
    module: &Arc<CudaModule>,
    stream: &Arc<CudaStream>,
    symbols: &[constants::Symbol],
) -> Result<(), GpuError> {
    constants::upload(module, stream, symbols)
}

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
