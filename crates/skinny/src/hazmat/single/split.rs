//! The constants of the nibble-split path ([`super::Path::Ssse3Split`]),
//! computed at compile time from the specification's S-box, linear layer and
//! tweakey permutation.
//!
//! # S8 from four pairs of 16-entry tables
//!
//! The state is held as two registers: one with every cell's high nibble and
//! one with every low nibble (a value 0..15 per byte), so a byte shuffle whose
//! table is a 16-entry constant and whose indices are the nibbles looks up a
//! function of one nibble in every cell at once. S8 is not a sum of a function
//! of the high nibble and one of the low, but it is the composition of two maps
//! that nearly are:
//!
//! - `H1` ([`h1`]) sends a cell to eight wires of S8's own circuit (inputs and
//!   outputs of its first two NOR/XOR gates, see `spec::sbox`), each of which
//!   is the XOR of a function of the high and one of the low nibble, so
//!   `H1(x) = A[hi x] ^ B[lo x]`;
//! - `H2 = S8 ∘ H1⁻¹` is then `(C[hi y] | (y & 1)) ^ D[lo y]`: every output bit
//!   is a sum of a high and a low function, except bit 0, where the last gate
//!   meets bit 0 of `y` through an OR.
//!
//! Which eight wires, and where they sit, was found by trying every choice of
//! eight wires of the circuit that splits this way (one does); the tables are
//! then computed from `sbox8` alone, and the tests check `S8 = H2 ∘ H1` on all
//! 256 inputs.
//!
//! Each table `T` comes as two: `T_HI` (the high nibble of each entry) and
//! `T_LO` (the low nibble), since each output nibble goes to its own register.

use super::circuit::{linear_shuffles, CONSTANTS_AFTER_LINEAR};
use crate::spec::sbox::sbox8;
use crate::spec::tweakey::{MAX_ROUNDS, PT};

#[inline(always)]
const fn bit(x: u8, i: u32) -> u8 {
    (x >> i) & 1
}

/// `NOR(a, b)` on single bits.
#[inline(always)]
const fn nor(a: u8, b: u8) -> u8 {
    !(a | b) & 1
}

/// The first map: low nibble (bit 0 first) = (x1 ⊕ NOR(x0', x3), x7, x2, x3),
/// high nibble = (x0', x5, x4', x6 ⊕ NOR(x2, x1)), where x0' = x0 ⊕ NOR(x3, x2)
/// and x4' = x4 ⊕ NOR(x7, x6) are the outputs of S8's first layer.
pub(crate) const fn h1(x: u8) -> u8 {
    let x0p = bit(x, 0) ^ nor(bit(x, 3), bit(x, 2));
    let x4p = bit(x, 4) ^ nor(bit(x, 7), bit(x, 6));
    let t = bit(x, 1) ^ nor(x0p, bit(x, 3));
    let u = bit(x, 6) ^ nor(bit(x, 2), bit(x, 1));
    t | (bit(x, 7) << 1) | (bit(x, 2) << 2) | (bit(x, 3) << 3) | (x0p << 4) | (bit(x, 5) << 5) | (x4p << 6) | (u << 7)
}

/// `H2 = S8 ∘ H1⁻¹` as a 256-entry table (compile time only).
const fn h2_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut x = 0;
    while x < 256 {
        t[h1(x as u8) as usize] = sbox8(x as u8);
        x += 1;
    }
    t
}

/// The eight lookup tables of [`h1`] and `H2`, each as its high and low
/// nibbles: `H1(x) = A[hi] ^ B[lo]`, `H2(y) = (C[hi] | (y & 1)) ^ D[lo]`.
pub(crate) struct SboxTables {
    pub a_hi: [u8; 16],
    pub a_lo: [u8; 16],
    pub b_hi: [u8; 16],
    pub b_lo: [u8; 16],
    pub c_hi: [u8; 16],
    pub c_lo: [u8; 16],
    pub d_hi: [u8; 16],
    pub d_lo: [u8; 16],
}

/// The tables, from `sbox8`: `A[h] = H1(h·16)`, `B[l] = H1(l) ^ H1(0)`,
/// `D[l] = H2(l) ^ (l & 1)` (so that `C[0] = 0`), `C[h] = H2(h·16) ^ D[0]`.
pub(crate) const SBOX: SboxTables = {
    let h2 = h2_table();
    let mut t = SboxTables {
        a_hi: [0; 16],
        a_lo: [0; 16],
        b_hi: [0; 16],
        b_lo: [0; 16],
        c_hi: [0; 16],
        c_lo: [0; 16],
        d_hi: [0; 16],
        d_lo: [0; 16],
    };
    let d0 = h2[0];
    let mut i = 0;
    while i < 16 {
        let a = h1((i as u8) << 4);
        let b = h1(i as u8) ^ h1(0);
        let c = h2[i << 4] ^ d0;
        let d = h2[i] ^ (i as u8 & 1);
        (t.a_hi[i], t.a_lo[i]) = (a >> 4, a & 15);
        (t.b_hi[i], t.b_lo[i]) = (b >> 4, b & 15);
        (t.c_hi[i], t.c_lo[i]) = (c >> 4, c & 15);
        (t.d_hi[i], t.d_lo[i]) = (d >> 4, d & 15);
        i += 1;
    }
    t
};

