//! Round tweakeys in bitsliced form, built once per key.
//!
//! The tweakey is the same for every block of a batch, so each of its bits becomes
//! a whole word: all ones where the bit is 1, zero where it is 0, made by
//! arithmetic (`0 - bit`), never by a branch. The round constants that land in the
//! first two rows (cells 0 and 4) are folded in here too, which leaves only the
//! fixed constant 2 of cell 8 for the round function.

use crate::spec::round::ROUND_CONSTANTS;
use crate::spec::tweakey::{RoundTweakeys, MAX_ROUNDS};
use crate::spec::CellWidth;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Masks of one round: index `8·cell + bit` for the eight cells of the first two
/// rows (4-bit cells use bits 0..4 only).
pub(crate) type RoundMasks = [u64; 64];

/// The bitsliced round tweakeys (with the row-0/1 round constants) of one key.
/// Secret; wiped when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct SlicedTweakeys {
    masks: [RoundMasks; MAX_ROUNDS],
}

impl SlicedTweakeys {
    /// Spreads every bit of every round tweakey into a mask word.
    pub(crate) fn new(width: CellWidth, rtk: &RoundTweakeys) -> Self {
        let bits = match width {
            CellWidth::Nibble => 4,
            CellWidth::Byte => 8,
        };
        let mut masks = [[0u64; 64]; MAX_ROUNDS];
        for (r, (round, out)) in rtk.as_cells().iter().zip(masks.iter_mut()).enumerate() {
            let rc = ROUND_CONSTANTS[r];
            for (cell, &k) in round.iter().enumerate() {
                let constant = match cell {
                    0 => rc & 0xf,
                    4 => rc >> 4,
                    _ => 0,
                };
                let v = k ^ constant;
                for b in 0..bits {
                    out[8 * cell + b] = 0u64.wrapping_sub(u64::from((v >> b) & 1));
                }
            }
        }
        Self { masks }
    }

    /// The masks of round `r`.
    #[inline(always)]
    pub(crate) fn round(&self, r: usize) -> &RoundMasks {
        &self.masks[r]
    }
}

impl core::fmt::Debug for SlicedTweakeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SlicedTweakeys { .. }")
    }
}
