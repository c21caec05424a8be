//! SKINNY-AEAD's keying (`BlockKeys::Lfsr`): block `i`'s TK1 is a base with
//! an LFSR counter XORed in, and the counters are made in bitsliced form inside
//! each batch instead of being read.

use super::round_key::PerBlockKey;
use super::schedule::Tks;
use crate::hazmat::bitsliced::batch::{load_with, store_with, Direction};
use crate::hazmat::bitsliced::keys::SlicedTweakeys;
use crate::hazmat::bitsliced::round::{RoundWord, State};
use crate::hazmat::bitsliced::transpose::transpose64;
use crate::hazmat::bitsliced::word::Word;
use crate::hazmat::bitsliced::work::{halves, states, PadBuffer, Words, STATE_WORDS};

/// The LFSR counter of SKINNY-AEAD on `N` bits (24 or 64) one step on:
/// multiplication by x modulo x^N + x^4 + x^3 + x + 1. Branch-free.
#[inline(always)]
pub(crate) const fn lfsr_step<const N: u32>(c: u64) -> u64 {
    let top = (c >> (N - 1)) & 1;
    ((c << 1) & (u64::MAX >> (64 - N))) ^ (0x1b & top.wrapping_neg())
}

/// `c` stepped `n` times by [`lfsr_step`]: eight steps at a time (`c · x^8`, the
/// eight bits shifted out come back in times x^4 + x^3 + x + 1), then one at a
/// time. The count is public; the time depends on it only.
pub(crate) const fn lfsr_advance<const N: u32>(mut c: u64, mut n: usize) -> u64 {
    while n >= 8 {
        let top = c >> (N - 8);
        c = ((c << 8) & (u64::MAX >> (64 - N))) ^ top ^ (top << 1) ^ (top << 3) ^ (top << 4);
        n -= 8;
    }
    while n > 0 {
        c = lfsr_step::<N>(c);
        n -= 1;
    }
    c
}

/// `c · x^L` modulo x^N + x^4 + x^3 + x + 1 (`c < 2^N`, `L = W::LANES`: 1, 4 or
/// 8) in every 64-bit lane: the counters of row `i + 1` of a batch from those
/// of row `i` (see [`crypt_blocks_lfsr`]). The `L` bits shifted out come back
/// in times x^4 + x^3 + x + 1, which stays below x^N (`L + 4 < N`).
#[inline(always)]
fn lfsr_lanes<W: Word, const N: u32>(c: W) -> W {
    let l = W::LANES as u32;
    let top = c.shr(N - l);
    let mut s = c.shl(l);
    if N < 64 {
        s = s.and(W::splat(u64::MAX >> (64 - N)));
    }
    s.xor3(top, top.shl(1)).xor3(top.shl(3), top.shl(4))
}

/// The per-block `crypt_blocks` (module `batch`) for `BlockKeys::Lfsr`
/// (`bits`: 24 or 64): block `i` of `data` (16-byte blocks) has the tweakey whose masks are `shared` (TK1 included,
/// the base) with `start · x^i` XORed, little-endian, into TK1's bytes 0..8.
///
/// No TK1 is gathered or transposed whole. The counters fill the first half
/// of TK1, exactly the 64-bit words [`Word::load_row16`] puts in row `i`,
/// lane `l` (block `L·i + σ(l)`, `L = W::LANES`, `σ` the word's lane order):
/// row 0 is loaded once from the first `L` counters written out as blocks, so
/// it has the word's own lane order, and row `i + 1` is row `i` times x^L
/// ([`lfsr_lanes`], a few operations per row). One 64×64 transposition of
/// those rows gives the counter's slices, TK1 cells 0..7. TK1's schedule is
/// the permutation alone, which brings those cells into rows 0–1 in the even
/// rounds only: an odd round has nothing per block and is the one-tweakey
/// round on `shared`'s masks (the same compiled round as ECB). The counters
/// are public; the state is not wiped, as in the one-tweakey
/// [`crypt_blocks`](crate::hazmat::bitsliced::batch::crypt_blocks); the pad
/// buffer of a tail is. The buffers are the call's (module `work`: on the
/// heap with `alloc`).
#[inline(always)]
pub(crate) fn crypt_blocks_lfsr<W: RoundWord>(
    shared: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    start: u64,
    bits: u32,
) {
    // Two states, TK1's slices, the transposition's scratch and the counter
    // rows: the call's buffers (module `work`).
    let mut words = Words::<W, { 5 * STATE_WORDS }>::zeroed(5 * STATE_WORDS);
    let (three, rest) = words.as_mut().split_at_mut(3 * STATE_WORDS);
    let [a, b, tk1] = states(three) else { unreachable!("three states") };
    let (halves_words, rows) = rest.split_at_mut(STATE_WORDS);
    let rows = <&mut [W; 64]>::try_from(&mut rows[..64]).unwrap_or_else(|_| unreachable!("64 words"));
    let tks = core::array::from_mut(tk1);
    crypt_lfsr_in::<W>(shared, rounds, dir, data, start, bits, [a, b], tks, rows, halves(halves_words));
}

