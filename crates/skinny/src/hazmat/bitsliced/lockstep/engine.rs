//! The word-generic work of [`Lockstep`](super::Lockstep): slicing blocks in
//! and out, expanding the lanes' TK2..TKz into sliced round tweakeys, and the
//! rounds with a TK1 shared by every lane. Every path runs it through
//! [`run`], compiled with the path's target features.

use crate::hazmat::bitsliced::per_block::{step, Tks, TK1_CELLS};
use crate::hazmat::bitsliced::round::{RoundKey, RoundWord, State};
use crate::hazmat::bitsliced::transpose::transpose64;
use crate::hazmat::bitsliced::word::Word;
use crate::hazmat::bitsliced::work::{states, Words, STATE_WORDS};
use crate::spec::round::ROUND_CONSTANTS;

/// The 128 slices of a 16-byte-block state, flattened: slice `8·cell + bit`.
/// With 8-bit cells, slice `j` of half `h` after the transposition is exactly
/// flattened word `64·h + j` (cell `8h + j/8`, bit `j mod 8`).
type Flat<W> = [W; 128];

/// One operation, with its buffers (layouts in the module docs of `lockstep`).
pub(crate) enum Op<'a> {
    /// Blocks (up to a batch, missing ones zero) into sliced form.
    SliceIn { blocks: &'a [u8], state: &'a mut [u8] },
    /// Sliced form back to blocks (as many as `blocks` holds).
    SliceOut { state: &'a [u8], blocks: &'a mut [u8] },
    /// Every lane's TK2..TKz (`rest`: `z_rest · 16` bytes a lane, up to a
    /// batch of lanes) expanded into `rounds` rounds of sliced round
    /// tweakeys, the round constants folded in.
    Expand { tk_count: usize, rounds: usize, rest: &'a [u8], out: &'a mut [u8] },
    /// `rounds` encryption rounds of the sliced `state`, round `r` keyed by
    /// `tweakeys`' round `r` and the shared `tk1`'s.
    Encrypt { rounds: usize, tk1: &'a [u8; 16], tweakeys: &'a [u8], state: &'a mut [u8] },
    /// Every lane's TK1 first half (8 bytes a lane, up to a batch; missing
    /// lanes zero) into 64 slices (slice `8·cell + bit`, cells 0..8).
    SliceTk1 { halves: &'a [u8], out: &'a mut [u8] },
    /// As `Encrypt`, lane `i`'s TK1 its own: first half from the 64 slices
    /// `tk1`, second half zero.
    EncryptLaneTk1 { rounds: usize, tk1: &'a [u8], tweakeys: &'a [u8], state: &'a mut [u8] },
}

/// Runs `op` on word `W` (inlined into each path's target-feature function).
#[inline(always)]
pub(crate) fn run<W: RoundWord>(op: Op<'_>) {
    match op {
        Op::SliceIn { blocks, state } => slice_in::<W>(blocks, state),
        Op::SliceOut { state, blocks } => slice_out::<W>(state, blocks),
        Op::Expand { tk_count, rounds, rest, out } => match tk_count {
            2 => expand::<W, 2>(rounds, rest, out),
            _ => expand::<W, 3>(rounds, rest, out),
        },
        Op::Encrypt { rounds, tk1, tweakeys, state } => encrypt::<W>(rounds, tk1, tweakeys, state),
        Op::SliceTk1 { halves, out } => slice_tk1::<W>(halves, out),
        Op::EncryptLaneTk1 { rounds, tk1, tweakeys, state } => encrypt_lane_tk1::<W>(rounds, tk1, tweakeys, state),
    }
}

/// Bytes of one word.
const fn word_bytes<W: Word>() -> usize {
    8 * W::LANES
}

/// Loads `given` 16-byte blocks (up to a batch; the rest zero), block `k` at
/// `offset + k · stride` of `src`, and transposes them into `flat`.
#[inline(always)]
fn load_strided<W: Word>(src: &[u8], offset: usize, stride: usize, given: usize, flat: &mut Flat<W>) {
    // One row: `W::LANES` blocks, gathered so that missing blocks read as
    // zero without a padded copy of the whole batch.
    let mut row = [0u8; 16 * 8];
    let contiguous = offset == 0 && stride == 16;
    for i in 0..64 {
        let (lo, hi) = if contiguous && W::LANES * (i + 1) <= given {
            W::load_row16(src, i)
        } else {
            for l in 0..W::LANES {
                let k = W::LANES * i + l;
                let dst = &mut row[16 * l..16 * l + 16];
                if k < given {
                    let at = offset + k * stride;
                    dst.copy_from_slice(&src[at..at + 16]);
                } else {
                    dst.fill(0);
                }
            }
            W::load_row16(&row[..16 * W::LANES], 0)
        };
        flat[i] = lo;
        flat[64 + i] = hi;
    }
    zeroize::Zeroize::zeroize(&mut row);
    let (h0, h1) = flat.split_at_mut(64);
    transpose64::<W>(h0.try_into().unwrap_or_else(|_| unreachable!("64 words")));
    transpose64::<W>(h1.try_into().unwrap_or_else(|_| unreachable!("64 words")));
}

#[inline(always)]
fn read_flat<W: Word>(state: &[u8], flat: &mut Flat<W>) {
    for (k, w) in flat.iter_mut().enumerate() {
        *w = W::load_row8(state, k);
    }
}

#[inline(always)]
fn write_flat<W: Word>(flat: &Flat<W>, state: &mut [u8]) {
    for (k, w) in flat.iter().enumerate() {
        w.store_row8(state, k);
    }
}

// At opt-level 0 a frame of its own: inlined into `run`, every
// operation's buffers would add up in one frame (opt-level 0 never shares
// slots; 72 KiB on AVX-512).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn slice_in<W: Word>(blocks: &[u8], state: &mut [u8]) {
    let mut flat: Flat<W> = [W::splat(0); 128];
    load_strided::<W>(blocks, 0, 16, blocks.len() / 16, &mut flat);
    write_flat::<W>(&flat, state);
    W::wipe(&mut flat);
}

