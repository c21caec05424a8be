//! The batches of per-block tweakeys: the tweakeys gathered and transposed
//! with the data, the rounds and the schedule's steps in turn, and the one
//! place that turns a cell width and keying into the code's const parameters.

use super::lfsr_counter::crypt_blocks_lfsr;
use super::round_key::{FixedKeys, PerBlockKey, RoundConstants};
use super::schedule::{step, step_back, Tks};
use crate::hazmat::bitsliced::batch::{load_gathered, load_with, store_with, Direction, MAX_ROW_BYTES};
use crate::hazmat::bitsliced::keys::SlicedTweakeys;
use crate::hazmat::bitsliced::round::{RoundWord, State};
use crate::hazmat::bitsliced::word::Word;
use crate::hazmat::bitsliced::work::{halves, states, PadBuffer, Words, STATE_WORDS};
use crate::spec::CellWidth;

/// Secret scratch of the batches, kept across them and wiped once at the end
/// (the TK arrays and the transposition's scratch are the call's buffers,
/// module `work`).
struct Scratch<'s, W, const Z: usize> {
    tks: &'s mut Tks<W, Z>,
    /// The transposition's scratch while a TK array or the data loads or
    /// stores (one for all: each is a batch's worth of words).
    halves: &'s mut [[W; 64]; 2],
    /// One TK array of one row's blocks, gathered contiguously (a row at a
    /// time: a whole batch's would be 8 KiB more of stack).
    gathered: [u8; MAX_ROW_BYTES],
}

impl<W: Word, const Z: usize> Scratch<'_, W, Z> {
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
        debug_assert!(given <= batch_blocks);
        for z in 0..Z {
            let fill = |i: usize, row: &mut [u8]| {
                for (k, dst) in row.chunks_exact_mut(block).enumerate() {
                    let b = i * W::LANES + k;
                    if b < given {
                        let at = (b * Z + z) * block;
                        dst.copy_from_slice(&tweakeys[at..at + block]);
                    } else {
                        dst.fill(0);
                    }
                }
            };
            load_gathered::<W, BITS>(fill, &mut self.gathered, &mut self.tks[z], self.halves);
        }
    }
}

/// Encrypts or decrypts one full batch (`blocks`) in place, each block with its
/// own tweakey (`tweakeys`: up to a batch of them, see
/// [`Scratch::load_tweakeys`]; `fixed(r)`: what round `r` adds for every block
/// besides them). Rounds go in pairs between two states as in
/// `bitsliced::batch::crypt_batch`, which also keeps every half index a
/// constant (`a`, `b`: the call's states).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn crypt_batch<'s, W: RoundWord, const BITS: usize, const Z: usize, G: FixedKeys<W>>(
    scratch: &mut Scratch<'_, W, Z>,
    rounds: usize,
    dir: Direction,
    blocks: &mut [u8],
    tweakeys: &[u8],
    fixed: &G,
    mut a: &'s mut State<W>,
    mut b: &'s mut State<W>,
) {
    let batch_blocks = 64 * W::LANES;
    debug_assert_eq!(blocks.len(), batch_blocks * 2 * BITS);
    scratch.load_tweakeys::<BITS>(tweakeys, batch_blocks);
    let paired = rounds / 2 * 2;
    load_with::<W, BITS>(blocks, a, scratch.halves);
    let tks = &mut *scratch.tks;
    match dir {
        Direction::Encrypt => {
            for r in (0..paired).step_by(2) {
                W::encrypt_round::<BITS, _>(a, b, &PerBlockKey { tks, h: 0, r, fixed: fixed.round(r) });
                step::<W, BITS, Z>(tks, 1);
                W::encrypt_round::<BITS, _>(b, a, &PerBlockKey { tks, h: 1, r: r + 1, fixed: fixed.round(r + 1) });
                step::<W, BITS, Z>(tks, 0);
            }
            if rounds > paired {
                W::encrypt_round::<BITS, _>(a, b, &PerBlockKey { tks, h: 0, r: paired, fixed: fixed.round(paired) });
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
                W::decrypt_round::<BITS, _>(a, b, &PerBlockKey { tks, h: 0, r: paired, fixed: fixed.round(paired) });
                step_back::<W, BITS, Z>(tks, 0);
                core::mem::swap(&mut a, &mut b);
            }
            for r in (0..paired).step_by(2).rev() {
                W::decrypt_round::<BITS, _>(a, b, &PerBlockKey { tks, h: 1, r: r + 1, fixed: fixed.round(r + 1) });
                step_back::<W, BITS, Z>(tks, 1);
                W::decrypt_round::<BITS, _>(b, a, &PerBlockKey { tks, h: 0, r, fixed: fixed.round(r) });
                step_back::<W, BITS, Z>(tks, 0);
            }
        }
    }
    store_with::<W, BITS>(a, blocks, scratch.halves);
}

