//! Device memory as a face (the Python package, say) holds it: one GPU's
//! ordered queue of work ([`DeviceQueue`], a CUDA stream) and bytes allocated
//! on it ([`DeviceBytes`]), addressed by plain device addresses so that a
//! face hands them to other libraries (DLPack) and to the products' raw-address
//! calls without naming a CUDA binding's types.

use super::gpu::Gpu;
use crate::error::GpuError;
use cudarc::driver::{CudaSlice, CudaStream, DevicePtr};
use std::sync::Arc;

/// One GPU's ordered queue of work: what a face waits on and what a foreign
/// library is told to order its work against.
#[derive(Clone)]
pub struct DeviceQueue {
    stream: Arc<CudaStream>,
    ordinal: usize,
}

impl std::fmt::Debug for DeviceQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceQueue").field("gpu", &self.ordinal).field("handle", &self.handle()).finish()
    }
}

impl DeviceQueue {
    /// A new queue on `gpu`.
    ///
    /// # Errors
    /// The driver could not make a stream.
    pub fn new(gpu: &Gpu) -> Result<Self, GpuError> {
        Ok(Self { stream: gpu.new_stream()?, ordinal: gpu.ordinal() })
    }

    /// A product's stream of GPU `ordinal` as a queue (the stream its
    /// kernels run on), for allocating the memory a face gets back from it.
    pub fn of_stream(stream: Arc<CudaStream>, ordinal: usize) -> Self {
        Self { stream, ordinal }
    }

    /// The stream, for the products' launches.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The GPU's number.
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// The driver's handle of the stream (a `CUstream`), as DLPack's
    /// `stream` argument takes it: a producer orders its writes before the
    /// work this queue is given next.
    pub fn handle(&self) -> isize {
        self.stream.cu_stream() as isize
    }

    /// Waits until everything queued so far has finished.
    ///
    /// # Errors
    /// A failure of queued work or of the wait.
    pub fn synchronize(&self) -> Result<(), GpuError> {
        self.stream.synchronize().map_err(GpuError::driver("waiting for the GPU"))
    }

    /// `len` zero bytes of device memory (one at least: an empty allocation
    /// has no address), ready when this returns.
    ///
    /// # Errors
    /// Out of device memory; a failure of the queue.
    pub fn zeroed(&self, len: usize) -> Result<DeviceBytes, GpuError> {
        let buf = self.stream.alloc_zeros::<u8>(len.max(1)).map_err(GpuError::driver("allocating device memory"))?;
        self.synchronize()?;
        Ok(DeviceBytes::own(buf, len, &self.stream))
    }

    /// A device copy of `host`, ready when this returns.
    ///
    /// # Errors
    /// Out of device memory; a failed copy.
    pub fn upload(&self, host: &[u8]) -> Result<DeviceBytes, GpuError> {
        let mut buf =
            self.stream.alloc_zeros::<u8>(host.len().max(1)).map_err(GpuError::driver("allocating device memory"))?;
        if !host.is_empty() {
            let mut view = buf.slice_mut(0..host.len());
            self.stream.memcpy_htod(host, &mut view).map_err(GpuError::driver("copying to the device"))?;
        }
        self.synchronize()?;
        Ok(DeviceBytes::own(buf, host.len(), &self.stream))
    }
}

/// Bytes of device memory, freed on drop: their address stays fixed for
/// their life, so a face may lend it out (to a DLPack consumer, say) while it
/// keeps this value alive.
pub struct DeviceBytes {
    buf: CudaSlice<u8>,
    ptr: u64,
    len: usize,
    stream: Arc<CudaStream>,
}

impl std::fmt::Debug for DeviceBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceBytes").field("ptr", &self.ptr).field("len", &self.len).finish()
    }
}

impl DeviceBytes {
    fn own(buf: CudaSlice<u8>, len: usize, stream: &Arc<CudaStream>) -> Self {
        let ptr = {
            let (p, _sync) = buf.device_ptr(stream);
            p
        };
        Self { buf, ptr, len, stream: Arc::clone(stream) }
    }

    /// The device address of the first byte.
    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    /// The number of bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Copies the bytes into `host` (of [`DeviceBytes::len`] bytes) and waits.
    ///
    /// # Errors
    /// `host` of another length ([`GpuError::Internal`]); a failed copy.
    pub fn download(&self, host: &mut [u8]) -> Result<(), GpuError> {
        if host.len() != self.len {
            return Err(GpuError::Internal("a device download into a host buffer of another length"));
        }
        if host.is_empty() {
            return Ok(());
        }
        let view = self.buf.slice(0..self.len);
        self.stream.memcpy_dtoh(&view, host).map_err(GpuError::driver("copying to the host"))?;
        self.stream.synchronize().map_err(GpuError::driver("waiting for the GPU"))
    }
}
