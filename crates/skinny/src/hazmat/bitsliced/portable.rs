//! The portable bitsliced path: one `u64` per bit slice, 64 blocks a batch. Runs on
//! every target; it is also the fallback where AVX2 is missing.

use super::batch::{crypt_blocks, Direction};
use super::keys::SlicedTweakeys;
use crate::spec::CellWidth;

/// Blocks per batch of this path.
pub const BATCH_BLOCKS: usize = 64;

/// Encrypts or decrypts whole blocks in place, 64 at a time (a shorter tail is
/// padded with zeros and the padding thrown away).
pub(crate) fn crypt(keys: &SlicedTweakeys, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8]) {
    match width {
        CellWidth::Nibble => crypt_blocks::<u64, 4>(keys, rounds, dir, data),
        CellWidth::Byte => crypt_blocks::<u64, 8>(keys, rounds, dir, data),
    }
}

/// Per-block tweakeys (see `super::tweakeys`), 64 blocks at a time; `tk_count`
/// is the variant's number of TK arrays (1 to 3).
pub(crate) fn crypt_per_block(
    width: CellWidth,
    tk_count: usize,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    tweakeys: &[u8],
) {
    super::tweakeys::crypt_blocks_for::<u64>(width, tk_count, rounds, dir, data, tweakeys);
}
