//! The nibble-split path ([`super::Path::Ssse3Split`]) for 8-bit cells: the
//! state in two XMM registers, one holding the high nibble of every cell and
//! one the low nibble, for all rounds (split once after the load, joined once
//! before the store).
//!
//! A round is (tables in `split`):
//!
//! - `H1`: `y_hi = A_HI[hi] ^ B_HI[lo]`, `y_lo = A_LO[hi] ^ B_LO[lo]`: four
//!   `pshufb` whose tables are constants and whose indices are the nibbles, two
//!   XORs (depth 2);
//! - `H2`: `z_hi = C_HI[y_hi] ^ D_HI[y_lo]`,
//!   `z_lo = (C_LO[y_hi] | (y_lo & 1)) ^ D_LO[y_lo]` (depth 3);
//! - the linear layer, on each register alone (XOR acts on each nibble
//!   separately and the shuffles move whole cells): three constant shuffles
//!   XORed, and the round's addition (round tweakey and constants, already
//!   through the linear layer and split) XORed in beside them (depth 3).
//!
//! That is 8 dependent operations a round. The round tweakeys come either from
//! a [`RoundTweakeys`] (shuffled through the linear layer and split in the
//! round, off the state's chain) or from a [`SplitRoundKeys`] holding the
//! fixed TK arrays' part, to which the arrays given per call are added in the
//! round: TK1 by one shuffle per register, TK2 and TK3 after their LFSRs, run
//! on whole registers every other round.
//!
//! Soundness rule of this module, as in `x86`: the `#[target_feature]` entry
//! points are only called after [`super::x86::ssse3_detected`] said yes, and
//! the `#[inline(always)]` helpers only from those entry points.
#![allow(unsafe_code)]

use super::split::{KEY_CONTROLS, ROUND_ADDITION, SBOX};
use crate::spec::tweakey::{RoundTweakeys, TweakeyArray, MAX_ROUNDS};
use core::arch::x86_64::{
    __m128i, _mm_add_epi8, _mm_and_si128, _mm_cvtsi64_si128, _mm_loadu_si128, _mm_or_si128, _mm_set1_epi8,
    _mm_shuffle_epi8, _mm_slli_epi16, _mm_srli_epi16, _mm_storeu_si128, _mm_xor_si128,
};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// Round tweakeys of the fixed TK arrays, with the round constants, through
/// the linear layer and split: `[hi, lo]` per round, as little-endian `u128`s
/// (wiping a `u128` is one store, a byte array one store a byte, which made
/// the drop cost as much as the expansion). Wiped when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct SplitRoundKeys {
    keys: [[u128; 2]; MAX_ROUNDS],
    #[zeroize(skip)]
    rounds: usize,
}

#[inline(always)]
fn load(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: a 16-byte unaligned load; SSE2 is part of x86-64.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// Eight bytes into the low half of a register (the high half zero).
#[inline(always)]
fn load8(bytes: &[u8; 8]) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_cvtsi64_si128(u64::from_le_bytes(*bytes) as i64) }
}

#[inline(always)]
fn store(x: __m128i, out: &mut [u8; 16]) {
    // SAFETY: a 16-byte unaligned store; SSE2 is part of x86-64.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), x) }
}

#[inline(always)]
fn xor(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_xor_si128(a, b) }
}

#[inline(always)]
fn and(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_and_si128(a, b) }
}

#[inline(always)]
fn or(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_or_si128(a, b) }
}

#[inline(always)]
fn splat(b: u8) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_set1_epi8(b as i8) }
}

/// `pshufb`: byte `i` of the result is byte `ctrl[i] & 15` of `table` (0 where
/// bit 7 of the control is set). Reads registers only.
#[inline(always)]
fn shuffle(table: __m128i, ctrl: __m128i) -> __m128i {
    // SAFETY: SSSE3 was detected before the entry points run (module rule).
    unsafe { _mm_shuffle_epi8(table, ctrl) }
}

/// Every byte's high nibble (as 0..15) and low nibble.
#[inline(always)]
fn split(x: __m128i) -> (__m128i, __m128i) {
    let low = splat(0x0f);
    // SAFETY: SSE2 is part of x86-64.
    (and(unsafe { _mm_srli_epi16::<4>(x) }, low), and(x, low))
}

/// The inverse of [`split`] (the high nibbles are below 16, so the 16-bit
/// shift moves nothing across bytes).
#[inline(always)]
fn join(hi: __m128i, lo: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    or(unsafe { _mm_slli_epi16::<4>(hi) }, lo)
}

/// TK2's LFSR on every byte: (x7..x0) → (x6..x0, x7 ⊕ x5).
#[inline(always)]
fn lfsr2(x: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64. The 16-bit shifts are masked to one bit
    // per byte, so nothing crosses between bytes.
    unsafe {
        let feedback = and(xor(_mm_srli_epi16::<7>(x), _mm_srli_epi16::<5>(x)), splat(1));
        or(_mm_add_epi8(x, x), feedback)
    }
}

