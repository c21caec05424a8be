//! The two paths through two slots of pinned memory:
//! [`HostPath::Staged`](super::HostPath::Staged) (the host copies each piece
//! into a slot, the device copies it in, runs it and copies it back) and
//! [`HostPath::Keystream`](super::HostPath::Keystream) (the device makes CTR's
//! keystream into a slot and the host XORs it in), both double-buffered: the
//! host works on one slot while the device works on the other.

use super::copy::{parallel_copy, parallel_xor};
use super::order::KernelOrder;
use crate::gpu::chain::{block_words, chain_at, counter_plus};
use crate::gpu::kernels::{Op, WARP_BYTES};
use crate::gpu::launch::Launcher;
use skinny_cuda::cudarc::driver::{CudaSlice, CudaStream, PinnedHostSlice};
use skinny_cuda::GpuError;
use std::ops::Range;
use std::sync::Arc;
use zeroize::Zeroizing;

/// One slot: a stream, pinned host memory and device buffers of one piece.
struct Slot {
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

/// The two slots (allocated on first use, kept while large enough: start-up
/// pays only for what the calls so far needed), and the zeros the keystream
/// path runs the CTR kernel over.
#[derive(Default)]
pub(super) struct Slots {
    pair: Option<[Slot; 2]>,
    /// Zeros on the device, as long as a slot: the keystream path's input (the
    /// CTR kernel XORs its input with the keystream).
    zeros: Option<CudaSlice<u8>>,
}

impl Slots {
    /// Gives the slots back (their size follows the largest piece).
    pub(super) fn free(&mut self) {
        self.pair = None;
    }

    /// Two slots of `n` bytes each.
    fn ensure(&mut self, l: &Launcher, n: usize) -> Result<(), GpuError> {
        if self.pair.as_ref().is_some_and(|p| p[0].input.len() >= n) {
            return Ok(());
        }
        self.pair = None;
        let gpu = l.gpu();
        let slot = || -> Result<Slot, GpuError> {
            let stream = gpu.new_stream()?;
            // SAFETY: plain page-locked host memory (not write-combined: the host
            // reads the results back from it); written before it is read.
            let pinned = unsafe { gpu.context().alloc_pinned_with_flags::<u8>(n, 0) }
                .map_err(GpuError::driver("allocating pinned host memory"))?;
            // SAFETY: written before read.
            let input = unsafe { stream.alloc::<u8>(n) }.map_err(GpuError::driver("allocating the input buffer"))?;
            let output = unsafe { stream.alloc::<u8>(n) }.map_err(GpuError::driver("allocating the output buffer"))?;
            Ok(Slot { stream, pinned, input, output })
        };
        let a = slot()?;
        let b = slot()?;
        self.pair = Some([a, b]);
        Ok(())
    }

    /// [`HostPath::Staged`](super::HostPath::Staged): the host copies piece i
    /// into one slot while the GPU copies, runs and returns piece i - 1 in the
    /// other.
    pub(super) fn run_staged(
        &mut self,
        l: &Launcher,
        piece: usize,
        op: Op,
        chain: Zeroizing<Vec<u8>>,
        data: &mut [u8],
    ) -> Result<(), GpuError> {
        let bs = l.block();
        let sub = slot_piece(l, piece, data.len());
        let mut order = KernelOrder::new(l.kind());
        let queue = |slot: &mut Slot, _: usize, r: Range<usize>, data: &[u8]| {
            let n = r.len();
            let nblocks = n.div_ceil(bs);
            let padded = nblocks * bs;
            // Chaining input of this piece, read before any piece is written
            // back over it (piece i - 1 is written back two steps later).
            let iv = Zeroizing::new(chain_at(op, &chain, data, r.start, bs));
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
            l.launch(&slot.stream, op, &slot.input, &mut slot.output, nblocks as u64, block_words(&iv))?;
            order.after(&slot.stream)?;
            slot.queue_copy_back(n)
        };
        self.ensure(l, sub)?;
        let mut pair = self.pair.take().ok_or(GpuError::Internal("transfer pipeline missing"))?;
        let result = through_slots(&mut pair, data, sub, queue, parallel_copy);
        self.pair = Some(pair);
        result
    }

