//! The chunk kernels' launches: many messages (chunks, each with its own
//! nonce, so its own masks in a device table) encrypted or decrypted in one
//! launch, each chunk's counter restarting at the LFSR's start and each with
//! its own sum.

use crate::gpu::device::GpuDevice;
use crate::gpu::error::GpuAeadError;
use crate::gpu::inputs::{chunk_counters, AeadCounter, WARP_BLOCKS};
use crate::gpu::kernels::{chunks_entry_point, function, AeadOp, EXPAND_MASKS};
use skinny_cuda::cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PinnedHostSlice, PushKernelArg,
};
use skinny_cuda::kernels::{bitsliced_warps, one_thread_per_item, AEAD};
use skinny_cuda::GpuError;
use std::sync::Arc;
use std::vec;
use std::vec::Vec;
use zeroize::Zeroizing;

/// The smallest chunk the chunk kernels take, as a power of two (16 KiB):
/// they give each warp 1024 blocks (32 lanes of 32), which must lie inside
/// one chunk.
pub const MIN_CHUNK_LOG2: u8 = 14;
/// The largest chunk the chunk kernels take, as a power of two (16 MiB).
pub const MAX_CHUNK_LOG2: u8 = 24;

// One warp's blocks fill the smallest chunk: the kernels give each warp 1024
// blocks of one chunk.
const _: () = assert!(WARP_BLOCKS * 16 == 1 << MIN_CHUNK_LOG2);

/// The warps of a chunk of `2^chunk_log2` bytes (16 KiB or more).
fn warps(chunk_log2: u32) -> usize {
    1 << chunk_log2.saturating_sub(u32::from(MIN_CHUNK_LOG2))
}

/// The GPU side of `GpuChunks`: many messages (chunks of `2^chunk_log2`
/// bytes, 16 KiB to 16 MiB) encrypted or decrypted in one launch, each under
/// its own masks, counter and sum. The host fills a page-locked staging area
/// ([`AeadChunks::staging`]: chunk `c` at byte `c << chunk_log2`), then
/// [`AeadChunks::run`] copies it to the device, runs the chunks, and copies the
/// result back into it.
///
/// The staging area and the device buffers hold plaintext and key material:
/// all are overwritten with zeros when the value is dropped.
pub(super) struct AeadChunks {
    counter: AeadCounter,
    rounds: usize,
    chunk_log2: u32,
    max_chunks: usize,
    stream: Arc<CudaStream>,
    // Kept alive for the functions (and so the module is not unloaded while
    // they are in use).
    _module: Arc<CudaModule>,
    enc: CudaFunction,
    dec: CudaFunction,
    expand: CudaFunction,
    staging: PinnedHostSlice<u8>,
    data: CudaSlice<u8>,
    key_bits: CudaSlice<u64>,
    table: CudaSlice<u32>,
    counters: CudaSlice<u64>,
    sums: CudaSlice<u32>,
}

impl core::fmt::Debug for AeadChunks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("AeadChunks")
            .field("counter", &self.counter)
            .field("chunk_log2", &self.chunk_log2)
            .field("max_chunks", &self.max_chunks)
            .finish_non_exhaustive()
    }
}

