//! From page-locked host memory to page-locked host memory: [`GpuMany::pin`]
//! lays a batch's chunks out in page-locked memory once; [`GpuMany::run_pinned`]
//! then moves chunk k in, runs it and moves it out on stream k mod 3, so that
//! at any time one chunk is copied in, one runs and one is copied out (the
//! link's two directions and the GPU all busy). Each stream has its own
//! device buffers, reused chunk after chunk (a stream's work runs in order).
//! The page-locked buffers hold keys and data and are wiped when dropped.

use super::device::back_to_back;
use super::layout::{self, Chunk, Pass};
use super::{assemble, check, GpuMany, GpuManyError};
use crate::{Batch, Output, Scheme};
use skinny_cuda::cudarc::driver::{CudaSlice, DevicePtr, PinnedHostSlice};
use skinny_cuda::GpuError;
use zeroize::Zeroize;

/// Data per chunk on the page-locked path: small enough that the pipeline
/// fills and drains quickly, large enough that each launch fills the GPU.
const PINNED_CHUNK_BYTES: usize = 32 << 20;

/// A batch's chunks in page-locked host memory, prepared for one pass.
pub struct PinnedBatch {
    scheme: Scheme,
    pass: Pass,
    messages: usize,
    data_bytes: usize,
    chunks: Vec<Chunk>,
    offsets: Vec<usize>,
    host: PinnedHostSlice<u8>,
}

/// Page-locked host memory for a [`PinnedBatch`]'s results.
pub struct PinnedOutput {
    offsets: Vec<usize>,
    host: PinnedHostSlice<u8>,
}

impl PinnedBatch {
    /// The number of messages.
    pub fn len(&self) -> usize {
        self.messages
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.messages == 0
    }

    /// The batch's data bytes (the messages, for seal; ciphertexts and tags,
    /// for open).
    pub fn data_bytes(&self) -> usize {
        self.data_bytes
    }

    /// Bytes that cross to the device (every chunk's input image).
    pub fn image_bytes(&self) -> usize {
        self.chunks.iter().map(|c| c.sections.in_len).sum()
    }

    /// Bytes that come back (every chunk's output image).
    pub fn output_image_bytes(&self) -> usize {
        self.chunks.iter().map(|c| c.sections.out_len).sum()
    }
}

/// `len` bytes of page-locked host memory (not write-combined: the host reads
/// the results from it), zeroed.
fn pinned(gpu: &GpuMany, len: usize) -> Result<PinnedHostSlice<u8>, GpuManyError> {
    // SAFETY: plain page-locked memory, zeroed before anyone reads it.
    let mut host = unsafe { gpu.gpu.context().alloc_pinned_with_flags::<u8>(len, 0) }
        .map_err(GpuError::driver("allocating page-locked host memory"))?;
    host.as_mut_slice().map_err(GpuError::driver("page-locked host memory"))?.fill(0);
    Ok(host)
}

impl GpuMany {
    /// Lays `batch` out for `pass` in page-locked host memory.
    ///
    /// # Errors
    /// A message over 1 GiB, or the driver
    /// could not page-lock the memory.
    pub fn pin(&self, batch: &Batch, pass: Pass) -> Result<PinnedBatch, GpuManyError> {
        check(batch)?;
        let flat = batch.flat();
        let chunks = layout::plan(&flat, batch.scheme(), pass, PINNED_CHUNK_BYTES);
        let (offsets, total) = back_to_back(chunks.iter().map(|c| c.sections.in_len));
        let mut host = pinned(self, total)?;
        {
            let dst = host.as_mut_slice().map_err(GpuError::driver("page-locked host memory"))?;
            for (c, &at) in chunks.iter().zip(&offsets) {
                layout::write_input(&flat, batch.scheme(), c, &mut dst[at..at + c.sections.in_len]);
            }
        }
        Ok(PinnedBatch {
            scheme: batch.scheme(),
            pass,
            messages: batch.len(),
            data_bytes: batch.data_bytes(),
            chunks,
            offsets,
            host,
        })
    }

    /// Page-locked host memory for `batch`'s results.
    ///
    /// # Errors
    /// The driver could not page-lock the memory.
    pub fn pinned_output(&self, batch: &PinnedBatch) -> Result<PinnedOutput, GpuManyError> {
        let (offsets, total) = back_to_back(batch.chunks.iter().map(|c| c.sections.out_len));
        Ok(PinnedOutput { offsets, host: pinned(self, total)? })
    }

