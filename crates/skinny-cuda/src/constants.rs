//! The data each kernel reads from `__constant__` memory, built on the host
//! and written into a loaded module ([`upload`]).
//!
//! Public data (the paper's T tables, from the S-box) and secret data (round
//! tweakeys in the layout a kernel wants). Secret buffers are wiped on drop.

use crate::error::GpuError;
use cudarc::driver::{CudaModule, CudaStream};
use skinny::hazmat::bitsliced::round_key_bits;
use skinny::hazmat::round_tweakeys;
use skinny::hazmat::spec::round::{self, ROUND_CONSTANTS};
use skinny::hazmat::spec::sbox::{sbox8, sbox8_inv};
use skinny::{CellWidth, Skinny};
use std::sync::Arc;
use zeroize::Zeroizing;

/// The most rounds of any variant; the size of the kernels' per-round arrays.
pub use crate::kernels::MAX_ROUNDS;

/// A `__constant__` symbol's contents: its name in the kernel source and words.
pub struct Symbol {
    /// The symbol's name in the kernel source.
    pub name: &'static str,
    /// The words to write there (wiped on drop: may hold key material).
    pub words: Zeroizing<Vec<u32>>,
}

/// The round constant cells of round `r`: c0 in cell 0, c1 in cell 4, c2 = 2 in cell 8.
fn constant_cells(r: usize) -> [u8; 16] {
    let rc = ROUND_CONSTANTS[r];
    let mut k = [0u8; 16];
    k[0] = rc & 0xf;
    k[4] = rc >> 4;
    k[8] = 0x2;
    k
}

/// The round tweakey of round `r` as 16 cells (rows 2, 3 zero).
fn tweakey_cells(cipher: &Skinny, r: usize) -> Zeroizing<[u8; 16]> {
    let mut k = Zeroizing::new([0u8; 16]);
    k[..8].copy_from_slice(&round_tweakeys(cipher).as_cells()[r]);
    k
}

/// Masks for the bitsliced kernels: per round, cells 0..7, each cell's bits from
/// bit 0 up (stride 64 words a round), ~0 where the round tweakey XOR the round
/// constants (c0, c1) has a 1. The constant c2 = 2 of row 2 is applied in the
/// kernel.
pub fn bitsliced_masks(cipher: &Skinny) -> Symbol {
    let rounds = cipher.rounds();
    Symbol { name: "round_masks", words: masks_in_order(cipher, (0..rounds).collect()) }
}

/// [`bitsliced_masks`] with the rounds in reverse order (`round_masks_rev`), for
/// the decryption loop.
pub fn bitsliced_masks_reversed(cipher: &Skinny) -> Symbol {
    let rounds = cipher.rounds();
    Symbol { name: "round_masks_rev", words: masks_in_order(cipher, (0..rounds).rev().collect()) }
}

/// Round masks, slot `i` holding those of round `order[i]`.
fn masks_in_order(cipher: &Skinny, order: Vec<usize>) -> Zeroizing<Vec<u32>> {
    let cb = match cipher.variant().cell_width() {
        CellWidth::Nibble => 4,
        CellWidth::Byte => 8,
    };
    let mut words = Zeroizing::new(vec![0u32; MAX_ROUNDS * 64]);
    for (slot, &r) in order.iter().enumerate() {
        // The same key bits as the CPU's bitsliced code, packed the kernels' way:
        // `cb` bits per cell, so 4-bit cells take 32 words, not 64.
        let bits = Zeroizing::new(round_key_bits(round_tweakeys(cipher), r));
        for cell in 0..8 {
            for bit in 0..cb {
                // Build the mask without a branch on the key bit.
                words[slot * 64 + cell * cb + bit] = 0u32.wrapping_sub(((*bits >> (8 * cell + bit)) & 1) as u32);
            }
        }
    }
    words
}

/// ShiftRows of a cell array, by the specification code.
fn shift_rows(k: &[u8; 16]) -> [u8; 16] {
    let mut o = *k;
    round::shift_rows(&mut o);
    o
}

/// MixColumns of a cell array, by the specification code.
fn mix_columns(k: &[u8; 16]) -> [u8; 16] {
    let mut o = *k;
    round::mix_columns(&mut o);
    o
}

/// Column words of a cell array: byte r of word c is cell (r, c).
fn column_words(k: &[u8; 16]) -> [u32; 4] {
    core::array::from_fn(|c| u32::from_le_bytes([k[c], k[4 + c], k[8 + c], k[12 + c]]))
}

/// A T table: `f(x)` in each row of `rows`.
fn spread(f: impl Fn(u8) -> u8, rows: &[usize]) -> Vec<u32> {
    (0..=255u8).map(|x| rows.iter().fold(0u32, |w, &r| w | (u32::from(f(x)) << (8 * r)))).collect()
}

