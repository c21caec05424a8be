//! The round function and its inverse on a bitsliced state.
//!
//! `State[cell][bit]` is the slice of bit `bit` of cell `cell` (row by row) over
//! the whole batch. One round, in word operations per batch:
//! - SubCells: the S-box circuit on each of the 16 cells (see [`super::sbox`]);
//! - AddConstants + AddRoundTweakey: with one tweakey for the batch, one XOR of
//!   a precomputed mask per slice of the first two rows (the round constants are
//!   folded into those masks); with a tweakey per block, the XOR of the TK
//!   arrays' slices and six constant masks (see [`RoundKey`]); either way one
//!   fixed NOT for the constant 2 of cell 8;
//! - ShiftRows: no operation at all, it only decides which input cell each output
//!   column reads;
//! - MixColumns: three XORs per column and bit slice.
//!
//! The output goes to a second state, so the renamings of ShiftRows and
//! MixColumns never need a copy of their own.

use super::keys::{RoundMasks, SlicedTweakeys};
use super::sbox::{sbox4, sbox4_inv, sbox8, sbox8_inv, Cell};
use super::word::Word;

/// The bitsliced state of one batch.
pub(crate) type State<W> = [Cell<W>; 16];

// The S-boxes are inlined into the rounds in optimised builds; at opt-level 0
// (`cfg(skinny_unoptimized)`, set by build.rs) every inlined S-box would keep
// its own stack slots for its temporaries (several KiB each, 16 a round), so
// there each one is a call whose frame is reused (and so is each column of a
// round, below).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn sub_cell<W: Word, const BITS: usize>(c: &mut Cell<W>) {
    if BITS == 8 {
        sbox8(c)
    } else {
        sbox4(c)
    }
}

#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn sub_cell_inv<W: Word, const BITS: usize>(c: &mut Cell<W>) {
    if BITS == 8 {
        sbox8_inv(c)
    } else {
        sbox4_inv(c)
    }
}

/// Where a round's tweakey (and its row-0/1 constants) comes from: the same
/// masks for every block ([`RoundMasks`]), or each block's own bitsliced
/// tweakey state (`super::tweakeys`). The round code is generic over it, so each
/// kind is compiled into its own straight-line round.
pub(crate) trait RoundKey<W: Word> {
    /// `x` ⊕ slice `b` of the round key (tweakey and constants c0/c1) of cell
    /// `cell` (0..8) ⊕ `extra` when given: MixColumns folds one of its XORs into
    /// it, which on a word with a three-input XOR ([`Word::xor3`]) saves an
    /// operation.
    fn xor_key(&self, x: W, cell: usize, b: usize, extra: Option<W>) -> W;
}

impl<W: Word> RoundKey<W> for RoundMasks {
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_key(&self, x: W, cell: usize, b: usize, extra: Option<W>) -> W {
        let k = W::splat_mask(self[8 * cell + b]);
        match extra {
            Some(e) => x.xor3(k, e),
            None => x.xor(k),
        }
    }
}

/// The constant 2 that AddConstants puts into cell 8 (row 2, column 0) every round.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn add_row2_constant<W: Word>(c: &mut Cell<W>) {
    c[1] = c[1].not();
}

/// Output column `C` of one encryption round. Output column `c` takes row `r` from
/// input column `c - r` (ShiftRows), so each column is finished in one pass. The
/// column is a const parameter so every index is a constant once compiled.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn encrypt_column<W: Word, const BITS: usize, const C: usize, K: RoundKey<W>>(
    s: &State<W>,
    out: &mut State<W>,
    masks: &K,
) {
    let (c1, c2, c3) = ((C + 3) % 4, (C + 2) % 4, (C + 1) % 4);
    let mut a0 = s[C];
    sub_cell::<W, BITS>(&mut a0);
    let mut a1 = s[4 + c1];
    sub_cell::<W, BITS>(&mut a1);
    let mut a2 = s[8 + c2];
    sub_cell::<W, BITS>(&mut a2);
    if c2 == 0 {
        add_row2_constant(&mut a2);
    }
    let mut a3 = s[12 + c3];
    sub_cell::<W, BITS>(&mut a3);
    // The round key goes into rows 0 and 1; MixColumns then gives
    // (k0 ⊕ a2 ⊕ a3, k0, k1 ⊕ a2, k0 ⊕ a2) with k0 = a0 ⊕ key, k1 = a1 ⊕ key.
    // Row 2's output takes the key of row 1 and a2 in one three-input XOR:
    // 4 operations per slice with it, 5 (as two XORs each for the key and three
    // for MixColumns) without.
    for b in 0..BITS {
        let k0 = masks.xor_key(a0[b], C, b, None);
        let t = k0.xor(a2[b]);
        out[C][b] = t.xor(a3[b]);
        out[4 + C][b] = k0;
        out[8 + C][b] = masks.xor_key(a1[b], 4 + c1, b, Some(a2[b]));
        out[12 + C][b] = t;
    }
}

