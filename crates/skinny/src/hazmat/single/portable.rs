//! The portable single-block path: the state in two `u64` words (rows 0-1 and
//! rows 2-3, one cell per byte, little-endian), the S-box circuit on eight
//! cells per word, the linear layer on `u32` rows. Runs on every target; the
//! fallback the x86 paths are checked against.

use super::circuit::{self, Bits};
use crate::spec::tweakey::RoundTweakeys;
use crate::spec::{self, CellWidth};

impl Bits for u64 {
    #[inline(always)]
    fn splat8(b: u8) -> Self {
        u64::from(b) * 0x0101_0101_0101_0101
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        self ^ o
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
}

/// Rows 0-1 and rows 2-3 as words of one cell per byte.
type Words = [u64; 2];

#[inline(always)]
fn load(width: CellWidth, block: &[u8]) -> Words {
    let mut cells = [0u8; 16];
    spec::unpack_cells(width, block, &mut cells);
    let (lo, hi) = cells.split_at(8);
    let w = [u64::from_le_bytes(lo.try_into().expect("8 cells")), u64::from_le_bytes(hi.try_into().expect("8 cells"))];
    zeroize::Zeroize::zeroize(&mut cells);
    w
}

#[inline(always)]
fn store(width: CellWidth, w: Words, block: &mut [u8]) {
    let mut cells = [0u8; 16];
    cells[..8].copy_from_slice(&w[0].to_le_bytes());
    cells[8..].copy_from_slice(&w[1].to_le_bytes());
    spec::pack_cells(width, &cells, block);
    zeroize::Zeroize::zeroize(&mut cells);
}

/// Rows of a pair of words.
#[inline(always)]
fn rows(w: Words) -> [u32; 4] {
    [w[0] as u32, (w[0] >> 32) as u32, w[1] as u32, (w[1] >> 32) as u32]
}

#[inline(always)]
fn words(r: [u32; 4]) -> Words {
    [u64::from(r[0]) | (u64::from(r[1]) << 32), u64::from(r[2]) | (u64::from(r[3]) << 32)]
}

/// ShiftRows (row `i` rotates right by `i` cells: cell `j` moves to byte `j+i`,
/// a left rotation of the little-endian row) then MixColumns.
#[inline(always)]
fn linear(w: Words) -> Words {
    let [r0, r1, r2, r3] = rows(w);
    let (r1, r2, r3) = (r1.rotate_left(8), r2.rotate_left(16), r3.rotate_left(24));
    words([r0 ^ r2 ^ r3, r0, r1 ^ r2, r0 ^ r2])
}

/// Inverse MixColumns then inverse ShiftRows.
#[inline(always)]
fn linear_inv(w: Words) -> Words {
    let [b0, b1, b2, b3] = rows(w);
    let (r0, r1, r2, r3) = (b1, b1 ^ b2 ^ b3, b1 ^ b3, b0 ^ b3);
    words([r0, r1.rotate_right(8), r2.rotate_right(16), r3.rotate_right(24)])
}

/// The all-ones cell of the width, and what rows 2-3 take in every round: the
/// complement fix and c2 (see `circuit::fixed_addition`).
#[inline(always)]
fn ones_and_fixed(width: CellWidth) -> (u64, u64) {
    let ones = match width {
        CellWidth::Byte => 0xff,
        CellWidth::Nibble => 0x0f,
    };
    let fixed = circuit::fixed_addition(ones);
    (
        u64::splat8(ones),
        u64::from_le_bytes([fixed[8], fixed[9], fixed[10], fixed[11], fixed[12], fixed[13], fixed[14], fixed[15]]),
    )
}

/// Encrypts one block in place.
pub(crate) fn encrypt_block(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    match width {
        CellWidth::Byte => encrypt(width, rtk, block, |x| circuit::sbox(x, &circuit::S8)),
        CellWidth::Nibble => encrypt(width, rtk, block, |x| circuit::sbox(x, &circuit::S4)),
    }
}

/// Decrypts one block in place.
pub(crate) fn decrypt_block(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    match width {
        CellWidth::Byte => decrypt(width, rtk, block, |x| circuit::sbox(x, &circuit::S8_INV)),
        CellWidth::Nibble => decrypt(width, rtk, block, |x| circuit::sbox(x, &circuit::S4_INV)),
    }
}

#[inline(always)]
fn encrypt(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8], sbox: impl Fn(u64) -> u64) {
    let (ones, fixed) = ones_and_fixed(width);
    let mut w = load(width, block);
    w = [w[0] ^ ones, w[1] ^ ones];
    for (r, k) in rtk.as_cells().iter().enumerate() {
        let key = u64::from_le_bytes(*k) ^ circuit::round_constant_lo(r);
        w = linear([sbox(w[0]) ^ key, sbox(w[1]) ^ fixed]);
    }
    store(width, [w[0] ^ ones, w[1] ^ ones], block);
}

#[inline(always)]
fn decrypt(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8], sbox_inv: impl Fn(u64) -> u64) {
    let (ones, fixed) = ones_and_fixed(width);
    let mut w = load(width, block);
    w = [w[0] ^ ones, w[1] ^ ones];
    for (r, k) in rtk.as_cells().iter().enumerate().rev() {
        let key = u64::from_le_bytes(*k) ^ circuit::round_constant_lo(r);
        let v = linear_inv(w);
        w = [sbox_inv(v[0] ^ key), sbox_inv(v[1] ^ fixed)];
    }
    store(width, [w[0] ^ ones, w[1] ^ ones], block);
}