// At opt-level 0 a frame of its own: inlined into `run`, every
// operation's buffers would add up in one frame (opt-level 0 never shares
// slots; 72 KiB on AVX-512).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn slice_out<W: Word>(state: &[u8], blocks: &mut [u8]) {
    let mut flat: Flat<W> = [W::splat(0); 128];
    read_flat::<W>(state, &mut flat);
    let (h0, h1) = flat.split_at_mut(64);
    transpose64::<W>(h0.try_into().unwrap_or_else(|_| unreachable!("64 words")));
    transpose64::<W>(h1.try_into().unwrap_or_else(|_| unreachable!("64 words")));
    let mut row = [0u8; 16 * 8];
    let n = blocks.len() / 16;
    for i in 0..64 {
        if W::LANES * i >= n {
            break;
        }
        if W::LANES * (i + 1) <= n {
            W::store_row16(flat[i], flat[64 + i], blocks, i);
        } else {
            W::store_row16(flat[i], flat[64 + i], &mut row[..16 * W::LANES], 0);
            let take = n - W::LANES * i;
            blocks[16 * W::LANES * i..16 * (W::LANES * i + take)].copy_from_slice(&row[..16 * take]);
        }
    }
    zeroize::Zeroize::zeroize(&mut row);
    W::wipe(&mut flat);
}

/// The round constants of round `r` as a mask bit word: c0 in cell 0, c1 in
/// cell 4 (bit `8·cell + b`); the constant 2 of cell 8 is the round
/// function's.
#[inline(always)]
fn constant_bits(r: usize) -> u64 {
    let rc = ROUND_CONSTANTS[r];
    u64::from(rc & 0xf) | (u64::from(rc >> 4) << 32)
}

/// Bit `i` of `bits` as an all-ones or all-zero 32-bit mask.
#[inline(always)]
fn mask(bits: u64, i: usize) -> u32 {
    0u32.wrapping_sub(((bits >> i) & 1) as u32)
}

/// The lanes' TK2..TKz (TK1 left zero: it is shared, and added per call)
/// through the bitsliced schedule; round `r`'s rows 0–1 of TK2 ⊕ .. ⊕ TKz,
/// with the round constants, written as 64 slices at `r · 64` words of `out`.
// At opt-level 0 a frame of its own: inlined into `run`, every
// operation's buffers would add up in one frame (opt-level 0 never shares
// slots; 72 KiB on AVX-512).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn expand<W: RoundWord, const Z: usize>(rounds: usize, rest: &[u8], out: &mut [u8]) {
    // The TK arrays (up to 24 KiB on AVX-512) in the call's buffer (module
    // `work`: on the heap with `alloc`); one expansion per key setup.
    let mut words = Words::<W, { 3 * STATE_WORDS }>::zeroed(Z * STATE_WORDS);
    let tks = <&mut Tks<W, Z>>::try_from(states(words.as_mut())).unwrap_or_else(|_| unreachable!("Z TK arrays"));
    expand_in::<W, Z>(rounds, rest, out, tks);
}

