//! The round function and its inverse, one specification step a function.
//!
//! The state is 16 cells, row by row, one cell per byte (4-bit cells use the low
//! nibble). A round is SubCells, AddConstants, AddRoundTweakey, ShiftRows,
//! MixColumns.

use super::sbox::{sbox4, sbox4_inv, sbox8, sbox8_inv};
use super::CellWidth;

/// The state: 16 cells, row by row.
pub type State = [u8; 16];

/// The 6-bit round-constant LFSR: (rc5..rc0) → (rc4..rc0, rc5⊕rc4⊕1), started at 0
/// and stepped before each round. Public values, so a table is fine here.
pub const ROUND_CONSTANTS: [u8; 62] = {
    let mut rc = [0u8; 62];
    let mut x = 0u8;
    let mut i = 0;
    while i < 62 {
        x = ((x << 1) & 0x3f) | (((x >> 5) ^ (x >> 4) ^ 1) & 1);
        rc[i] = x;
        i += 1;
    }
    rc
};

/// ShiftRows: row `r` rotates right by `r` cells; cell `i` takes cell `SHIFT_ROWS[i]`.
pub const SHIFT_ROWS: [usize; 16] = [0, 1, 2, 3, 7, 4, 5, 6, 10, 11, 8, 9, 13, 14, 15, 12];

/// The inverse of [`SHIFT_ROWS`].
pub const SHIFT_ROWS_INV: [usize; 16] = [0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14];

/// SubCells: every cell through the S-box.
#[inline(always)]
pub fn sub_cells(width: CellWidth, s: &mut State) {
    for c in s.iter_mut() {
        *c = match width {
            CellWidth::Nibble => sbox4(*c),
            CellWidth::Byte => sbox8(*c),
        };
    }
}

/// Inverse SubCells.
#[inline(always)]
pub fn sub_cells_inv(width: CellWidth, s: &mut State) {
    for c in s.iter_mut() {
        *c = match width {
            CellWidth::Nibble => sbox4_inv(*c),
            CellWidth::Byte => sbox8_inv(*c),
        };
    }
}

/// AddConstants: c0 = rc3..rc0 into cell 0, c1 = rc5 rc4 into cell 4, c2 = 2 into
/// cell 8. XOR is its own inverse, so decryption uses this too.
#[inline(always)]
pub fn add_constants(s: &mut State, round: usize) {
    let rc = ROUND_CONSTANTS[round];
    s[0] ^= rc & 0xf;
    s[4] ^= rc >> 4;
    s[8] ^= 0x2;
}

/// AddRoundTweakey: the round tweakey into the first two rows.
#[inline(always)]
pub fn add_round_tweakey(s: &mut State, rtk: &[u8; 8]) {
    for i in 0..8 {
        s[i] ^= rtk[i];
    }
}

/// ShiftRows.
#[inline(always)]
pub fn shift_rows(s: &mut State) {
    let old = *s;
    for i in 0..16 {
        s[i] = old[SHIFT_ROWS[i]];
    }
}

/// Inverse ShiftRows.
#[inline(always)]
pub fn shift_rows_inv(s: &mut State) {
    let old = *s;
    for i in 0..16 {
        s[i] = old[SHIFT_ROWS_INV[i]];
    }
}

/// MixColumns: each column (a0,a1,a2,a3) times the binary matrix
/// `[[1,0,1,1],[1,0,0,0],[0,1,1,0],[1,0,1,0]]`, i.e. (a0⊕a2⊕a3, a0, a1⊕a2, a0⊕a2).
#[inline(always)]
pub fn mix_columns(s: &mut State) {
    for c in 0..4 {
        let (a0, a1, a2, a3) = (s[c], s[4 + c], s[8 + c], s[12 + c]);
        s[c] = a0 ^ a2 ^ a3;
        s[4 + c] = a0;
        s[8 + c] = a1 ^ a2;
        s[12 + c] = a0 ^ a2;
    }
}

/// Inverse MixColumns: from (b0,b1,b2,b3) back to (b1, b1⊕b2⊕b3, b1⊕b3, b0⊕b3).
#[inline(always)]
pub fn mix_columns_inv(s: &mut State) {
    for c in 0..4 {
        let (b0, b1, b2, b3) = (s[c], s[4 + c], s[8 + c], s[12 + c]);
        s[c] = b1;
        s[4 + c] = b1 ^ b2 ^ b3;
        s[8 + c] = b1 ^ b3;
        s[12 + c] = b0 ^ b3;
    }
}

/// One encryption round.
#[inline(always)]
pub fn round(width: CellWidth, s: &mut State, round: usize, rtk: &[u8; 8]) {
    sub_cells(width, s);
    add_constants(s, round);
    add_round_tweakey(s, rtk);
    shift_rows(s);
    mix_columns(s);
}

/// One decryption round: the steps of [`round`] undone in reverse order.
#[inline(always)]
pub fn round_inv(width: CellWidth, s: &mut State, round: usize, rtk: &[u8; 8]) {
    mix_columns_inv(s);
    shift_rows_inv(s);
    add_round_tweakey(s, rtk);
    add_constants(s, round);
    sub_cells_inv(width, s);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_constants_start_as_in_the_specification() {
        // The specification lists the constants as 01, 03, 07, 0F, 1F, 3E, 3D, 3B, ...
        assert_eq!(&ROUND_CONSTANTS[..8], &[0x01, 0x03, 0x07, 0x0f, 0x1f, 0x3e, 0x3d, 0x3b]);
    }

    #[test]
    fn linear_layers_invert() {
        let mut s: State = core::array::from_fn(|i| (i as u8).wrapping_mul(37).wrapping_add(11));
        let orig = s;
        shift_rows(&mut s);
        mix_columns(&mut s);
        mix_columns_inv(&mut s);
        shift_rows_inv(&mut s);
        assert_eq!(s, orig);
    }
}
