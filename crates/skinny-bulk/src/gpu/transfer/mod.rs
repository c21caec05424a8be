//! How host memory reaches the device and back for
//! [`GpuCipher::run`](crate::gpu::GpuCipher::run): [`HostPath::auto`] chooses the
//! path by the operation, the size and the memory, and one module runs each:
//!
//! - `pageable`: piece by piece, plain copies;
//! - `slots`: staged through two pinned slots, or (CTR) the keystream made on
//!   the device and XORed in on the host;
//! - `registered`: straight from and to the caller's memory, page-locked in
//!   place for the call or page-locked already.

mod copy;
mod order;
mod pageable;
mod path;
mod registered;
mod slots;

pub use path::{HostMemory, HostPath};

use crate::gpu::chain::counter_plus;
use crate::gpu::kernels::{Op, WARP_BYTES};
use crate::gpu::launch::Launcher;
use registered::Locking;
use skinny_cuda::GpuError;
use zeroize::Zeroizing;

/// A cipher's host paths: the one chosen, the largest piece sent to the
/// device at once, and each path's buffers (allocated on first use).
pub(crate) struct Transfers {
    path: HostPath,
    piece: usize,
    pageable: pageable::Buffers,
    slots: slots::Slots,
    lanes: registered::Lanes,
}

impl Transfers {
    /// [`HostPath::Auto`], pieces of at most `piece` bytes (whole warps' work).
    pub(crate) fn new(piece: usize) -> Self {
        Self {
            path: HostPath::Auto,
            piece,
            pageable: Default::default(),
            slots: Default::default(),
            lanes: Default::default(),
        }
    }

    /// The path every call takes from now on.
    pub(crate) fn set_path(&mut self, path: HostPath) {
        self.path = path;
    }

    /// The most bytes sent to the device at once (rounded to whole warps' work).
    pub(crate) fn set_piece(&mut self, bytes: usize) {
        self.piece = bytes.max(WARP_BYTES) / WARP_BYTES * WARP_BYTES;
        self.pageable.free();
        self.slots.free();
    }

    /// Gives the plain path's device buffers back (before a benchmark takes
    /// the device's memory).
    pub(crate) fn free_buffers(&mut self) {
        self.pageable.free();
    }

    /// The path a call of `op` over `data` takes.
    pub(crate) fn path_for(&self, l: &Launcher, op: Op, data: &[u8]) -> HostPath {
        match self.path {
            HostPath::Auto => {
                // Memory page-locked already (from Gpu::alloc_host, say) needs
                // no staging: the copies go straight to and from it.
                let memory = if HostPath::memory_matters(data.len()) && registered::is_page_locked(l.gpu(), data) {
                    HostMemory::PageLocked
                } else {
                    HostMemory::Pageable
                };
                HostPath::auto(op, data.len(), memory, self.piece)
            }
            chosen => chosen,
        }
    }

    /// Runs `op` in place over `data` by the chosen path (see
    /// [`GpuCipher::run`](crate::gpu::GpuCipher::run)).
    pub(crate) fn run(&mut self, l: &Launcher, op: Op, iv: &[u8], data: &mut [u8]) -> Result<(), GpuError> {
        let bs = l.block();
        if op != Op::Ctr && !data.len().is_multiple_of(bs) {
            return Err(GpuError::NotWholeBlocks { operation: op.label(), block: bs, len: data.len() });
        }
        if op != Op::EcbEncrypt && op != Op::EcbDecrypt && iv.len() != bs {
            return Err(GpuError::IvLength { operation: op.label(), block: bs, got: iv.len() });
        }
        let chain: Zeroizing<Vec<u8>> = Zeroizing::new(if iv.len() == bs { iv.to_vec() } else { vec![0; bs] });
        let path = self.path_for(l, op, data);
        let piece = self.piece;
        match path {
            HostPath::Registered | HostPath::Direct => {
                let locking = if path == HostPath::Direct { Locking::AlreadyLocked } else { Locking::Lock };
                // Whole blocks straight from and to the caller's memory, a
                // partial CTR block after them through the plain path.
                let whole = data.len() / bs * bs;
                let (blocks, tail) = data.split_at_mut(whole);
                self.lanes.run(l, piece, op, &chain, blocks, locking, &mut self.pageable)?;
                if tail.is_empty() {
                    return Ok(());
                }
                let next = Zeroizing::new(counter_plus(&chain, (whole / bs) as u64));
                self.pageable.run(l, piece, op, next, tail)
            }
            HostPath::Keystream if op == Op::Ctr => self.slots.run_keystream(l, piece, chain, data),
            HostPath::Staged | HostPath::Keystream => self.slots.run_staged(l, piece, op, chain, data),
            _ => self.pageable.run(l, piece, op, chain, data),
        }
    }
}
