//! Per-block tweakeys: every block of a batch has its own tweakey, and the
//! tweakey schedule runs on the fly in bitsliced form, next to the rounds.
//!
//! Each TK array of the batch (a block-sized value) is transposed exactly like the
//! data, so `tks[z][cell][bit]` is the slice of bit `bit` of cell `cell` of
//! TK(z+1) over the whole batch. A round XORs the first two rows of
//! TK1 ⊕ TK2 ⊕ TK3 into the state, slice by slice, plus the round constants c0
//! (cell 0) and c1 (cell 4) as masks made from the public round number.
//!
//! The schedule between rounds needs no table and no data-dependent choice:
//! - PT sends rows 0–1 to rows 2–3 unchanged (`PT[8 + j] = j`) and rows 2–3,
//!   permuted by [`P`], to rows 0–1. So the two halves of eight cells simply
//!   swap roles (in round `r` the rows 0–1 are half `r mod 2`), and only the half
//!   that becomes rows 0–1 is rewritten: its cells are moved by `P` (a renaming,
//!   whole cells copied) and go through the LFSR.
//! - The LFSRs of TK2 and TK3 shift the bits of a cell, which on slices is a
//!   renaming of the cell's words, and XOR two bits into the one shifted in: one
//!   word XOR per cell.
//!
//! Decryption first runs the schedule forward to the last round (only the
//! permutation and the LFSRs, no rounds), then steps it back round by round with
//! the inverse LFSRs and `P⁻¹`.
//!
//! A second keying, [`BlockKeys::Tk1`], gives each block its own TK1 only and
//! shares TK2..TKz (a key, and a nonce in SKINNY-AEAD) between all blocks. The
//! schedule is linear in each TK array, so a round tweakey is the shared
//! arrays' contribution (precomputed masks, with the round constants folded in,
//! exactly as for one tweakey) XOR TK1's, which needs no LFSR: only TK1 is
//! transposed and moved by `P`. That is 16 bytes a block to gather and
//! transpose instead of up to 48, and one TK array's slices a round.
//!
//! A third, [`BlockKeys::Lfsr`], is SKINNY-AEAD's: the whole tweakey (TK1
//! included, as a base) is in the shared masks and block `i`'s TK1 differs
//! from the base only by an LFSR counter in its first 8 bytes, which is made
//! in bitsliced form per batch instead of being read (see
//! [`crypt_blocks_lfsr`]).

use super::batch::{load, load_with, store, store_with, Direction, MAX_BATCH_BYTES};
use super::keys::{RoundMasks, SlicedTweakeys};
use super::round::{RoundKey, State};
use super::sbox::Cell;
use super::transpose::transpose64;
use super::word::Word;
use crate::spec::round::ROUND_CONSTANTS;
use crate::spec::tweakey::PT;
use crate::spec::CellWidth;

/// Cell `i` of the new rows 0–1 is cell `P[i]` of the old rows 2–3 (cell
/// `PT[i]` of the whole array, `PT[i] ≥ 8`).
const P: [usize; 8] = {
    let mut p = [0; 8];
    let mut i = 0;
    while i < 8 {
        assert!(PT[i] >= 8 && PT[8 + i] == i, "PT swaps the halves");
        p[i] = PT[i] - 8;
        i += 1;
    }
    p
};

/// The bitsliced TK arrays of one batch: TK1..TKz, each 16 cells as a [`State`].
/// Half `h` is cells `8h .. 8h + 8`.
type Tks<W, const Z: usize> = [State<W>; Z];

/// The most TK arrays a variant has.
const Z_MAX: usize = 3;

