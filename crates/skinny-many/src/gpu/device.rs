//! A batch kept on the device: [`GpuMany::upload`] copies its chunks' input
//! images there once, [`GpuMany::seal_device`] / [`GpuMany::open_device`] run
//! the kernels into a [`DeviceOutput`], [`GpuMany::download`] brings the
//! results back as an [`Output`]. The device buffers hold keys and data and
//! are wiped when dropped.

use super::layout::{self, Chunk, Pass};
use super::{assemble, check, GpuMany, GpuManyError};
use crate::{Batch, Output, Scheme};
use skinny_cuda::cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use skinny_cuda::GpuError;
use std::sync::Arc;
use zeroize::Zeroizing;

/// Data per chunk on the device path: large enough that a launch fills the
/// GPU many times over.
const DEVICE_CHUNK_BYTES: usize = 1 << 30;

/// A batch's chunks on the device, prepared for one pass.
pub struct DeviceBatch {
    scheme: Scheme,
    pass: Pass,
    messages: usize,
    pub(crate) chunks: Vec<Chunk>,
    /// Each chunk's input image's offset in `input`.
    offsets: Vec<usize>,
    input: CudaSlice<u8>,
    stream: Arc<CudaStream>,
}

/// Where the kernels write a [`DeviceBatch`]'s results.
pub struct DeviceOutput {
    offsets: Vec<usize>,
    output: CudaSlice<u8>,
    stream: Arc<CudaStream>,
}

impl DeviceBatch {
    /// The number of messages.
    pub fn len(&self) -> usize {
        self.messages
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.messages == 0
    }

    /// The pass it was prepared for.
    pub fn pass(&self) -> Pass {
        self.pass
    }

    /// Bytes on the device (every chunk's input image).
    pub fn device_bytes(&self) -> usize {
        self.input.len()
    }
}

/// Offsets of images of `lens` laid back to back, and the total.
pub(crate) fn back_to_back(lens: impl Iterator<Item = usize>) -> (Vec<usize>, usize) {
    let mut offsets = Vec::new();
    let mut total = 0;
    for len in lens {
        offsets.push(total);
        total += len.div_ceil(256) * 256;
    }
    (offsets, total.max(256))
}

impl GpuMany {
    /// Copies `batch`, laid out for `pass`, to the device.
    ///
    /// # Errors
    /// A message over 1 GiB, or the GPU failed.
    pub fn upload(&self, batch: &Batch, pass: Pass) -> Result<DeviceBatch, GpuManyError> {
        check(batch)?;
        let flat = batch.flat();
        let chunks = layout::plan(&flat, batch.scheme(), pass, DEVICE_CHUNK_BYTES);
        let (offsets, total) = back_to_back(chunks.iter().map(|c| c.sections.in_len));
        let mut host = Zeroizing::new(vec![0u8; total]);
        for (c, &at) in chunks.iter().zip(&offsets) {
            layout::write_input(&flat, batch.scheme(), c, &mut host[at..at + c.sections.in_len]);
        }
        let stream = self.streams[0].clone();
        let input = stream.clone_htod(host.as_slice()).map_err(GpuError::driver("copying a batch to the GPU"))?;
        Ok(DeviceBatch { scheme: batch.scheme(), pass, messages: batch.len(), chunks, offsets, input, stream })
    }

    /// Device memory for `batch`'s results.
    ///
    /// # Errors
    /// The GPU failed (out of memory, say).
    pub fn device_output(&self, batch: &DeviceBatch) -> Result<DeviceOutput, GpuManyError> {
        let (offsets, total) = back_to_back(batch.chunks.iter().map(|c| c.sections.out_len));
        let stream = self.streams[0].clone();
        let output = stream.alloc_zeros::<u8>(total).map_err(GpuError::driver("allocating the batch's output"))?;
        Ok(DeviceOutput { offsets, output, stream })
    }

    /// Seals a batch uploaded for [`Pass::Seal`] into `out`, and waits.
    ///
    /// # Errors
    /// A batch uploaded for the other pass ([`GpuManyError::Mismatch`]), or
    /// the GPU failed.
    pub fn seal_device(&self, batch: &DeviceBatch, out: &mut DeviceOutput) -> Result<(), GpuManyError> {
        if batch.pass != Pass::Seal {
            return Err(GpuManyError::Mismatch);
        }
        self.run_device(batch, out)
    }

    /// Opens a batch uploaded for [`Pass::Open`] into `out`, and waits.
    ///
    /// # Errors
    /// As [`GpuMany::seal_device`].
    pub fn open_device(&self, batch: &DeviceBatch, out: &mut DeviceOutput) -> Result<(), GpuManyError> {
        if batch.pass != Pass::Open {
            return Err(GpuManyError::Mismatch);
        }
        self.run_device(batch, out)
    }

    pub(super) fn run_device(&self, batch: &DeviceBatch, out: &mut DeviceOutput) -> Result<(), GpuManyError> {
        if out.offsets.len() != batch.offsets.len() {
            return Err(GpuManyError::Mismatch);
        }
        let stream = &self.streams[0];
        {
            let (input, _s1) = batch.input.device_ptr(stream);
            let (output, _s2) = out.output.device_ptr_mut(stream);
            for (k, c) in batch.chunks.iter().enumerate() {
                let (i, o) = (input + batch.offsets[k] as u64, output + out.offsets[k] as u64);
                self.kernels.launch(stream, batch.scheme, batch.pass, c, i, o)?;
            }
        }
        stream.synchronize().map_err(GpuError::driver("waiting for the many-message kernels"))?;
        Ok(())
    }

    /// The results in `out` of `batch`, as an [`Output`].
    ///
    /// # Errors
    /// The copy failed.
    pub fn download(&self, batch: &DeviceBatch, out: &DeviceOutput) -> Result<Output, GpuManyError> {
        if out.offsets.len() != batch.offsets.len() {
            return Err(GpuManyError::Mismatch);
        }
        let host =
            Zeroizing::new(self.streams[0].clone_dtoh(&out.output).map_err(GpuError::driver("copying results back"))?);
        Ok(assemble::output(&batch.chunks, batch.pass, |k| &host[out.offsets[k]..]))
    }
}

impl Drop for DeviceBatch {
    /// Wipes the keys and the data from the device.
    fn drop(&mut self) {
        let _ = self.stream.memset_zeros(&mut self.input);
        let _ = self.stream.synchronize();
    }
}

impl Drop for DeviceOutput {
    /// Wipes the results from the device.
    fn drop(&mut self) {
        let _ = self.stream.memset_zeros(&mut self.output);
        let _ = self.stream.synchronize();
    }
}

impl core::fmt::Debug for DeviceBatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DeviceBatch")
            .field("scheme", &self.scheme)
            .field("pass", &self.pass)
            .field("messages", &self.messages)
            .field("chunks", &self.chunks.len())
            .finish_non_exhaustive()
    }
}

impl core::fmt::Debug for DeviceOutput {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DeviceOutput").field("bytes", &self.output.len()).finish_non_exhaustive()
    }
}
