//! The tweakey schedule: from TK1 || TK2 || TK3 to one 8-cell round tweakey per
//! round (the first two rows of TK1 ⊕ TK2 ⊕ TK3).
//!
//! Each TKi is a 4×4 array of cells. After every round its cells are permuted by
//! [`PT`], then the cells of the first two rows of TK2 and TK3 go through small
//! LFSRs. TK1 has no LFSR, so its contribution repeats every 16 rounds.

use super::CellWidth;
use crate::variant::Variant;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The most rounds of any variant (SKINNY-128-384).
pub const MAX_ROUNDS: usize = 56;

/// The tweakey cell permutation: after a round, cell `i` takes the value of cell `PT[i]`.
pub const PT: [usize; 16] = [9, 15, 8, 13, 10, 14, 12, 11, 0, 1, 2, 3, 4, 5, 6, 7];

/// LFSR of TK2's first two rows. 4-bit cells: (x3,x2,x1,x0) → (x2,x1,x0,x3⊕x2);
/// 8-bit cells: (x7..x0) → (x6,..,x0,x7⊕x5).
#[inline(always)]
pub const fn lfsr_tk2(width: CellWidth, x: u8) -> u8 {
    match width {
        CellWidth::Nibble => ((x << 1) & 0xe) | (((x >> 3) ^ (x >> 2)) & 1),
        CellWidth::Byte => (x << 1) | (((x >> 7) ^ (x >> 5)) & 1),
    }
}

/// LFSR of TK3's first two rows. 4-bit cells: (x3,x2,x1,x0) → (x0⊕x3,x3,x2,x1);
/// 8-bit cells: (x7..x0) → (x0⊕x6,x7,..,x1).
#[inline(always)]
pub const fn lfsr_tk3(width: CellWidth, x: u8) -> u8 {
    match width {
        CellWidth::Nibble => (x >> 1) | (((x << 3) ^ x) & 0x8),
        CellWidth::Byte => (x >> 1) | (((x << 7) ^ (x << 1)) & 0x80),
    }
}

/// Cells of one TK array, one cell per byte (nibbles in the low half).
pub type TweakeyArray = [u8; 16];

/// Reads the `index`-th TK array (0 for TK1) of a tweakey byte string into cells.
pub fn load_tk(width: CellWidth, tweakey: &[u8], index: usize) -> TweakeyArray {
    let mut cells = [0u8; 16];
    let block = width.block_bytes();
    super::unpack_cells(width, &tweakey[index * block..(index + 1) * block], &mut cells);
    cells
}

/// The round tweakeys of one key: the eight cells XORed into the state's first two
/// rows in each round. Wiped from memory when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub struct RoundTweakeys {
    rtk: [[u8; 8]; MAX_ROUNDS],
    #[zeroize(skip)]
    rounds: usize,
}

impl RoundTweakeys {
    /// Runs the tweakey schedule of `variant` over `tweakey` (TK1 || TK2 || TK3,
    /// exactly `variant.tweakey_bytes()` long).
    ///
    /// # Panics
    /// If `tweakey` has the wrong length (callers check it first).
    pub fn expand(variant: Variant, tweakey: &[u8]) -> Self {
        Self::expand_rounds(variant, tweakey, variant.rounds())
    }

    /// [`RoundTweakeys::expand`] for the first `rounds` rounds only (reduced-round
    /// SKINNY, for cryptanalysis).
    ///
    /// # Panics
    /// If `tweakey` has the wrong length or `rounds` is 0 or more than the
    /// variant's (callers check both first).
    pub fn expand_rounds(variant: Variant, tweakey: &[u8], rounds: usize) -> Self {
        assert_eq!(tweakey.len(), variant.tweakey_bytes(), "tweakey length");
        assert!((1..=variant.rounds()).contains(&rounds), "rounds in 1..=full");
        let mut out = Self::zero(rounds);
        for z in 0..variant.tk_count() {
            let mut tk = load_tk(variant.cell_width(), tweakey, z);
            out.xor_schedule_of(variant.cell_width(), z, &mut tk);
            tk.zeroize();
        }
        out
    }

    /// All-zero round tweakeys for `rounds` rounds.
    pub(crate) fn zero(rounds: usize) -> Self {
        Self { rtk: [[0; 8]; MAX_ROUNDS], rounds }
    }

    /// XORs into `self` the round tweakeys contributed by one TK array (`z` = 0, 1, 2
    /// for TK1, TK2, TK3). The schedule is linear in each TK, so the round tweakeys
    /// of a whole tweakey are the XOR of the three contributions; the tweakable
    /// ciphers use this to add a fresh TK1 to a precomputed key part. `tk` is
    /// consumed as scratch.
    pub(crate) fn xor_schedule_of(&mut self, width: CellWidth, z: usize, tk: &mut TweakeyArray) {
        for r in 0..self.rounds {
            for (k, t) in self.rtk[r].iter_mut().zip(tk.iter()) {
                *k ^= t;
            }
            let mut next = [0u8; 16];
            for (n, &from) in next.iter_mut().zip(PT.iter()) {
                *n = tk[from];
            }
            for cell in next.iter_mut().take(8) {
                *cell = match z {
                    1 => lfsr_tk2(width, *cell),
                    2 => lfsr_tk3(width, *cell),
                    _ => *cell,
                };
            }
            *tk = next;
            next.zeroize();
        }
    }

    /// XORs another schedule (of the same length) into this one.
    pub(crate) fn xor_assign(&mut self, other: &Self) {
        for (a, b) in self.rtk.iter_mut().zip(other.rtk.iter()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                *x ^= y;
            }
        }
    }

    /// XORs `cells` into round `r`'s round tweakey (the partial-round
    /// ciphers fold their rounds' constants in, `hazmat::partial`).
    pub(crate) fn xor_round(&mut self, r: usize, cells: &[u8; 8]) {
        for (k, c) in self.rtk[r].iter_mut().zip(cells) {
            *k ^= c;
        }
    }

    /// Number of rounds.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The round tweakeys, one 8-cell array per round, in round order. Secret:
    /// for backends that must upload them (GPU), never for display.
    pub fn as_cells(&self) -> &[[u8; 8]] {
        &self.rtk[..self.rounds]
    }
}

impl core::fmt::Debug for RoundTweakeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RoundTweakeys {{ rounds: {}, .. }}", self.rounds)
    }
}
