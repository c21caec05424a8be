//! What a round of per-block tweakeys XORs into the state: the blocks' own TK
//! arrays' slices, and what every block shares (the round constants alone, or
//! the shared TK arrays' masks with the constants folded in).

use super::schedule::{Tks, TK1_CELLS};
use crate::hazmat::bitsliced::keys::{RoundMasks, SlicedTweakeys};
use crate::hazmat::bitsliced::round::RoundKey;
use crate::hazmat::bitsliced::word::Word;
use crate::spec::round::ROUND_CONSTANTS;

/// The most TK arrays a variant has.
const Z_MAX: usize = 3;

/// What a round adds for every block of a batch besides the per-block TK
/// arrays: the round constants alone, or the shared TK arrays' masks (with the
/// constants folded in).
pub(crate) trait FixedKey<W: Word> {
    /// The word to XOR into slice `b` of cell `cell` (0..8), if any.
    fn term(&self, cell: usize, b: usize) -> Option<W>;
}

/// Where each round's [`FixedKey`] comes from: a type rather than a closure,
/// so that making a round's terms is code of the batch loop, compiled with
/// the path's target features (a closure made outside the path's
/// `#[target_feature]` function was called once a round, out of line, with
/// every word operation in it a call).
pub(crate) trait FixedKeys<W: Word> {
    /// One round's terms.
    type Round<'a>: FixedKey<W>
    where
        Self: 'a;
    /// Round `r`'s terms.
    fn round(&self, r: usize) -> Self::Round<'_>;
}

/// The round constants alone (every TK array is per block).
pub(super) struct RoundConstants;

impl<W: Word> FixedKeys<W> for RoundConstants {
    type Round<'a> = RoundConstantMasks<W>;
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn round(&self, r: usize) -> RoundConstantMasks<W> {
        RoundConstantMasks::new(r)
    }
}

/// The shared TK arrays' masks, with the constants folded in.
impl<W: Word> FixedKeys<W> for SlicedTweakeys {
    type Round<'a> = &'a RoundMasks;
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn round(&self, r: usize) -> &RoundMasks {
        SlicedTweakeys::round(self, r)
    }
}

/// The round constants c0 (cell 0) and c1 (cell 4) of one round as masks, for
/// per-block tweakeys whose every TK array is per block (the shared masks of
/// `BlockKeys::Tk1` hold them already). Public: they depend on the round only.
pub(crate) struct RoundConstantMasks<W> {
    /// Bits 0..6 of the round constant: c0 = bits 0..4 into cell 0, c1 = bits
    /// 4..6 into cell 4.
    rc: [W; 6],
}

impl<W: Word> RoundConstantMasks<W> {
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    pub(super) fn new(r: usize) -> Self {
        let rc = ROUND_CONSTANTS[r];
        Self { rc: core::array::from_fn(|i| W::splat_mask(0u32.wrapping_sub(u32::from((rc >> i) & 1)))) }
    }
}

impl<W: Word> FixedKey<W> for RoundConstantMasks<W> {
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn term(&self, cell: usize, b: usize) -> Option<W> {
        // `cell` and `b` are constants once the round is inlined, so this folds away.
        match (cell, b) {
            (0, 0..4) => Some(self.rc[b]),
            (4, 0..2) => Some(self.rc[4 + b]),
            _ => None,
        }
    }
}

impl<W: Word> FixedKey<W> for &RoundMasks {
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn term(&self, cell: usize, b: usize) -> Option<W> {
        Some(W::splat_mask(self[8 * cell + b]))
    }
}

/// The round key of round `r`: rows 0–1 of the per-block TK arrays are half `h`
/// (`r mod 2`), or, with TK1 alone (`Z == 1`, never moved), the cells
/// `TK1_CELLS[r mod 16][..8]`; `fixed` adds what every block shares (the round
/// constants, or the shared TK arrays' masks with the constants in them).
pub(super) struct PerBlockKey<'a, W, const Z: usize, F> {
    pub(super) tks: &'a Tks<W, Z>,
    pub(super) h: usize,
    pub(super) r: usize,
    pub(super) fixed: F,
}

impl<W: Word, const Z: usize, F: FixedKey<W>> RoundKey<W> for PerBlockKey<'_, W, Z, F> {
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_key(&self, x: W, cell: usize, b: usize, extra: Option<W>) -> W {
        let at = if Z == 1 { TK1_CELLS[self.r % 16][cell] } else { 8 * self.h + cell };
        // The terms: TK1..TKz of this slice, the fixed term where there is one,
        // and `extra`; XORed into `x` two at a time ([`Word::xor3`]: one
        // operation on AVX-512, two elsewhere).
        let mut terms = [x; Z_MAX + 2];
        let mut n = 0;
        for tk in self.tks {
            terms[n] = tk[at][b];
            n += 1;
        }
        for t in [self.fixed.term(cell, b), extra].into_iter().flatten() {
            terms[n] = t;
            n += 1;
        }
        let mut acc = x;
        let mut i = 0;
        while i + 1 < n {
            acc = acc.xor3(terms[i], terms[i + 1]);
            i += 2;
        }
        if i < n {
            acc = acc.xor(terms[i]);
        }
        acc
    }
}
