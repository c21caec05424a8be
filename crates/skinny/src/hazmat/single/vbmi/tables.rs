//! The VBMI path's constants, computed at compile time from the
//! specification: the S-boxes as 256-byte tables, the LFSRs as GFNI
//! matrices, the round constants through the linear layer.

use super::super::circuit::linear;
use crate::spec::sbox::{sbox8, sbox8_inv};
use crate::spec::tweakey::{lfsr_tk2, lfsr_tk3};
use crate::spec::CellWidth;

/// S8 as a 256-byte table.
pub(super) const S8_TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = sbox8(i as u8);
        i += 1;
    }
    t
};

/// S8⁻¹ as a 256-byte table.
pub(super) const S8_INV_TABLE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = sbox8_inv(i as u8);
        i += 1;
    }
    t
};

/// The GFNI matrix of a linear map on bytes given by the images of its eight
/// unit vectors (`img[i]` = image of bit `i`): row `7 - j` (byte `7 - j` of
/// the `u64`) holds the input bits that output bit `j` sums.
const fn affine_matrix(img: [u8; 8]) -> u64 {
    let mut m = 0u64;
    let mut j = 0;
    while j < 8 {
        let mut row = 0u8;
        let mut i = 0;
        while i < 8 {
            if (img[i] >> j) & 1 == 1 {
                row |= 1 << i;
            }
            i += 1;
        }
        m |= (row as u64) << (8 * (7 - j));
        j += 1;
    }
    m
}

/// TK2's and TK3's LFSRs on 8-bit cells as GFNI matrices (they are linear).
pub(super) const LFSR2_MATRIX: u64 = {
    let mut img = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        img[i] = lfsr_tk2(CellWidth::Byte, 1 << i);
        i += 1;
    }
    affine_matrix(img)
};
pub(super) const LFSR3_MATRIX: u64 = {
    let mut img = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        img[i] = lfsr_tk3(CellWidth::Byte, 1 << i);
        i += 1;
    }
    affine_matrix(img)
};

/// c2 = 2 in cell 8 alone, before and after the linear layer (the part of the
/// constants that is the same every round; c0 and c1 come with the round
/// tweakey cells of a `RoundTweakeys`).
pub(super) const C2: [u8; 16] = {
    let mut s = [0u8; 16];
    s[8] = 2;
    s
};
pub(super) const C2_AFTER_LINEAR: [u8; 16] = linear(C2);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lfsr_matrices_are_the_lfsrs() {
        // Applied bit by bit as GFNI does: output bit j is the parity of row
        // 7 - j AND the input.
        let apply = |m: u64, x: u8| -> u8 {
            (0..8).fold(0u8, |acc, j| acc | ((((m >> (8 * (7 - j))) as u8 & x).count_ones() as u8 & 1) << j))
        };
        for x in 0..=255u8 {
            assert_eq!(apply(LFSR2_MATRIX, x), lfsr_tk2(CellWidth::Byte, x));
            assert_eq!(apply(LFSR3_MATRIX, x), lfsr_tk3(CellWidth::Byte, x));
        }
    }

    #[test]
    fn the_tables_are_the_sboxes() {
        for x in 0..=255u8 {
            assert_eq!(S8_INV_TABLE[usize::from(S8_TABLE[usize::from(x)])], x);
        }
    }
}
