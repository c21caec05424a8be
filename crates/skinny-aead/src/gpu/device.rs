//! The GPU a [`GpuAead`](super::GpuAead) or [`GpuChunks`](super::GpuChunks) works on: an opaque
//! handle, opened by the driver's number.

use super::error::GpuAeadError;
use skinny_cuda::cudarc::driver::CudaContext;
use skinny_cuda::Gpu;
use std::string::String;
use std::sync::Arc;

/// One NVIDIA GPU, opened for SKINNY-AEAD: its context and cache of compiled
/// kernels. Cloning it shares them.
#[derive(Clone)]
pub struct GpuDevice {
    gpu: Arc<Gpu>,
}

impl GpuDevice {
    /// GPU `ordinal` (the driver's number, as `nvidia-smi` counts), opened
    /// once per process: every caller asking for the same ordinal shares its
    /// context and its cache of compiled kernels.
    ///
    /// # Errors
    /// One line saying why the GPU cannot be used: no driver, no NVRTC, no
    /// such device, or a device that fails to start.
    pub fn open(ordinal: usize) -> Result<Self, GpuAeadError> {
        Ok(Self { gpu: Gpu::get(ordinal)? })
    }

    /// The first GPU (number 0), as [`GpuDevice::open`].
    ///
    /// # Errors
    /// As [`GpuDevice::open`].
    pub fn first() -> Result<Self, GpuAeadError> {
        Self::open(0)
    }

    /// How many GPUs the driver sees (0 with a driver and no GPU).
    ///
    /// # Errors
    /// No driver, no NVRTC, or a driver that cannot start.
    pub fn count() -> Result<usize, GpuAeadError> {
        Ok(Gpu::count()?)
    }

    /// One line: name, memory, compute capability, driver and NVRTC versions.
    pub fn describe(&self) -> String {
        self.gpu.describe()
    }

    /// The driver's number for this GPU.
    pub fn ordinal(&self) -> usize {
        self.gpu.ordinal()
    }

    /// The CUDA context, for the device buffers that
    /// [`GpuAead::seal_device`](super::GpuAead::seal_device) and
    /// [`GpuAead::open_device`](super::GpuAead::open_device) take.
    pub fn cuda_context(&self) -> &Arc<CudaContext> {
        self.gpu.context()
    }

    /// The device crate's GPU (for the kernels' host code here).
    pub(crate) fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }
}

/// A GPU already opened with `skinny-cuda` (say with tuning options), shared
/// with its ciphers.
impl From<Arc<Gpu>> for GpuDevice {
    fn from(gpu: Arc<Gpu>) -> Self {
        Self { gpu }
    }
}

impl core::fmt::Debug for GpuDevice {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "GpuDevice({})", self.describe())
    }
}
