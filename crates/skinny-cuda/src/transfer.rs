//! How host memory reaches the device and back for [`GpuCipher::run`]: piece
//! by piece from pageable memory, staged through pinned slots, page-locked in
//! place, or straight from memory that is page-locked already.

use crate::cipher::{block_words, counter_plus, GpuCipher};
use crate::device::Gpu;
use crate::kernels::{launch_config, KernelKind, Op, WARP_BYTES};
use crate::GpuError;
use cudarc::driver::{sys, CudaEvent, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PinnedHostSlice, PushKernelArg};
use std::ops::Range;
use std::sync::Arc;
use zeroize::Zeroizing;

/// How [`GpuCipher::run`] moves host data to and from the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum HostPath {
    /// The fastest for the memory and the size: memory that is page-locked
    /// already ([`Gpu::alloc_host`]) is copied straight to and from, at the
    /// link's speed; pageable memory goes [`HostPath::Staged`] from a few MiB
    /// on, [`HostPath::Pageable`] below.
    #[default]
    Auto,
    /// Plain copies from and to the caller's (pageable) memory, one piece at a
    /// time: the simplest path, and the paper's.
    Pageable,
    /// Through two slots of pinned staging memory, host copies overlapped with
    /// the device's work.
    Staged,
    /// The caller's memory page-locked in place (`cuMemHostRegister`) for the
    /// call, piece by piece on worker threads, and pieces over several streams
    /// copied straight to and from it: no host copy at all. On the H200 machine
    /// page-locking runs at about 16 GB/s and makes this slower than
    /// [`HostPath::Staged`] (docs/data-path.md); it may pay where page-locking
    /// is cheaper.
    Registered,
    /// CTR only (other operations go [`HostPath::Staged`]): the GPU makes the
    /// keystream (the counters' encryptions, no data sent to it), copies it
    /// into two slots of pinned memory in turn, and host threads XOR it into
    /// the caller's memory while the GPU makes the next piece. Host memory
    /// moves 4 bytes per byte (the keystream's copy, then the data read, the
    /// keystream read and the data written) against staging's 6 (two host
    /// copies of 2 each, the two device copies 1 each); host memory bandwidth
    /// is what limits pageable calls on the H200 machine. What [`HostPath::Auto`]
    /// takes for CTR on pageable memory.
    Keystream,
}

/// One stream of the registered path with its device buffers.
pub(crate) struct Lane {
    stream: Arc<CudaStream>,
    input: CudaSlice<u8>,
    output: CudaSlice<u8>,
}

/// Streams of the registered path: enough for copies in both directions and a
/// kernel to be in flight at once, with one to spare.
const LANES: usize = 4;

/// Double-buffered transfers: while one slot's piece is copied to the GPU,
/// run and copied back on its stream, the host fills or empties the other slot.
pub(crate) struct Pipeline {
    slots: [Slot; 2],
}

pub(crate) struct Slot {
    stream: Arc<CudaStream>,
    pinned: PinnedHostSlice<u8>,
    input: CudaSlice<u8>,
    output: CudaSlice<u8>,
}

impl Slot {
    /// Queues the copy of the output's first `n` bytes into the pinned memory.
    fn queue_copy_back(&mut self, n: usize) -> Result<(), GpuError> {
        let host = self.pinned.as_mut_slice().map_err(GpuError::driver("pinned memory"))?;
        self.stream.memcpy_dtoh(&self.output.slice(..n), &mut host[..n]).map_err(GpuError::driver("copy from GPU"))
    }
}

impl Drop for Slot {
    /// The slots held the caller's data and, on the keystream path, keystream:
    /// wiped on the host and the device before the memory goes back (as the
    /// AEAD engine's staging). Failures are ignored: nothing is left to do.
    fn drop(&mut self) {
        let _ = self.stream.memset_zeros(&mut self.input);
        let _ = self.stream.memset_zeros(&mut self.output);
        if let Ok(host) = self.pinned.as_mut_slice() {
            zeroize::Zeroize::zeroize(host);
        }
        let _ = self.stream.synchronize();
    }
}