/// The LFSR of TK(z+1)'s first two rows on one cell's slices (TK1: none). Bit
/// `b` of the result is one slice of the input, except the bit shifted in, which
/// costs one XOR (see `spec::tweakey::lfsr_tk2`, `lfsr_tk3`).
#[inline(always)]
fn lfsr<W: Word, const BITS: usize>(z: usize, x: &Cell<W>) -> Cell<W> {
    let mut y = *x;
    match (z, BITS) {
        // TK2, 8-bit: (x7..x0) -> (x6..x0, x7 ^ x5).
        (1, 8) => {
            y[0] = x[7].xor(x[5]);
            y[1..8].copy_from_slice(&x[0..7]);
        }
        // TK3, 8-bit: (x7..x0) -> (x0 ^ x6, x7..x1).
        (2, 8) => {
            y[7] = x[0].xor(x[6]);
            y[0..7].copy_from_slice(&x[1..8]);
        }
        // TK2, 4-bit: (x3..x0) -> (x2, x1, x0, x3 ^ x2).
        (1, _) => {
            y[0] = x[3].xor(x[2]);
            y[1..4].copy_from_slice(&x[0..3]);
        }
        // TK3, 4-bit: (x3..x0) -> (x0 ^ x3, x3, x2, x1).
        (2, _) => {
            y[3] = x[0].xor(x[3]);
            y[0..3].copy_from_slice(&x[1..4]);
        }
        _ => {}
    }
    y
}

/// The inverse of [`lfsr`]: the bit shifted out is recovered from the one
/// shifted in and the bit it was XORed with (now one place further on).
#[inline(always)]
fn lfsr_inv<W: Word, const BITS: usize>(z: usize, y: &Cell<W>) -> Cell<W> {
    let mut x = *y;
    match (z, BITS) {
        (1, 8) => {
            x[0..7].copy_from_slice(&y[1..8]);
            x[7] = y[0].xor(y[6]);
        }
        (2, 8) => {
            x[1..8].copy_from_slice(&y[0..7]);
            x[0] = y[7].xor(y[5]);
        }
        (1, _) => {
            x[0..3].copy_from_slice(&y[1..4]);
            x[3] = y[0].xor(y[3]);
        }
        (2, _) => {
            x[1..4].copy_from_slice(&y[0..3]);
            x[0] = y[3].xor(y[2]);
        }
        _ => {}
    }
    x
}

/// `P` as one cycle: `CYCLE[k + 1] = P[CYCLE[k]]`, so new cell `CYCLE[k]` takes
/// old cell `CYCLE[k + 1]` (indices mod 8). P is a single 8-cycle, so a half is
/// permuted in place with one cell of temporary instead of a copy of the half.
const CYCLE: [usize; 8] = {
    let mut c = [0; 8];
    let mut k = 1;
    while k < 8 {
        c[k] = P[c[k - 1]];
        assert!(c[k] != 0, "P is a single cycle");
        k += 1;
    }
    assert!(P[c[7]] == 0, "P is a single cycle");
    c
};

/// Where TK1's cells are in round `r`: cell `j` of TK1 in round `r` is cell
/// `TK1_CELLS[r mod 16][j]` of the TK1 given (TK1 has no LFSR, so its schedule
/// is the permutation `PT` alone, whose period is 16). With TK1 as the only
/// per-block array, the rounds read its slices through this table instead of
/// moving them: the indices depend on the public round number only.
const TK1_CELLS: [[usize; 16]; 16] = {
    let mut q = [[0usize; 16]; 16];
    let mut j = 0;
    while j < 16 {
        q[0][j] = j;
        j += 1;
    }
    let mut r = 1;
    while r < 16 {
        let mut j = 0;
        while j < 16 {
            q[r][j] = q[r - 1][PT[j]];
            j += 1;
        }
        r += 1;
    }
    q
};

/// Copies the `BITS` used slices of a cell (4-bit cells leave slices 4..8 zero,
/// so they are never read or written).
#[inline(always)]
fn put<W: Word, const BITS: usize>(dst: &mut Cell<W>, src: &Cell<W>) {
    dst[..BITS].copy_from_slice(&src[..BITS]);
}

/// One step of the schedule, round `r` to `r + 1`: half `h` (`(r + 1) mod 2`,
/// holding rows 2–3) becomes the new rows 0–1, `P` then the LFSR; the other half,
/// the old rows 0–1, is now rows 2–3 as it is. With TK1 alone nothing moves:
/// the rounds find its cells through `TK1_CELLS`.
#[inline(always)]
fn step<W: Word, const BITS: usize, const Z: usize>(tks: &mut Tks<W, Z>, h: usize) {
    if Z == 1 {
        return;
    }
    for (z, tk) in tks.iter_mut().enumerate() {
        let half = &mut tk[8 * h..8 * h + 8];
        let first = half[CYCLE[0]];
        for k in 0..7 {
            let y = lfsr::<W, BITS>(z, &half[CYCLE[k + 1]]);
            put::<W, BITS>(&mut half[CYCLE[k]], &y);
        }
        put::<W, BITS>(&mut half[CYCLE[7]], &lfsr::<W, BITS>(z, &first));
    }
}