/// TK3's LFSR on every byte: (x7..x0) → (x0 ⊕ x6, x7..x1).
#[inline(always)]
fn lfsr3(x: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64; masked as in `lfsr2`.
    unsafe {
        let feedback = and(xor(_mm_slli_epi16::<7>(x), _mm_slli_epi16::<1>(x)), splat(0x80));
        or(and(_mm_srli_epi16::<1>(x), splat(0x7f)), feedback)
    }
}

/// The constants of the round function, loaded once per block.
#[derive(Clone, Copy)]
struct Consts {
    sbox: [__m128i; 8],
    linear: [__m128i; 3],
    one: __m128i,
}

#[inline(always)]
fn consts() -> Consts {
    let t = &SBOX;
    Consts {
        sbox: [t.a_hi, t.a_lo, t.b_hi, t.b_lo, t.c_hi, t.c_lo, t.d_hi, t.d_lo].map(|x| load(&x)),
        linear: super::circuit::linear_shuffles().map(|x| load(&x)),
        one: splat(1),
    }
}

/// One round on the split state; `key` is the round's whole addition after
/// the linear layer, split.
#[inline(always)]
fn round(c: &Consts, (hi, lo): (__m128i, __m128i), (key_hi, key_lo): (__m128i, __m128i)) -> (__m128i, __m128i) {
    let [a_hi, a_lo, b_hi, b_lo, c_hi, c_lo, d_hi, d_lo] = c.sbox;
    let y_hi = xor(shuffle(a_hi, hi), shuffle(b_hi, lo));
    let y_lo = xor(shuffle(a_lo, hi), shuffle(b_lo, lo));
    let z_hi = xor(shuffle(c_hi, y_hi), shuffle(d_hi, y_lo));
    let z_lo = xor(or(shuffle(c_lo, y_hi), and(y_lo, c.one)), shuffle(d_lo, y_lo));
    let [p0, p1, p2] = c.linear;
    let hi = xor(xor(shuffle(z_hi, p0), shuffle(z_hi, p1)), xor(shuffle(z_hi, p2), key_hi));
    let lo = xor(xor(shuffle(z_lo, p0), shuffle(z_lo, p1)), xor(shuffle(z_lo, p2), key_lo));
    (hi, lo)
}

/// The rounds `0..rounds` on one block, `key(r)` giving round `r`'s addition.
#[inline(always)]
fn encrypt(block: &mut [u8; 16], rounds: usize, mut key: impl FnMut(usize) -> (__m128i, __m128i)) {
    let c = consts();
    let mut state = split(load(block));
    for r in 0..rounds {
        state = round(&c, state, key(r));
    }
    store(join(state.0, state.1), block);
}

/// The round tweakey part of one TK-array sum `tk` (cells in their initial
/// places, LFSRs already applied) in round `r`, through the linear layer, split.
#[inline(always)]
fn tweakey_part(tk: __m128i, r: usize) -> (__m128i, __m128i) {
    split(shuffle(tk, load(&KEY_CONTROLS[r % 16])))
}

#[inline(always)]
fn xor2(a: (__m128i, __m128i), b: (__m128i, __m128i)) -> (__m128i, __m128i) {
    (xor(a.0, b.0), xor(a.1, b.1))
}

#[inline(always)]
fn pair(k: &[[u8; 16]; 2]) -> (__m128i, __m128i) {
    (load(&k[0]), load(&k[1]))
}

#[inline(always)]
fn pair128(k: &[u128; 2]) -> (__m128i, __m128i) {
    // SAFETY: SSE2 is part of x86-64; unaligned 16-byte loads of two `u128`s
    // (x86 is little-endian, so the bytes are those of `to_le_bytes`).
    unsafe { (_mm_loadu_si128((&k[0] as *const u128).cast()), _mm_loadu_si128((&k[1] as *const u128).cast())) }
}

/// TK1, TK2, TK3 of one call, their LFSRs run every other round (before the
/// odd rounds), summed per round.
struct Arrays {
    tk1: __m128i,
    tk2: __m128i,
    tk3: __m128i,
}

impl Arrays {
    #[inline(always)]
    fn new(tk: &[TweakeyArray; 3]) -> Self {
        Self { tk1: load(&tk[0]), tk2: load(&tk[1]), tk3: load(&tk[2]) }
    }

    /// Round `r`'s part; rounds must be asked for in order from 0.
    #[inline(always)]
    fn part(&mut self, r: usize) -> (__m128i, __m128i) {
        if r % 2 == 1 {
            self.tk2 = lfsr2(self.tk2);
            self.tk3 = lfsr3(self.tk3);
        }
        tweakey_part(xor(self.tk1, xor(self.tk2, self.tk3)), r)
    }

    /// [`Arrays::part`] where TK3 is zero (not given per call).
    #[inline(always)]
    fn part_without_tk3(&mut self, r: usize) -> (__m128i, __m128i) {
        if r % 2 == 1 {
            self.tk2 = lfsr2(self.tk2);
        }
        tweakey_part(xor(self.tk1, self.tk2), r)
    }
}

