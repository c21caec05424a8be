//! The registers of the VBMI path: one, two or four blocks (one per 128-bit
//! lane) with the operations of a round, the S-box table, and the TK arrays
//! given per call.
//!
//! Soundness rule: as the parent module's; these types only exist inside its
//! `#[target_feature]` entry points.
#![allow(unsafe_code)]

use super::super::circuit::linear_shuffles;
use super::super::split::KEY_CONTROLS;
use super::tables::{LFSR2_MATRIX, LFSR3_MATRIX};
use crate::spec::tweakey::TweakeyArray;
use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm256_broadcastsi128_si256, _mm256_castsi128_si256, _mm256_castsi256_si128,
    _mm256_extracti128_si256, _mm256_gf2p8affine_epi64_epi8, _mm256_inserti128_si256, _mm256_set1_epi64x,
    _mm256_set1_epi8, _mm256_shuffle_epi8, _mm256_ternarylogic_epi64, _mm256_xor_si256, _mm512_broadcast_i32x4,
    _mm512_castsi128_si512, _mm512_castsi256_si512, _mm512_castsi512_si128, _mm512_castsi512_si256,
    _mm512_extracti64x4_epi64, _mm512_gf2p8affine_epi64_epi8, _mm512_inserti64x4, _mm512_loadu_si512,
    _mm512_permutex2var_epi8, _mm512_set1_epi64, _mm512_set1_epi8, _mm512_shuffle_epi8, _mm512_ternarylogic_epi64,
    _mm512_xor_si512, _mm_gf2p8affine_epi64_epi8, _mm_loadu_si128, _mm_set1_epi64x, _mm_set1_epi8, _mm_setzero_si128,
    _mm_shuffle_epi8, _mm_storeu_si128, _mm_ternarylogic_epi64, _mm_xor_si128,
};

/// A register of one, two or four blocks (one per 128-bit lane) with the
/// operations of a round; every lane runs the same round on its own block.
pub(super) trait Reg: Copy {
    /// `blocks` (as many as the register has lanes, or fewer) in its lanes,
    /// zero in the others.
    fn load(blocks: &[[u8; 16]]) -> Self;
    /// The lanes back into `blocks` (those there are).
    fn store(self, blocks: &mut [[u8; 16]]);
    /// A 16-byte constant in every lane.
    fn splat(bytes: &[u8; 16]) -> Self;
    /// The same 128 bits in every lane.
    fn broadcast(x: __m128i) -> Self;
    fn xor(self, o: Self) -> Self;
    fn xor3(a: Self, b: Self, c: Self) -> Self;
    /// `pshufb` in every lane: byte `i` is byte `ctrl[i]` of the lane (0 where
    /// bit 7 of the control is set).
    fn shuffle(self, ctrl: Self) -> Self;
    /// Every byte through the table held in `t` (two `vpermi2b` and a blend).
    fn lookup(self, t: &Table) -> Self;
    /// Every byte through a linear map given as a GFNI matrix.
    fn affine(self, matrix: u64) -> Self;
}

/// A 256-byte table in four registers: `lo_*` the entries with bit 7 clear,
/// `hi_*` those with it set.
pub(super) struct Table {
    lo_a: __m512i,
    lo_b: __m512i,
    hi_a: __m512i,
    hi_b: __m512i,
}

impl Table {
    #[inline(always)]
    pub(super) fn load(t: &[u8; 256]) -> Self {
        // SAFETY: 64-byte unaligned loads within the table; AVX-512F was
        // detected before the entry points run (module rule).
        unsafe {
            let at = |i: usize| _mm512_loadu_si512(t[64 * i..].as_ptr().cast());
            Self { lo_a: at(0), lo_b: at(1), hi_a: at(2), hi_b: at(3) }
        }
    }

    /// The lookup of every byte of `x` (64 of them): bits 0..6 index each half
    /// (bit 6 picks `*_b`), bit 7 picks the half.
    #[inline(always)]
    fn lookup512(&self, x: __m512i) -> __m512i {
        // SAFETY: AVX-512VBMI and BW were detected (module rule).
        unsafe {
            let lo = _mm512_permutex2var_epi8(self.lo_a, x, self.lo_b);
            let hi = _mm512_permutex2var_epi8(self.hi_a, x, self.hi_b);
            // All ones where bit 7 of the index is clear: `pshufb` zeroes
            // exactly those bytes of an all-ones table whose control has bit 7.
            let low_half = _mm512_shuffle_epi8(_mm512_set1_epi8(-1), x);
            _mm512_ternarylogic_epi64::<0xca>(low_half, lo, hi)
        }
    }
}

