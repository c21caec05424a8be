//! The nibble-split round (module `split_x86`) on 256-bit registers: two
//! blocks under one tweakey, one per 128-bit lane, for the hashes, whose
//! compression functions run two or three blocks under each tweakey
//! (Romulus-H two, SKINNY-tk3-Hash three, SKINNY-tk2-Hash two). `vpshufb`
//! looks up within each lane, so the tables and the linear layer's controls
//! are the same 16 bytes in both lanes, and two blocks cost one block's
//! instructions. Three or four blocks run as two such pairs, one after the
//! other. The tweakey schedule runs beside the rounds (TK2's and TK3's LFSRs
//! on whole registers every other round, then one shuffle of the arrays' sum,
//! as in `split_x86::Arrays`): nothing is expanded or stored.
//!
//! Soundness rule, as in `split_x86`: the `#[target_feature]` entry points
//! are only called after AVX2 was detected (`bitsliced`'s detection), and the
//! `#[inline(always)]` helpers only from them.
#![allow(unsafe_code)]

use super::circuit::linear_shuffles;
use super::split::{KEY_CONTROLS, ROUND_ADDITION, SBOX};
use crate::spec::tweakey::TweakeyArray;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_broadcastsi128_si256, _mm256_castsi128_si256,
    _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_inserti128_si256, _mm256_or_si256, _mm256_set1_epi8,
    _mm256_shuffle_epi8, _mm256_slli_epi16, _mm256_srli_epi16, _mm256_xor_si256, _mm_loadu_si128, _mm_setzero_si128,
    _mm_storeu_si128,
};

/// A 16-byte constant in both lanes (one `vbroadcasti128` from memory).
#[inline(always)]
fn splat(bytes: &[u8; 16]) -> __m256i {
    // SAFETY: a 16-byte unaligned load; AVX2 was detected (module rule).
    unsafe { _mm256_broadcastsi128_si256(_mm_loadu_si128(bytes.as_ptr().cast())) }
}

#[inline(always)]
fn byte(b: u8) -> __m256i {
    // SAFETY: AVX2 was detected (module rule).
    unsafe { _mm256_set1_epi8(b as i8) }
}

#[inline(always)]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2 was detected (module rule).
    unsafe { _mm256_xor_si256(a, b) }
}

#[inline(always)]
fn and(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2 was detected (module rule).
    unsafe { _mm256_and_si256(a, b) }
}

#[inline(always)]
fn or(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: AVX2 was detected (module rule).
    unsafe { _mm256_or_si256(a, b) }
}

/// `vpshufb` in each lane (reads registers only).
#[inline(always)]
fn shuffle(table: __m256i, ctrl: __m256i) -> __m256i {
    // SAFETY: AVX2 was detected (module rule).
    unsafe { _mm256_shuffle_epi8(table, ctrl) }
}

/// Every byte's high nibble (as 0..15) and low nibble.
#[inline(always)]
fn split(x: __m256i) -> (__m256i, __m256i) {
    let low = byte(0x0f);
    // SAFETY: AVX2 was detected (module rule).
    (and(unsafe { _mm256_srli_epi16::<4>(x) }, low), and(x, low))
}

/// The inverse of [`split`].
#[inline(always)]
fn join(hi: __m256i, lo: __m256i) -> __m256i {
    // SAFETY: AVX2 was detected (module rule).
    or(unsafe { _mm256_slli_epi16::<4>(hi) }, lo)
}

/// TK2's LFSR on every byte, as `split_x86::lfsr2`.
#[inline(always)]
fn lfsr2(x: __m256i) -> __m256i {
    // SAFETY: AVX2 was detected (module rule); the 16-bit shifts are masked
    // to one bit per byte.
    unsafe {
        let feedback = and(xor(_mm256_srli_epi16::<7>(x), _mm256_srli_epi16::<5>(x)), byte(1));
        or(_mm256_add_epi8(x, x), feedback)
    }
}

/// TK3's LFSR on every byte, as `split_x86::lfsr3`.
#[inline(always)]
fn lfsr3(x: __m256i) -> __m256i {
    // SAFETY: as in `lfsr2`.
    unsafe {
        let feedback = and(xor(_mm256_slli_epi16::<7>(x), _mm256_slli_epi16::<1>(x)), byte(0x80));
        or(and(_mm256_srli_epi16::<1>(x), byte(0x7f)), feedback)
    }
}

/// The round's constant tables in registers.
struct Consts {
    sbox: [__m256i; 8],
    linear: [__m256i; 3],
    one: __m256i,
}