/// The inverse of [`step`] on the same half: from round `r + 1` back to `r`
/// (old cell `CYCLE[k + 1]` is the inverse LFSR of new cell `CYCLE[k]`).
#[inline(always)]
fn step_back<W: Word, const BITS: usize, const Z: usize>(tks: &mut Tks<W, Z>, h: usize) {
    if Z == 1 {
        return;
    }
    for (z, tk) in tks.iter_mut().enumerate() {
        let half = &mut tk[8 * h..8 * h + 8];
        let last = half[CYCLE[7]];
        for k in (1..8).rev() {
            let x = lfsr_inv::<W, BITS>(z, &half[CYCLE[k - 1]]);
            put::<W, BITS>(&mut half[CYCLE[k]], &x);
        }
        put::<W, BITS>(&mut half[CYCLE[0]], &lfsr_inv::<W, BITS>(z, &last));
    }
}

/// What a round adds for every block of a batch besides the per-block TK
/// arrays: the round constants alone, or the shared TK arrays' masks (with the
/// constants folded in).
pub(crate) trait FixedKey<W: Word> {
    /// The word to XOR into slice `b` of cell `cell` (0..8), if any.
    fn term(&self, cell: usize, b: usize) -> Option<W>;
}

/// The round constants c0 (cell 0) and c1 (cell 4) of one round as masks, for
/// per-block tweakeys whose every TK array is per block (the shared masks of
/// [`BlockKeys::Tk1`] hold them already). Public: they depend on the round only.
struct RoundConstantMasks<W> {
    /// Bits 0..6 of the round constant: c0 = bits 0..4 into cell 0, c1 = bits
    /// 4..6 into cell 4.
    rc: [W; 6],
}

impl<W: Word> RoundConstantMasks<W> {
    #[inline(always)]
    fn new(r: usize) -> Self {
        let rc = ROUND_CONSTANTS[r];
        Self { rc: core::array::from_fn(|i| W::splat_mask(0u32.wrapping_sub(u32::from((rc >> i) & 1)))) }
    }
}

impl<W: Word> FixedKey<W> for RoundConstantMasks<W> {
    #[inline(always)]
    fn term(&self, cell: usize, b: usize) -> Option<W> {
        // `cell` and `b` are constants once the round is inlined, so this folds away.
        match (cell, b) {
            (0, 0..4) => Some(self.rc[b]),
            (4, 0..2) => Some(self.rc[4 + b]),
            _ => None,
        }
    }
}

impl<W: Word> FixedKey<W> for &RoundMasks {
    #[inline(always)]
    fn term(&self, cell: usize, b: usize) -> Option<W> {
        Some(W::splat_mask(self[8 * cell + b]))
    }
}

/// The round key of round `r`: rows 0–1 of the per-block TK arrays are half `h`
/// (`r mod 2`), or, with TK1 alone (`Z == 1`, never moved), the cells
/// `TK1_CELLS[r mod 16][..8]`; `fixed` adds what every block shares (the round
/// constants, or the shared TK arrays' masks with the constants in them).
struct PerBlockKey<'a, W, const Z: usize, F> {
    tks: &'a Tks<W, Z>,
    h: usize,
    r: usize,
    fixed: F,
}