/// [`crypt_blocks_lfsr`] in the call's buffers: `a`, `b` the states, `tks`
/// TK1's slices (cells 8..15 stay zero: the rounds that would read them are
/// the odd ones, which do not), `rows` the counter rows.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn crypt_lfsr_in<W: RoundWord>(
    shared: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    start: u64,
    bits: u32,
    [mut a, mut b]: [&mut State<W>; 2],
    tks: &mut Tks<W, 1>,
    rows: &mut [W; 64],
    halves: &mut [[W; 64]; 2],
) {
    const BLOCK: usize = 16;
    let batch_bytes = 64 * W::LANES * BLOCK;
    let mut first = [0u8; 16 * 8];
    let mut c = start;
    // The width is a public choice made per row (a predictable branch), so
    // that one copy of the batch code serves both widths (compile time).
    let wide = bits == 64;
    for m in 0..W::LANES {
        first[BLOCK * m..BLOCK * m + 8].copy_from_slice(&c.to_le_bytes());
        c = if wide { lfsr_step::<64>(c) } else { lfsr_step::<24>(c) };
    }
    let mut row = W::load_row16(&first[..BLOCK * W::LANES], 0).0;
    let mut pad = PadBuffer::new();
    let paired = rounds / 2 * 2;
    for chunk in data.chunks_mut(batch_bytes) {
        for r in rows.iter_mut() {
            *r = row;
            row = if wide { lfsr_lanes::<W, 64>(row) } else { lfsr_lanes::<W, 24>(row) };
        }
        transpose64(rows);
        for (j, w) in rows.iter().enumerate() {
            tks[0][j / 8][j % 8] = *w;
        }
        // As in the `crypt_blocks` functions: one copy of the batch code for
        // whole batches and the padded tail (whose padding blocks get the next
        // counters), chosen by the public length; the pad buffer is only made
        // for a tail.
        let n = chunk.len();
        let whole = n == batch_bytes;
        let batch: &mut [u8] = if whole { &mut *chunk } else { pad.padded(chunk, batch_bytes) };
        load_with::<W, 8>(batch, a, halves);
        let even = |r: usize| PerBlockKey { tks: &*tks, h: 0, r, fixed: shared.round(r) };
        match dir {
            Direction::Encrypt => {
                for r in (0..paired).step_by(2) {
                    W::encrypt_round::<8, _>(a, b, &even(r));
                    W::encrypt_round::<8, _>(b, a, shared.round(r + 1));
                }
                if rounds > paired {
                    W::encrypt_round::<8, _>(a, b, &even(paired));
                    core::mem::swap(&mut a, &mut b);
                }
            }
            Direction::Decrypt => {
                if rounds > paired {
                    W::decrypt_round::<8, _>(a, b, &even(paired));
                    core::mem::swap(&mut a, &mut b);
                }
                for r in (0..paired).step_by(2).rev() {
                    W::decrypt_round::<8, _>(a, b, shared.round(r + 1));
                    W::decrypt_round::<8, _>(b, a, &even(r));
                }
            }
        }
        store_with::<W, 8>(a, batch, halves);
        if !whole {
            chunk.copy_from_slice(pad.head(n));
        }
    }
}