    /// [`HostPath::Keystream`](super::HostPath::Keystream), CTR: piece i's
    /// keystream is made on the GPU (the CTR kernel over zeros) and copied into
    /// one pinned slot while the host XORs piece i - 1's from the other.
    pub(super) fn run_keystream(
        &mut self,
        l: &Launcher,
        piece: usize,
        chain: Zeroizing<Vec<u8>>,
        data: &mut [u8],
    ) -> Result<(), GpuError> {
        let bs = l.block();
        let sub = slot_piece(l, piece, data.len());
        self.ensure(l, sub)?;
        if self.zeros.as_ref().is_none_or(|z| z.len() < sub) {
            self.zeros = None;
            let zeros = l.stream().alloc_zeros::<u8>(sub).map_err(GpuError::driver("allocating zeros"))?;
            // The slots' streams read it: the fill must be done first.
            l.stream().synchronize().map_err(GpuError::driver("zeroing"))?;
            self.zeros = Some(zeros);
        }
        let zeros = self.zeros.as_ref().ok_or(GpuError::Internal("zeros missing"))?;
        let mut order = KernelOrder::new(l.kind());
        let queue = |slot: &mut Slot, i: usize, r: Range<usize>, _: &[u8]| {
            let n = r.len();
            let nblocks = n.div_ceil(bs);
            let iv = Zeroizing::new(counter_plus(&chain, (i * sub / bs) as u64));
            order.before(&slot.stream)?;
            l.launch(&slot.stream, Op::Ctr, zeros, &mut slot.output, nblocks as u64, block_words(&iv))?;
            order.after(&slot.stream)?;
            slot.queue_copy_back(n)
        };
        let mut pair = self.pair.take().ok_or(GpuError::Internal("transfer pipeline missing"))?;
        let result = through_slots(&mut pair, data, sub, queue, parallel_xor);
        self.pair = Some(pair);
        result
    }
}

/// The pieces of a call of `len` bytes through the two slots: four or more a
/// call, so the host's work on one overlaps the device's on another; slots
/// sized to that, not to the largest piece (page-locking 2 x 64 MiB costs
/// about 50 ms on the H200 machine); at least 1 MiB and a launch's worth
/// ([`Launcher::min_piece`]), at most `piece`.
fn slot_piece(l: &Launcher, piece: usize, len: usize) -> usize {
    let quarter = len.div_ceil(4).div_ceil(WARP_BYTES) * WARP_BYTES;
    quarter.clamp((WARP_BYTES * 64).max(l.min_piece()).min(piece), piece)
}

/// `data` in pieces of `sub` bytes through the two slots in turn: `queue` puts
/// piece i on its slot's stream (its result to be copied back into the slot's
/// pinned memory); two pieces later, or at the end, the slot's stream is
/// waited for and `take` moves the result into `data` (a copy, or an XOR).
/// After an error every stream is waited for: no copy may still run into
/// memory about to be reused.
fn through_slots(
    pair: &mut [Slot; 2],
    data: &mut [u8],
    sub: usize,
    mut queue: impl FnMut(&mut Slot, usize, Range<usize>, &[u8]) -> Result<(), GpuError>,
    take: fn(&mut [u8], &[u8]),
) -> Result<(), GpuError> {
    let len = data.len();
    let pieces = len.div_ceil(sub);
    let mut pending: [Option<Range<usize>>; 2] = [None, None];
    let result = (|| -> Result<(), GpuError> {
        // Two steps past the last piece: the last two slots' results.
        for i in 0..pieces + 2 {
            let k = i % 2;
            let slot = &mut pair[k];
            if let Some(r) = pending[k].take() {
                slot.stream.synchronize().map_err(GpuError::driver("kernel run"))?;
                let n = r.len();
                let host = slot.pinned.as_mut_slice().map_err(GpuError::driver("pinned memory"))?;
                take(&mut data[r], &host[..n]);
            }
            if i < pieces {
                let r = i * sub..((i + 1) * sub).min(len);
                queue(slot, i, r.clone(), data)?;
                pending[k] = Some(r);
            }
        }
        Ok(())
    })();
    if result.is_err() {
        for slot in pair.iter() {
            let _ = slot.stream.synchronize();
        }
    }
    result
}