impl<W: Word, const Z: usize, F: FixedKey<W>> RoundKey<W> for PerBlockKey<'_, W, Z, F> {
    #[inline(always)]
    fn xor_key(&self, x: W, cell: usize, b: usize, extra: Option<W>) -> W {
        let at = if Z == 1 { TK1_CELLS[self.r % 16][cell] } else { 8 * self.h + cell };
        // The terms: TK1..TKz of this slice, the fixed term where there is one,
        // and `extra`; XORed into `x` two at a time ([`Word::xor3`]: one
        // operation on AVX-512, two elsewhere).
        let mut terms = [x; Z_MAX + 2];
        let mut n = 0;
        for tk in self.tks {
            terms[n] = tk[at][b];
            n += 1;
        }
        for t in [self.fixed.term(cell, b), extra].into_iter().flatten() {
            terms[n] = t;
            n += 1;
        }
        let mut acc = x;
        let mut i = 0;
        while i + 1 < n {
            acc = acc.xor3(terms[i], terms[i + 1]);
            i += 2;
        }
        if i < n {
            acc = acc.xor(terms[i]);
        }
        acc
    }
}

/// Secret scratch of the batches, kept across them and wiped once at the end.
struct Scratch<W, const Z: usize> {
    tks: Tks<W, Z>,
    /// The transposition's scratch while a TK array loads.
    halves: [[W; 64]; 2],
    /// One TK array of every block of the batch, gathered contiguously.
    gathered: [u8; MAX_BATCH_BYTES],
}

impl<W: Word, const Z: usize> Scratch<W, Z> {
    fn wipe(&mut self) {
        W::wipe(self.tks.as_flattened_mut().as_flattened_mut());
        W::wipe(self.halves.as_flattened_mut());
        zeroize::Zeroize::zeroize(&mut self.gathered);
    }

    /// Transposes the TK arrays of the batch's blocks (`tweakeys`: those of up
    /// to a batch of blocks, `Z` arrays of `block` bytes each; missing blocks
    /// get all-zero tweakeys).
    #[inline(always)]
    fn load_tweakeys<const BITS: usize>(&mut self, tweakeys: &[u8], batch_blocks: usize) {
        let block = 2 * BITS;
        let given = tweakeys.len() / (Z * block);
        for z in 0..Z {
            let buf = &mut self.gathered[..batch_blocks * block];
            for (i, dst) in buf.chunks_exact_mut(block).enumerate() {
                if i < given {
                    let at = (i * Z + z) * block;
                    dst.copy_from_slice(&tweakeys[at..at + block]);
                } else {
                    dst.fill(0);
                }
            }
            load_with::<W, BITS>(buf, &mut self.tks[z], &mut self.halves);
        }
    }
}

/// Encrypts or decrypts one full batch (`blocks`) in place, each block with its
/// own tweakey (`tweakeys`: up to a batch of them, see
/// [`Scratch::load_tweakeys`]; `fixed(r)`: what round `r` adds for every block
/// besides them). Rounds go in pairs between two states as in
/// `batch::crypt_batch`, which also keeps every half index a constant.
#[inline(always)]
fn crypt_batch<W: Word, const BITS: usize, const Z: usize, F: FixedKey<W>>(
    scratch: &mut Scratch<W, Z>,
    rounds: usize,
    dir: Direction,
    blocks: &mut [u8],
    tweakeys: &[u8],
    fixed: &impl Fn(usize) -> F,
) {
    let batch_blocks = 64 * W::LANES;
    debug_assert_eq!(blocks.len(), batch_blocks * 2 * BITS);
    scratch.load_tweakeys::<BITS>(tweakeys, batch_blocks);
    let tks = &mut scratch.tks;
    let paired = rounds / 2 * 2;
    let zero = W::splat(0);
    let mut a: State<W> = [[zero; 8]; 16];
    let mut b: State<W> = [[zero; 8]; 16];
    load::<W, BITS>(blocks, &mut a);
    match dir {
        Direction::Encrypt => {
            for r in (0..paired).step_by(2) {
                W::encrypt_round::<BITS, _>(&a, &mut b, &PerBlockKey { tks, h: 0, r, fixed: fixed(r) });
                step::<W, BITS, Z>(tks, 1);
                W::encrypt_round::<BITS, _>(&b, &mut a, &PerBlockKey { tks, h: 1, r: r + 1, fixed: fixed(r + 1) });
                step::<W, BITS, Z>(tks, 0);
            }
            if rounds > paired {
                W::encrypt_round::<BITS, _>(&a, &mut b, &PerBlockKey { tks, h: 0, r: paired, fixed: fixed(paired) });
                core::mem::swap(&mut a, &mut b);
            }
        }
        Direction::Decrypt => {
            // Forward to the last round's tweakey: rounds - 1 steps, the first
            // one on half 1.
            for _ in 0..(rounds - 1) / 2 {
                step::<W, BITS, Z>(tks, 1);
                step::<W, BITS, Z>(tks, 0);
            }
            if (rounds - 1) % 2 == 1 {
                step::<W, BITS, Z>(tks, 1);
            }
            if rounds > paired {
                W::decrypt_round::<BITS, _>(&a, &mut b, &PerBlockKey { tks, h: 0, r: paired, fixed: fixed(paired) });
                step_back::<W, BITS, Z>(tks, 0);
                core::mem::swap(&mut a, &mut b);
            }
            for r in (0..paired).step_by(2).rev() {
                W::decrypt_round::<BITS, _>(&a, &mut b, &PerBlockKey { tks, h: 1, r: r + 1, fixed: fixed(r + 1) });
                step_back::<W, BITS, Z>(tks, 1);
                W::decrypt_round::<BITS, _>(&b, &mut a, &PerBlockKey { tks, h: 0, r, fixed: fixed(r) });
                step_back::<W, BITS, Z>(tks, 0);
            }
        }
    }
    store::<W, BITS>(&a, blocks);
}