/// Everything the paper's kernel reads: the T tables (public, from the S-box) and
/// the round tweakeys and constants through ShiftRows and MixColumns (encryption)
/// or through ShiftRows (decryption).
pub fn paper_symbols(cipher: &Skinny) -> Vec<Symbol> {
    // Rows selected by each column of MixColumns [[1,0,1,1],[1,0,0,0],[0,1,1,0],[1,0,1,0]]
    // and of its inverse [[0,1,0,0],[0,1,1,1],[0,1,0,1],[1,0,0,1]].
    let enc_rows: [&[usize]; 4] = [&[0, 1, 3], &[2], &[0, 2, 3], &[0]];
    let dec_rows: [&[usize]; 4] = [&[3], &[0, 1, 2], &[1], &[1, 2, 3]];
    let t: Vec<u32> = enc_rows.iter().flat_map(|rows| spread(sbox8, rows)).collect();
    let ti: Vec<u32> = dec_rows.iter().flat_map(|rows| spread(sbox8_inv, rows)).collect();
    let sinv: Vec<u32> = (0..=255u8).map(|x| u32::from(sbox8_inv(x))).collect();

    let mut rk = Zeroizing::new(vec![0u32; MAX_ROUNDS * 4]);
    let mut rc = vec![0u32; MAX_ROUNDS * 4];
    let mut dk = Zeroizing::new(vec![0u32; MAX_ROUNDS * 4]);
    let mut dc = vec![0u32; MAX_ROUNDS * 4];
    for r in 0..cipher.rounds() {
        let k = tweakey_cells(cipher, r);
        let c = constant_cells(r);
        rk[4 * r..4 * r + 4].copy_from_slice(&column_words(&mix_columns(&shift_rows(&k))));
        rc[4 * r..4 * r + 4].copy_from_slice(&column_words(&mix_columns(&shift_rows(&c))));
        dk[4 * r..4 * r + 4].copy_from_slice(&column_words(&shift_rows(&k)));
        dc[4 * r..4 * r + 4].copy_from_slice(&column_words(&shift_rows(&c)));
    }
    vec![
        Symbol { name: "T", words: Zeroizing::new(t) },
        Symbol { name: "TI", words: Zeroizing::new(ti) },
        Symbol { name: "SINV", words: Zeroizing::new(sinv) },
        Symbol { name: "RK", words: rk },
        Symbol { name: "RC", words: Zeroizing::new(rc) },
        Symbol { name: "DK", words: dk },
        Symbol { name: "DC", words: Zeroizing::new(dc) },
    ]
}

/// Writes each symbol into `module`'s `__constant__` memory on `stream`, and
/// waits for the copies (the host's copy of the words is wiped as it goes).
///
/// # Errors
/// A symbol the module lacks, one smaller than its data
/// ([`GpuError::ConstantSize`]), a failed copy.
pub fn upload(module: &Arc<CudaModule>, stream: &Arc<CudaStream>, symbols: &[Symbol]) -> Result<(), GpuError> {
    for s in symbols {
        let bytes: Zeroizing<Vec<u8>> = Zeroizing::new(s.words.iter().flat_map(|w| w.to_le_bytes()).collect());
        let mut view = module.get_global(s.name, stream).map_err(GpuError::driver("finding a kernel constant"))?;
        if view.len() < bytes.len() {
            return Err(GpuError::ConstantSize { name: s.name, have: view.len(), need: bytes.len() });
        }
        stream.memcpy_htod(&bytes[..], &mut view).map_err(GpuError::driver("uploading kernel constants"))?;
    }
    stream.synchronize().map_err(GpuError::driver("uploading kernel constants"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny::Variant;

    #[test]
    fn masks_are_all_or_nothing_and_rows_beyond_the_rounds_are_zero() {
        let c = Skinny::new(Variant::Skinny64_64, &[0xa5; 8]).unwrap();
        let m = bitsliced_masks(&c);
        assert!(m.words.iter().all(|&w| w == 0 || w == u32::MAX));
        assert!(m.words[32 * 64..].iter().all(|&w| w == 0));
        // Round 0 of SKINNY-64: cell 0 gets c0 = 1, so its bit 0 is the key bit flipped.
        let k0 = round_tweakeys(&c).as_cells()[0][0];
        assert_eq!(m.words[0] == u32::MAX, (k0 ^ 1) & 1 == 1);
    }

    #[test]
    fn t_tables_spread_the_sbox() {
        let s = paper_symbols(&Skinny::new(Variant::Skinny128_256, &[3; 32]).unwrap());
        let t = &s[0].words;
        assert_eq!(t[0], u32::from_le_bytes([0x65, 0x65, 0, 0x65]));
        assert_eq!(t[256 + 1], u32::from_le_bytes([0, 0, 0x4c, 0]));
    }
}
