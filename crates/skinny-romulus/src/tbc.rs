//! The tweakable block cipher of Romulus, SKINNY-128-384+ (SKINNY-128-384 cut
//! to 40 rounds), called with the tweakey encoding of [`crate::hazmat`].
//!
//! # What a call costs
//!
//! Every Romulus call has a tweakey of its own (the counter changes every
//! block), but most keep TK2 ‖ TK3 (the message phases: nonce ‖ key) or TK3
//! (the AD pairs: the key) for a whole message. [`Tbc`] holds those arrays'
//! part of the 40 round tweakeys, expanded once per message
//! ([`FixedTweakeyPart`]); each call adds its TK1 (and TK2) in the rounds, on
//! `skinny`'s nibble-split single-block path where the CPU has it.
//!
//! A path can be forced for tests ([`crate::hazmat::force_single_block_path`]).

use crate::hazmat::encoding::{tk1, Counter, BLOCK, ROUNDS};
use core::sync::atomic::{AtomicU8, Ordering};
use skinny::hazmat::single::{FixedTweakeyPart, Lanes, Path};
use skinny::Variant;
use zeroize::Zeroize;

/// One block.
pub(crate) type Block = [u8; BLOCK];

/// The path forced by [`crate::hazmat::force_single_block_path`]: 0 for none,
/// else 1 + its index in [`Path::ALL`].
static FORCED: AtomicU8 = AtomicU8::new(0);

/// Forces `path` (or, with `None`, `skinny`'s own choice) for every call.
pub(crate) fn force(path: Option<Path>) {
    let code = path.and_then(|p| Path::ALL.iter().position(|&q| q == p)).map_or(0, |i| i as u8 + 1);
    FORCED.store(code, Ordering::Relaxed);
}

/// Calls above which a [`Tbc`] expands its fixed arrays once instead of
/// giving the whole tweakey to every call with the schedule run in the rounds:
/// a message's expansion costs about as much as the schedules of a score of
/// calls (it stores 40 rounds' additions and is moved and wiped), so short
/// messages skip it.
const EXPAND_ABOVE_CALLS: usize = 16;

/// SKINNY-128-384+ with its last TK arrays fixed for a message (TK2 ‖ TK3,
/// TK3, or none); each call gives TK1 (and the TK arrays not fixed). For more
/// than [`EXPAND_ABOVE_CALLS`] calls the fixed arrays' part is expanded once
/// ([`FixedTweakeyPart`]); otherwise each call runs the whole schedule beside
/// its rounds (`single::Lanes`). The expanded part (1.8 KiB)
/// lives in a slot of the caller's, so that a short message's `Tbc` is small
/// and never copies it. Wiped when dropped.
pub(crate) struct Tbc<'s> {
    /// The fixed arrays, last first in place: `[TK2, TK3]`, `[_, TK3]` or
    /// none, as `fixed` says.
    arrays: [Block; 2],
    /// How many of the last TK arrays are fixed (2, 1 or 0).
    fixed: usize,
    expanded: Option<&'s FixedTweakeyPart>,
    /// The kernel of the calls without an expanded part.
    lanes: Lanes,
}

/// Where a [`Tbc`] puts its expanded part, if it makes one.
pub(crate) type Slot = Option<FixedTweakeyPart>;

impl<'s> Tbc<'s> {
    fn new(arrays: [Block; 2], fixed: usize, calls: usize, slot: &'s mut Slot) -> Self {
        let expanded = (calls > EXPAND_ABOVE_CALLS && fixed > 0).then(|| {
            let mut bytes = [0u8; 2 * BLOCK];
            let first = 2 - fixed;
            for (dst, src) in bytes.chunks_exact_mut(BLOCK).zip(&arrays[first..]) {
                dst.copy_from_slice(src);
            }
            let part = FixedTweakeyPart::new(Variant::Skinny128_384, &bytes[..fixed * BLOCK], ROUNDS)
                .unwrap_or_else(|_| unreachable!("whole arrays and 40 rounds fit SKINNY-128-384"));
            bytes.zeroize();
            &*slot.insert(part)
        });
        Self { arrays, fixed, expanded, lanes: lanes() }
    }

    /// TK2 and TK3 fixed, for a message of about `calls` calls.
    pub(crate) fn with_tk2_tk3(tk2: &Block, tk3: &Block, calls: usize, slot: &'s mut Slot) -> Self {
        Self::new([*tk2, *tk3], 2, calls, slot)
    }