/// What each round adds besides the round tweakey (c0 and c1 in cells 0 and 4,
/// c2 = 2 in cell 8), through the linear layer (which is linear) and split into
/// high and low nibbles: `[hi, lo]` per round.
pub(crate) const ROUND_ADDITION: [[[u8; 16]; 2]; MAX_ROUNDS] = {
    let mut out = [[[0u8; 16]; 2]; MAX_ROUNDS];
    let mut r = 0;
    while r < MAX_ROUNDS {
        let l = CONSTANTS_AFTER_LINEAR[r];
        let mut i = 0;
        while i < 16 {
            out[r][0][i] = l[i] >> 4;
            out[r][1][i] = l[i] & 15;
            i += 1;
        }
        r += 1;
    }
    out
};

/// Shuffle controls from a TK array (its 16 cells in their initial places) to
/// its round tweakey of round `r` (mod 16) through the linear layer: after `r`
/// rounds cell `i` of the array holds initial cell `σ_r(i)` (σ_0 = id,
/// σ_{r+1}(i) = σ_r(PT[i])), the round tweakey is cells 0..7, and with rows 2
/// and 3 zero the linear layer is the first of its three shuffles. The LFSRs of
/// TK2 and TK3 act on each cell alone, so they commute with this and are
/// applied to the arrays in their initial places (every cell has gone through
/// them ⌈r/2⌉ times by round `r`, since cells alternate between the halves).
pub(crate) const KEY_CONTROLS: [[u8; 16]; 16] = {
    let p0 = linear_shuffles()[0];
    let mut out = [[0x80u8; 16]; 16];
    let mut sigma = [0usize; 16];
    let mut i = 0;
    while i < 16 {
        sigma[i] = i;
        i += 1;
    }
    let mut r = 0;
    while r < 16 {
        let mut j = 0;
        while j < 16 {
            if p0[j] < 8 {
                out[r][j] = sigma[p0[j] as usize] as u8;
            }
            j += 1;
        }
        let mut next = [0usize; 16];
        let mut i = 0;
        while i < 16 {
            next[i] = sigma[PT[i]];
            i += 1;
        }
        sigma = next;
        r += 1;
    }
    out
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::tweakey::RoundTweakeys;
    use crate::Variant;

    fn h2(y: u8) -> u8 {
        let (hi, lo) = ((y >> 4) as usize, (y & 15) as usize);
        let t = &SBOX;
        let high = t.c_hi[hi] ^ t.d_hi[lo];
        let low = (t.c_lo[hi] | (y & 1)) ^ t.d_lo[lo];
        (high << 4) | low
    }

    #[test]
    fn the_two_maps_compose_to_s8() {
        let t = &SBOX;
        for x in 0..=255u8 {
            let (hi, lo) = ((x >> 4) as usize, (x & 15) as usize);
            let y = ((t.a_hi[hi] ^ t.b_hi[lo]) << 4) | (t.a_lo[hi] ^ t.b_lo[lo]);
            assert_eq!(y, h1(x), "H1({x:#x}) from its tables");
            assert_eq!(h2(y), sbox8(x), "S8({x:#x})");
        }
    }

    #[test]
    fn key_controls_give_the_round_tweakeys_through_the_linear_layer() {
        // TK1 only (no LFSR): the controls applied to TK1 give L(round tweakey).
        let tk: [u8; 16] = core::array::from_fn(|i| (i as u8).wrapping_mul(29) ^ 0x5c);
        let mut full = [0u8; 48];
        full[..16].copy_from_slice(&tk);
        let rtk = RoundTweakeys::expand(Variant::Skinny128_384, &full);
        for (r, k) in rtk.as_cells().iter().enumerate() {
            let mut rows01 = [0u8; 16];
            rows01[..8].copy_from_slice(k);
            let want = super::super::circuit::linear(rows01);
            let got: [u8; 16] = core::array::from_fn(|j| match KEY_CONTROLS[r % 16][j] {
                0x80 => 0,
                c => tk[c as usize],
            });
            assert_eq!(got, want, "round {r}");
        }
    }
}
