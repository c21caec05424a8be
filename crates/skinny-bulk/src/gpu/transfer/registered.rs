//! The paths with no host copy: [`HostPath::Registered`](super::HostPath::Registered)
//! (the caller's memory page-locked in place for the call) and
//! [`HostPath::Direct`](super::HostPath::Direct) (memory page-locked
//! already). Pieces go round four streams as copy in, kernel, copy out,
//! straight from and to the caller's memory.

use super::order::KernelOrder;
use super::pageable;
use crate::gpu::chain::{block_words, chain_at};
use crate::gpu::kernels::{Op, WARP_BYTES};
use crate::gpu::launch::Launcher;
use skinny_cuda::cudarc::driver::{sys, CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use skinny_cuda::Gpu;
use skinny_cuda::GpuError;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use zeroize::Zeroizing;

/// Streams of these paths: enough for copies in both directions and a kernel
/// to be in flight at once, with one to spare.
const LANES: usize = 4;

/// Page-locking threads of the registered path at most.
const LOCKERS: usize = 8;

/// One stream with its device buffers.
struct Lane {
    stream: Arc<CudaStream>,
    input: CudaSlice<u8>,
    output: CudaSlice<u8>,
}

/// Whether the caller's memory is to be page-locked for the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Locking {
    /// Pageable: page-lock it piece by piece, unlock it after.
    Lock,
    /// Page-locked already: copy straight from it.
    AlreadyLocked,
}

/// Why a piece could not be page-locked.
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

/// The streams and device buffers of these paths (allocated on first use).
#[derive(Default)]
pub(super) struct Lanes(Vec<Lane>);

impl Lanes {
    /// [`LANES`] streams with device buffers of `piece` bytes each.
    fn ensure(&mut self, l: &Launcher, piece: usize) -> Result<(), GpuError> {
        if self.0.len() == LANES && self.0.iter().all(|lane| lane.input.len() >= piece) {
            return Ok(());
        }
        self.0.clear();
        for _ in 0..LANES {
            let stream = l.gpu().new_stream()?;
            // SAFETY: written by a copy before any kernel reads it.
            let input =
                unsafe { stream.alloc::<u8>(piece) }.map_err(GpuError::driver("allocating the input buffer"))?;
            // SAFETY: written by a kernel before any copy reads it.
            let output =
                unsafe { stream.alloc::<u8>(piece) }.map_err(GpuError::driver("allocating the output buffer"))?;
            self.0.push(Lane { stream, input, output });
        }
        Ok(())
    }

