//! SKINNY-AEAD's parallel part on the GPU (`kernels/aead.cu`): runs of whole
//! blocks that share everything in their tweakey but the block counter (one
//! domain of one message), encrypted, decrypted or authenticated in one launch
//! per 2^26 blocks, with the XOR of the run's plaintext (or, to authenticate,
//! of its encrypted blocks) summed on the device.
//!
//! [`AeadChunks`] runs many messages in one launch instead: the sealed file
//! format's chunks, each with its own nonce (so its own masks, in a device
//! table), its counter restarting at the LFSR's start and its own sum.
//!
//! The mode around it (partial blocks, the tag block, the order of domains)
//! stays on the host, in `skinny-aead`; this module knows only SKINNY, the
//! tweakey layout's counter cells and the LFSR that counts blocks. The counter
//! values are public; the masks (key, nonce) are secret and wiped from the
//! device when the kernel is dropped.

use crate::cipher::upload;
use crate::constants::{bitsliced_masks, bitsliced_masks_reversed, Symbol};
use crate::device::Gpu;
use crate::kernels::{AEAD, BITSLICED_THREADS};
use crate::GpuError;
use cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig, PinnedHostSlice,
    PushKernelArg,
};
use skinny::{Skinny, Variant};
use std::sync::Arc;

/// Which SKINNY-AEAD block counter, and so which kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AeadCounter {
    /// M1-M4: SKINNY-128-384, a 64-bit LFSR in TK1 cells 0..8.
    Lfsr64,
    /// M5-M6: SKINNY-128-256, a 24-bit LFSR in TK1 cells 0..3.
    Lfsr24,
}

impl AeadCounter {
    /// The LFSR's width in bits.
    pub const fn bits(self) -> u32 {
        match self {
            AeadCounter::Lfsr64 => 64,
            AeadCounter::Lfsr24 => 24,
        }
    }

    /// The SKINNY variant the members with this counter run.
    pub const fn variant(self) -> Variant {
        match self {
            AeadCounter::Lfsr64 => Variant::Skinny128_384,
            AeadCounter::Lfsr24 => Variant::Skinny128_256,
        }
    }

    /// TK1 bytes that hold the counter (little-endian).
    pub const fn counter_bytes(self) -> usize {
        match self {
            AeadCounter::Lfsr64 => 8,
            AeadCounter::Lfsr24 => 3,
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            AeadCounter::Lfsr64 => "aead_m1",
            AeadCounter::Lfsr24 => "aead_m5",
        }
    }
}

/// What a launch does with its blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AeadOp {
    /// Output = E(input); the sum is over the input (the plaintext).
    Encrypt,
    /// Output = D(input); the sum is over the output (the plaintext).
    Decrypt,
    /// No output; the sum is over E(input) (associated data).
    Authenticate,
}

impl AeadOp {
    /// In declaration order, so `ALL[op.index()] == op`.
    const ALL: [AeadOp; 3] = [AeadOp::Encrypt, AeadOp::Decrypt, AeadOp::Authenticate];

    /// Position in [`AeadOp::ALL`] (and in the kernel's function list).
    fn index(self) -> usize {
        self as usize
    }

    fn suffix(self) -> &'static str {
        match self {
            AeadOp::Encrypt => "enc",
            AeadOp::Decrypt => "dec",
            AeadOp::Authenticate => "auth",
        }
    }
}

/// The entry point of `op` for `counter` (a test checks them against the source).
pub fn aead_entry_point(counter: AeadCounter, op: AeadOp) -> String {
    format!("{}_{}", counter.prefix(), op.suffix())
}

/// The chunk kernel's entry point of `op` (encrypt or decrypt) for `counter`.
pub fn aead_chunks_entry_point(counter: AeadCounter, op: AeadOp) -> String {
    format!("{}_{}_chunks", counter.prefix(), op.suffix())
}

/// The per-warp counter kernel's entry point for `counter`.
pub fn aead_counters_entry_point(counter: AeadCounter) -> String {
    format!("{}_counters", counter.prefix())
}

/// The counter one LFSR step (multiplication by x) after `c`, modulo
/// x^bits + x^4 + x^3 + x + 1.
pub fn lfsr_step(bits: u32, c: u64) -> u64 {
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    let top = (c >> (bits - 1)) & 1;
    ((c << 1) & mask) ^ (0x1b * top)
}