impl AeadChunks {
    /// Loads the chunk kernels for `counter`'s members on `gpu`, for up to
    /// `max_chunks` chunks of `2^chunk_log2` bytes a run; the counters start
    /// at `start` in every chunk (the mode's: 1).
    ///
    /// # Errors
    /// [`GpuAeadError::ChunkSize`] for chunks under 16 KiB or over 16 MiB;
    /// compilation, loading or allocation failed.
    pub(super) fn new(
        gpu: &GpuDevice,
        counter: AeadCounter,
        chunk_log2: u32,
        max_chunks: usize,
        start: u64,
    ) -> Result<Self, GpuAeadError> {
        if !(u32::from(MIN_CHUNK_LOG2)..=u32::from(MAX_CHUNK_LOG2)).contains(&chunk_log2) {
            return Err(GpuAeadError::ChunkSize { chunk_log2 });
        }
        let gpu = gpu.gpu();
        let max_chunks = max_chunks.max(1);
        let bytes = max_chunks.checked_shl(chunk_log2).ok_or(GpuError::LaunchTooLarge)?;
        let rounds = counter.variant().rounds();
        let module = gpu.load_module(&AEAD)?;
        let stream = gpu.new_stream()?;
        let enc = function(&module, &chunks_entry_point(counter, AeadOp::Encrypt))?;
        let dec = function(&module, &chunks_entry_point(counter, AeadOp::Decrypt))?;
        let expand = function(&module, EXPAND_MASKS)?;
        // SAFETY: plain page-locked host memory (not write-combined: the host
        // reads the results back from it), zeroed here before anything reads it.
        let mut staging = unsafe { gpu.context().alloc_pinned_with_flags::<u8>(bytes, 0) }
            .map_err(GpuError::driver("allocating pinned host memory"))?;
        staging.as_mut_slice().map_err(GpuError::driver("pinned memory"))?.fill(0);
        let alloc = GpuError::driver("allocating the AEAD chunk buffers");
        let data = stream.alloc_zeros::<u8>(bytes).map_err(&alloc)?;
        let key_bits = stream.alloc_zeros::<u64>(max_chunks * rounds).map_err(&alloc)?;
        let table = stream.alloc_zeros::<u32>(max_chunks * rounds * 64).map_err(&alloc)?;
        let counters = stream
            .clone_htod(&chunk_counters(counter.bits(), start, warps(chunk_log2)))
            .map_err(GpuError::driver("uploading the chunk counters"))?;
        let sums = stream.alloc_zeros::<u32>(max_chunks * 4).map_err(&alloc)?;
        Ok(Self {
            counter,
            rounds,
            chunk_log2,
            max_chunks,
            stream,
            _module: module,
            enc,
            dec,
            expand,
            staging,
            data,
            key_bits,
            table,
            counters,
            sums,
        })
    }

    /// Key bits a chunk ([`chunk_key_bits`](crate::gpu::inputs::chunk_key_bits)): the variant's rounds.
    pub(super) fn rounds(&self) -> usize {
        self.rounds
    }

    /// The most chunks a run takes.
    pub(super) fn max_chunks(&self) -> usize {
        self.max_chunks
    }

    /// The page-locked staging area: `max_chunks << chunk_log2` bytes, chunk
    /// `c` at `c << chunk_log2`. Fill it before [`AeadChunks::run`]; read the
    /// results from it after.
    ///
    /// # Errors
    /// The driver failed.
    pub(super) fn staging(&mut self) -> Result<&mut [u8], GpuAeadError> {
        Ok(self.staging.as_mut_slice().map_err(GpuError::driver("pinned memory"))?)
    }