/// Inputs at least this long (or longer than one piece) go through the
/// pinned, double-buffered path.
const PIPELINE_MIN_BYTES: usize = 4 << 20;

/// `op(dst, src)` over matching parts of the two on up to 8 threads: one
/// thread moves pageable memory at a fraction of what the PCIe link carries.
fn in_parallel(dst: &mut [u8], src: &[u8], op: fn(&mut [u8], &[u8])) {
    const CHUNK: usize = 4 << 20;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if src.len() <= CHUNK || threads == 1 {
        op(dst, src);
        return;
    }
    let per = src.len().div_ceil(threads).div_ceil(4096) * 4096;
    std::thread::scope(|sc| {
        for (d, s) in dst.chunks_mut(per).zip(src.chunks(per)) {
            sc.spawn(move || op(d, s));
        }
    });
}

/// `dst = src` on several threads.
fn parallel_copy(dst: &mut [u8], src: &[u8]) {
    in_parallel(dst, src, <[u8]>::copy_from_slice);
}

/// `dst ^= src` on several threads.
fn parallel_xor(dst: &mut [u8], src: &[u8]) {
    in_parallel(dst, src, |d, s| {
        // Eight bytes at a time; the compiler vectorises the loop.
        let (d8, d_tail) = d.as_chunks_mut::<8>();
        let (s8, s_tail) = s.as_chunks::<8>();
        for (a, b) in d8.iter_mut().zip(s8) {
            *a = (u64::from_ne_bytes(*a) ^ u64::from_ne_bytes(*b)).to_ne_bytes();
        }
        for (a, b) in d_tail.iter_mut().zip(s_tail) {
            *a ^= b;
        }
    });
}

/// Why the registered path did not run.
enum RegisterError {
    /// The driver would not page-lock this memory: another path can still run.
    Refused,
    /// A device failure.
    Gpu(GpuError),
}

impl From<GpuError> for RegisterError {
    fn from(e: GpuError) -> Self {
        RegisterError::Gpu(e)
    }
}

/// Page-locking threads of the registered path at most.
const LOCKERS: usize = 8;

/// The kernels of a call's pieces, one after the other although the pieces
/// travel on several streams: each piece's kernel waits for the event the
/// previous piece's kernel recorded (its copies still overlap the kernels).
///
/// Only for the paper's T-table kernel: it looks its tables up in
/// `__constant__` memory with indices that differ from thread to thread, and
/// launches of it that run at once on different streams took 2.3 times as
/// long as the same launches one after the other (run 43 on the H200: 8 MiB
/// in four quarters, 22.8 against 9.9 ms; the bitsliced kernels gain from
/// running at once).
struct KernelOrder {
    on: bool,
    last: Option<CudaEvent>,
}

impl KernelOrder {
    fn new(kind: KernelKind) -> Self {
        Self { on: kind == KernelKind::Paper, last: None }
    }

    /// Before a piece's kernel on `stream`.
    fn before(&self, stream: &CudaStream) -> Result<(), GpuError> {
        match &self.last {
            Some(e) if self.on => stream.wait(e).map_err(GpuError::driver("ordering the kernels")),
            _ => Ok(()),
        }
    }

    /// After a piece's kernel was queued on `stream`.
    fn after(&mut self, stream: &CudaStream) -> Result<(), GpuError> {
        if self.on {
            self.last = Some(stream.record_event(None).map_err(GpuError::driver("ordering the kernels"))?);
        }
        Ok(())
    }
}

/// A host address handed to page-locking threads.
struct SendPtr(*mut u8);

// SAFETY: only the address travels; every access through it is ordered by the
// registered path (locking before copies, synchronization before unlocking).
unsafe impl Sync for SendPtr {}