/// [`expand`] in the TK arrays `tks` (zero).
#[inline(always)]
fn expand_in<W: RoundWord, const Z: usize>(rounds: usize, rest: &[u8], out: &mut [u8], tks: &mut Tks<W, Z>) {
    let stride = 16 * (Z - 1);
    for z in 1..Z {
        let flat: &mut Flat<W> = tks[z].as_flattened_mut().try_into().unwrap_or_else(|_| unreachable!("128"));
        load_strided::<W>(rest, 16 * (z - 1), stride, rest.len() / stride, flat);
    }
    let words = 64 * word_bytes::<W>();
    for r in 0..rounds {
        let h = r % 2;
        let c = constant_bits(r);
        let dst = &mut out[r * words..(r + 1) * words];
        for cell in 0..8 {
            for b in 0..8 {
                let mut k = W::splat_mask(mask(c, 8 * cell + b));
                for tk in tks.iter().skip(1) {
                    k = k.xor(tk[8 * h + cell][b]);
                }
                k.store_row8(dst, 8 * cell + b);
            }
        }
        step::<W, 8, Z>(tks, 1 - h);
    }
    W::wipe(tks.as_flattened_mut().as_flattened_mut());
}

/// Round `r`'s key: the lanes' sliced round tweakeys (`table`, 64 slices),
/// and where `SHARED`, the shared TK1's round tweakey as masks (`shared`).
struct LaneKey<'a, const SHARED: bool> {
    table: &'a [u8],
    shared: &'a [u32; 64],
}

impl<W: Word, const SHARED: bool> RoundKey<W> for LaneKey<'_, SHARED> {
    #[inline(always)]
    fn xor_key(&self, x: W, cell: usize, b: usize, extra: Option<W>) -> W {
        let k = W::load_row8(self.table, 8 * cell + b);
        match (SHARED, extra) {
            (true, Some(e)) => x.xor3(k, W::splat_mask(self.shared[8 * cell + b])).xor(e),
            (true, None) => x.xor3(k, W::splat_mask(self.shared[8 * cell + b])),
            (false, Some(e)) => x.xor3(k, e),
            (false, None) => x.xor(k),
        }
    }
}

/// TK1's round tweakey in round `r` as 64 masks: TK1's schedule is the cell
/// permutation alone, so its rows 0–1 are the cells `TK1_CELLS[r mod 16][..8]`
/// of the TK1 given.
#[inline(always)]
fn shared_masks(tk1: &[u8; 16], r: usize) -> [u32; 64] {
    let cells = &TK1_CELLS[r % 16];
    let bits = u64::from_le_bytes(core::array::from_fn(|c| tk1[cells[c]]));
    core::array::from_fn(|i| mask(bits, i))
}

// At opt-level 0 a frame of its own: inlined into `run`, every
// operation's buffers would add up in one frame (opt-level 0 never shares
// slots; 72 KiB on AVX-512).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn encrypt<W: RoundWord>(rounds: usize, tk1: &[u8; 16], tweakeys: &[u8], state: &mut [u8]) {
    let zero = W::splat(0);
    let mut a: State<W> = [[zero; 8]; 16];
    let mut b: State<W> = [[zero; 8]; 16];
    read_flat::<W>(state, a.as_flattened_mut().try_into().unwrap_or_else(|_| unreachable!("128")));
    // TK1's cells 8..15 reach rows 0–1 in the odd rounds only (the
    // permutation swaps the halves), and its cells 0..7 in the even ones: with
    // 8..15 zero (Romulus's TK1: counter and domain in bytes 0..8), an odd
    // round adds the lanes' table alone. Public: TK1 is.
    let odd_shared = tk1[8..].iter().any(|&x| x != 0);
    let words = 64 * 8 * W::LANES;
    let table = |r: usize| &tweakeys[r * words..(r + 1) * words];
    let mut r = 0;
    while r < rounds {
        let shared = shared_masks(tk1, r);
        let key = LaneKey::<true> { table: table(r), shared: &shared };
        W::encrypt_round::<8, _>(&a, &mut b, &key);
        if r + 1 == rounds {
            core::mem::swap(&mut a, &mut b);
            break;
        }
        let shared = if odd_shared { shared_masks(tk1, r + 1) } else { [0; 64] };
        if odd_shared {
            W::encrypt_round::<8, _>(&b, &mut a, &LaneKey::<true> { table: table(r + 1), shared: &shared });
        } else {
            W::encrypt_round::<8, _>(&b, &mut a, &LaneKey::<false> { table: table(r + 1), shared: &shared });
        }
        r += 2;
    }
    write_flat::<W>(a.as_flattened().try_into().unwrap_or_else(|_| unreachable!("128")), state);
    W::wipe(a.as_flattened_mut());
    W::wipe(b.as_flattened_mut());
}