    /// TK3 fixed, for about `calls` calls.
    pub(crate) fn with_tk3(tk3: &Block, calls: usize, slot: &'s mut Slot) -> Self {
        Self::new([[0; BLOCK], *tk3], 1, calls, slot)
    }

    /// Nothing fixed (Romulus-T, whose block key changes every call).
    pub(crate) fn with_nothing_fixed() -> Self {
        Self { arrays: [[0; BLOCK]; 2], fixed: 0, expanded: None, lanes: lanes() }
    }

    /// Encrypts `block` in place under TK1 = `tk1` and `given`, the arrays
    /// not fixed after it (none, TK2, or TK2 and TK3).
    fn run(&self, tk1: &Block, given: &[&Block], block: &mut Block) {
        let result = match self.expanded {
            Some(part) => {
                let forced = forced();
                let mut per_call = [0u8; 3 * BLOCK];
                per_call[..BLOCK].copy_from_slice(tk1);
                for (dst, src) in per_call[BLOCK..].chunks_exact_mut(BLOCK).zip(given) {
                    dst.copy_from_slice(*src);
                }
                let per_call_bytes = (1 + given.len()) * BLOCK;
                let r = match forced {
                    None => part.encrypt_block(&per_call[..per_call_bytes], block),
                    Some(path) => part.encrypt_block_with(path, &per_call[..per_call_bytes], block),
                };
                per_call[BLOCK..].zeroize();
                r.map_err(|_| ())
            }
            None => {
                let mut tk: [&Block; 3] = [tk1, &self.arrays[0], &self.arrays[1]];
                for (slot, array) in tk[1..].iter_mut().zip(given) {
                    *slot = array;
                }
                self.lanes.encrypt(&tk, ROUNDS, core::slice::from_mut(block)).map_err(|_| ())
            }
        };
        result.unwrap_or_else(|()| unreachable!("the lengths fit the fixed part; forced paths are checked"));
    }

    /// With TK2 ‖ TK3 fixed: TK1 = counter ‖ domain ‖ 0^64.
    pub(crate) fn encrypt(&self, counter: Counter, domain: u8, block: &mut Block) {
        debug_assert_eq!(self.fixed, 2);
        self.run(&tk1(counter, domain), &[], block);
    }

    /// With TK3 fixed: TK1 = counter ‖ domain ‖ 0^64, then `tk2`.
    pub(crate) fn encrypt_tk2(&self, counter: Counter, domain: u8, tk2: &Block, block: &mut Block) {
        debug_assert_eq!(self.fixed, 1);
        self.run(&tk1(counter, domain), &[tk2], block);
    }

    /// With nothing fixed: TK1 = counter ‖ domain ‖ 0^64, then `tk2`, `tk3`.
    pub(crate) fn encrypt_tk2_tk3(&self, counter: Counter, domain: u8, tk2: &Block, tk3: &Block, block: &mut Block) {
        debug_assert_eq!(self.fixed, 0);
        self.run(&tk1(counter, domain), &[tk2, tk3], block);
    }
}

impl Drop for Tbc<'_> {
    fn drop(&mut self) {
        self.arrays.zeroize();
    }
}

/// The path forced for tests, if any.
fn forced() -> Option<Path> {
    match FORCED.load(Ordering::Relaxed) {
        0 => None,
        code => Some(Path::ALL[usize::from(code) - 1]),
    }
}

/// The lanes kernel: the forced path's, else the best.
pub(crate) fn lanes() -> Lanes {
    match forced() {
        None => Lanes::best(),
        Some(path) => Lanes::on_path(path).unwrap_or_else(|_| unreachable!("forced paths are checked")),
    }
}

/// Two blocks under one whole tweakey TK1 ‖ TK2 ‖ TK3 (Romulus-H's
/// compression function), side by side.
pub(crate) fn encrypt_pair(lanes: &Lanes, tk: [&Block; 3], blocks: &mut [Block; 2]) {
    lanes.encrypt(&tk, ROUNDS, blocks).unwrap_or_else(|_| unreachable!("three arrays, 40 rounds and two blocks fit"));
}

/// XORs `x` (up to a block) into the front of `acc`.
pub(crate) fn xor_into(acc: &mut Block, x: &[u8]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}
