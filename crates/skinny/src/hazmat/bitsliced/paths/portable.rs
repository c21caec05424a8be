//! The portable bitsliced path: one `u64` per bit slice, 64 blocks a batch. Runs on
//! every target; it is also the fallback where AVX2 is missing.

use crate::hazmat::bitsliced::batch::{crypt_blocks, Direction};
use crate::hazmat::bitsliced::keys::SlicedTweakeys;
use crate::hazmat::bitsliced::per_block::{crypt_blocks_for, BlockKeys};
use crate::spec::CellWidth;

/// Blocks per batch of this path.
pub const BATCH_BLOCKS: usize = 64;

/// Encrypts or decrypts whole blocks in place, 64 at a time (a shorter tail is
/// padded with zeros and the padding thrown away).
pub(crate) fn crypt(keys: &SlicedTweakeys, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8]) {
    match width {
        CellWidth::Nibble => crypt_width::<4>(keys, rounds, dir, data),
        CellWidth::Byte => crypt_width::<8>(keys, rounds, dir, data),
    }
}

/// One cell width's batches, a frame of its own per width (in one frame the
/// two widths' buffers would add up).
#[inline(never)]
fn crypt_width<const BITS: usize>(keys: &SlicedTweakeys, rounds: usize, dir: Direction, data: &mut [u8]) {
    crypt_blocks::<u64, BITS>(keys, rounds, dir, data);
}

/// Per-block tweakeys (see `bitsliced::per_block`), 64 blocks at a time.
pub(crate) fn crypt_per_block(width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8], keys: BlockKeys<'_>) {
    crypt_blocks_for::<u64>(width, rounds, dir, data, keys);
}