/// One block in an XMM register.
#[derive(Clone, Copy)]
pub(super) struct X(pub(super) __m128i);
/// Two blocks in a YMM register.
#[derive(Clone, Copy)]
pub(super) struct Y(pub(super) __m256i);
/// Four blocks in a ZMM register.
#[derive(Clone, Copy)]
pub(super) struct Z(pub(super) __m512i);

// SAFETY (every `unsafe` block below): the register types only exist inside
// the entry points, which run after `detected` (module rule); loads read the
// 16 bytes of a constant array.
/// Lane `i` of `blocks` as a register (zero if there is none).
#[inline(always)]
fn lane(blocks: &[[u8; 16]], i: usize) -> __m128i {
    match blocks.get(i) {
        // SAFETY: a 16-byte unaligned load of a block; SSE2 is part of x86-64.
        Some(b) => unsafe { _mm_loadu_si128(b.as_ptr().cast()) },
        // SAFETY: SSE2 is part of x86-64.
        None => unsafe { _mm_setzero_si128() },
    }
}

/// `x` into block `i` of `blocks`, if there is one.
#[inline(always)]
fn put(blocks: &mut [[u8; 16]], i: usize, x: __m128i) {
    if let Some(b) = blocks.get_mut(i) {
        // SAFETY: a 16-byte unaligned store into a block; SSE2.
        unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), x) }
    }
}