/// A word with the entry points of the per-block batch loops: one function
/// (and so one stack frame) per cell width and keying, where a single frame
/// for all eight would hold all their scratch at once (opt-level 0 never
/// shares a slot; optimised builds did not share enough). The defaults are
/// the generic loops; the vector words override both to call copies compiled
/// with their target features.
pub(crate) trait PerBlockWord: RoundWord {
    /// [`crypt_blocks_in`], out of line, in the call's buffers (`a`, `b`,
    /// `tks`, `halves`: each its own argument, so that the compiler knows
    /// they never overlap each other or the data; see
    /// `RoundWord::encrypt_pairs`).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn crypt_blocks_keyed<const BITS: usize, const Z: usize, G: FixedKeys<Self>>(
        rounds: usize,
        dir: Direction,
        data: &mut [u8],
        tweakeys: &[u8],
        fixed: &G,
        a: &mut State<Self>,
        b: &mut State<Self>,
        tks: &mut Tks<Self, Z>,
        halves: &mut [[Self; 64]; 2],
    ) {
        crypt_blocks_in::<Self, BITS, Z, G>(rounds, dir, data, tweakeys, fixed, [a, b], tks, halves);
    }
    /// [`crypt_blocks_lfsr`], out of line.
    #[inline(never)]
    fn crypt_blocks_counted(
        shared: &SlicedTweakeys,
        rounds: usize,
        dir: Direction,
        data: &mut [u8],
        start: u64,
        bits: u32,
    ) {
        crypt_blocks_lfsr::<Self>(shared, rounds, dir, data, start, bits);
    }
}

impl PerBlockWord for u64 {}

#[cfg(test)]
impl PerBlockWord for crate::hazmat::bitsliced::word::TernaryU64 {}

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
    /// [`lfsr_step`](super::lfsr_counter::lfsr_step)) XORed into its first 8
    /// bytes, little-endian: SKINNY-AEAD's TK1. The counters are made in
    /// bitsliced form per batch (see [`crypt_blocks_lfsr`]); no TK1 bytes are
    /// read.
    Lfsr { shared: &'a SlicedTweakeys, start: u64, bits: u32 },
}

/// [`crypt_blocks`] for a cell width and keying known at run time: the one
/// place that turns them into the const parameters (every path calls it;
/// inlined, so a vector path compiles it with its features enabled).
#[inline(always)]
pub(crate) fn crypt_blocks_for<W: PerBlockWord>(
    width: CellWidth,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    keys: BlockKeys<'_>,
) {
    match keys {
        BlockKeys::Whole { tk_count, tweakeys } => {
            let constants = RoundConstants;
            match (width, tk_count) {
                (CellWidth::Nibble, 1) => crypt_blocks::<W, 4, 1, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Nibble, 2) => crypt_blocks::<W, 4, 2, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Nibble, _) => crypt_blocks::<W, 4, 3, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Byte, 1) => crypt_blocks::<W, 8, 1, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Byte, 2) => crypt_blocks::<W, 8, 2, _>(rounds, dir, data, tweakeys, &constants),
                (CellWidth::Byte, _) => crypt_blocks::<W, 8, 3, _>(rounds, dir, data, tweakeys, &constants),
            }
        }
        BlockKeys::Tk1 { shared, tk1 } => match width {
            CellWidth::Nibble => crypt_blocks::<W, 4, 1, _>(rounds, dir, data, tk1, shared),
            CellWidth::Byte => crypt_blocks::<W, 8, 1, _>(rounds, dir, data, tk1, shared),
        },
        BlockKeys::Lfsr { shared, start, bits } => {
            debug_assert!(width == CellWidth::Byte, "16-byte blocks only");
            debug_assert!(bits == 24 || bits == 64, "24- or 64-bit counters only");
            W::crypt_blocks_counted(shared, rounds, dir, data, start, bits);
        }
    }
}

