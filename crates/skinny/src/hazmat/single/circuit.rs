//! The pieces every single-block path shares: the S-box circuits rewritten to
//! work on the bits where they lie, the word operations they need, and the byte
//! shuffles of the linear layer.
//!
//! # The S-boxes without their wire crossings
//!
//! The specification draws S8 as four NOR/XOR layers with a bit permutation
//! between each (S4: a nibble rotation). Moving bits costs shifts, masks and
//! ORs on the critical path of every layer, so the circuits here leave each bit
//! where it is and instead let each layer read the positions where its inputs
//! ended up; one permutation at the end puts the output bits in place. The gate
//! positions below were derived by following the wires of `spec::sbox` and are
//! checked against it on every input by the tests of this module.
//!
//! # The complemented state
//!
//! A NOR/XOR gate `x ^= !(a | b)` on complemented bits becomes an AND/XOR gate
//! `!x ^= !a & !b`, one operation shorter (no NOT). The single-block paths keep
//! the whole cipher state complemented from the first round to the last; the
//! linear layer does not map all-ones to all-ones, and the difference (rows 2
//! and 3 all ones, see [`COMPLEMENT_FIX`]) is folded into the round constants.

use crate::spec::round::{ROUND_CONSTANTS, SHIFT_ROWS, SHIFT_ROWS_INV};
use crate::spec::tweakey::MAX_ROUNDS;

/// One gate of an S-box layer on the complemented state: bit `target` ^= bit `a`
/// & bit `b` (the specification's `target ^= NOR(a, b)` on the true state).
/// Positions are physical bit positions within a cell.
#[derive(Clone, Copy)]
pub(crate) struct Gate {
    pub target: u32,
    pub a: u32,
    pub b: u32,
}

const fn g(target: u32, a: u32, b: u32) -> Gate {
    Gate { target, a, b }
}

/// S8's four layers, two gates each, in place.
const S8_LAYERS: [[Gate; 2]; 4] =
    [[g(0, 3, 2), g(4, 7, 6)], [g(5, 4, 0), g(6, 2, 1)], [g(7, 6, 5), g(1, 0, 3)], [g(2, 1, 7), g(3, 5, 4)]];
/// Where S8's output bit `j` lies after [`S8_LAYERS`].
const S8_OUT: [u32; 8] = [2, 7, 6, 1, 3, 0, 4, 5];

/// S8⁻¹'s four layers in place.
const S8_INV_LAYERS: [[Gate; 2]; 4] =
    [[g(0, 3, 1), g(4, 7, 6)], [g(1, 2, 7), g(3, 5, 4)], [g(7, 6, 5), g(2, 0, 3)], [g(5, 4, 0), g(6, 1, 2)]];
/// Where S8⁻¹'s output bit `j` lies after [`S8_INV_LAYERS`].
const S8_INV_OUT: [u32; 8] = [5, 3, 0, 4, 6, 7, 2, 1];

/// S4's four layers (one gate each) in place.
const S4_LAYERS: [[Gate; 1]; 4] = [[g(0, 3, 2)], [g(3, 2, 1)], [g(2, 1, 0)], [g(1, 0, 3)]];
/// Where S4's output bit `j` lies after [`S4_LAYERS`] (a nibble rotation).
const S4_OUT: [u32; 4] = [1, 2, 3, 0];

/// S4⁻¹'s four layers in place.
const S4_INV_LAYERS: [[Gate; 1]; 4] = [[g(0, 3, 2)], [g(1, 0, 3)], [g(2, 1, 0)], [g(3, 2, 1)]];
/// Where S4⁻¹'s output bit `j` lies after [`S4_INV_LAYERS`].
const S4_INV_OUT: [u32; 4] = [3, 0, 1, 2];