    /// Encrypts or decrypts (`op`; [`AeadOp::Authenticate`] is refused) the
    /// whole blocks of `nchunks` chunks in the staging area in place: chunk
    /// `c` under the masks of `key_bits[c * rounds..][..rounds]` (see
    /// [`chunk_key_bits`](crate::gpu::inputs::chunk_key_bits)), its blocks under the counters `start · x^g`. All
    /// chunks but the last are whole; the last ends at byte `bytes` of the
    /// staging area, possibly where it starts (its partial block, if any, is
    /// left as it is). Returns
    /// each chunk's sum (the XOR of its plaintext blocks; zero for a chunk
    /// without a whole block). Waits for the GPU.
    ///
    /// # Errors
    /// Too many chunks, `bytes` outside the last chunk, short key bits, a
    /// copy or launch failure.
    pub(super) fn run(
        &mut self,
        op: AeadOp,
        key_bits: &[u64],
        nchunks: usize,
        bytes: usize,
    ) -> Result<Zeroizing<Vec<[u8; 16]>>, GpuAeadError> {
        let func = match op {
            AeadOp::Encrypt => &self.enc,
            AeadOp::Decrypt => &self.dec,
            AeadOp::Authenticate => return Err(GpuError::Internal("the chunk kernels encrypt or decrypt only").into()),
        };
        let cs = 1usize << self.chunk_log2;
        // Every chunk but the last whole; the last may be empty (in a damaged
        // file to open, a last chunk of just a tag).
        let last_inside = bytes <= nchunks * cs && bytes >= nchunks.saturating_sub(1) * cs;
        if nchunks == 0 || nchunks > self.max_chunks || !last_inside {
            return Err(GpuAeadError::BufferTooShort { need: nchunks.saturating_mul(cs), got: self.max_chunks * cs });
        }
        let nbits = nchunks * self.rounds;
        if key_bits.len() < nbits {
            return Err(GpuError::Internal("fewer chunk key bits than chunks").into());
        }
        let stream = self.stream.clone();
        let n = (bytes / 16) as u64;
        let whole = n as usize * 16;
        {
            let host = self.staging.as_slice().map_err(GpuError::driver("pinned memory"))?;
            if whole > 0 {
                stream
                    .memcpy_htod(&host[..whole], &mut self.data.slice_mut(..whole))
                    .map_err(GpuError::driver("copying to the GPU"))?;
            }
        }
        stream
            .memcpy_htod(&key_bits[..nbits], &mut self.key_bits.slice_mut(..nbits))
            .map_err(GpuError::driver("copying the chunk keys to the GPU"))?;
        stream.memset_zeros(&mut self.sums).map_err(GpuError::driver("clearing the sums"))?;
        let entries = (nbits * 64) as u64;
        let cfg = one_thread_per_item(entries)?;
        let (rounds, nch) = (self.rounds as i32, nchunks as u64);
        let reverse = i32::from(op == AeadOp::Decrypt);
        {
            let (tp, _s1) = self.table.device_ptr_mut(&stream);
            let (kp, _s2) = self.key_bits.device_ptr(&stream);
            let mut b = stream.launch_builder(&self.expand);
            b.arg(&tp).arg(&kp).arg(&nch).arg(&rounds).arg(&reverse);
            // SAFETY: the arguments match aead_expand_masks(table, bits,
            // nchunks, rounds, reverse); the table holds max_chunks * rounds *
            // 64 >= entries words, the key bits max_chunks * rounds >= nbits.
            unsafe { b.launch(cfg) }.map_err(GpuError::driver("AEAD mask launch"))?;
        }
        if n > 0 {
            let nwarps = n.div_ceil(WARP_BLOCKS);
            let cfg = bitsliced_warps(nwarps)?;
            let warps_log2 = (self.chunk_log2 - u32::from(MIN_CHUNK_LOG2)) as i32;
            let (dp, _s1) = self.data.device_ptr_mut(&stream);
            let (cp, _s2) = self.counters.device_ptr(&stream);
            let (tp, _s3) = self.table.device_ptr(&stream);
            let (sp, _s4) = self.sums.device_ptr_mut(&stream);
            let mut b = stream.launch_builder(func);
            b.arg(&dp).arg(&dp).arg(&n).arg(&cp).arg(&warps_log2).arg(&tp).arg(&sp).arg(&rounds);
            // SAFETY: the arguments match aead_*_{enc,dec}_chunks(in, out, n,
            // counters, warps_log2, table, sums, rounds); in place (each block
            // read, then written, by one thread); the n blocks lie in the data
            // buffer (bytes <= max_chunks << chunk_log2); the warps of
            // n.div_ceil(1024) serve chunks < nchunks, whose table rows (written
            // by the launch before on this stream) and sum slots exist; the
            // counters hold 2^warps_log2 entries.
            unsafe { b.launch(cfg) }.map_err(GpuError::driver("AEAD chunk kernel launch"))?;
        }
        {
            let host = self.staging.as_mut_slice().map_err(GpuError::driver("pinned memory"))?;
            if whole > 0 {
                stream
                    .memcpy_dtoh(&self.data.slice(..whole), &mut host[..whole])
                    .map_err(GpuError::driver("copying from the GPU"))?;
            }
        }
        let words = Zeroizing::new(
            stream.clone_dtoh(&self.sums.slice(..nchunks * 4)).map_err(GpuError::driver("reading the sums"))?,
        );
        stream.synchronize().map_err(GpuError::driver("AEAD chunk run"))?;
        let mut out = Zeroizing::new(vec![[0u8; 16]; nchunks]);
        for (o, w) in out.iter_mut().zip(words.chunks_exact(4)) {
            for (b, x) in o.chunks_exact_mut(4).zip(w) {
                b.copy_from_slice(&x.to_le_bytes());
            }
        }
        Ok(out)
    }
}

impl Drop for AeadChunks {
    fn drop(&mut self) {
        // Plaintext and key material: overwritten before the memory goes back.
        let _ = self.stream.memset_zeros(&mut self.data);
        let _ = self.stream.memset_zeros(&mut self.key_bits);
        let _ = self.stream.memset_zeros(&mut self.table);
        let _ = self.stream.memset_zeros(&mut self.sums);
        let _ = self.stream.synchronize();
        if let Ok(host) = self.staging.as_mut_slice() {
            zeroize::Zeroize::zeroize(host);
        }
    }
}