/// One encryption round from `s` into `out`.
#[inline(always)]
pub(crate) fn encrypt_round<W: Word, const BITS: usize, K: RoundKey<W>>(s: &State<W>, out: &mut State<W>, masks: &K) {
    encrypt_column::<W, BITS, 0, K>(s, out, masks);
    encrypt_column::<W, BITS, 1, K>(s, out, masks);
    encrypt_column::<W, BITS, 2, K>(s, out, masks);
    encrypt_column::<W, BITS, 3, K>(s, out, masks);
}

/// Input column `C` of one decryption round: MixColumns⁻¹, ShiftRows⁻¹ (again
/// only in where each result is written), the masks, then S-box⁻¹.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn decrypt_column<W: Word, const BITS: usize, const C: usize, K: RoundKey<W>>(
    s: &State<W>,
    out: &mut State<W>,
    masks: &K,
) {
    let (c1, c2, c3) = ((C + 3) % 4, (C + 2) % 4, (C + 1) % 4);
    let mut a0 = s[C];
    let mut a1 = s[4 + C];
    let mut a2 = s[8 + C];
    let mut a3 = s[12 + C];
    // MixColumns⁻¹ gives (b1, b1 ⊕ b2 ⊕ b3, b1 ⊕ b3, b0 ⊕ b3); the round key of
    // rows 0 and 1 goes in with it, row 1's in the same three-input XOR as b2.
    for b in 0..BITS {
        let (b0, b1, b2, b3) = (a0[b], a1[b], a2[b], a3[b]);
        let t = b1.xor(b3);
        a0[b] = masks.xor_key(b1, C, b, None);
        a1[b] = masks.xor_key(t, 4 + c1, b, Some(b2));
        a2[b] = t;
        a3[b] = b0.xor(b3);
    }
    sub_cell_inv::<W, BITS>(&mut a0);
    out[C] = a0;
    sub_cell_inv::<W, BITS>(&mut a1);
    out[4 + c1] = a1;
    if c2 == 0 {
        add_row2_constant(&mut a2);
    }
    sub_cell_inv::<W, BITS>(&mut a2);
    out[8 + c2] = a2;
    sub_cell_inv::<W, BITS>(&mut a3);
    out[12 + c3] = a3;
}

/// One decryption round from `s` into `out`.
#[inline(always)]
pub(crate) fn decrypt_round<W: Word, const BITS: usize, K: RoundKey<W>>(s: &State<W>, out: &mut State<W>, masks: &K) {
    decrypt_column::<W, BITS, 0, K>(s, out, masks);
    decrypt_column::<W, BITS, 1, K>(s, out, masks);
    decrypt_column::<W, BITS, 2, K>(s, out, masks);
    decrypt_column::<W, BITS, 3, K>(s, out, masks);
}

/// Two encryption rounds, `a` to a scratch state and back, with keys `k0` then
/// `k1`. The scratch is local, so the compiler may keep it in registers instead
/// of memory (the AVX-512 path's `Word::encrypt_pairs` uses it).
#[inline(always)]
pub(crate) fn encrypt_round_pair<W: Word, const BITS: usize, K: RoundKey<W>>(a: &mut State<W>, k0: &K, k1: &K) {
    let zero = W::splat(0);
    let mut b: State<W> = [[zero; 8]; 16];
    encrypt_round::<W, BITS, K>(a, &mut b, k0);
    encrypt_round::<W, BITS, K>(&b, a, k1);
}

/// Two decryption rounds as [`encrypt_round_pair`]: `k0` first, then `k1`.
#[inline(always)]
pub(crate) fn decrypt_round_pair<W: Word, const BITS: usize, K: RoundKey<W>>(a: &mut State<W>, k0: &K, k1: &K) {
    let zero = W::splat(0);
    let mut b: State<W> = [[zero; 8]; 16];
    decrypt_round::<W, BITS, K>(a, &mut b, k0);
    decrypt_round::<W, BITS, K>(&b, a, k1);
}