/// `a · b` modulo the LFSR's polynomial (public values: branches are fine).
pub fn lfsr_mul(bits: u32, mut a: u64, b: u64) -> u64 {
    let mut r = 0;
    for i in 0..bits {
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
        a = lfsr_step(bits, a);
    }
    r
}

/// `c · x^e`: the counter `e` steps after `c`, by squaring and multiplying.
pub fn lfsr_advance(bits: u32, c: u64, mut e: u64) -> u64 {
    let (mut result, mut power) = (c, 2u64); // power = x^(2^i)
    while e > 0 {
        if e & 1 == 1 {
            result = lfsr_mul(bits, result, power);
        }
        power = lfsr_mul(bits, power, power);
        e >>= 1;
    }
    result
}

/// `step^k` for k < 256: the kernel's power tables (`step` = x^1024 for
/// `pow_lo`, x^(1024 * 256) for `pow_hi`).
pub fn power_table(bits: u32, step: u64) -> Vec<u64> {
    let mut t = Vec::with_capacity(256);
    let mut x = 1u64;
    for _ in 0..256 {
        t.push(x);
        x = lfsr_mul(bits, x, step);
    }
    t
}

/// Blocks a warp handles (32 lanes x 32 blocks).
const WARP_BLOCKS: u64 = 1024;
/// The most blocks of one launch: 2^16 warps, as far as the kernel's two
/// 256-entry power tables reach (1 GiB).
pub const AEAD_LAUNCH_BLOCKS: u64 = 1 << 26;
/// Slots of partial sums (`SUM_SLOTS` in the source).
const SUM_SLOTS: usize = 1024;

/// The smallest chunk [`AeadChunks`] takes, as a power of two (16 KiB): one
/// warp's 1024 blocks.
pub const MIN_CHUNK_LOG2: u32 = 14;
/// The largest chunk [`AeadChunks`] takes, as a power of two (16 MiB, the
/// sealed format's largest): 1024 warps.
pub const MAX_CHUNK_LOG2: u32 = 24;

/// `round_key_bits` of every round of `cipher` (the chunk kernels' key
/// material for one chunk: bit `8c + b` of entry `r` is bit `b` of cell `c` of
/// round `r`'s tweakey with its row-0/1 constants), into `out[..rounds]`.
/// `cipher` is the chunk's tweakey with its counter cells zero.
///
/// # Panics
/// If `out` is shorter than the cipher's rounds.
pub fn chunk_key_bits(cipher: &Skinny, out: &mut [u64]) {
    let rtk = skinny::hazmat::round_tweakeys(cipher);
    for (r, o) in out[..cipher.rounds()].iter_mut().enumerate() {
        *o = skinny::hazmat::bitsliced::round_key_bits(rtk, r);
    }
}

/// The counters of the warps of a chunk, by position: `start · x^(1024 k)` for
/// `k < 2^(chunk_log2 - 14)`.
pub fn chunk_counters(bits: u32, start: u64, chunk_log2: u32) -> Vec<u64> {
    let warps = 1u64 << chunk_log2.saturating_sub(MIN_CHUNK_LOG2);
    let step = lfsr_advance(bits, 1, WARP_BLOCKS);
    let mut c = start;
    (0..warps)
        .map(|_| {
            let now = c;
            c = lfsr_mul(bits, c, step);
            now
        })
        .collect()
}

