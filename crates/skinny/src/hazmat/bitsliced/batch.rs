//! One batch of `64 · W::LANES` blocks: into bitsliced form, all rounds, and back.
//!
//! Each 64-bit half of the blocks (a 64-bit block has one) is read as a
//! little-endian word, 64 rows of `W::LANES` blocks (see [`Word::load_row16`]), and
//! the 64×64 bit matrix of each lane is transposed; the slices are then named by
//! (cell, bit).

use super::keys::SlicedTweakeys;
use super::round::{RoundWord, State};
use super::transpose::transpose64;
use super::word::Word;
use super::work::{halves, states, PadBuffer, Words, MAX_BATCH_BYTES, STATE_WORDS};

/// Which way blocks go through the cipher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Plaintext to ciphertext.
    Encrypt,
    /// Ciphertext to plaintext.
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

/// Loads a batch (`blocks` is exactly `64 · W::LANES` blocks of `BITS · 2`
/// bytes) into `state`, with the caller's scratch for the transposition: one
/// scratch serves every load and store of a call (a batch's worth of words, not
/// one per use), and a caller loading secret values (per-block tweakeys) can
/// wipe it afterwards.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(super) fn load_with<W: Word, const BITS: usize>(blocks: &[u8], state: &mut State<W>, halves: &mut [[W; 64]; 2]) {
    for i in 0..64 {
        if BITS == 8 {
            let (lo, hi) = W::load_row16(blocks, i);
            halves[0][i] = lo;
            halves[1][i] = hi;
        } else {
            halves[0][i] = W::load_row8(blocks, i);
        }
    }
    transpose_into::<W, BITS>(halves, state);
}

/// The longest row of a batch: 8 blocks (AVX-512) of 16 bytes.
pub(super) const MAX_ROW_BYTES: usize = MAX_BATCH_BYTES / 64;

/// [`load_with`] of a batch whose rows (`W::LANES` blocks each) `fill` writes,
/// one at a time, into `row` (row `i` into `row[..W::LANES · BITS · 2]`):
/// for values gathered from elsewhere (per-block tweakeys), without a whole
/// gathered batch on the stack.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(super) fn load_gathered<W: Word, const BITS: usize>(
    mut fill: impl FnMut(usize, &mut [u8]),
    row: &mut [u8; MAX_ROW_BYTES],
    state: &mut State<W>,
    halves: &mut [[W; 64]; 2],
) {
    let row = &mut row[..W::LANES * 2 * BITS];
    for i in 0..64 {
        fill(i, row);
        if BITS == 8 {
            let (lo, hi) = W::load_row16(row, 0);
            halves[0][i] = lo;
            halves[1][i] = hi;
        } else {
            halves[0][i] = W::load_row8(row, 0);
        }
    }
    transpose_into::<W, BITS>(halves, state);
}

/// The second half of a load: each 64×64 matrix transposed, its slices named
/// by (cell, bit).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn transpose_into<W: Word, const BITS: usize>(halves: &mut [[W; 64]; 2], state: &mut State<W>) {
    for (half, m) in halves.iter_mut().enumerate().take(BITS / 4) {
        transpose64(m);
        for (j, w) in m.iter().enumerate() {
            let (cell, bit) = slice_position::<BITS>(half, j);
            state[cell][bit] = *w;
        }
    }
}

/// Stores a batch back into byte order (the inverse of [`load_with`]), with the
/// caller's scratch for the transposition (kept across batches, so it is not
/// zeroed for every one).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(super) fn store_with<W: Word, const BITS: usize>(state: &State<W>, blocks: &mut [u8], halves: &mut [[W; 64]; 2]) {
    for (half, m) in halves.iter_mut().enumerate().take(BITS / 4) {
        for (j, w) in m.iter_mut().enumerate() {
            let (cell, bit) = slice_position::<BITS>(half, j);
            *w = state[cell][bit];
        }
        transpose64(m);
    }
    for i in 0..64 {
        if BITS == 8 {
            W::store_row16(halves[0][i], halves[1][i], blocks, i);
        } else {
            halves[0][i].store_row8(blocks, i);
        }
    }
}

/// Encrypts or decrypts one full batch in place with `rounds` rounds. The
/// rounds go in pairs between two state buffers (`a`, `b`: the call's); an
/// odd count (reduced-round SKINNY: every full variant has an even one) adds
/// one single round, last when encrypting and first when decrypting. `BITS`
/// is the cell width, 4 or 8.
#[inline(always)]
pub(crate) fn crypt_batch<'s, W: RoundWord, const BITS: usize>(
    keys: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    blocks: &mut [u8],
    mut a: &'s mut State<W>,
    mut b: &'s mut State<W>,
    halves: &mut [[W; 64]; 2],
) {
    debug_assert_eq!(blocks.len(), 64 * W::LANES * 2 * BITS);
    let paired = rounds / 2 * 2;
    load_with::<W, BITS>(blocks, a, halves);
    match dir {
        Direction::Encrypt => {
            W::encrypt_pairs::<BITS>(a, b, keys, paired);
            if rounds > paired {
                W::encrypt_round::<BITS, _>(a, b, keys.round(paired));
                core::mem::swap(&mut a, &mut b);
            }
        }
        Direction::Decrypt => {
            if rounds > paired {
                W::decrypt_round::<BITS, _>(a, b, keys.round(paired));
                core::mem::swap(&mut a, &mut b);
            }
            W::decrypt_pairs::<BITS>(a, b, keys, paired);
        }
    }
    store_with::<W, BITS>(a, blocks, halves);
}

/// Encrypts or decrypts whole blocks in place, one batch at a time. A tail shorter
/// than a batch is copied into a zero-padded batch, processed like any other (so
/// it takes the same time whatever its content), and copied back.
///
/// Buffers: two states and the transposition's scratch (128 words each: 1, 4
/// or 8 KiB on the u64, AVX2 and AVX-512 paths), and the tail's batch, on the
/// heap with `alloc` (module `work`); see docs/architecture.md, *Stack use*.
/// Inlined into a path's function for one cell width (compiled with the
/// path's target features), so that each width's copy has a frame of its own.
#[inline(always)]
pub(crate) fn crypt_blocks<W: RoundWord, const BITS: usize>(
    keys: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
) {
    let batch_bytes = 64 * W::LANES * 2 * BITS;
    let mut words = Words::<W, { 3 * STATE_WORDS }>::zeroed(3 * STATE_WORDS);
    let (pair, scratch) = words.as_mut().split_at_mut(2 * STATE_WORDS);
    let [a, b] = states(pair) else { unreachable!("two states") };
    let halves = halves(scratch);
    let mut pad = PadBuffer::new();
    for chunk in data.chunks_mut(batch_bytes) {
        // Whole batches and the padded tail share one call of the batch
        // function, so its body (the transpositions) is compiled once per
        // caller, not twice. The branch is on the public length only.
        let n = chunk.len();
        let whole = n == batch_bytes;
        let batch: &mut [u8] = if whole { &mut *chunk } else { pad.padded(chunk, batch_bytes) };
        crypt_batch::<W, BITS>(keys, rounds, dir, batch, a, b, halves);
        if !whole {
            chunk.copy_from_slice(pad.head(n));
        }
    }
}