/// A [`Word`] with the entry points through which the batch code runs whole
/// rounds. The defaults are the generic round code; the vector words override
/// them to call copies compiled with their target feature.
pub(crate) trait RoundWord: Word {
    // One round, out of line. The per-block batch functions (and the odd last
    // round of reduced-round SKINNY) call the rounds through these two, so each
    // (word, cell width, keying) has one copy of the encryption round and one
    // of the decryption round, instead of a straight-line round body inlined
    // at every call site (three of each direction per batch function, every
    // batch function twice for the padded tail, five keyings): inlined, one
    // `rustc` of the library ran for 15 CPU-minutes without the AVX-512 path
    // and more than 38 with it (docs/cpu-bitsliced.md, *Compile time*). A
    // call per round costs little next to the round's hundreds of
    // instructions: the state is in memory either way (128 slices do not fit
    // in registers). Vector words override both to call a copy compiled with
    // their target feature.

    /// [`encrypt_round`] from `s` into `out`, not inlined.
    #[inline(never)]
    fn encrypt_round<const BITS: usize, K: RoundKey<Self>>(s: &State<Self>, out: &mut State<Self>, key: &K) {
        encrypt_round::<Self, BITS, K>(s, out, key);
    }
    /// [`decrypt_round`] from `s` into `out`, not inlined.
    #[inline(never)]
    fn decrypt_round<const BITS: usize, K: RoundKey<Self>>(s: &State<Self>, out: &mut State<Self>, key: &K) {
        decrypt_round::<Self, BITS, K>(s, out, key);
    }

    // With one tweakey for the batch, the round pairs go through these two:
    // one function holding the loop with both rounds inlined (one round body
    // per direction and cell width, cheap to compile), out of line so that
    // the two states are arguments. References passed into a call tell the
    // compiler that the states, the masks and the data never overlap; with
    // the states in the call's heap buffer and the loop inlined into the
    // batch function it could not know it, and reloaded what it had stored
    // (the AVX2 path at 0.69x of the same loop on stack arrays). The vector
    // words override both to call a copy compiled with their target feature
    // (AVX-512 with one round a call, which measured faster there).
    /// Rounds `0..paired` (`paired` even) of encryption of `a` with `keys`
    /// (`b`: scratch).
    #[inline(never)]
    fn encrypt_pairs<const BITS: usize>(
        a: &mut State<Self>,
        b: &mut State<Self>,
        keys: &SlicedTweakeys,
        paired: usize,
    ) {
        encrypt_pairs::<Self, BITS>(a, b, keys, paired);
    }
    /// Rounds `paired - 1` down to 0 of decryption of `a` with `keys` (`b`:
    /// scratch).
    #[inline(never)]
    fn decrypt_pairs<const BITS: usize>(
        a: &mut State<Self>,
        b: &mut State<Self>,
        keys: &SlicedTweakeys,
        paired: usize,
    ) {
        decrypt_pairs::<Self, BITS>(a, b, keys, paired);
    }
}

impl RoundWord for u64 {}

#[cfg(test)]
impl RoundWord for super::word::TernaryU64 {}

/// Rounds `0..paired` (`paired` even) of encryption on `state` (the body of
/// [`RoundWord::encrypt_pairs`]): the rounds inlined, except at opt-level 0,
/// where two inlined rounds would keep both rounds' temporaries in one frame.
#[inline(always)]
pub(crate) fn encrypt_pairs<W: RoundWord, const BITS: usize>(
    a: &mut State<W>,
    b: &mut State<W>,
    keys: &SlicedTweakeys,
    paired: usize,
) {
    for r in (0..paired).step_by(2) {
        #[cfg(skinny_unoptimized)]
        {
            W::encrypt_round::<BITS, _>(a, b, keys.round(r));
            W::encrypt_round::<BITS, _>(b, a, keys.round(r + 1));
        }
        #[cfg(not(skinny_unoptimized))]
        {
            encrypt_round::<W, BITS, _>(a, b, keys.round(r));
            encrypt_round::<W, BITS, _>(b, a, keys.round(r + 1));
        }
    }
}

/// Decryption rounds `paired - 1` down to 0 as [`encrypt_pairs`].
#[inline(always)]
pub(crate) fn decrypt_pairs<W: RoundWord, const BITS: usize>(
    a: &mut State<W>,
    b: &mut State<W>,
    keys: &SlicedTweakeys,
    paired: usize,
) {
    for r in (0..paired).step_by(2).rev() {
        #[cfg(skinny_unoptimized)]
        {
            W::decrypt_round::<BITS, _>(a, b, keys.round(r + 1));
            W::decrypt_round::<BITS, _>(b, a, keys.round(r));
        }
        #[cfg(not(skinny_unoptimized))]
        {
            decrypt_round::<W, BITS, _>(a, b, keys.round(r + 1));
            decrypt_round::<W, BITS, _>(b, a, keys.round(r));
        }
    }
}
