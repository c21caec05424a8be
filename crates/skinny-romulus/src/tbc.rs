//! The tweakable block cipher of Romulus, SKINNY-128-384+ (SKINNY-128-384 cut
//! to 40 rounds), its tweakey encoding and the 56-bit LFSR block counter.
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

use core::sync::atomic::{AtomicU8, Ordering};
use skinny::hazmat::single::{FixedTweakeyPart, Lanes, Path};
use skinny::Variant;
use zeroize::Zeroize;

/// Bytes in a block (n = 128) and in a tweak block (t = 128).
pub(crate) const BLOCK: usize = 16;

/// One block.
pub(crate) type Block = [u8; BLOCK];

/// SKINNY-128-384+'s round count.
const ROUNDS: usize = 40;

/// The LFSR's 56 bits.
const MASK_56: u64 = (1 << 56) - 1;

/// The block counter: a 56-bit LFSR held in the low 56 bits of a `u64` (bit
/// `8j + k` is bit `k` of byte `j` of the encoding, least significant byte
/// first). A step multiplies by x modulo x^56 + x^7 + x^4 + x^2 + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counter(u64);

impl Counter {
    /// The all-zero counter of Romulus-T's fixed calls.
    pub(crate) const ZERO: Counter = Counter(0);
    /// The start value, 1.
    pub(crate) const ONE: Counter = Counter(1);

    /// One LFSR step (branch-free, though the counter is public).
    pub(crate) fn step(&mut self) {
        let carry = (self.0 >> 55) & 1;
        self.0 = ((self.0 << 1) & MASK_56) ^ (carry * 0x95);
    }

    /// The seven bytes of the encoding, least significant first.
    pub(crate) fn to_bytes(self) -> [u8; 7] {
        let b = self.0.to_le_bytes();
        [b[0], b[1], b[2], b[3], b[4], b[5], b[6]]
    }
}

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

/// Romulus's TK1: counter ‖ domain ‖ 0^64 (public values).
fn tk1(counter: Counter, domain: u8) -> Block {
    let mut tk = [0u8; BLOCK];
    tk[..7].copy_from_slice(&counter.to_bytes());
    tk[7] = domain;
    tk
}

/// G on a block: every byte (x7 .. x0) becomes (x0 ⊕ x7, x7, .., x1), on the
/// block as one 128-bit word (shifts and masks, no table).
pub(crate) fn g(s: &Block) -> Block {
    g128(u128::from_le_bytes(*s)).to_le_bytes()
}

/// [`g`] on a block held as a little-endian `u128`.
pub(crate) fn g128(x: u128) -> u128 {
    let low7 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_u128;
    let high = 0x8080_8080_8080_8080_8080_8080_8080_8080_u128;
    ((x >> 1) & low7) ^ ((x ^ (x << 7)) & high)
}

/// XORs `x` (up to a block) into the front of `acc`.
pub(crate) fn xor_into(acc: &mut Block, x: &[u8]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}

/// pad_n: a full block as is, the empty string as zeros, anything between as
/// X ‖ 0* ‖ its length in bytes.
pub(crate) fn pad(x: &[u8]) -> Block {
    let mut out = [0u8; BLOCK];
    out[..x.len()].copy_from_slice(x);
    if !x.is_empty() && x.len() < BLOCK {
        out[BLOCK - 1] = x.len() as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::encoding;

    #[test]
    fn the_counter_matches_the_reference_lfsr() {
        let (mut fast, mut spec) = (Counter::ONE, encoding::Counter::ONE);
        // Past the first feedback (bit 55 reached after 55 steps) several times.
        for _ in 0..300 {
            assert_eq!(fast.to_bytes(), spec.0);
            fast.step();
            spec.step();
        }
    }

    #[test]
    fn g_and_pad_match_the_reference() {
        let s: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xa5);
        assert_eq!(g(&s), encoding::g(&s));
        for len in 0..=BLOCK {
            assert_eq!(pad(&s[..len]), encoding::pad(&s[..len]));
        }
    }
}