/// Where the tweakeys of a per-block call come from.
#[derive(Clone, Copy)]
pub(crate) enum BlockKeys<'a> {
    /// Every block's whole tweakey: `tk_count` TK arrays (the variant's) per
    /// block, back to back.
    Whole { tk_count: usize, tweakeys: &'a [u8] },
    /// One TK1 per block (`tk1`, block-sized each); TK2..TKz the same for all
    /// blocks, as masks with the round constants folded in (`shared`, built
    /// from a tweakey whose TK1 is zero).
    Tk1 { shared: &'a SlicedTweakeys, tk1: &'a [u8] },
    /// 16-byte blocks only: the whole tweakey shared as masks (`shared`,
    /// built from a tweakey whose TK1 is the base), and block `i`'s TK1 is the
    /// base with `start · x^i` (the LFSR counter on `bits` bits, 24 or 64, see
    /// [`lfsr_step`]) XORed into its first 8 bytes, little-endian:
    /// SKINNY-AEAD's TK1. The counters are made in bitsliced form per batch
    /// (see [`crypt_blocks_lfsr`]); no TK1 bytes are read.
    Lfsr { shared: &'a SlicedTweakeys, start: u64, bits: u32 },
}

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

/// [`crypt_blocks`] for [`BlockKeys::Lfsr`] (`bits`: 24 or 64): block `i` of `data`
/// (16-byte blocks) has the tweakey whose masks are `shared` (TK1 included,
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
/// are public; the state is not wiped, as in [`super::batch::crypt_blocks`];
/// the pad buffer of a tail is.
#[inline(always)]
fn crypt_blocks_lfsr<W: Word>(
    shared: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    start: u64,
    bits: u32,
) {
    const BLOCK: usize = 16;
    let batch_bytes = 64 * W::LANES * BLOCK;
    let zero = W::splat(0);
    // Cells 8..15 stay zero: the rounds that would read them are the odd ones,
    // which do not.
    let mut tks: Tks<W, 1> = [[[zero; 8]; 16]];
    let mut rows = [zero; 64];
    let mut halves = [[zero; 64]; 2];
    let mut a: State<W> = [[zero; 8]; 16];
    let mut b: State<W> = [[zero; 8]; 16];
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
    let mut buf: Option<[u8; MAX_BATCH_BYTES]> = None;
    let paired = rounds / 2 * 2;
    for chunk in data.chunks_mut(batch_bytes) {
        for r in rows.iter_mut() {
            *r = row;
            row = if wide { lfsr_lanes::<W, 64>(row) } else { lfsr_lanes::<W, 24>(row) };
        }
        transpose64(&mut rows);
        for (j, w) in rows.iter().enumerate() {
            tks[0][j / 8][j % 8] = *w;
        }
        // As in `crypt_blocks`: one copy of the batch code for whole batches
        // and the padded tail (whose padding blocks get the next counters),
        // chosen by the public length; the pad buffer is only made for a tail.
        let n = chunk.len();
        let whole = n == batch_bytes;
        let batch: &mut [u8] = if whole {
            &mut *chunk
        } else {
            let pad = buf.insert([0u8; MAX_BATCH_BYTES]);
            pad[..n].copy_from_slice(chunk);
            &mut pad[..batch_bytes]
        };
        load_with::<W, 8>(batch, &mut a, &mut halves);
        let even = |r: usize| PerBlockKey { tks: &tks, h: 0, r, fixed: shared.round(r) };
        match dir {
            Direction::Encrypt => {
                for r in (0..paired).step_by(2) {
                    W::encrypt_round::<8, _>(&a, &mut b, &even(r));
                    W::encrypt_round::<8, _>(&b, &mut a, shared.round(r + 1));
                }
                if rounds > paired {
                    W::encrypt_round::<8, _>(&a, &mut b, &even(paired));
                    core::mem::swap(&mut a, &mut b);
                }
            }
            Direction::Decrypt => {
                if rounds > paired {
                    W::decrypt_round::<8, _>(&a, &mut b, &even(paired));
                    core::mem::swap(&mut a, &mut b);
                }
                for r in (0..paired).step_by(2).rev() {
                    W::decrypt_round::<8, _>(&a, &mut b, shared.round(r + 1));
                    W::decrypt_round::<8, _>(&b, &mut a, &even(r));
                }
            }
        }
        store_with::<W, 8>(&a, batch, &mut halves);
        if let (false, Some(pad)) = (whole, &buf) {
            chunk.copy_from_slice(&pad[..n]);
        }
    }
    if let Some(pad) = buf.as_mut() {
        zeroize::Zeroize::zeroize(pad);
    }
}

/// [`crypt_blocks`] for a cell width and keying known at run time: the one
/// place that turns them into the const parameters (every path calls it;
/// inlined, so a vector path compiles it with its features enabled).
#[inline(always)]
pub(crate) fn crypt_blocks_for<W: Word>(
    width: CellWidth,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    keys: BlockKeys<'_>,
) {
    match keys {
        BlockKeys::Whole { tk_count, tweakeys } => {
            let constants = RoundConstantMasks::<W>::new;
            match (width, tk_count) {
                (CellWidth::Nibble, 1) => crypt_blocks::<W, 4, 1, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Nibble, 2) => crypt_blocks::<W, 4, 2, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Nibble, _) => crypt_blocks::<W, 4, 3, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Byte, 1) => crypt_blocks::<W, 8, 1, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Byte, 2) => crypt_blocks::<W, 8, 2, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Byte, _) => crypt_blocks::<W, 8, 3, _>(rounds, dir, data, tweakeys, &constants),
            }
        }
        BlockKeys::Tk1 { shared, tk1 } => {
            let masks = |r: usize| shared.round(r);
            match width {
                CellWidth::Nibble => crypt_blocks::<W, 4, 1, _>(rounds, dir, data, tk1, &masks),
                CellWidth::Byte => crypt_blocks::<W, 8, 1, _>(rounds, dir, data, tk1, &masks),
            }
        }
        BlockKeys::Lfsr { shared, start, bits } => {
            debug_assert!(width == CellWidth::Byte, "16-byte blocks only");
            debug_assert!(bits == 24 || bits == 64, "24- or 64-bit counters only");
            crypt_blocks_lfsr::<W>(shared, rounds, dir, data, start, bits);
        }
    }
}