/// A machine word (or SIMD register) of cells, one cell per byte.
pub(crate) trait Bits: Copy {
    /// Every byte equal to `b`.
    fn splat8(b: u8) -> Self;
    fn xor(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// Shifts the whole word (or each 64-bit lane) left; callers mask away the
    /// bits that cross into the next byte.
    fn shl(self, n: u32) -> Self;
    /// Shifts the whole word (or each 64-bit lane) right; callers mask likewise.
    fn shr(self, n: u32) -> Self;

    /// `a & b & m`. One instruction where the CPU has a three-input logic op.
    #[inline(always)]
    fn and3(a: Self, b: Self, m: Self) -> Self {
        a.and(b).and(m)
    }

    /// `a ^ b ^ c`.
    #[inline(always)]
    fn xor3(a: Self, b: Self, c: Self) -> Self {
        a.xor(b.xor(c))
    }

    /// Moves the bits of every byte to where `gather` says (the other bits of
    /// each byte are dropped): one mask and shift per distinct distance, ORed
    /// together in a tree (its depth, not the count, is on the critical path).
    #[inline(always)]
    fn gather_bits<const M: usize>(self, gather: &Gather<M>) -> Self {
        let t: [Self; M] =
            core::array::from_fn(|i| shift(self.and(Self::splat8(gather.moves[i].mask)), gather.moves[i].by));
        match M {
            2 => t[0].or(t[1]),
            6 => (t[0].or(t[1])).or(t[2].or(t[3])).or(t[4].or(t[5])),
            _ => t.iter().fold(Self::splat8(0), |a, &b| a.or(b)),
        }
    }
}

/// The bits of a byte that move by the same distance.
#[derive(Clone, Copy)]
pub(crate) struct Move {
    /// Left shift (right for a negative value).
    pub by: i32,
    /// Which bits move.
    pub mask: u8,
}

/// The final permutation of an S-box circuit, computed at compile time from
/// where each output bit lies: as shifts and masks (`M` distinct distances),
/// and as the 8×8 bit matrix of a GFNI affine instruction (row `7 - j`, a
/// single bit at the source of output bit `j`).
pub(crate) struct Gather<const M: usize> {
    pub moves: [Move; M],
    pub matrix: u64,
}

const fn gather<const M: usize, const W: usize>(out: [u32; W]) -> Gather<M> {
    let mut moves = [Move { by: 0, mask: 0 }; M];
    let mut count = 0;
    let mut by = -7i32;
    while by <= 7 {
        let mut mask = 0u8;
        let mut j = 0;
        while j < W {
            if j as i32 - out[j] as i32 == by {
                mask |= 1 << out[j];
            }
            j += 1;
        }
        if mask != 0 {
            moves[count] = Move { by, mask };
            count += 1;
        }
        by += 1;
    }
    assert!(count == M, "M must be the number of distinct distances");
    let mut matrix = 0u64;
    let mut j = 0;
    while j < W {
        matrix |= (1u64 << out[j]) << (8 * (7 - j));
        j += 1;
    }
    Gather { moves, matrix }
}

/// An S-box circuit: four layers of `G` gates, then the gather of `M` moves.
pub(crate) struct Circuit<const G: usize, const M: usize> {
    pub layers: [[Gate; G]; 4],
    pub gather: Gather<M>,
}

/// S8.
pub(crate) const S8: Circuit<2, 6> = Circuit { layers: S8_LAYERS, gather: gather(S8_OUT) };
/// S8⁻¹.
pub(crate) const S8_INV: Circuit<2, 6> = Circuit { layers: S8_INV_LAYERS, gather: gather(S8_INV_OUT) };
/// S4.
pub(crate) const S4: Circuit<1, 2> = Circuit { layers: S4_LAYERS, gather: gather(S4_OUT) };
/// S4⁻¹.
pub(crate) const S4_INV: Circuit<1, 2> = Circuit { layers: S4_INV_LAYERS, gather: gather(S4_INV_OUT) };

/// Shifts left by `by` bits, right for a negative `by`.
#[inline(always)]
fn shift<B: Bits>(x: B, by: i32) -> B {
    if by >= 0 {
        x.shl(by as u32)
    } else {
        x.shr((-by) as u32)
    }
}

/// One gate's contribution: bit `a` & bit `b` moved to bit `target`, other bits 0.
#[inline(always)]
fn gate<B: Bits>(x: B, g: Gate) -> B {
    let a = shift(x, g.target as i32 - g.a as i32);
    let b = shift(x, g.target as i32 - g.b as i32);
    B::and3(a, b, B::splat8(1 << g.target))
}

/// One layer: every gate reads the layer's input (no gate's target is another's
/// source), so their contributions are computed side by side and XORed in once.
#[inline(always)]
fn layer<B: Bits, const N: usize>(x: B, gates: &[Gate; N]) -> B {
    match N {
        1 => x.xor(gate(x, gates[0])),
        _ => B::xor3(x, gate(x, gates[0]), gate(x, gates[1])),
    }
}

/// A whole S-box circuit on complemented cells: the layers in place, then the
/// one permutation.
#[inline(always)]
pub(crate) fn sbox<B: Bits, const G: usize, const M: usize>(x: B, c: &Circuit<G, M>) -> B {
    let x = layer(x, &c.layers[0]);
    let x = layer(x, &c.layers[1]);
    let x = layer(x, &c.layers[2]);
    let x = layer(x, &c.layers[3]);
    x.gather_bits(&c.gather)
}

/// The constants of round `r` in cells 0 and 4 (c0 = rc3..rc0, c1 = rc5 rc4) as
/// the first eight cells of a little-endian word. Public values: the table
/// index is the round number.
#[inline(always)]
pub(crate) fn round_constant_lo(r: usize) -> u64 {
    let rc = ROUND_CONSTANTS[r] as u64;
    (rc & 0xf) | ((rc >> 4) << 32)
}

/// What keeps the complemented state complemented across a round: XORed into
/// rows 2 and 3 before the linear layer of encryption (and after its inverse in
/// decryption), with `ones` the all-ones cell (0xff or 0x0f). Rows 2 and 3 are
/// the one vector `v` with `L(v) = L(ones) ^ ones` for `L = MixColumns ∘
/// ShiftRows`, and also `L⁻¹(ones) ^ ones`, so both directions use it.
pub(crate) const COMPLEMENT_FIX: [bool; 4] = [false, false, true, true];

/// MixColumns ∘ ShiftRows on 16 cells, for constants computed at compile time.
pub(crate) const fn linear(s: [u8; 16]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = s[SHIFT_ROWS[i]];
        i += 1;
    }
    let mut o = [0u8; 16];
    let mut c = 0;
    while c < 4 {
        let (a0, a1, a2, a3) = (t[c], t[4 + c], t[8 + c], t[12 + c]);
        o[c] = a0 ^ a2 ^ a3;
        o[4 + c] = a0;
        o[8 + c] = a1 ^ a2;
        o[12 + c] = a0 ^ a2;
        c += 1;
    }
    o
}