/// The GPU side of the sealed format: many messages (chunks of `2^chunk_log2`
/// bytes, 16 KiB to 16 MiB) encrypted or decrypted in one launch, each under
/// its own masks, counter and sum. The host fills a page-locked staging area
/// ([`AeadChunks::staging`]: chunk `c` at byte `c << chunk_log2`), then
/// [`AeadChunks::run`] copies it to the device, runs the chunks, and copies the
/// result back into it.
///
/// The staging area and the device buffers hold plaintext and key material:
/// all are overwritten with zeros when the value is dropped.
pub struct AeadChunks {
    gpu: Arc<Gpu>,
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
    /// [`GpuError::AeadChunkSize`] for chunks under 16 KiB or over 16 MiB;
    /// compilation, loading or allocation failed.
    pub fn new(
        gpu: &Arc<Gpu>,
        counter: AeadCounter,
        chunk_log2: u32,
        max_chunks: usize,
        start: u64,
    ) -> Result<Self, GpuError> {
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(GpuError::AeadChunkSize { chunk_log2 });
        }
        let max_chunks = max_chunks.max(1);
        let bytes = max_chunks.checked_shl(chunk_log2).ok_or(GpuError::LaunchTooLarge)?;
        let rounds = counter.variant().rounds();
        let module = gpu.load_module(&AEAD)?;
        let stream = gpu.new_stream()?;
        let load = |name: &str| module.load_function(name).map_err(GpuError::driver("loading a kernel"));
        let enc = load(&aead_chunks_entry_point(counter, AeadOp::Encrypt))?;
        let dec = load(&aead_chunks_entry_point(counter, AeadOp::Decrypt))?;
        let expand = load("aead_expand_masks")?;
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
            .clone_htod(&chunk_counters(counter.bits(), start, chunk_log2))
            .map_err(GpuError::driver("uploading the chunk counters"))?;
        let sums = stream.alloc_zeros::<u32>(max_chunks * 4).map_err(&alloc)?;
        Ok(Self {
            gpu: gpu.clone(),
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

    /// The GPU.
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// The chunk size, as a power of two.
    pub fn chunk_log2(&self) -> u32 {
        self.chunk_log2
    }

    /// The most chunks a run takes.
    pub fn max_chunks(&self) -> usize {
        self.max_chunks
    }

    /// Key bits a chunk ([`chunk_key_bits`]): the variant's rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The page-locked staging area: `max_chunks << chunk_log2` bytes, chunk
    /// `c` at `c << chunk_log2`. Fill it before [`AeadChunks::run`]; read the
    /// results from it after.
    ///
    /// # Errors
    /// The driver failed.
    pub fn staging(&mut self) -> Result<&mut [u8], GpuError> {
        self.staging.as_mut_slice().map_err(GpuError::driver("pinned memory"))
    }

    /// Encrypts or decrypts (`op`; [`AeadOp::Authenticate`] is refused) the
    /// whole blocks of `nchunks` chunks in the staging area in place: chunk
    /// `c` under the masks of `key_bits[c * rounds..][..rounds]` (see
    /// [`chunk_key_bits`]), its blocks under the counters `start · x^g`. All
    /// chunks but the last are whole; the last ends at byte `bytes` of the
    /// staging area, possibly where it starts (its partial block, if any, is
    /// left as it is). Returns
    /// each chunk's sum (the XOR of its plaintext blocks; zero for a chunk
    /// without a whole block). Waits for the GPU.
    ///
    /// # Errors
    /// Too many chunks, `bytes` outside the last chunk, short key bits, a
    /// copy or launch failure.
    pub fn run(
        &mut self,
        op: AeadOp,
        key_bits: &[u64],
        nchunks: usize,
        bytes: usize,
    ) -> Result<zeroize::Zeroizing<Vec<[u8; 16]>>, GpuError> {
        let func = match op {
            AeadOp::Encrypt => &self.enc,
            AeadOp::Decrypt => &self.dec,
            AeadOp::Authenticate => return Err(GpuError::Internal("the chunk kernels encrypt or decrypt only")),
        };
        let cs = 1usize << self.chunk_log2;
        // Every chunk but the last whole; the last may be empty (in a damaged
        // file to open, a last chunk of just a tag).
        let last_inside = bytes <= nchunks * cs && bytes >= nchunks.saturating_sub(1) * cs;
        if nchunks == 0 || nchunks > self.max_chunks || !last_inside {
            return Err(GpuError::AeadBufferTooShort { need: nchunks.saturating_mul(cs), got: self.max_chunks * cs });
        }
        let nbits = nchunks * self.rounds;
        if key_bits.len() < nbits {
            return Err(GpuError::Internal("fewer chunk key bits than chunks"));
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
        let cfg = one_per_thread(entries)?;
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
            let cfg = warps_of_blocks(nwarps)?;
            let warps_log2 = (self.chunk_log2 - MIN_CHUNK_LOG2) as i32;
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
        let words = zeroize::Zeroizing::new(
            stream.clone_dtoh(&self.sums.slice(..nchunks * 4)).map_err(GpuError::driver("reading the sums"))?,
        );
        stream.synchronize().map_err(GpuError::driver("AEAD chunk run"))?;
        let mut out = zeroize::Zeroizing::new(vec![[0u8; 16]; nchunks]);
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

/// A launch of one thread per item (`items` of them), 256 threads a block:
/// the small kernels (counters, masks).
fn one_per_thread(items: u64) -> Result<LaunchConfig, GpuError> {
    let threads = 256u32;
    let grid = u32::try_from(items.div_ceil(u64::from(threads))).map_err(|_| GpuError::LaunchTooLarge)?;
    Ok(LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 })
}

/// A launch of `nwarps` warps of the AEAD kernels, in blocks of
/// `BITSLICED_THREADS` threads.
fn warps_of_blocks(nwarps: u64) -> Result<LaunchConfig, GpuError> {
    let warps_per_block = u64::from(BITSLICED_THREADS / 32);
    let grid = u32::try_from(nwarps.div_ceil(warps_per_block)).map_err(|_| GpuError::LaunchTooLarge)?;
    Ok(LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (BITSLICED_THREADS, 1, 1), shared_mem_bytes: 0 })
}

/// The GPU side of SKINNY-AEAD for one message at a time: its module (with the
/// masks in `__constant__` memory), stream and scratch buffers.
pub struct AeadKernel {
    gpu: Arc<Gpu>,
    counter: AeadCounter,
    rounds: i32,
    stream: Arc<CudaStream>,
    module: Arc<CudaModule>,
    funcs: Vec<CudaFunction>,
    counters_fn: CudaFunction,
    pow_lo: CudaSlice<u64>,
    pow_hi: CudaSlice<u64>,
    warp_counters: CudaSlice<u64>,
    sums: CudaSlice<u32>,
    masks_loaded: bool,
}

impl AeadKernel {
    /// Loads the kernels for `counter`'s members on `gpu`.
    ///
    /// # Errors
    /// Compilation, loading or allocation failed.
    pub fn new(gpu: &Arc<Gpu>, counter: AeadCounter) -> Result<Self, GpuError> {
        let module = gpu.load_module(&AEAD)?;
        let stream = gpu.new_stream()?;
        let load = |name: String| module.load_function(&name).map_err(GpuError::driver("loading a kernel"));
        let funcs = AeadOp::ALL.iter().map(|&op| load(aead_entry_point(counter, op))).collect::<Result<_, _>>()?;
        let counters_fn = load(aead_counters_entry_point(counter))?;
        let bits = counter.bits();
        // x^(1024 k) and x^(1024 * 256 * k) for k < 256.
        let x1024 = lfsr_advance(bits, 1, WARP_BLOCKS);
        let x262144 = lfsr_advance(bits, 1, WARP_BLOCKS * 256);
        let table = |step: u64| power_table(bits, step);
        let pow_lo = stream.clone_htod(&table(x1024)).map_err(GpuError::driver("uploading the counter tables"))?;
        let pow_hi = stream.clone_htod(&table(x262144)).map_err(GpuError::driver("uploading the counter tables"))?;
        let warp_counters = stream
            .alloc_zeros::<u64>((AEAD_LAUNCH_BLOCKS / WARP_BLOCKS) as usize)
            .map_err(GpuError::driver("allocating the counter buffer"))?;
        let sums = stream.alloc_zeros::<u32>(SUM_SLOTS * 4).map_err(GpuError::driver("allocating the sums"))?;
        // The decryption kernel pairs the rounds (odd, then even with the
        // counter): both AEAD variants have an even count (56, 48).
        debug_assert!(counter.variant().rounds().is_multiple_of(2), "aead.cu decrypts an even number of rounds");
        Ok(Self {
            gpu: gpu.clone(),
            counter,
            rounds: counter.variant().rounds() as i32,
            stream,
            module,
            funcs,
            counters_fn,
            pow_lo,
            pow_hi,
            warp_counters,
            sums,
            masks_loaded: false,
        })
    }

    /// The GPU (its context allocates the buffers [`AeadKernel::run_device`] takes).
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// The counter, and so the members, this kernel serves.
    pub fn counter(&self) -> AeadCounter {
        self.counter
    }

    /// The stream the launches run on.
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Sets what the next runs share: `tweakey` is a whole tweakey of the
    /// counter's variant (TK1 ‖ TK2 [‖ TK3]) whose counter cells are ignored
    /// (the domain byte, the nonce and the key are taken as they are).
    ///
    /// # Errors
    /// A tweakey of the wrong length; an upload failure.
    pub fn set_tweakey(&mut self, tweakey: &[u8]) -> Result<(), GpuError> {
        let variant = self.counter.variant();
        let mut tk = zeroize::Zeroizing::new(tweakey.to_vec());
        if tk.len() != variant.tweakey_bytes() {
            return Err(GpuError::AeadTweakeyLength { need: variant.tweakey_bytes(), got: tk.len() });
        }
        tk[..self.counter.counter_bytes()].fill(0);
        let cipher = Skinny::new(variant, &tk)
            .map_err(|_| GpuError::AeadTweakeyLength { need: variant.tweakey_bytes(), got: tweakey.len() })?;
        let fwd = bitsliced_masks(&cipher);
        let rev = bitsliced_masks_reversed(&cipher);
        upload(
            &self.module,
            &self.stream,
            &[Symbol { name: "aead_masks", words: fwd.words }, Symbol { name: "aead_masks_rev", words: rev.words }],
        )?;
        self.masks_loaded = true;
        Ok(())
    }

    /// Runs `op` over `nblocks` 16-byte blocks of `input` into `output`
    /// (device buffers of this kernel's GPU; the same buffer for in place, see
    /// [`AeadKernel::run_device_in_place`]), block `g` under the counter
    /// `start · x^g`, and returns the run's sum (see [`AeadOp`]). Waits for the
    /// GPU.
    ///
    /// # Errors
    /// No tweakey set, buffers too short, a launch or copy failure.
    pub fn run_device(
        &mut self,
        op: AeadOp,
        start: u64,
        input: &CudaSlice<u8>,
        output: &mut CudaSlice<u8>,
        nblocks: u64,
    ) -> Result<[u8; 16], GpuError> {
        self.check(nblocks, input.len().min(output.len()))?;
        let stream = self.stream.clone();
        let (ip, _si) = input.device_ptr(&stream);
        let (opp, _so) = output.device_ptr_mut(&stream);
        self.run_ptrs(op, start, ip, opp, nblocks)
    }

    /// [`AeadKernel::run_device`] in place: each block is read, then written,
    /// by the one thread that owns it.
    ///
    /// # Errors
    /// As [`AeadKernel::run_device`].
    pub fn run_device_in_place(
        &mut self,
        op: AeadOp,
        start: u64,
        data: &mut CudaSlice<u8>,
        nblocks: u64,
    ) -> Result<[u8; 16], GpuError> {
        self.check(nblocks, data.len())?;
        let stream = self.stream.clone();
        let (p, _s) = data.device_ptr_mut(&stream);
        self.run_ptrs(op, start, p, p, nblocks)
    }

    fn check(&self, nblocks: u64, len: usize) -> Result<(), GpuError> {
        if !self.masks_loaded {
            return Err(GpuError::AeadNoTweakey);
        }
        let need = nblocks.checked_mul(16).and_then(|b| usize::try_from(b).ok()).ok_or(GpuError::LaunchTooLarge)?;
        if len < need {
            return Err(GpuError::AeadBufferTooShort { need, got: len });
        }
        Ok(())
    }

    fn run_ptrs(
        &mut self,
        op: AeadOp,
        start: u64,
        input: u64,
        output: u64,
        nblocks: u64,
    ) -> Result<[u8; 16], GpuError> {
        let stream = self.stream.clone();
        stream.memset_zeros(&mut self.sums).map_err(GpuError::driver("clearing the sums"))?;
        let bits = self.counter.bits();
        let mut done = 0u64;
        while done < nblocks {
            let n = (nblocks - done).min(AEAD_LAUNCH_BLOCKS);
            let first = lfsr_advance(bits, start, done);
            let nwarps = n.div_ceil(WARP_BLOCKS);
            let cfg = one_per_thread(nwarps)?;
            {
                let (wc, _s1) = self.warp_counters.device_ptr_mut(&stream);
                let (lo, _s2) = self.pow_lo.device_ptr(&stream);
                let (hi, _s3) = self.pow_hi.device_ptr(&stream);
                let mut b = stream.launch_builder(&self.counters_fn);
                b.arg(&wc).arg(&nwarps).arg(&first).arg(&lo).arg(&hi);
                // SAFETY: the arguments match aead_*_counters(counters, nwarps,
                // start, pow_lo, pow_hi); the buffer holds 2^16 >= nwarps words
                // and the tables 256 each.
                unsafe { b.launch(cfg) }.map_err(GpuError::driver("AEAD counter launch"))?;
            }
            let cfg = warps_of_blocks(nwarps)?;
            let (ip, op_ptr) = (input + done * 16, output + done * 16);
            let (wc, _s1) = self.warp_counters.device_ptr(&stream);
            let (sums, _s2) = self.sums.device_ptr_mut(&stream);
            let f = &self.funcs[op.index()];
            let mut b = stream.launch_builder(f);
            b.arg(&ip).arg(&op_ptr).arg(&n).arg(&wc).arg(&sums).arg(&self.rounds);
            // SAFETY: the arguments match aead_*_{enc,dec,auth}(in, out, n,
            // counters, sums, rounds); the caller's buffers hold `nblocks`
            // blocks from `input`/`output` (checked), so blocks done..done+n
            // are in range; the counters of the n.div_ceil(1024) warps were
            // written by the launch before on the same stream.
            unsafe { b.launch(cfg) }.map_err(GpuError::driver("AEAD kernel launch"))?;
            done += n;
        }
        let words = stream.clone_dtoh(&self.sums).map_err(GpuError::driver("reading the sums"))?;
        let mut out = [0u8; 16];
        for slot in words.chunks_exact(4) {
            for (o, w) in out.chunks_exact_mut(4).zip(slot) {
                for (a, b) in o.iter_mut().zip(w.to_le_bytes()) {
                    *a ^= b;
                }
            }
        }
        Ok(out)
    }
}

impl Drop for AeadKernel {
    fn drop(&mut self) {
        // Wipe the masks (key, nonce) from the device before the module goes.
        for name in ["aead_masks", "aead_masks_rev"] {
            if let Ok(mut view) = self.module.get_global(name, &self.stream) {
                let _ = self.stream.memset_zeros(&mut view);
            }
        }
        let _ = self.stream.synchronize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_is_stepping() {
        for bits in [64, 24] {
            let mut c = 1u64;
            for e in 0..300u64 {
                assert_eq!(lfsr_advance(bits, 1, e), c, "{bits}-bit, x^{e}");
                c = lfsr_step(bits, c);
            }
            let start = 0x1234_5678_9abc_def0 & if bits == 64 { u64::MAX } else { (1 << 24) - 1 };
            let mut c = start;
            for e in 0..100u64 {
                assert_eq!(lfsr_advance(bits, start, e), c);
                c = lfsr_step(bits, c);
            }
        }
    }

    #[test]
    fn chunk_counters_step_by_a_warp() {
        for bits in [64, 24] {
            let c = chunk_counters(bits, 1, 16);
            assert_eq!(c.len(), 4);
            for (k, &x) in c.iter().enumerate() {
                assert_eq!(x, lfsr_advance(bits, 1, 1024 * k as u64));
            }
            assert_eq!(chunk_counters(bits, 1, 24).len(), 1024);
            assert_eq!(chunk_counters(bits, 1, 14), vec![1]);
        }
    }

    #[test]
    fn entry_points_are_in_the_source() {
        for counter in [AeadCounter::Lfsr64, AeadCounter::Lfsr24] {
            for op in AeadOp::ALL {
                assert!(AEAD.text.contains(&format!("AEAD_ENTRY({},", aead_entry_point(counter, op))));
            }
            assert!(AEAD.text.contains(&format!("AEAD_COUNTERS({},", aead_counters_entry_point(counter))));
            for op in [AeadOp::Encrypt, AeadOp::Decrypt] {
                assert!(AEAD.text.contains(&format!("AEAD_CHUNKS_ENTRY({},", aead_chunks_entry_point(counter, op))));
            }
        }
    }
}
