//! Round tweakeys in bitsliced form.
//!
//! The tweakey is the same for every block of a batch, so each of its bits becomes
//! a whole word: all ones where the bit is 1, zero where it is 0, made by
//! arithmetic (`0 - bit`), never by a branch. The round constants that land in the
//! first two rows (cells 0 and 4) are folded in here too, which leaves only the
//! fixed constant 2 of cell 8 for the round function.
//!
//! At 64 words a round these masks are up to 14 KiB, so the cipher values do not
//! hold them: they are built where a bitsliced engine runs (per call of
//! [`crate::Skinny::encrypt_blocks`], once per closure in the RustCrypto types,
//! once per key in [`crate::BitslicedSkinny`]). Building them costs about as much
//! as a few AVX2 batches' worth of mask XORs, which is why bulk engines keep
//! them, while generating them inside every round would add ALU work to each
//! batch.
//!
//! With the `alloc` feature the masks are on the heap (one allocation of the
//! key's rounds, made where they are built), so that the values that hold them
//! are small and moving one never copies 14 KiB through the stack (which an
//! unoptimised build does at every move); without it they are inline, built in
//! place by the callers that can.

use crate::spec::round::ROUND_CONSTANTS;
use crate::spec::tweakey::{RoundTweakeys, MAX_ROUNDS};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Masks of one round: index `8·cell + bit` for the eight cells of the first two
/// rows (4-bit cells use bits 0..4 only; their other masks are zero). Each is 0 or
/// all ones; 32 bits wide, widened by [`super::word::Word::splat_mask`] as it is
/// loaded, so that the per-call build and wipe touch half the memory.
pub(crate) type RoundMasks = [u32; 64];

/// The key bits that round `r` adds in the bitsliced code: bit `8c + b` is bit
/// `b` of cell `c` (the eight cells of the first two rows; 4-bit cells use bits
/// 0..4 of their byte) of the round tweakey XOR the round constants c0 (cell 0)
/// and c1 (cell 4); the constant 2 of cell 8 is left to the round function. The
/// CPU's masks here and the GPU kernels' `round_masks` are both spread from it.
///
/// # Panics
/// If `r` is not below the key's rounds.
pub fn round_key_bits(rtk: &RoundTweakeys, r: usize) -> u64 {
    key_bits(&rtk.as_cells()[r], r)
}

/// [`round_key_bits`] of one round's cells.
#[inline(always)]
fn key_bits(cells: &[u8; 8], r: usize) -> u64 {
    let rc = ROUND_CONSTANTS[r];
    // Cell `c` is byte `c` of this little-endian word, so bit `b` of cell `c` is
    // bit `8c + b`; the constants of cells 0 and 4 go in with it.
    u64::from_le_bytes(*cells) ^ u64::from(rc & 0xf) ^ (u64::from(rc >> 4) << 32)
}

/// Where the masks live: on the heap, one [`RoundMasks`] per round, with
/// `alloc`; inline, room for every variant's rounds, without.
#[cfg(feature = "alloc")]
type MaskStore = alloc::boxed::Box<[RoundMasks]>;
#[cfg(not(feature = "alloc"))]
type MaskStore = [RoundMasks; MAX_ROUNDS];

/// The bitsliced round tweakeys (with the row-0/1 round constants) of one key.
/// Secret; wiped when dropped.
#[derive(Clone)]
pub(crate) struct SlicedTweakeys {
    masks: MaskStore,
    /// Rounds filled in (the rest stay zero), so that dropping wipes only those.
    rounds: usize,
}

impl SlicedTweakeys {
    /// Room for the masks of `rounds` rounds, all zero, for
    /// [`SlicedTweakeys::set`] to fill in place: with `alloc` one zeroed
    /// allocation (no 14 KiB value on the stack); without, the inline array
    /// (the caller builds it where it stays, so it is never copied).
    pub(crate) fn empty(rounds: usize) -> Self {
        debug_assert!(rounds <= MAX_ROUNDS);
        #[cfg(feature = "alloc")]
        let masks = alloc::vec![[0u32; 64]; rounds].into_boxed_slice();
        #[cfg(not(feature = "alloc"))]
        let masks = {
            let _ = rounds;
            [[0; 64]; MAX_ROUNDS]
        };
        Self { masks, rounds: 0 }
    }

    /// The masks of `rtk` built in `slot`, in place (see [`SlicedTweakeys::empty`]).
    pub(crate) fn build_in<'a>(slot: &'a mut Option<Self>, rtk: &RoundTweakeys) -> &'a Self {
        let keys = slot.insert(Self::empty(rtk.rounds()));
        keys.set(rtk);
        keys
    }

    /// The work of [`SlicedTweakeys::set`] (in module `paths`, which picks the
    /// AVX2 build when it can), inlined into each caller so that the AVX2 one
    /// compiles it with AVX2 (a variable shift per lane).
    #[inline(always)]
    pub(super) fn fill(&mut self, rtk: &RoundTweakeys) {
        let rounds = rtk.rounds();
        let cells = rtk.as_cells();
        debug_assert!(rounds <= self.masks.len());
        // Every round written once (unused ones as zeros) rather than zeroing the
        // whole array first and writing the used rounds again.
        for (r, masks) in self.masks.iter_mut().enumerate() {
            if r >= rounds {
                *masks = [0u32; 64];
                continue;
            }
            // Mask `i` is bit `i` of the round's key bits, spread to a word by
            // arithmetic.
            let word = key_bits(&cells[r], r);
            for (i, m) in masks.iter_mut().enumerate() {
                *m = 0u32.wrapping_sub(((word >> i) & 1) as u32);
            }
        }
        self.rounds = rounds;
    }

    /// The masks of round `r`.
    #[inline(always)]
    pub(crate) fn round(&self, r: usize) -> &RoundMasks {
        &self.masks[r]
    }
}

impl Drop for SlicedTweakeys {
    fn drop(&mut self) {
        // Only the rounds filled in hold key material; wiping those alone keeps
        // the per-call cost of [`crate::Skinny::encrypt_blocks`] down.
        self.masks[..self.rounds].as_flattened_mut().zeroize();
    }
}

impl ZeroizeOnDrop for SlicedTweakeys {}

impl core::fmt::Debug for SlicedTweakeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SlicedTweakeys { .. }")
    }
}
