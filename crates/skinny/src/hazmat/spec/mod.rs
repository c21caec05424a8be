//! The portable implementation: SKINNY exactly as the specification describes it,
//! one cell per byte, with no table indexed by secret data (the S-boxes are
//! computed by their NOR/XOR circuits). Every faster backend is checked against it.
//!
//! - [`sbox`]: S4, S8 and their inverses (and as tables, for analysis).
//! - [`round`]: the round function, one step a function.
//! - [`tweakey`]: the tweakey schedule.

pub mod round;
pub mod sbox;
pub mod tweakey;

use round::State;
use tweakey::RoundTweakeys;

/// The cell size of a variant: 4 bits (SKINNY-64-*) or 8 bits (SKINNY-128-*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellWidth {
    /// 4-bit cells, 64-bit blocks.
    Nibble,
    /// 8-bit cells, 128-bit blocks.
    Byte,
}

impl CellWidth {
    /// Bytes in one block (and in one TK array).
    pub const fn block_bytes(self) -> usize {
        match self {
            CellWidth::Nibble => 8,
            CellWidth::Byte => 16,
        }
    }
}

/// Spreads a block's bytes into 16 cells, row by row; for 4-bit cells the high
/// nibble of each byte comes first.
#[inline(always)]
pub fn unpack_cells(width: CellWidth, bytes: &[u8], cells: &mut State) {
    match width {
        CellWidth::Byte => cells.copy_from_slice(&bytes[..16]),
        CellWidth::Nibble => {
            for (i, b) in bytes[..8].iter().enumerate() {
                cells[2 * i] = b >> 4;
                cells[2 * i + 1] = b & 0xf;
            }
        }
    }
}

/// The inverse of [`unpack_cells`].
#[inline(always)]
pub fn pack_cells(width: CellWidth, cells: &State, bytes: &mut [u8]) {
    match width {
        CellWidth::Byte => bytes[..16].copy_from_slice(cells),
        CellWidth::Nibble => {
            for (i, b) in bytes[..8].iter_mut().enumerate() {
                *b = (cells[2 * i] << 4) | cells[2 * i + 1];
            }
        }
    }
}

/// Encrypts the cells of one block in place.
#[inline]
pub fn encrypt_cells(width: CellWidth, rtk: &RoundTweakeys, s: &mut State) {
    for (r, k) in rtk.as_cells().iter().enumerate() {
        round::round(width, s, r, k);
    }
}

/// Decrypts the cells of one block in place.
#[inline]
pub fn decrypt_cells(width: CellWidth, rtk: &RoundTweakeys, s: &mut State) {
    for (r, k) in rtk.as_cells().iter().enumerate().rev() {
        round::round_inv(width, s, r, k);
    }
}

/// Encrypts one block (`width.block_bytes()` bytes) in place.
#[inline]
pub fn encrypt_block(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    let mut s = [0u8; 16];
    unpack_cells(width, block, &mut s);
    encrypt_cells(width, rtk, &mut s);
    pack_cells(width, &s, block);
}

/// Decrypts one block in place.
#[inline]
pub fn decrypt_block(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    let mut s = [0u8; 16];
    unpack_cells(width, block, &mut s);
    decrypt_cells(width, rtk, &mut s);
    pack_cells(width, &s, block);
}