    /// Runs `batch`'s pass into `out`, chunks pipelined over three streams,
    /// and waits.
    ///
    /// # Errors
    /// An output made for another batch ([`GpuManyError::Mismatch`]), or the
    /// GPU failed.
    pub fn run_pinned(&self, batch: &PinnedBatch, out: &mut PinnedOutput) -> Result<(), GpuManyError> {
        if out.offsets.len() != batch.offsets.len() {
            return Err(GpuManyError::Mismatch);
        }
        let in_max = batch.chunks.iter().map(|c| c.sections.in_len).max().unwrap_or(16);
        let out_max = batch.chunks.iter().map(|c| c.sections.out_len).max().unwrap_or(16);
        let mut buffers: Vec<(CudaSlice<u8>, CudaSlice<u8>)> = Vec::new();
        for s in &self.streams {
            // SAFETY: each chunk's input is copied in before its kernel reads
            // it, and the kernel writes every output byte copied back.
            let i = unsafe { s.alloc::<u8>(in_max) }.map_err(GpuError::driver("allocating a chunk buffer"))?;
            let o = unsafe { s.alloc::<u8>(out_max) }.map_err(GpuError::driver("allocating a chunk buffer"))?;
            buffers.push((i, o));
        }
        let src = batch.host.as_slice().map_err(GpuError::driver("page-locked host memory"))?;
        let dst = out.host.as_mut_slice().map_err(GpuError::driver("page-locked host memory"))?;
        for (k, c) in batch.chunks.iter().enumerate() {
            let s = &self.streams[k % self.streams.len()];
            let (input, output) = &mut buffers[k % self.streams.len()];
            let (ilen, olen) = (c.sections.in_len, c.sections.out_len);
            let at = batch.offsets[k];
            s.memcpy_htod(&src[at..at + ilen], &mut input.slice_mut(..ilen))
                .map_err(GpuError::driver("copying a chunk to the GPU"))?;
            {
                let (ip, _r1) = input.device_ptr(s);
                let (op, _r2) = output.device_ptr(s);
                self.kernels.launch(s, batch.scheme, batch.pass, c, ip, op)?;
            }
            let at = out.offsets[k];
            s.memcpy_dtoh(&output.slice(..olen), &mut dst[at..at + olen])
                .map_err(GpuError::driver("copying a chunk back"))?;
        }
        for s in &self.streams {
            s.synchronize().map_err(GpuError::driver("waiting for the chunks"))?;
        }
        // The device buffers held keys and data.
        for (s, (i, o)) in self.streams.iter().zip(&mut buffers) {
            let _ = s.memset_zeros(i);
            let _ = s.memset_zeros(o);
            let _ = s.synchronize();
        }
        Ok(())
    }
}

impl PinnedOutput {
    /// The results of `batch` (which `out` was made for), as an [`Output`].
    ///
    /// # Errors
    /// An output made for another batch; reading the page-locked memory failed.
    pub fn to_output(&self, batch: &PinnedBatch) -> Result<Output, GpuManyError> {
        if self.offsets.len() != batch.offsets.len() {
            return Err(GpuManyError::Mismatch);
        }
        let host = self.host.as_slice().map_err(GpuError::driver("page-locked host memory"))?;
        Ok(assemble::output(&batch.chunks, batch.pass, |k| &host[self.offsets[k]..]))
    }
}

impl Drop for PinnedBatch {
    fn drop(&mut self) {
        if let Ok(h) = self.host.as_mut_slice() {
            h.zeroize();
        }
    }
}

impl Drop for PinnedOutput {
    fn drop(&mut self) {
        if let Ok(h) = self.host.as_mut_slice() {
            h.zeroize();
        }
    }
}

impl core::fmt::Debug for PinnedBatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PinnedBatch")
            .field("scheme", &self.scheme)
            .field("pass", &self.pass)
            .field("messages", &self.messages)
            .field("chunks", &self.chunks.len())
            .finish_non_exhaustive()
    }
}

impl core::fmt::Debug for PinnedOutput {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PinnedOutput").field("chunks", &self.offsets.len()).finish_non_exhaustive()
    }
}