#[target_feature(enable = "ssse3,avx")]
fn encrypt_rtk_ssse3(rtk: &RoundTweakeys, block: &mut [u8; 16]) {
    let cells = rtk.as_cells();
    encrypt(block, cells.len(), |r| {
        let k = load8(&cells[r]);
        let p0 = load(&super::circuit::linear_shuffles()[0]);
        xor2(split(shuffle(k, p0)), pair(&ROUND_ADDITION[r]))
    });
}

#[target_feature(enable = "ssse3,avx")]
fn expand_ssse3(tk: &[TweakeyArray; 3], out: &mut SplitRoundKeys) {
    let mut arrays = Arrays::new(tk);
    let rounds = out.rounds;
    for (r, (key, addition)) in out.keys.iter_mut().zip(ROUND_ADDITION.iter()).take(rounds).enumerate() {
        let (hi, lo) = xor2(arrays.part(r), pair(addition));
        let (mut h, mut l) = ([0u8; 16], [0u8; 16]);
        store(hi, &mut h);
        store(lo, &mut l);
        *key = [u128::from_le_bytes(h), u128::from_le_bytes(l)];
    }
}

#[target_feature(enable = "ssse3,avx")]
fn encrypt_tk1_ssse3(fixed: &SplitRoundKeys, tk1: &TweakeyArray, block: &mut [u8; 16]) {
    let tk1 = load(tk1);
    // TK1 has no LFSR: split it once, then each round is one shuffle per half.
    let (tk1_hi, tk1_lo) = split(tk1);
    encrypt(block, fixed.rounds, |r| {
        let ctrl = load(&KEY_CONTROLS[r % 16]);
        xor2((shuffle(tk1_hi, ctrl), shuffle(tk1_lo, ctrl)), pair128(&fixed.keys[r]))
    });
}

#[target_feature(enable = "ssse3,avx")]
fn encrypt_arrays_ssse3(fixed: &SplitRoundKeys, tk: &[TweakeyArray; 3], block: &mut [u8; 16]) {
    let mut arrays = Arrays::new(tk);
    encrypt(block, fixed.rounds, |r| xor2(arrays.part(r), pair128(&fixed.keys[r])));
}

#[target_feature(enable = "ssse3,avx")]
fn encrypt_tk1_tk2_ssse3(fixed: &SplitRoundKeys, tk: &[TweakeyArray; 3], block: &mut [u8; 16]) {
    let mut arrays = Arrays::new(tk);
    encrypt(block, fixed.rounds, |r| xor2(arrays.part_without_tk3(r), pair128(&fixed.keys[r])));
}

/// Whether a call gives TK3 or it is in the fixed part (zero in the call's).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum PerCallTk3 {
    Given,
    Fixed,
}

impl SplitRoundKeys {
    /// The fixed part for `rounds` rounds from the fixed TK arrays, given in
    /// their slots of `tk` (the slots of the arrays given per call are zero),
    /// with the round constants.
    ///
    /// # Panics
    /// Without SSSE3 (callers check), or if `rounds` is over [`MAX_ROUNDS`].
    pub(crate) fn expand(tk: &[TweakeyArray; 3], rounds: usize) -> Self {
        assert!(super::x86::ssse3_detected(), "the split path needs SSSE3");
        assert!(rounds <= MAX_ROUNDS, "rounds in range");
        let mut out = Self { keys: [[0; 2]; MAX_ROUNDS], rounds };
        // SAFETY: SSSE3 was just detected.
        unsafe { expand_ssse3(tk, &mut out) };
        out
    }

    /// Encrypts one block with TK1 = `tk1` added to this fixed part (whose
    /// TK1 slot was zero).
    pub(crate) fn encrypt_tk1(&self, tk1: &TweakeyArray, block: &mut [u8; 16]) {
        // SAFETY: `self` exists only where `expand` found SSSE3.
        unsafe { encrypt_tk1_ssse3(self, tk1, block) }
    }

    /// Encrypts one block with the arrays `tk` (zero in the fixed slots)
    /// added to this fixed part; `tk3` says whether TK3 is among them.
    pub(crate) fn encrypt_arrays(&self, tk: &[TweakeyArray; 3], tk3: PerCallTk3, block: &mut [u8; 16]) {
        // SAFETY: as in `encrypt_tk1`.
        match tk3 {
            PerCallTk3::Given => unsafe { encrypt_arrays_ssse3(self, tk, block) },
            PerCallTk3::Fixed => unsafe { encrypt_tk1_tk2_ssse3(self, tk, block) },
        }
    }
}

/// Encrypts one block of 8-bit cells under `rtk` on the split path.
///
/// # Panics
/// Without SSSE3 (callers check).
pub(crate) fn encrypt_block(rtk: &RoundTweakeys, block: &mut [u8; 16]) {
    assert!(super::x86::ssse3_detected(), "the split path needs SSSE3");
    // SAFETY: SSSE3 was just detected.
    unsafe { encrypt_rtk_ssse3(rtk, block) }
}
