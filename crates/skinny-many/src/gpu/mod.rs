//! The GPU engine (feature `cuda`): seal and open a [`Batch`] of any
//! [`Scheme`](crate::Scheme) (Romulus-N, Romulus-M, SKINNY-AEAD M1-M6) on an NVIDIA GPU,
//! each message with its own key, nonce, AD and length, byte for byte as the
//! single-message types of `skinny-romulus` and `skinny-aead`; one bad tag
//! fails only its own message.
//!
//! The kernels (`kernels/many.cu` and `many_aead.cu` in `skinny-cuda`) run
//! SKINNY-128-384+ (Romulus), SKINNY-128-384 (M1-M4) or SKINNY-128-256
//! (M5-M6) bitsliced across 32 messages a thread, every call with a whole
//! tweakey of its own: constant time (no table look-up indexed by secrets, no
//! branch or address that depends on a key, a nonce or the data).
//! SKINNY-AEAD's open decrypts whole blocks with the inverse cipher, on the
//! same bitsliced schedule run backwards.
//!
//! Two ways to the round tweakeys:
//! - Romulus: TK1 (counter and domain) is the same for a thread's 32
//!   messages and zero in its second half, so it counts only in even rounds,
//!   spread into 0/~0 words on the fly (a shift and a byte-sign `PRMT` a
//!   word). TK2 ^ TK3 (with the round constants) is scheduled once for each
//!   TK2 into a per-thread table in global memory (40 rounds x 64 words, 10
//!   KiB), which each call under that TK2 streams back with coalesced 16-byte
//!   loads one round ahead: Romulus-N's nonce call and all its message calls
//!   share one table, Romulus-M's encryption shares the tag call's. No shared
//!   memory; a grid of two 128-thread blocks an SM (the launch bound caps a
//!   thread at 255 registers) walks the groups, one table a thread in a
//!   scratch buffer a stream, wiped after each run.
//! - SKINNY-AEAD: the three (M1-M4) or two (M5-M6) tweakey arrays of each
//!   thread's 32 messages sit bitsliced in shared memory and are stepped in
//!   place round by round (`tweakey_slices.cuh`), 192 KiB a 128-thread
//!   block, one block an SM.
//!
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
//! ## Floors (H200, 64-byte messages, no AD)
//!
//! TBC calls a message: Romulus-N 5 (the empty AD block goes in by XOR, the
//! nonce call, 4 message blocks) x 40 rounds = 200 rounds; Romulus-M 7 calls,
//! 280 rounds; M1-M4 5 calls (4 blocks and the tag block; the empty AD costs
//! none) x 56 rounds = 280 rounds, open adding 4 forward schedules for its
//! inverse calls; M5-M6 5 x 48 = 240 rounds of SKINNY-128-256.
//!
//! Romulus: a round of the table kernels is about 290 LOP3 (S-boxes,
//! MixColumns, AddRoundTweakey with TK1's masks) and 410 instructions in all
//! for 32 blocks; at 64 LOP3 lanes a clock an SM (132 SMs, 1.98 GHz) that is
//! at most about 2.9e9 Romulus-N messages/s. The table moves 5 x 40 x 256 /
//! 32 = 1600 bytes a message in and 320 out (the schedule): at the device's
//! copy bandwidth (about 4 TB/s of reads and writes) about 2e9 messages/s,
//! the lower of the two. Two blocks of four warps an SM: the registers (a
//! 128-word state and a 64-word round key a thread) allow no more.
//!
//! SKINNY-AEAD: a round with its tweakey on the fly is about 375 logic
//! operations for 32 blocks, and its shared-memory traffic (3 x 16 loads and
//! 2 x 16 stores of 16 bytes a lane) caps an SM at about 3.2 block-rounds a
//! clock: at most 3.0e9 messages/s for M1-M4 and about 5.8e9 for M5-M6; one
//! block of four warps an SM (the shared memory), with little to hide the
//! latency of a dependent chain or a shared load, is what holds them far
//! below.
//!
//! Bytes a message on the page-locked path: 112 in (64 data, 16 key, 16
//! nonce slot, 16 of lane table and offsets) and 64 + tag + 4 status out (84,
//! or 76 with an 8-byte tag): at the 52-55 GB/s link, 30 GB/s of message
//! bytes at most.
//!
//! Measured figures are kept with their method in the repository's `runs/`
//! (the many-message GPU runs), not here.

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
use skinny_cuda::cudarc::driver::{CudaSlice, CudaStream};
use skinny_cuda::{Gpu, GpuError};
use std::sync::{Arc, Mutex};

/// Streams of the page-locked path: one copying in, one running, one copying
/// out, at any time.
const STREAMS: usize = 3;

/// The GPU engine on one GPU: its kernels, loaded once, and its streams.
pub struct GpuMany {
    gpu: Arc<Gpu>,
    streams: Vec<Arc<CudaStream>>,
    kernels: ManyKernels,
    /// Each stream's scratch: Romulus's round-tweakey tables, wiped after
    /// every run.
    scratch: Vec<Mutex<CudaSlice<u8>>>,
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
        let bytes = ManyKernels::scratch_bytes(&gpu);
        let scratch = streams
            .iter()
            .map(|s| s.alloc_zeros::<u8>(bytes).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()
            .map_err(GpuError::driver("allocating the round-tweakey tables"))?;
        Ok(Self { gpu, streams, kernels, scratch })
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

    /// Stream `k`'s scratch, held for one run.
    fn scratch(&self, k: usize) -> std::sync::MutexGuard<'_, CudaSlice<u8>> {
        // A panic while holding it leaves nothing half-done that matters:
        // every run writes the tables it reads.
        self.scratch[k].lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn through_device(&self, batch: &Batch, pass: Pass) -> Result<Output, GpuManyError> {
        let dev = self.upload(batch, pass)?;
        let mut out = self.device_output(&dev)?;
        self.run_device(&dev, &mut out)?;
        self.download(&dev, &out)
    }
}

impl Drop for GpuMany {
    /// Wipes the round-tweakey tables (they hold key material).
    fn drop(&mut self) {
        for (s, t) in self.streams.iter().zip(&mut self.scratch) {
            let t = t.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner);
            let _ = s.memset_zeros(t);
            let _ = s.synchronize();
        }
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