impl Reg for X {
    #[inline(always)]
    fn load(blocks: &[[u8; 16]]) -> Self {
        Self(lane(blocks, 0))
    }
    #[inline(always)]
    fn store(self, blocks: &mut [[u8; 16]]) {
        put(blocks, 0, self.0);
    }
    #[inline(always)]
    fn splat(bytes: &[u8; 16]) -> Self {
        Self(unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) })
    }
    #[inline(always)]
    fn broadcast(x: __m128i) -> Self {
        Self(x)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Self(unsafe { _mm_xor_si128(self.0, o.0) })
    }
    #[inline(always)]
    fn xor3(a: Self, b: Self, c: Self) -> Self {
        Self(unsafe { _mm_ternarylogic_epi64::<0x96>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    fn shuffle(self, ctrl: Self) -> Self {
        Self(unsafe { _mm_shuffle_epi8(self.0, ctrl.0) })
    }
    #[inline(always)]
    fn lookup(self, t: &Table) -> Self {
        // Only the index's low 128 bits matter; the permutes look at the
        // whole register, and the other lanes' results are dropped. The blend
        // is done on 128 bits, where its mask is 16 bits.
        unsafe {
            let x = _mm512_castsi128_si512(self.0);
            let lo = _mm512_castsi512_si128(_mm512_permutex2var_epi8(t.lo_a, x, t.lo_b));
            let hi = _mm512_castsi512_si128(_mm512_permutex2var_epi8(t.hi_a, x, t.hi_b));
            let low_half = _mm_shuffle_epi8(_mm_set1_epi8(-1), self.0);
            Self(_mm_ternarylogic_epi64::<0xca>(low_half, lo, hi))
        }
    }
    #[inline(always)]
    fn affine(self, matrix: u64) -> Self {
        Self(unsafe { _mm_gf2p8affine_epi64_epi8::<0>(self.0, _mm_set1_epi64x(matrix as i64)) })
    }
}

impl Reg for Y {
    #[inline(always)]
    fn load(blocks: &[[u8; 16]]) -> Self {
        Self(unsafe { _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(lane(blocks, 0)), lane(blocks, 1)) })
    }
    #[inline(always)]
    fn store(self, blocks: &mut [[u8; 16]]) {
        put(blocks, 0, unsafe { _mm256_castsi256_si128(self.0) });
        put(blocks, 1, unsafe { _mm256_extracti128_si256::<1>(self.0) });
    }
    #[inline(always)]
    fn splat(bytes: &[u8; 16]) -> Self {
        Self::broadcast(X::splat(bytes).0)
    }
    #[inline(always)]
    fn broadcast(x: __m128i) -> Self {
        Self(unsafe { _mm256_broadcastsi128_si256(x) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Self(unsafe { _mm256_xor_si256(self.0, o.0) })
    }
    #[inline(always)]
    fn xor3(a: Self, b: Self, c: Self) -> Self {
        Self(unsafe { _mm256_ternarylogic_epi64::<0x96>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    fn shuffle(self, ctrl: Self) -> Self {
        Self(unsafe { _mm256_shuffle_epi8(self.0, ctrl.0) })
    }
    #[inline(always)]
    fn lookup(self, t: &Table) -> Self {
        unsafe {
            let x = _mm512_castsi256_si512(self.0);
            let lo = _mm512_castsi512_si256(_mm512_permutex2var_epi8(t.lo_a, x, t.lo_b));
            let hi = _mm512_castsi512_si256(_mm512_permutex2var_epi8(t.hi_a, x, t.hi_b));
            let low_half = _mm256_shuffle_epi8(_mm256_set1_epi8(-1), self.0);
            Self(_mm256_ternarylogic_epi64::<0xca>(low_half, lo, hi))
        }
    }
    #[inline(always)]
    fn affine(self, matrix: u64) -> Self {
        Self(unsafe { _mm256_gf2p8affine_epi64_epi8::<0>(self.0, _mm256_set1_epi64x(matrix as i64)) })
    }
}

impl Reg for Z {
    #[inline(always)]
    fn load(blocks: &[[u8; 16]]) -> Self {
        let low = Y::load(blocks).0;
        let high = Y::load(blocks.get(2..).unwrap_or(&[])).0;
        Self(unsafe { _mm512_inserti64x4::<1>(_mm512_castsi256_si512(low), high) })
    }
    #[inline(always)]
    fn store(self, blocks: &mut [[u8; 16]]) {
        Y(unsafe { _mm512_castsi512_si256(self.0) }).store(blocks);
        if let Some(rest) = blocks.get_mut(2..) {
            Y(unsafe { _mm512_extracti64x4_epi64::<1>(self.0) }).store(rest);
        }
    }
    #[inline(always)]
    fn splat(bytes: &[u8; 16]) -> Self {
        Self::broadcast(X::splat(bytes).0)
    }
    #[inline(always)]
    fn broadcast(x: __m128i) -> Self {
        Self(unsafe { _mm512_broadcast_i32x4(x) })
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        Self(unsafe { _mm512_xor_si512(self.0, o.0) })
    }
    #[inline(always)]
    fn xor3(a: Self, b: Self, c: Self) -> Self {
        Self(unsafe { _mm512_ternarylogic_epi64::<0x96>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    fn shuffle(self, ctrl: Self) -> Self {
        Self(unsafe { _mm512_shuffle_epi8(self.0, ctrl.0) })
    }
    #[inline(always)]
    fn lookup(self, t: &Table) -> Self {
        Self(t.lookup512(self.0))
    }
    #[inline(always)]
    fn affine(self, matrix: u64) -> Self {
        Self(unsafe { _mm512_gf2p8affine_epi64_epi8::<0>(self.0, _mm512_set1_epi64(matrix as i64)) })
    }
}

/// The constants of a round in registers of type `R`.
pub(super) struct Consts<R> {
    pub(super) linear: [R; 3],
}

impl<R: Reg> Consts<R> {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Self { linear: linear_shuffles().map(|p| R::splat(&p)) }
    }

    /// One round: S8, then the linear layer XOR `addition` (the round's
    /// tweakey and constants, already through the linear layer).
    #[inline(always)]
    pub(super) fn round(&self, t: &Table, x: R, addition: R) -> R {
        let y = x.lookup(t);
        let [p0, p1, p2] = self.linear;
        R::xor3(y.shuffle(p0), y.shuffle(p1), y.shuffle(p2).xor(addition))
    }
}

/// TK1, TK2, TK3 given per call, in registers: their LFSRs run every other
/// round (before the odd rounds) on whole registers, and round `r`'s part of
/// the addition is one shuffle of their sum (see `split::KEY_CONTROLS`).
pub(super) struct Arrays<R> {
    tk: [R; 3],
}

impl<R: Reg> Arrays<R> {
    #[inline(always)]
    pub(super) fn new(tk: &[&TweakeyArray]) -> Self {
        Self { tk: core::array::from_fn(|i| R::splat(tk.get(i).copied().unwrap_or(&[0; 16]))) }
    }

    /// Round `r`'s part through the linear layer; rounds must be asked for in
    /// order from 0. `TKS` arrays take part (the others stay as given: zero).
    #[inline(always)]
    pub(super) fn part<const TKS: usize>(&mut self, r: usize) -> R {
        if r % 2 == 1 {
            if TKS >= 2 {
                self.tk[1] = self.tk[1].affine(LFSR2_MATRIX);
            }
            if TKS >= 3 {
                self.tk[2] = self.tk[2].affine(LFSR3_MATRIX);
            }
        }
        let sum = match TKS {
            1 => self.tk[0],
            2 => self.tk[0].xor(self.tk[1]),
            _ => R::xor3(self.tk[0], self.tk[1], self.tk[2]),
        };
        sum.shuffle(R::splat(&KEY_CONTROLS[r % 16]))
    }
}
