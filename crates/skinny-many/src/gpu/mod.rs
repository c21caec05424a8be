//! The GPU engine (feature `cuda`): seal and open a [`Batch`] of any
//! [`Scheme`](crate::Scheme) (Romulus-N, Romulus-M, SKINNY-AEAD M1-M6) on an NVIDIA GPU,
//! each message with its own key, nonce, AD and length, byte for byte as the
//! single-message types of `skinny-romulus` and `skinny-aead`; one bad tag
//! fails only its own message.
//!
//! The kernels (`kernels/many.cu` and `many_aead.cu` in `skinny-cuda`) run
//! SKINNY-128-384+ (Romulus), SKINNY-128-384 (M1-M4) or SKINNY-128-256
//! (M5-M6) bitsliced across 32 messages a thread, every call with a whole
//! tweakey of its own, scheduled on the fly on the device: constant time (no
//! table look-up, no branch or address that depends on a key, a nonce or the
//! data). SKINNY-AEAD's open decrypts whole blocks with the inverse cipher,
//! on the same bitsliced schedule run backwards.
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
//! The kernels live in seven modules (Romulus; one a SKINNY-AEAD member),
//! compiled side by side by [`GpuMany::new`] on first use and cached on disk.
//!
//! ## Floors and measurements (H200, 64-byte messages, no AD)
//!
//! TBC calls a message: Romulus-N 5 (the empty AD block goes in by XOR, the
//! nonce call, 4 message blocks) x 40 rounds = 200 rounds; Romulus-M 7 calls,
//! 280 rounds; M1-M4 5 calls (4 blocks and the tag block; the empty AD costs
//! none) x 56 rounds = 280 rounds, open adding 4 forward schedules for its
//! inverse calls; M5-M6 5 x 48 = 240 rounds of SKINNY-128-256 (two tweakey
//! arrays, not three). A bitsliced round with its tweakey on the fly is about
//! 375 logic operations for 32 blocks (three arrays), and its shared-memory
//! traffic (3 x 16 loads and 2 x 16 stores of 16 bytes a lane) caps a
//! multiprocessor at about 3.2 block-rounds a clock: 8.4e11 block-rounds/s on
//! 132 SMs at 1.98 GHz, so at most 4.2e9 Romulus-N messages/s, 3.0e9 for
//! M1-M4 and (two arrays: 2 x 16 loads, 16 stores) about 5.8e9 for M5-M6.
//! Bytes a message on the page-locked path: 112 in (64 data, 16 key, 16
//! nonce slot, 16 of lane table and offsets) and 64 + tag + 4 status out (84,
//! or 76 with an 8-byte tag): at the 52-55 GB/s link, 30 GB/s of message
//! bytes at most.
//!
//! What holds the kernels far below those floors is not the tweakey
//! schedule but the per-lane message I/O around it: `gather`, `crypt_block`
//! and `finish_tag` walk a thread's 32 lanes one by one, each through a
//! chain of dependent global loads (the lane's index, its span ends, then
//! its words) into a lane-indexed array kept in local memory, with one
//! 128-thread block (four warps) an SM to hide it. A version of the Romulus
//! kernels with no tweakey state in shared memory at all (TK1 on the fly,
//! TK2 ^ TK3 streamed from a per-thread table, two blocks an SM) ran no
//! faster: Nsight Compute still finds about 93% of issue slots with no
//! eligible warp and ~89% of the stall on L1TEX scoreboards. The next step
//! is to take each lane's spans once per group (or have the host lay a
//! class's blocks out lane-major) before the cipher work is worth shrinking.
//! Measured figures and their method are kept in the repository's `runs/`
//! (the many-message GPU runs).

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

use crate::{Batch, Output};
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
    /// A message over 1 GiB, or the GPU failed.
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

/// Refuses what the engine cannot run: a message too large for its offsets.
fn check(batch: &Batch) -> Result<(), GpuManyError> {
    for i in 0..batch.len() {
        let len = batch.data_range(i).len() + batch.ad_range(i).len();
        if len > layout::MAX_MESSAGE {
            return Err(GpuManyError::MessageTooLarge { index: i, len });
        }
    }
    Ok(())
}