/// Encrypts or decrypts whole blocks in place, block `i` with tweakey bytes
/// `i·t .. (i+1)·t` of `tweakeys` (`t = Z · block`: its per-block TK arrays)
/// and `fixed(r)` added in round `r` for all blocks: the call's buffers made
/// (module `work`: two states, `Z` TK arrays and the transposition's
/// scratch), then [`PerBlockWord::crypt_blocks_keyed`] in them.
#[inline(always)]
pub(crate) fn crypt_blocks<W: PerBlockWord, const BITS: usize, const Z: usize, G: FixedKeys<W>>(
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    tweakeys: &[u8],
    fixed: &G,
) {
    let mut words = Words::<W, { 6 * STATE_WORDS }>::zeroed((3 + Z) * STATE_WORDS);
    let (states_and_tks, halves_words) = words.as_mut().split_at_mut((2 + Z) * STATE_WORDS);
    let (pair, tks) = states(states_and_tks).split_at_mut(2);
    let [a, b] = pair else { unreachable!("two states") };
    let tks = <&mut Tks<W, Z>>::try_from(tks).unwrap_or_else(|_| unreachable!("Z TK arrays"));
    W::crypt_blocks_keyed::<BITS, Z, G>(rounds, dir, data, tweakeys, fixed, a, b, tks, halves(halves_words));
}

/// The batches of [`crypt_blocks`], one at a time, in the call's buffers. A
/// tail shorter than a batch runs in a zero-padded batch (zero data, zero
/// tweakeys), so it takes the same time whatever its content; the padding is
/// wiped, as is every scratch that held tweakey bits.
///
/// Inlined into [`PerBlockWord::crypt_blocks_keyed`], one frame per (cell
/// width, keying).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn crypt_blocks_in<W: RoundWord, const BITS: usize, const Z: usize, G: FixedKeys<W>>(
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    tweakeys: &[u8],
    fixed: &G,
    [a, b]: [&mut State<W>; 2],
    tks: &mut Tks<W, Z>,
    halves: &mut [[W; 64]; 2],
) {
    let batch_blocks = 64 * W::LANES;
    let block = 2 * BITS;
    debug_assert_eq!(data.len() / block * Z * block, tweakeys.len());
    let mut scratch: Scratch<W, Z> = Scratch { tks, halves, gathered: [0; MAX_ROW_BYTES] };
    let mut pad = PadBuffer::new();
    // As in `bitsliced::batch::crypt_blocks`: whole batches and the padded
    // tail (whose missing blocks get zero tweakeys, see
    // `Scratch::load_tweakeys`) share one call of the batch function, so it
    // is compiled once per keying. The branch is on the public length only.
    for (chunk, tk) in data.chunks_mut(batch_blocks * block).zip(tweakeys.chunks(batch_blocks * Z * block)) {
        let n = chunk.len();
        let whole = n == batch_blocks * block;
        let batch: &mut [u8] = if whole { &mut *chunk } else { pad.padded(chunk, batch_blocks * block) };
        crypt_batch::<W, BITS, Z, G>(&mut scratch, rounds, dir, batch, tk, fixed, a, b);
        if !whole {
            chunk.copy_from_slice(pad.head(n));
        }
    }
    scratch.wipe();
}