/// Every round's constants (c0 in cell 0, c1 in cell 4, c2 = 2 in cell 8)
/// through the linear layer, which is linear: what a round adds besides its
/// round tweakey, after the linear layer.
pub(crate) const CONSTANTS_AFTER_LINEAR: [[u8; 16]; MAX_ROUNDS] = {
    let mut out = [[0u8; 16]; MAX_ROUNDS];
    let mut r = 0;
    while r < MAX_ROUNDS {
        let mut s = [0u8; 16];
        s[0] = ROUND_CONSTANTS[r] & 0xf;
        s[4] = ROUND_CONSTANTS[r] >> 4;
        s[8] = 2;
        out[r] = linear(s);
        r += 1;
    }
    out
};

/// Source rows of each output row of MixColumns (`[[0,2,3],[0],[1,2],[0,2]]`),
/// padded with `NONE`.
const MC_ROWS: [[usize; 3]; 4] = [[0, 2, 3], [0, NONE, NONE], [1, 2, NONE], [0, 2, NONE]];
/// Source rows of each output row of inverse MixColumns.
const MC_INV_ROWS: [[usize; 3]; 4] = [[1, NONE, NONE], [1, 2, 3], [1, 3, NONE], [0, 3, NONE]];
const NONE: usize = usize::MAX;

/// Byte-shuffle controls (`pshufb` convention: 0x80 gives a zero byte) whose
/// three results XOR to MixColumns ∘ ShiftRows of the input: term `k` of output
/// cell (row `R`, column `c`) is the `k`-th source row of `R`, read through
/// ShiftRows.
pub(crate) const fn linear_shuffles() -> [[u8; 16]; 3] {
    let mut p = [[0x80u8; 16]; 3];
    let mut k = 0;
    while k < 3 {
        let mut i = 0;
        while i < 16 {
            let (row, col) = (i / 4, i % 4);
            let s = MC_ROWS[row][k];
            if s != NONE {
                p[k][i] = SHIFT_ROWS[4 * s + col] as u8;
            }
            i += 1;
        }
        k += 1;
    }
    p
}

