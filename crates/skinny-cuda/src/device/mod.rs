//! The GPU: reaching the driver, opening GPUs (each once per process; a set of
//! them through one path, [`GpuSet`]), the context, page-locked host memory,
//! device memory as a face holds it ([`DeviceQueue`], [`DeviceBytes`]), and
//! the cache of compiled kernels.

mod cache;
mod gpu;
mod memory;
mod opened;
mod set;

pub use crate::driver::probe_libraries;
pub use crate::kernels::KernelSource;
pub use crate::nvrtc::compile_offline;
pub use gpu::{Gpu, GpuOptions};
pub use memory::{DeviceBytes, DeviceQueue};
pub use opened::describe_gpus;
pub use set::{GpuSet, SelectError};