    /// Whole blocks straight from and to the caller's memory. With
    /// [`Locking::Lock`] worker threads page-lock the pieces in order (one
    /// thread page-locks at about a third of the link's speed, measured on the
    /// H200 machine), and each piece, once locked, is queued on one of
    /// [`LANES`] streams as copy in, kernel, copy out, so that locking, both
    /// copy directions and the kernels all overlap. Pieces the driver refuses
    /// to lock (memory already pinned elsewhere, say) go through the plain path
    /// (`fallback`) afterwards, with the chaining values read before anything
    /// was written.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &mut self,
        l: &Launcher,
        piece_max: usize,
        op: Op,
        chain: &[u8],
        data: &mut [u8],
        locking: Locking,
        fallback: &mut pageable::Buffers,
    ) -> Result<(), GpuError> {
        let bs = l.block();
        let len = data.len();
        if len == 0 {
            return Ok(());
        }
        let lock = locking == Locking::Lock;
        // Pieces: eight or more per call so the streams overlap from the start,
        // at most the usual piece, at least a launch's worth, whole warps' work.
        let piece = (len / 8).clamp(l.min_piece().min(piece_max), piece_max) / WARP_BYTES * WARP_BYTES;
        self.ensure(l, piece)?;
        let pieces = len.div_ceil(piece);
        // The chaining input of every piece, read before any output lands on it
        // (CBC and CFB chain on the previous piece's last ciphertext block).
        let chains: Vec<Zeroizing<Vec<u8>>> =
            (0..pieces).map(|i| Zeroizing::new(chain_at(op, chain, data, i * piece, bs))).collect();
        let base = SendPtr(data.as_mut_ptr());
        let lockers = if lock {
            std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, LOCKERS).min(pieces)
        } else {
            0
        };
        let mut locked: Vec<Option<Registration>> = (0..pieces).map(|_| None).collect();
        let mut refused: Vec<usize> = Vec::new();
        let mut result: Result<(), GpuError> = Ok(());
        let gpu = l.gpu().clone();
        let stop = AtomicBool::new(false);
        let mut order = KernelOrder::new(l.kind());
        std::thread::scope(|sc| {
            let (tx, rx) = std::sync::mpsc::channel::<(usize, Result<Registration, RegisterError>)>();
            for w in 0..lockers {
                let tx = tx.clone();
                let (gpu, stop, base) = (&gpu, &stop, &base);
                sc.spawn(move || {
                    for i in (w..pieces).step_by(lockers) {
                        if stop.load(Ordering::Relaxed) {
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
                    let lane = &mut self.0[next % LANES];
                    if let Err(e) = queue_piece(lane, l, op, &chains[next], base.0, off, n, &mut order) {
                        result = Err(e);
                        break;
                    }
                }
                next += 1;
            }
            if result.is_err() {
                stop.store(true, Ordering::Relaxed);
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
        for lane in &self.0 {
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
            fallback.run(l, piece_max, op, chains[i].clone(), &mut data[off..off + n])?;
        }
        Ok(())
    }
}

/// Queues piece `host[off..off + n]` (page-locked, whole blocks) on `lane`:
/// copy in, kernel (in `order`), copy out, in place.
#[allow(clippy::too_many_arguments)]
fn queue_piece(
    lane: &mut Lane,
    l: &Launcher,
    op: Op,
    chain: &[u8],
    host: *mut u8,
    off: usize,
    n: usize,
    order: &mut KernelOrder,
) -> Result<(), GpuError> {
    l.func(op)?;
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
    let nb = (n / l.block()) as u64;
    order.before(&lane.stream)?;
    l.launch(&lane.stream, op, &lane.input, &mut lane.output, nb, block_words(chain))?;
    order.after(&lane.stream)?;
    let (src, _sync) = lane.output.device_ptr(&lane.stream);
    // SAFETY: as the copy in; pieces are disjoint, and this piece's copy in
    // was queued before it on the same stream.
    unsafe { sys::cuMemcpyDtoHAsync_v2(host.add(off).cast(), src, n, cu) }
        .result()
        .map_err(GpuError::driver("copy from GPU"))
}

/// Whether `data` lies in page-locked host memory (its first and last byte
/// are host memory the driver knows). Asked with `cuPointerGetAttributes`,
/// which answers for memory the driver does not know with a default value
/// instead of an error (an error that memory checkers report).
pub(super) fn is_page_locked(gpu: &Gpu, data: &[u8]) -> bool {
    if data.is_empty() || gpu.context().bind_to_thread().is_err() {
        return false;
    }
    let known = |p: *const u8| {
        let mut kind: u32 = 0;
        let mut attributes = [sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE];
        let mut values = [(&mut kind as *mut u32).cast::<std::ffi::c_void>()];
        // SAFETY: one attribute, its out-parameter of the attribute's size;
        // the driver only looks the address up.
        let r = unsafe {
            sys::cuPointerGetAttributes(1, attributes.as_mut_ptr(), values.as_mut_ptr(), p as sys::CUdeviceptr)
        };
        r == sys::CUresult::CUDA_SUCCESS && kind == sys::CUmemorytype::CU_MEMORYTYPE_HOST as u32
    };
    known(data.as_ptr()) && known(data[data.len() - 1..].as_ptr())
}