/// Byte-shuffle controls whose three results XOR to ShiftRows⁻¹ ∘ MixColumns⁻¹
/// of the input: output cell `i` is cell `SHIFT_ROWS_INV[i]` of the inverse
/// MixColumns, whose row is `i`'s row.
pub(crate) const fn linear_inv_shuffles() -> [[u8; 16]; 3] {
    let mut p = [[0x80u8; 16]; 3];
    let mut k = 0;
    while k < 3 {
        let mut i = 0;
        while i < 16 {
            let row = i / 4;
            let col = SHIFT_ROWS_INV[i] % 4;
            let s = MC_INV_ROWS[row][k];
            if s != NONE {
                p[k][i] = (4 * s + col) as u8;
            }
            i += 1;
        }
        k += 1;
    }
    p
}

/// Each 16-cell constant as bytes: `ones` in rows 2 and 3 (see
/// [`COMPLEMENT_FIX`]) XOR the constant c2 = 2 of cell 8, the part of every
/// round's addition that is the same in all rounds.
pub(crate) const fn fixed_addition(ones: u8) -> [u8; 16] {
    let mut s = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        if COMPLEMENT_FIX[i / 4] {
            s[i] = ones;
        }
        i += 1;
    }
    s[8] ^= 2;
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::round::{mix_columns, mix_columns_inv, shift_rows, shift_rows_inv};
    use crate::spec::sbox::{sbox4, sbox4_inv, sbox8, sbox8_inv};

    /// Runs a circuit on all 256 (or 16) cell values, eight per word, through the
    /// complemented domain, against the specification's S-box.
    fn check<const G: usize, const M: usize>(c: &Circuit<G, M>, ones: u8, reference: fn(u8) -> u8) {
        let values = if ones == 0xff { 256 } else { 16 };
        for base in (0..values).step_by(8) {
            let cells: [u8; 8] = core::array::from_fn(|i| (base + i) as u8);
            let x = u64::from_le_bytes(cells) ^ u64::splat8(ones);
            let y = (sbox(x, c) ^ u64::splat8(ones)).to_le_bytes();
            for (c, y) in cells.iter().zip(y) {
                assert_eq!(y, reference(*c), "cell {c:#x}");
            }
        }
    }

    #[test]
    fn circuits_match_the_specification_sboxes() {
        check(&S8, 0xff, sbox8);
        check(&S8_INV, 0xff, sbox8_inv);
        check(&S4, 0x0f, sbox4);
        check(&S4_INV, 0x0f, sbox4_inv);
    }

    fn cells(seed: u8) -> [u8; 16] {
        core::array::from_fn(|i| (i as u8).wrapping_mul(73).wrapping_add(seed).rotate_left(3))
    }

    fn shuffled_xor(p: &[[u8; 16]; 3], s: &[u8; 16]) -> [u8; 16] {
        core::array::from_fn(|i| {
            p.iter().map(|p| if p[i] & 0x80 != 0 { 0 } else { s[p[i] as usize] }).fold(0, |a, b| a ^ b)
        })
    }

    #[test]
    fn shuffles_compute_the_linear_layer_and_its_inverse() {
        for seed in 0..8 {
            let s = cells(seed);
            let mut want = s;
            shift_rows(&mut want);
            mix_columns(&mut want);
            assert_eq!(shuffled_xor(&linear_shuffles(), &s), want);
            assert_eq!(linear(s), want);
            let mut back = s;
            mix_columns_inv(&mut back);
            shift_rows_inv(&mut back);
            assert_eq!(shuffled_xor(&linear_inv_shuffles(), &s), back);
        }
    }

    #[test]
    fn complement_fix_keeps_the_state_complemented() {
        for ones in [0xffu8, 0x0f] {
            let fix: [u8; 16] = core::array::from_fn(|i| if COMPLEMENT_FIX[i / 4] { ones } else { 0 });
            let all = [ones; 16];
            // Encryption: L(y ^ ones ^ fix) == L(y) ^ ones; by linearity, L(ones ^ fix) == ones.
            let l: [u8; 16] = linear(core::array::from_fn(|i| all[i] ^ fix[i]));
            assert_eq!(l, all);
            // Decryption: L⁻¹(ones) ^ fix == ones.
            let mut back = all;
            mix_columns_inv(&mut back);
            shift_rows_inv(&mut back);
            let got: [u8; 16] = core::array::from_fn(|i| back[i] ^ fix[i]);
            assert_eq!(got, all);
        }
    }
}