/// Part of the caller's memory page-locked for the device (`cuMemHostRegister`)
/// until this is dropped.
struct Registration {
    gpu: Arc<Gpu>,
    ptr: *mut u8,
}

// SAFETY: a registration is an address and a context; the driver's calls on
// it are thread-safe, and it is dropped only after the copies using it ended.
unsafe impl Send for Registration {}

impl Registration {
    /// Page-locks `len` bytes at `ptr`.
    ///
    /// # Safety
    /// `ptr..ptr + len` is valid memory that outlives the registration.
    unsafe fn new(gpu: &Arc<Gpu>, ptr: *mut u8, len: usize) -> Result<Self, RegisterError> {
        gpu.context().bind_to_thread().map_err(GpuError::driver("binding the context"))?;
        // SAFETY: as the caller promised.
        unsafe { sys::cuMemHostRegister_v2(ptr.cast(), len, 0) }.result().map_err(|_| RegisterError::Refused)?;
        Ok(Self { gpu: gpu.clone(), ptr })
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        let _ = self.gpu.context().bind_to_thread();
        // SAFETY: registered in `new`, no copy in flight (the streams were
        // synchronized before the drop).
        let _ = unsafe { sys::cuMemHostUnregister(self.ptr.cast()) };
    }
}

impl GpuCipher {
    fn ensure_buffers(&mut self, bytes: usize) -> Result<(), GpuError> {
        if self.bufs.as_ref().is_some_and(|(i, _)| i.len() >= bytes) {
            return Ok(());
        }
        self.bufs = None;
        // SAFETY: the buffers are written before they are read.
        let input =
            unsafe { self.stream.alloc::<u8>(bytes) }.map_err(GpuError::driver("allocating the input buffer"))?;
        let output =
            unsafe { self.stream.alloc::<u8>(bytes) }.map_err(GpuError::driver("allocating the output buffer"))?;
        self.bufs = Some((input, output));
        Ok(())
    }

    /// Runs `op` in place over `data`. `iv` is the counter (CTR), the block before
    /// the first (CBC, CFB) or ignored (ECB). `data` is whole blocks except for CTR,
    /// where the last block may be partial. Any alignment.
    ///
    /// # Errors
    /// Device errors (out of memory, kernel failure), or data not whole blocks.
    pub fn run(&mut self, op: Op, iv: &[u8], data: &mut [u8]) -> Result<(), GpuError> {
        let bs = self.block;
        if op != Op::Ctr && !data.len().is_multiple_of(bs) {
            return Err(GpuError::NotWholeBlocks { op, block: bs, len: data.len() });
        }
        if op != Op::EcbEncrypt && op != Op::EcbDecrypt && iv.len() != bs {
            return Err(GpuError::IvLength { op, block: bs, got: iv.len() });
        }
        let chain: Zeroizing<Vec<u8>> = Zeroizing::new(if iv.len() == bs { iv.to_vec() } else { vec![0; bs] });
        let len = data.len();
        // Memory page-locked already (from Gpu::alloc_host, say) needs no
        // staging: the copies go straight to and from it at the link's speed.
        let locked = len >= PIPELINE_MIN_BYTES && matches!(self.host_path, HostPath::Auto) && self.is_page_locked(data);
        let path = match self.host_path {
            _ if locked => HostPath::Registered,
            // Page-locking pageable memory costs more than staging it through
            // pinned buffers on the H200 machine (docs/data-path.md).
            // CTR needs no data on the device: only its keystream comes back.
            HostPath::Auto if len >= PIPELINE_MIN_BYTES.min(self.piece + 1) && op == Op::Ctr => HostPath::Keystream,
            HostPath::Auto if len >= PIPELINE_MIN_BYTES.min(self.piece + 1) => HostPath::Staged,
            HostPath::Auto => HostPath::Pageable,
            chosen => chosen,
        };
        match path {
            HostPath::Registered => {
                // Whole blocks straight from and to the caller's memory (locked
                // here unless it is already), a partial CTR block after them
                // through the plain path.
                let whole = len / bs * bs;
                let (blocks, tail) = data.split_at_mut(whole);
                self.run_registered(op, &chain, blocks, !locked)?;
                if tail.is_empty() {
                    return Ok(());
                }
                let next = Zeroizing::new(counter_plus(&chain, (whole / bs) as u64));
                self.run_pageable(op, next, tail)
            }
            HostPath::Keystream if op == Op::Ctr => self.run_keystream(chain, data),
            HostPath::Staged | HostPath::Keystream => self.run_pipelined(op, chain, data),
            _ => self.run_pageable(op, chain, data),
        }
    }

