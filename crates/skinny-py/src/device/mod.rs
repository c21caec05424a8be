//! GPU arrays: results left in device memory (`skinny.DeviceArray`, which
//! hands them to CuPy, PyTorch or JAX through DLPack or
//! `__cuda_array_interface__`, zero-copy), and any DLPack tensor on a CUDA
//! device taken as input and written in place, without a host copy.
//!
//! Pointers are shared between libraries because every one of them (CuPy,
//! PyTorch, this package through skinny-cuda) works in the device's primary CUDA
//! context. Streams: a tensor taken is asked for on the stream the kernel
//! then runs on (`__dlpack__(stream=...)`), and every call waits for its
//! work before it returns, so what it hands back is ready on every stream.

pub mod dlpack;
#[cfg(feature = "cuda")]
mod gpu;

#[cfg(feature = "cuda")]
pub use gpu::{_gpu_last_pointers, crypt_device, cuda_device_of, pairs_on_device, to_device, DeviceArray};

#[cfg(not(feature = "cuda"))]
pub use nogpu::*;

#[cfg(not(feature = "cuda"))]
mod nogpu {
    use crate::errors::{Error, Kind};
    use pyo3::prelude::*;

    fn unavailable() -> PyErr {
        Error::new(Kind::GpuUnavailable, "this build of skinny has no GPU support").into()
    }

    /// Copies a host uint8 array to the GPU (this build has no GPU support).
    #[pyfunction]
    #[pyo3(signature = (array, *, device=0))]
    pub fn to_device(array: &Bound<'_, PyAny>, device: usize) -> PyResult<Py<PyAny>> {
        let _ = (array, device);
        Err(unavailable())
    }

    /// The device pointers the last GPU call read and wrote (none without GPU support).
    #[pyfunction]
    pub fn _gpu_last_pointers() -> (u64, u64) {
        (0, 0)
    }
}
