//! SKINNY's CUDA kernels and the device layer under them: the kernels
//! compiled at run time with NVRTC and run through the CUDA driver API
//! (cudarc), both loaded at run time, so that this crate builds and its users
//! run on machines with no CUDA at all. It knows the kernels, not the products
//! that run them: each product keeps its GPU host code (which kernel, with
//! what parameters, on what data) in its own crate.
//!
//! - [`kernels`]: the registry: the CUDA sources (`kernels/*.cu`) as texts
//!   and [`KernelSource`]s, the constants every source shares with the host
//!   (passed to NVRTC as `-D` options), and launch geometry for the products.
//!   `bitsliced.cu` is constant time, every variant; `paper_ttable.cu` is the
//!   T-table kernel of Xie, Wei and Liu (2021), SKINNY-128 only and NOT
//!   constant time (table look-ups indexed by secret data).
//! - [`device`]: reaching the driver and NVRTC (`driver`, `nvrtc`), one GPU
//!   ([`Gpu`]: its context, page-locked host memory, the cache of compiled
//!   kernels), and the one way to open GPUs: [`GpuSet::select`]
//!   ([`GpuSet::probe`], the selection resolved, [`GpuSet::open`]).
//! - [`constants`]: what the bitsliced and T-table kernels need of a key in
//!   `__constant__` memory, and its upload ([`upload_constants`]).
//! - [`GpuError`]: why a GPU could not be used or failed, the driver's code
//!   and NVRTC's log kept; [`GpuError::kind`] says what it means to a caller.
//!
//! The products' host code: the raw modes' (`bitsliced.cu`, `paper_ttable.cu`:
//! one key's kernels, the host transfer paths, several GPUs) in `skinny-bulk`;
//! the lab's (`lab.cu`, [`kernels::LAB_TEXT`]) in `skinny-lab`; the
//! many-message engine's ([`kernels::MANY_TEXT`]) in `skinny-many`;
//! SKINNY-AEAD's (`aead.cu`, [`kernels::AEAD`]) in `skinny-aead`. Each makes
//! or takes its [`KernelSource`], loads it with [`Gpu::load_module`] and fills
//! its constants with [`upload_constants`].

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod constants;
pub mod device;
mod driver;
mod error;
pub mod kernels;
mod nvrtc;

/// The CUDA bindings this crate is built on, for the products' device
/// buffers, streams and launches.
pub use cudarc;
pub use device::{describe_gpus, DeviceBytes, DeviceQueue, Gpu, GpuOptions, GpuSet, SelectError};
pub use error::GpuError;
pub use kernels::KernelSource;

use cudarc::driver::{CudaModule, CudaStream};
use std::sync::Arc;

/// Writes each symbol into `module`'s `__constant__` memory through `stream`
/// and waits: for the products, which load their kernels from the registry
/// and launch them themselves.
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