    /// The smallest piece worth a launch of its own. The bitsliced kernels
    /// finish a warp's 16 KiB in microseconds; a thread of the paper's kernel
    /// takes about a millisecond for its one block whatever the launch's size
    /// (run 43 on the H200: 1 MiB in one launch 1.28 ms, in four 4.05 ms), so
    /// its pieces must fill the whole GPU at once: a wave of 2048 threads on
    /// every multiprocessor, 16 bytes each (4.1 MiB on the H200).
    fn min_piece(&self) -> usize {
        match self.kind {
            KernelKind::Bitsliced => WARP_BYTES,
            KernelKind::Paper => {
                let sms = usize::try_from(self.gpu.sm_count()).unwrap_or(1).max(1);
                (sms * 2048 * 16).div_ceil(WARP_BYTES) * WARP_BYTES
            }
        }
    }

    /// The pieces of a call of `len` bytes through the two pinned slots (staged
    /// and keystream paths): four or more a call, so the host's work on one
    /// overlaps the device's on another; slots sized to that, not to the
    /// largest piece (page-locking 2 x 64 MiB costs about 50 ms on the H200
    /// machine); at least 1 MiB and a launch's worth ([`Self::min_piece`]).
    fn slot_piece(&self, len: usize) -> usize {
        let quarter = len.div_ceil(4).div_ceil(WARP_BYTES) * WARP_BYTES;
        quarter.clamp((WARP_BYTES * 64).max(self.min_piece()).min(self.piece), self.piece)
    }

    /// Chooses how host memory reaches the device (default [`HostPath::Auto`]);
    /// for benchmarks and tests of each path.
    pub fn set_host_path(&mut self, path: HostPath) {
        self.host_path = path;
    }

    /// Streams and device buffers of the registered path, `piece` bytes each.
    fn ensure_lanes(&mut self, piece: usize) -> Result<(), GpuError> {
        if self.lanes.len() == LANES && self.lanes.iter().all(|l| l.input.len() >= piece) {
            return Ok(());
        }
        self.lanes.clear();
        for _ in 0..LANES {
            let stream = self.gpu.new_stream()?;
            // SAFETY: written by a copy before any kernel reads it.
            let input =
                unsafe { stream.alloc::<u8>(piece) }.map_err(GpuError::driver("allocating the input buffer"))?;
            // SAFETY: written by a kernel before any copy reads it.
            let output =
                unsafe { stream.alloc::<u8>(piece) }.map_err(GpuError::driver("allocating the output buffer"))?;
            self.lanes.push(Lane { stream, input, output });
        }
        Ok(())
    }

