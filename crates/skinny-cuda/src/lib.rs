//! SKINNY on NVIDIA GPUs: CUDA kernels compiled at run time with NVRTC and run
//! through the CUDA driver API (cudarc), both loaded at run time, so that this
//! crate builds and its users run on machines with no CUDA at all.
//!
//! - [`device`]: probing for the driver and NVRTC, the context, the cache of
//!   compiled kernels.
//! - [`cipher`]: one key on the GPU ([`GpuCipher`]): ECB, CTR, CBC and CFB
//!   decryption over host slices, and kernel timing.
//! - Kernels (`kernels/*.cu`): `bitsliced.cu`, constant time, every variant;
//!   `paper_ttable.cu`, the T-table kernel of Xie, Wei and Liu (2021),
//!   SKINNY-128 only and NOT constant time (table look-ups indexed by secret data).

#![warn(missing_docs)]

pub mod cipher;
pub mod constants;
pub mod device;
mod error;

pub use cipher::{GpuCipher, HostPath, KernelKind, Op};
/// The CUDA bindings this crate is built on, for device buffers and streams
/// handed to [`GpuCipher::run_device`].
pub use cudarc;
pub use device::{describe_gpus, Gpu};
pub use error::GpuError;