#[inline(always)]
fn consts() -> Consts {
    let t = &SBOX;
    Consts {
        sbox: [&t.a_hi, &t.a_lo, &t.b_hi, &t.b_lo, &t.c_hi, &t.c_lo, &t.d_hi, &t.d_lo].map(splat),
        linear: linear_shuffles().map(|p| splat(&p)),
        one: byte(1),
    }
}

/// One round on a split state of two blocks (see `split_x86::round`).
#[inline(always)]
fn round(c: &Consts, (hi, lo): (__m256i, __m256i), (key_hi, key_lo): (__m256i, __m256i)) -> (__m256i, __m256i) {
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

/// `blocks[2s..2s + 2]` (missing ones zero) as one register, split.
#[inline(always)]
fn load_pair(blocks: &[[u8; 16]], s: usize) -> (__m256i, __m256i) {
    let lane = |i: usize| match blocks.get(2 * s + i) {
        // SAFETY: a 16-byte unaligned load of a block (module rule).
        Some(b) => unsafe { _mm_loadu_si128(b.as_ptr().cast()) },
        // SAFETY: SSE2 is part of x86-64.
        None => unsafe { _mm_setzero_si128() },
    };
    // SAFETY: AVX2 was detected (module rule).
    split(unsafe { _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lane(0)), lane(1)) })
}

/// The inverse of [`load_pair`], for the blocks that exist.
#[inline(always)]
fn store_pair((hi, lo): (__m256i, __m256i), blocks: &mut [[u8; 16]], s: usize) {
    let x = join(hi, lo);
    // SAFETY: AVX2 was detected (module rule); 16-byte unaligned stores into
    // blocks.
    unsafe {
        if let Some(b) = blocks.get_mut(2 * s) {
            _mm_storeu_si128(b.as_mut_ptr().cast(), _mm256_castsi256_si128(x));
        }
        if let Some(b) = blocks.get_mut(2 * s + 1) {
            _mm_storeu_si128(b.as_mut_ptr().cast(), _mm256_extracti128_si256::<1>(x));
        }
    }
}

/// Up to two blocks under the `TKS` arrays of `tk`: the schedule beside the
/// rounds, in the same loop (nothing stored).
#[inline(always)]
fn pair<const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    let c = consts();
    let mut x = load_pair(blocks, 0);
    let array = |i: usize| splat(tk.get(i).copied().unwrap_or(&[0; 16]));
    let (tk1, mut tk2, mut tk3) = (array(0), array(1), array(2));
    for r in 0..rounds {
        if r % 2 == 1 {
            if TKS >= 2 {
                tk2 = lfsr2(tk2);
            }
            if TKS >= 3 {
                tk3 = lfsr3(tk3);
            }
        }
        let sum = match TKS {
            1 => tk1,
            2 => xor(tk1, tk2),
            _ => xor(tk1, xor(tk2, tk3)),
        };
        let (k_hi, k_lo) = split(shuffle(sum, splat(&KEY_CONTROLS[r % 16])));
        let [add_hi, add_lo] = &ROUND_ADDITION[r];
        x = round(&c, x, (xor(k_hi, splat(add_hi)), xor(k_lo, splat(add_lo))));
    }
    store_pair(x, blocks, 0);
}

/// The blocks two at a time, [`pair`] by [`pair`]: a second pair's rounds in
/// the same loop would not fit the 16 vector registers beside the eight S-box
/// tables, and recomputing the schedule costs less than storing it.
#[inline(always)]
fn lanes<const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    let (first, second) = blocks.split_at_mut(blocks.len().min(2));
    pair::<TKS>(tk, rounds, first);
    if !second.is_empty() {
        pair::<TKS>(tk, rounds, second);
    }
}

#[target_feature(enable = "avx2")]
fn lanes_avx2<const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    lanes::<TKS>(tk, rounds, blocks);
}

/// Proof that AVX2 was detected: the entry point that takes one need not ask
/// again (a lanes engine asks once, at its making, not per call).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected(());

/// A [`Detected`] where the CPU has AVX2.
pub(crate) fn token() -> Option<Detected> {
    crate::hazmat::bitsliced::Path::Avx2.is_available().then_some(Detected(()))
}

/// Encrypts up to four blocks under one tweakey given as its TK arrays `tk`
/// (one to three), `rounds` rounds.
///
/// # Panics
/// With more than four blocks.
pub(crate) fn encrypt_lanes(_: Detected, tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    assert!(blocks.len() <= 4 && rounds <= ROUND_ADDITION.len(), "at most four blocks");
    // SAFETY: AVX2 was detected when the `Detected` was made.
    unsafe {
        match tk.len() {
            1 => lanes_avx2::<1>(tk, rounds, blocks),
            2 => lanes_avx2::<2>(tk, rounds, blocks),
            _ => lanes_avx2::<3>(tk, rounds, blocks),
        }
    }
}
