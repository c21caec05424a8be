//! The raw modes on NVIDIA GPUs (feature `cuda`): the host code of the
//! bitsliced and T-table kernels (`bitsliced.cu`, `paper_ttable.cu`, compiled
//! by `skinny-cuda`), which the `gpu` and `gpu-paper` backends run on.
//!
//! - [`kernels`]: which kernels ([`KernelKind`]), the operations they run
//!   ([`Op`]), their entry points.
//! - [`GpuCipher`]: one key on one GPU, its kernels launched through
//!   `launch`; its data paths live in `transfer` (host memory: [`HostPath`],
//!   chosen by [`HostPath::auto`]), `resident` (data already on the device:
//!   [`GpuCipher::run_device`]) and `timing` (kernel-only benchmarks).
//! - [`multi`]: several GPUs of one host: [`MultiGpuCipher`], host-to-host
//!   work striped over a [`skinny_cuda::GpuSet`].
//!
//! `bitsliced.cu` is constant time, every variant; `paper_ttable.cu` is the
//! T-table kernel of Xie, Wei and Liu (2021), SKINNY-128 only and NOT
//! constant time (table look-ups indexed by secret data).

mod chain;
mod cipher;
pub mod kernels;
mod launch;
pub mod multi;
mod resident;
mod timing;
mod transfer;

pub use cipher::GpuCipher;
pub use kernels::{KernelKind, Op};
pub use multi::MultiGpuCipher;
pub use transfer::{HostMemory, HostPath};