// At opt-level 0 a frame of its own (see `slice_in`).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn slice_tk1<W: Word>(halves: &[u8], out: &mut [u8]) {
    let mut flat: [W; 64] = [W::splat(0); 64];
    let given = halves.len() / 8;
    // Each lane's half as the first half of a block, through the blocks' row
    // load: the lanes then sit in a slice in the order `slice_in` gives them.
    let mut row = [0u8; 16 * 8];
    for (i, w) in flat.iter_mut().enumerate() {
        let first = W::LANES * i;
        if first >= given {
            break;
        }
        for l in 0..W::LANES {
            let k = first + l;
            let dst = &mut row[16 * l..16 * l + 8];
            if k < given {
                dst.copy_from_slice(&halves[8 * k..8 * k + 8]);
            } else {
                dst.fill(0);
            }
        }
        *w = W::load_row16(&row[..16 * W::LANES], 0).0;
    }
    zeroize::Zeroize::zeroize(&mut row);
    transpose64::<W>(&mut flat);
    for (k, w) in flat.iter().enumerate() {
        w.store_row8(out, k);
    }
    W::wipe(&mut flat);
}

/// Round `r`'s key with every lane's own TK1: the lanes' sliced round
/// tweakeys (`table`) and, in an even round, their TK1 slices (`tk1`) read
/// through the round's cell permutation (`cells`, public).
struct LaneTk1Key<'a> {
    table: &'a [u8],
    tk1: &'a [u8],
    cells: &'a [usize; 16],
}

impl<W: Word> RoundKey<W> for LaneTk1Key<'_> {
    #[inline(always)]
    fn xor_key(&self, x: W, cell: usize, b: usize, extra: Option<W>) -> W {
        let k = W::load_row8(self.table, 8 * cell + b);
        let t = W::load_row8(self.tk1, 8 * self.cells[cell] + b);
        match extra {
            Some(e) => x.xor3(k, t).xor(e),
            None => x.xor3(k, t),
        }
    }
}

// At opt-level 0 a frame of its own (see `encrypt`).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn encrypt_lane_tk1<W: RoundWord>(rounds: usize, tk1: &[u8], tweakeys: &[u8], state: &mut [u8]) {
    let zero = W::splat(0);
    let mut a: State<W> = [[zero; 8]; 16];
    let mut b: State<W> = [[zero; 8]; 16];
    read_flat::<W>(state, a.as_flattened_mut().try_into().unwrap_or_else(|_| unreachable!("128")));
    // TK1's second half is zero: its first half reaches rows 0-1 in the even
    // rounds (through the permutation's even powers, which keep the halves),
    // and nothing of it in the odd ones.
    let words = 64 * 8 * W::LANES;
    let table = |r: usize| &tweakeys[r * words..(r + 1) * words];
    let mut r = 0;
    while r < rounds {
        W::encrypt_round::<8, _>(&a, &mut b, &LaneTk1Key { table: table(r), tk1, cells: &TK1_CELLS[r % 16] });
        if r + 1 == rounds {
            core::mem::swap(&mut a, &mut b);
            break;
        }
        let shared = [0; 64];
        W::encrypt_round::<8, _>(&b, &mut a, &LaneKey::<false> { table: table(r + 1), shared: &shared });
        r += 2;
    }
    write_flat::<W>(a.as_flattened().try_into().unwrap_or_else(|_| unreachable!("128")), state);
    W::wipe(a.as_flattened_mut());
    W::wipe(b.as_flattened_mut());
}