/// Encrypts or decrypts whole blocks in place, block `i` with tweakey bytes
/// `i·t .. (i+1)·t` of `tweakeys` (`t = Z · block`: its per-block TK arrays)
/// and `fixed(r)` added in round `r` for all blocks, one batch at a time. A
/// tail shorter than a batch runs in a zero-padded batch (zero data, zero
/// tweakeys), so it takes the same time whatever its content; the padding is
/// wiped, as is every scratch that held tweakey bits.
#[inline(always)]
pub(crate) fn crypt_blocks<W: Word, const BITS: usize, const Z: usize, F: FixedKey<W>>(
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    tweakeys: &[u8],
    fixed: &impl Fn(usize) -> F,
) {
    let batch_blocks = 64 * W::LANES;
    let block = 2 * BITS;
    debug_assert_eq!(data.len() / block * Z * block, tweakeys.len());
    let zero = W::splat(0);
    let mut scratch: Scratch<W, Z> =
        Scratch { tks: [[[zero; 8]; 16]; Z], halves: [[zero; 64]; 2], gathered: [0; MAX_BATCH_BYTES] };
    let mut buf = [0u8; MAX_BATCH_BYTES];
    let mut padded = false;
    // As in `batch::crypt_blocks`: whole batches and the padded tail (whose
    // missing blocks get zero tweakeys, see `Scratch::load_tweakeys`) share one
    // call of the batch function, so it is compiled once per keying. The
    // branch is on the public length only.
    for (chunk, tk) in data.chunks_mut(batch_blocks * block).zip(tweakeys.chunks(batch_blocks * Z * block)) {
        let n = chunk.len();
        let whole = n == batch_blocks * block;
        if !whole {
            buf[..n].copy_from_slice(chunk);
            padded = true;
        }
        let batch: &mut [u8] = if whole { &mut *chunk } else { &mut buf[..batch_blocks * block] };
        crypt_batch::<W, BITS, Z, F>(&mut scratch, rounds, dir, batch, tk, fixed);
        if !whole {
            chunk.copy_from_slice(&buf[..n]);
        }
    }
    if padded {
        zeroize::Zeroize::zeroize(&mut buf);
    }
    scratch.wipe();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::tweakey::{lfsr_tk2, lfsr_tk3};
    use crate::spec::CellWidth;

    /// Spreads 64 cell values into slices (bit `b` of value `j` is bit `j` of slice `b`).
    fn slice(values: &[u8; 64]) -> Cell<u64> {
        core::array::from_fn(|b| (0..64).fold(0u64, |w, j| w | (u64::from((values[j] >> b) & 1) << j)))
    }

    fn unslice(c: &Cell<u64>, bits: usize) -> [u8; 64] {
        core::array::from_fn(|j| (0..bits).fold(0u8, |v, b| v | ((((c[b] >> j) & 1) as u8) << b)))
    }

    /// TK1's cells by the table are the specification's schedule of TK1, for
    /// more than one period.
    #[test]
    fn tk1_cells_follow_the_schedule() {
        let mut tk: [usize; 16] = core::array::from_fn(|j| j);
        for r in 0..40 {
            assert_eq!(TK1_CELLS[r % 16], tk, "round {r}");
            tk = core::array::from_fn(|j| tk[PT[j]]);
        }
    }

    /// Every 8-bit (and 4-bit) value through the sliced LFSRs and their inverses,
    /// against the specification's.
    #[test]
    fn sliced_lfsrs_match_the_specification() {
        for chunk in 0..4u8 {
            let values: [u8; 64] = core::array::from_fn(|j| chunk * 64 + j as u8);
            let x = slice(&values);
            let nib: [u8; 64] = core::array::from_fn(|j| values[j] & 0xf);
            let xn = slice(&nib);
            for z in 1..3 {
                let spec = |width: CellWidth, v: u8| if z == 1 { lfsr_tk2(width, v) } else { lfsr_tk3(width, v) };
                let y = lfsr::<u64, 8>(z, &x);
                assert_eq!(unslice(&y, 8), values.map(|v| spec(CellWidth::Byte, v)), "TK{} 8-bit", z + 1);
                assert_eq!(lfsr_inv::<u64, 8>(z, &y), x, "TK{} 8-bit inverse", z + 1);
                let yn = lfsr::<u64, 4>(z, &xn);
                assert_eq!(unslice(&yn, 4), nib.map(|v| spec(CellWidth::Nibble, v)), "TK{} 4-bit", z + 1);
                assert_eq!(lfsr_inv::<u64, 4>(z, &yn), xn, "TK{} 4-bit inverse", z + 1);
            }
            assert_eq!(lfsr::<u64, 8>(0, &x), x, "TK1 has no LFSR");
        }
    }
}
