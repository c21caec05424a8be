//! One batch of `64 · W::LANES` blocks: into bitsliced form, all rounds, and back.
//!
//! Lane `k` of a word carries blocks `64·k .. 64·k + 64`. Each 64-bit half of the
//! blocks (a 64-bit block has one) is read as a little-endian word and the 64×64
//! bit matrix of a lane is transposed; the slices are then named by (cell, bit).

use super::keys::SlicedTweakeys;
use super::round::{decrypt_round, encrypt_round, State};
use super::transpose::transpose64;
use super::word::Word;

/// Which way a batch goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    Encrypt,
    Decrypt,
}

/// The (cell, bit) that slice `j` of half `half` holds after the transposition.
/// 4-bit cells: the high nibble of byte `i` is cell `2i`, the low nibble cell `2i + 1`.
#[inline(always)]
const fn slice_position<const BITS: usize>(half: usize, j: usize) -> (usize, usize) {
    let (byte, bit) = (j / 8, j % 8);
    if BITS == 8 {
        (8 * half + byte, bit)
    } else if bit >= 4 {
        (2 * byte, bit - 4)
    } else {
        (2 * byte + 1, bit)
    }
}

#[inline(always)]
fn read_u64(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Loads a batch (`blocks` is exactly `64 · W::LANES` blocks of `BITS · 2` bytes).
#[inline(always)]
fn load<W: Word, const BITS: usize>(blocks: &[u8], state: &mut State<W>) {
    let block_bytes = 2 * BITS;
    for half in 0..BITS / 4 {
        let mut m: [W; 64] =
            core::array::from_fn(|i| W::from_lanes(|k| read_u64(blocks, (64 * k + i) * block_bytes + 8 * half)));
        transpose64(&mut m);
        for (j, w) in m.iter().enumerate() {
            let (cell, bit) = slice_position::<BITS>(half, j);
            state[cell][bit] = *w;
        }
    }
}

/// Stores a batch back into byte order (the inverse of [`load`]).
#[inline(always)]
fn store<W: Word, const BITS: usize>(state: &State<W>, blocks: &mut [u8]) {
    let block_bytes = 2 * BITS;
    for half in 0..BITS / 4 {
        let mut m: [W; 64] = core::array::from_fn(|j| {
            let (cell, bit) = slice_position::<BITS>(half, j);
            state[cell][bit]
        });
        transpose64(&mut m);
        for (i, w) in m.iter().enumerate() {
            w.to_lanes(|k, v| {
                let at = (64 * k + i) * block_bytes + 8 * half;
                blocks[at..at + 8].copy_from_slice(&v.to_le_bytes());
            });
        }
    }
}

/// Encrypts or decrypts one full batch in place with `rounds` rounds (an even
/// number, as for every SKINNY variant). `BITS` is the cell width, 4 or 8.
#[inline(always)]
pub(crate) fn crypt_batch<W: Word, const BITS: usize>(
    keys: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    blocks: &mut [u8],
) {
    debug_assert_eq!(blocks.len(), 64 * W::LANES * 2 * BITS);
    debug_assert_eq!(rounds % 2, 0);
    let zero = W::splat(0);
    let mut a: State<W> = [[zero; 8]; 16];
    let mut b: State<W> = [[zero; 8]; 16];
    load::<W, BITS>(blocks, &mut a);
    match dir {
        Direction::Encrypt => {
            for r in (0..rounds).step_by(2) {
                encrypt_round::<W, BITS>(&a, &mut b, keys.round(r));
                encrypt_round::<W, BITS>(&b, &mut a, keys.round(r + 1));
            }
        }
        Direction::Decrypt => {
            for r in (0..rounds).step_by(2).rev() {
                decrypt_round::<W, BITS>(&a, &mut b, keys.round(r + 1));
                decrypt_round::<W, BITS>(&b, &mut a, keys.round(r));
            }
        }
    }
    store::<W, BITS>(&a, blocks);
}

/// The largest batch in bytes: 256 blocks of 16 bytes.
const MAX_BATCH_BYTES: usize = 256 * 16;

/// Encrypts or decrypts whole blocks in place, one batch at a time. A tail shorter
/// than a batch is copied into a zero-padded batch, processed like any other (so
/// it takes the same time whatever its content), and copied back.
#[inline(always)]
pub(crate) fn crypt_blocks<W: Word, const BITS: usize>(
    keys: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
) {
    let batch_bytes = 64 * W::LANES * 2 * BITS;
    let mut chunks = data.chunks_exact_mut(batch_bytes);
    for chunk in &mut chunks {
        crypt_batch::<W, BITS>(keys, rounds, dir, chunk);
    }
    let tail = chunks.into_remainder();
    if !tail.is_empty() {
        let mut buf = [0u8; MAX_BATCH_BYTES];
        let padded = &mut buf[..batch_bytes];
        padded[..tail.len()].copy_from_slice(tail);
        crypt_batch::<W, BITS>(keys, rounds, dir, padded);
        tail.copy_from_slice(&padded[..tail.len()]);
        zeroize::Zeroize::zeroize(&mut buf);
    }
}