    /// Whole blocks straight from and to the caller's memory, page-locked piece
    /// by piece: worker threads page-lock the pieces in order (one thread
    /// page-locks at about a third of the link's speed, measured on the H200
    /// machine), and each piece, once locked, is queued on one of [`LANES`]
    /// streams as copy in, kernel, copy out, so that locking, both copy
    /// directions and the kernels all overlap. Pieces the driver refuses to
    /// lock (memory already pinned elsewhere, say) go through the plain path
    /// afterwards, with the chaining values read before anything was written.
    fn run_registered(&mut self, op: Op, chain: &[u8], data: &mut [u8], lock: bool) -> Result<(), GpuError> {
        let bs = self.block;
        let len = data.len();
        if len == 0 {
            return Ok(());
        }
        // Pieces: eight or more per call so the streams overlap from the start,
        // at most the usual piece, at least a launch's worth, whole warps' work.
        let piece = (len / 8).clamp(self.min_piece().min(self.piece), self.piece) / WARP_BYTES * WARP_BYTES;
        self.ensure_lanes(piece)?;
        let pieces = len.div_ceil(piece);
        // The chaining input of every piece, read before any output lands on it
        // (CBC and CFB chain on the previous piece's last ciphertext block).
        let chains: Vec<Zeroizing<Vec<u8>>> = (0..pieces)
            .map(|i| {
                let start = i * piece;
                Zeroizing::new(match op {
                    Op::Ctr => counter_plus(chain, (start / bs) as u64),
                    Op::CbcDecrypt | Op::CfbDecrypt if i > 0 => data[start - bs..start].to_vec(),
                    _ => chain.to_vec(),
                })
            })
            .collect();
        let base = SendPtr(data.as_mut_ptr());
        let lockers = if lock {
            std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, LOCKERS).min(pieces)
        } else {
            0
        };
        let mut locked: Vec<Option<Registration>> = (0..pieces).map(|_| None).collect();
        let mut refused: Vec<usize> = Vec::new();
        let mut result: Result<(), GpuError> = Ok(());
        let gpu = self.gpu.clone();
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut order = KernelOrder::new(self.kind);
        std::thread::scope(|sc| {
            let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Registration, RegisterError>)>();
            for w in 0..lockers {
                let tx = tx.clone();
                let (gpu, stop, base) = (&gpu, &stop, &base);
                sc.spawn(move || {
                    for i in (w..pieces).step_by(lockers) {
                        if stop.load(std::sync::atomic::Ordering::Relaxed) {
                            return;
                        }
                        let n = piece.min(len - i * piece);
                        // SAFETY: piece i lies inside `data`, which stays borrowed
                        // until every registration is dropped below.
                        let r = unsafe { Registration::new(gpu, base.0.add(i * piece), n) };
                        if tx.send((i, r)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            let mut next = 0;
            'queue: while next < pieces {
                while lock && locked[next].is_none() && !refused.contains(&next) {
                    match rx.recv() {
                        Ok((i, Ok(reg))) => locked[i] = Some(reg),
                        Ok((i, Err(RegisterError::Refused))) => refused.push(i),
                        Ok((_, Err(RegisterError::Gpu(e)))) => {
                            result = Err(e);
                            break 'queue;
                        }
                        Err(_) => {
                            result = Err(GpuError::Internal("a page-locking thread stopped"));
                            break 'queue;
                        }
                    }
                }
                if !lock || locked[next].is_some() {
                    let off = next * piece;
                    let n = piece.min(len - off);
                    if let Err(e) = self.queue_piece(next % LANES, op, &chains[next], base.0, off, n, &mut order) {
                        result = Err(e);
                        break;
                    }
                }
                next += 1;
            }
            if result.is_err() {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            // Registrations still in flight are kept so that they are undone.
            for (i, r) in rx {
                if let Ok(reg) = r {
                    locked[i] = Some(reg);
                }
            }
        });
        // Every queued copy ends before the memory is unlocked or given back,
        // also after an error.
        for lane in &self.lanes {
            if let Err(e) = lane.stream.synchronize() {
                result = result.and(Err(GpuError::driver("kernel run")(e)));
            }
        }
        // Unlocking costs about a third of locking: spread it over threads too.
        let per = locked.len().div_ceil(lockers.max(1)).max(1);
        std::thread::scope(|sc| {
            for part in locked.chunks_mut(per) {
                sc.spawn(move || part.iter_mut().for_each(|r| drop(r.take())));
            }
        });
        result?;
        for i in refused {
            let off = i * piece;
            let n = piece.min(len - off);
            self.run_pageable(op, chains[i].clone(), &mut data[off..off + n])?;
        }
        Ok(())
    }

    /// Whether `data` lies in page-locked host memory (its first and last byte
    /// are host memory the driver knows).
    fn is_page_locked(&self, data: &[u8]) -> bool {
        if data.is_empty() || self.gpu.context().bind_to_thread().is_err() {
            return false;
        }
        let known = |p: *const u8| {
            let mut kind: u32 = 0;
            // SAFETY: an out-parameter of the attribute's size; the driver only
            // looks the address up.
            let r = unsafe {
                sys::cuPointerGetAttribute(
                    (&mut kind as *mut u32).cast(),
                    sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                    p as sys::CUdeviceptr,
                )
            };
            r == sys::CUresult::CUDA_SUCCESS && kind == sys::CUmemorytype::CU_MEMORYTYPE_HOST as u32
        };
        known(data.as_ptr()) && known(data[data.len() - 1..].as_ptr())
    }

    /// Queues piece `data[off..off + n]` (page-locked, whole blocks) on lane `k`:
    /// copy in, kernel (in `order`), copy out, in place.
    #[allow(clippy::too_many_arguments)]
    fn queue_piece(
        &mut self,
        k: usize,
        op: Op,
        chain: &[u8],
        host: *mut u8,
        off: usize,
        n: usize,
        order: &mut KernelOrder,
    ) -> Result<(), GpuError> {
        let bs = self.block;
        let f = self.funcs[op.index()].as_ref().ok_or(GpuError::NoKernel { kind: self.kind, op })?;
        let lane = &mut self.lanes[k];
        let cu = lane.stream.cu_stream();
        {
            let (dst, _sync) = lane.input.device_ptr_mut(&lane.stream);
            // SAFETY: the host range is inside the caller's buffer, page-locked,
            // and stays locked and borrowed until every stream has been
            // synchronized; the device buffer holds `piece` >= n bytes.
            unsafe { sys::cuMemcpyHtoDAsync_v2(dst, host.add(off).cast(), n, cu) }
                .result()
                .map_err(GpuError::driver("copy to GPU"))?;
        }
        let nb = (n / bs) as u64;
        let iv = block_words(chain);
        let cfg = launch_config(self.kind, nb)?;
        let mut b = lane.stream.launch_builder(f);
        b.arg(&lane.input)
            .arg(&mut lane.output)
            .arg(&nb)
            .arg(&iv[0])
            .arg(&iv[1])
            .arg(&iv[2])
            .arg(&iv[3])
            .arg(&self.rounds);
        order.before(&lane.stream)?;
        // SAFETY: the kernels' signature (in, out, n, iv0..iv3, rounds); both
        // buffers hold n bytes.
        unsafe { b.launch(cfg) }.map_err(GpuError::driver("kernel launch"))?;
        order.after(&lane.stream)?;
        let (src, _sync) = lane.output.device_ptr(&lane.stream);
        // SAFETY: as the copy in; pieces are disjoint, and this piece's copy in
        // was queued before it on the same stream.
        unsafe { sys::cuMemcpyDtoHAsync_v2(host.add(off).cast(), src, n, cu) }
            .result()
            .map_err(GpuError::driver("copy from GPU"))
    }

    /// One piece after the other, straight from and to the caller's memory.
    fn run_pageable(&mut self, op: Op, mut chain: Zeroizing<Vec<u8>>, data: &mut [u8]) -> Result<(), GpuError> {
        let bs = self.block;
        let piece_max = self.piece;
        for piece in data.chunks_mut(piece_max) {
            let len = piece.len();
            let nblocks = len.div_ceil(bs);
            let padded = nblocks * bs;
            self.ensure_buffers(padded)?;
            let next_chain = match op {
                Op::Ctr => counter_plus(&chain, nblocks as u64),
                Op::CbcDecrypt | Op::CfbDecrypt => piece[len - bs..].to_vec(),
                _ => Vec::new(),
            };
            let (mut input, mut output) = self.bufs.take().ok_or(GpuError::Internal("device buffers missing"))?;
            let result = (|| {
                let whole = len / bs * bs;
                if whole > 0 {
                    self.stream
                        .memcpy_htod(&piece[..whole], &mut input.slice_mut(..whole))
                        .map_err(GpuError::driver("copy to GPU"))?;
                }
                if padded > whole {
                    // The last partial block of CTR, zero-padded.
                    let mut last = Zeroizing::new(vec![0u8; bs]);
                    last[..len - whole].copy_from_slice(&piece[whole..]);
                    self.stream
                        .memcpy_htod(&last[..], &mut input.slice_mut(whole..padded))
                        .map_err(GpuError::driver("copy to GPU"))?;
                }
                self.launch(&self.stream, op, &input, &mut output, nblocks as u64, block_words(&chain))?;
                self.stream.memcpy_dtoh(&output.slice(..len), piece).map_err(GpuError::driver("copy from GPU"))?;
                self.stream.synchronize().map_err(GpuError::driver("kernel run"))
            })();
            self.bufs = Some((input, output));
            result?;
            *chain = next_chain;
        }
        Ok(())
    }

    /// Two slots of `n` bytes each (kept while large enough: start-up pays only
    /// for what the calls so far needed).
    fn ensure_pipeline(&mut self, n: usize) -> Result<(), GpuError> {
        if self.pipeline.as_ref().is_some_and(|p| p.slots[0].input.len() >= n) {
            return Ok(());
        }
        self.pipeline = None;
        let ctx = self.gpu.context();
        let slot = || -> Result<Slot, GpuError> {
            let stream = self.gpu.new_stream()?;
            // SAFETY: plain page-locked host memory (not write-combined: the host
            // reads the results back from it); written before it is read.
            let pinned = unsafe { ctx.alloc_pinned_with_flags::<u8>(n, 0) }
                .map_err(GpuError::driver("allocating pinned host memory"))?;
            // SAFETY: written before read.
            let input = unsafe { stream.alloc::<u8>(n) }.map_err(GpuError::driver("allocating the input buffer"))?;
            let output = unsafe { stream.alloc::<u8>(n) }.map_err(GpuError::driver("allocating the output buffer"))?;
            Ok(Slot { stream, pinned, input, output })
        };
        let a = slot()?;
        let b = slot()?;
        self.pipeline = Some(Pipeline { slots: [a, b] });
        Ok(())
    }

    /// Pieces through two slots of pinned memory and two streams: the host
    /// copies piece i into one slot while the GPU copies, runs and returns
    /// piece i-1 in the other.
    fn run_pipelined(&mut self, op: Op, chain: Zeroizing<Vec<u8>>, data: &mut [u8]) -> Result<(), GpuError> {
        let bs = self.block;
        let sub = self.slot_piece(data.len());
        let mut order = KernelOrder::new(self.kind);
        let queue = |this: &Self, slot: &mut Slot, i: usize, r: Range<usize>, data: &[u8]| {
            let n = r.len();
            let nblocks = n.div_ceil(bs);
            let padded = nblocks * bs;
            // Chaining input of this piece, read before any piece is written
            // back over it (piece i - 1 is written back two steps later).
            let iv: Zeroizing<Vec<u8>> = Zeroizing::new(match op {
                Op::Ctr => counter_plus(&chain, (i * sub / bs) as u64),
                Op::CbcDecrypt | Op::CfbDecrypt if i > 0 => data[r.start - bs..r.start].to_vec(),
                _ => chain.to_vec(),
            });
            {
                let host = slot.pinned.as_mut_slice().map_err(GpuError::driver("pinned memory"))?;
                parallel_copy(&mut host[..n], &data[r]);
                host[n..padded].fill(0);
            }
            let host = slot.pinned.as_slice().map_err(GpuError::driver("pinned memory"))?;
            slot.stream
                .memcpy_htod(&host[..padded], &mut slot.input.slice_mut(..padded))
                .map_err(GpuError::driver("copy to GPU"))?;
            order.before(&slot.stream)?;
            this.launch(&slot.stream, op, &slot.input, &mut slot.output, nblocks as u64, block_words(&iv))?;
            order.after(&slot.stream)?;
            slot.queue_copy_back(n)
        };
        self.through_slots(data, sub, queue, parallel_copy)
    }

    /// CTR through the keystream ([`HostPath::Keystream`]): piece i's
    /// keystream is made on the GPU (the CTR kernel over zeros) and copied
    /// into one pinned slot while the host XORs piece i - 1's from the other.
    fn run_keystream(&mut self, chain: Zeroizing<Vec<u8>>, data: &mut [u8]) -> Result<(), GpuError> {
        let bs = self.block;
        let sub = self.slot_piece(data.len());
        if self.zeros.as_ref().is_none_or(|z| z.len() < sub) {
            self.zeros = None;
            let zeros = self.stream.alloc_zeros::<u8>(sub).map_err(GpuError::driver("allocating zeros"))?;
            // The slots' streams read it: the fill must be done first.
            self.stream.synchronize().map_err(GpuError::driver("zeroing"))?;
            self.zeros = Some(zeros);
        }
        let mut order = KernelOrder::new(self.kind);
        let queue = |this: &Self, slot: &mut Slot, i: usize, r: Range<usize>, _: &[u8]| {
            let n = r.len();
            let nblocks = n.div_ceil(bs);
            let zeros = this.zeros.as_ref().ok_or(GpuError::Internal("zeros missing"))?;
            let iv = Zeroizing::new(counter_plus(&chain, (i * sub / bs) as u64));
            order.before(&slot.stream)?;
            this.launch(&slot.stream, Op::Ctr, zeros, &mut slot.output, nblocks as u64, block_words(&iv))?;
            order.after(&slot.stream)?;
            slot.queue_copy_back(n)
        };
        self.through_slots(data, sub, queue, parallel_xor)
    }

    /// `data` in pieces of `sub` bytes through the two pinned slots in turn:
    /// `queue` puts piece i on its slot's stream (its result to be copied back
    /// into the slot's pinned memory); two pieces later, or at the end, the
    /// slot's stream is waited for and `take` moves the result into `data`
    /// (a copy, or an XOR). After an error every stream is waited for: no copy
    /// may still run into memory about to be reused.
    fn through_slots(
        &mut self,
        data: &mut [u8],
        sub: usize,
        mut queue: impl FnMut(&Self, &mut Slot, usize, Range<usize>, &[u8]) -> Result<(), GpuError>,
        take: fn(&mut [u8], &[u8]),
    ) -> Result<(), GpuError> {
        let len = data.len();
        self.ensure_pipeline(sub)?;
        let pieces = len.div_ceil(sub);
        let mut pipeline = self.pipeline.take().ok_or(GpuError::Internal("transfer pipeline missing"))?;
        let mut pending: [Option<Range<usize>>; 2] = [None, None];
        let result = (|| -> Result<(), GpuError> {
            // Two steps past the last piece: the last two slots' results.
            for i in 0..pieces + 2 {
                let k = i % 2;
                let slot = &mut pipeline.slots[k];
                if let Some(r) = pending[k].take() {
                    slot.stream.synchronize().map_err(GpuError::driver("kernel run"))?;
                    let n = r.len();
                    let host = slot.pinned.as_mut_slice().map_err(GpuError::driver("pinned memory"))?;
                    take(&mut data[r], &host[..n]);
                }
                if i < pieces {
                    let r = i * sub..((i + 1) * sub).min(len);
                    queue(self, slot, i, r.clone(), data)?;
                    pending[k] = Some(r);
                }
            }
            Ok(())
        })();
        if result.is_err() {
            for slot in &pipeline.slots {
                let _ = slot.stream.synchronize();
            }
        }
        self.pipeline = Some(pipeline);
        result
    }
}
