//! The GPU engine (feature `cuda`): seal and open a [`Batch`] of Romulus-N or
//! Romulus-M messages on an NVIDIA GPU, each message with its own key, nonce,
//! AD and length, byte for byte as the single-message types of
//! `skinny-romulus`; one bad tag fails only its own message.
//!
//! The kernels (`kernels/many.cu` in `skinny-cuda`) run SKINNY-128-384+
//! bitsliced across 32 messages a thread, every call with a whole tweakey of
//! its own, scheduled on the fly on the device: constant time (no table
//! look-up, no branch or address that depends on a key, a nonce or the data).
//! The host cuts a batch into chunks and groups each chunk's messages by
//! length class, so that a thread's 32 messages make the same sequence of TBC
//! calls (see the `layout` module).
//!
//! Three ways through:
//! - [`GpuMany::seal`] / [`GpuMany::open`]: from a [`Batch`] to an
//!   [`Output`], through the device (simple; pageable copies);
//! - [`GpuMany::upload`], then [`GpuMany::seal_device`] /
//!   [`GpuMany::open_device`] and [`GpuMany::download`]: the batch kept on the
//!   device between calls (the kernels alone, for measurements);
//! - [`GpuMany::pin`], then [`GpuMany::run_pinned`]: from page-locked host
//!   memory to page-locked host memory, chunk by chunk on three streams, so
//!   that the copies in, the kernels and the copies out overlap.
//!
//! SKINNY-AEAD batches are refused ([`GpuManyError::Scheme`]): they run on
//! the CPU engine.

mod assemble;
mod device;
mod error;
mod kernel;
mod layout;
mod pinned;

pub use device::{DeviceBatch, DeviceOutput};
pub use error::GpuManyError;
pub use layout::Pass;
pub use pinned::{PinnedBatch, PinnedOutput};

use crate::{Batch, Output, Scheme};
use kernel::ManyKernels;
use skinny_cuda::cudarc::driver::CudaStream;
use skinny_cuda::Gpu;
use std::sync::Arc;

/// Streams of the page-locked path: one copying in, one running, one copying
/// out, at any time.
const STREAMS: usize = 3;

/// The GPU engine on one GPU: its kernels, loaded once, and its streams.
pub struct GpuMany {
    gpu: Arc<Gpu>,
    streams: Vec<Arc<CudaStream>>,
    kernels: ManyKernels,
}

impl GpuMany {
    /// The engine on GPU `ordinal` (the driver's number), compiling its
    /// kernels on first use (NVRTC; cached on disk).
    ///
    /// # Errors
    /// No driver, NVRTC or such GPU; compilation or loading failed.
    pub fn new(ordinal: usize) -> Result<Self, GpuManyError> {
        Self::on(Gpu::get(ordinal)?)
    }

    /// The engine on a GPU already opened with `skinny-cuda`.
    ///
    /// # Errors
    /// Compilation or loading failed.
    pub fn on(gpu: Arc<Gpu>) -> Result<Self, GpuManyError> {
        let streams = (0..STREAMS).map(|_| gpu.new_stream()).collect::<Result<Vec<_>, _>>()?;
        let kernels = ManyKernels::load(&gpu, &streams[0])?;
        Ok(Self { gpu, streams, kernels })
    }

    /// One line about the GPU: name, memory, compute capability, versions.
    pub fn describe(&self) -> String {
        self.gpu.describe()
    }

    /// Each kernel's entry point, registers a thread and local (spill)
    /// bytes a thread, as the driver reports them.
    pub fn kernel_resources(&self) -> Vec<(&'static str, i32, i32)> {
        self.kernels.resources()
    }

    /// The GPU.
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// Seals every message of `batch` (data = plaintext): each output is the
    /// ciphertext followed by the tag.
    ///
    /// # Errors
    /// A scheme without GPU kernels, a message over 1 GiB, or the GPU failed.
    pub fn seal(&self, batch: &Batch) -> Result<Output, GpuManyError> {
        self.through_device(batch, Pass::Seal)
    }

    /// Opens every message of `batch` (data = ciphertext ‖ tag): each output
    /// is the plaintext, or [`MessageError::Forged`](crate::MessageError) for
    /// a wrong tag or data shorter than a tag (that message only).
    ///
    /// # Errors
    /// As [`GpuMany::seal`].
    pub fn open(&self, batch: &Batch) -> Result<Output, GpuManyError> {
        self.through_device(batch, Pass::Open)
    }

    fn through_device(&self, batch: &Batch, pass: Pass) -> Result<Output, GpuManyError> {
        let dev = self.upload(batch, pass)?;
        let mut out = self.device_output(&dev)?;
        self.run_device(&dev, &mut out)?;
        self.download(&dev, &out)
    }
}

/// Refuses what the engine cannot run: another scheme, a message too large.
fn check(batch: &Batch) -> Result<(), GpuManyError> {
    let scheme = batch.scheme();
    if !matches!(scheme, Scheme::RomulusN | Scheme::RomulusM) {
        return Err(GpuManyError::Scheme { scheme });
    }
    for i in 0..batch.len() {
        let len = batch.data_range(i).len() + batch.ad_range(i).len();
        if len > layout::MAX_MESSAGE {
            return Err(GpuManyError::MessageTooLarge { index: i, len });
        }
    }
    Ok(())
}
