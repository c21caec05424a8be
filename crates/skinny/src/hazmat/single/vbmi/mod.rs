//! The AVX-512 VBMI path ([`super::Path::Avx512Vbmi`]) for 8-bit cells: the
//! whole S-box as a register lookup.
//!
//! A round on the 16 cells of a block, one per byte:
//!
//! - SubCells: `vpermi2b` looks up 128 bytes held in two registers with the
//!   low seven bits of every index, so S8 is two of them (the table's halves
//!   for bit 7 clear and set) and a byte blend on bit 7 (`vpmovb2m`, then
//!   `vpblendmb`): no nibble split, no circuit. S8⁻¹ the same with its table,
//!   so decryption is as fast as encryption.
//! - ShiftRows and MixColumns: three `pshufb` with constant controls, XORed
//!   (one `vpternlogq`) with the round's addition.
//! - The round's addition (round tweakey, constants) through the linear layer,
//!   computed beside the state's chain: from a [`RoundTweakeys`] one shuffle of
//!   the round's eight cells; from a [`VbmiRoundKeys`] (the fixed TK arrays'
//!   part, stored through the linear layer) plus each call's TK1 by one shuffle
//!   (and its TK2, TK3 after their LFSRs, each one `gf2p8affineqb`); or all
//!   arrays given per call, the schedule run in the rounds ([`encrypt_lanes`]).
//!
//! That is 2 permutes, a blend, 3 shuffles and 2 XORs on the chain of a round
//! (the permutes side by side). Register permutes and byte shuffles read
//! registers only: their time does not depend on the index values, as for
//! `pshufb` (`docs/constant-time.md`). [`encrypt_lanes`] runs up to four
//! blocks under one tweakey, one per 128-bit lane of a 512-bit register (or two
//! in 256 bits), at about the cost of one.
//!
//! Soundness rule of this module, as in `x86`: the `#[target_feature]` entry
//! points are only called after [`detected`] said yes, and the
//! `#[inline(always)]` helpers only from those entry points.
#![allow(unsafe_code)]

mod fixed;
mod registers;
mod tables;

pub(crate) use fixed::VbmiRoundKeys;

use super::circuit::{linear_inv_shuffles, round_constant_lo};
use crate::spec::tweakey::{RoundTweakeys, TweakeyArray, MAX_ROUNDS};
use core::arch::x86_64::{
    __m128i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_loadu_si512, _mm512_storeu_si512, _mm_cvtsi64_si128,
    _mm_storeu_si128,
};
use registers::{Arrays, Consts, Reg, Table, X, Y, Z};
use tables::{C2, C2_AFTER_LINEAR, CONSTANTS_AFTER_LINEAR, S8_INV_TABLE, S8_TABLE};
use zeroize::Zeroize;

// One CPUID (and XGETBV) the first time, then a cached answer, also without std.
cpufeatures::new!(vbmi_cpuid, "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "gfni");

/// Whether this CPU has AVX-512F, -BW, -VL, -VBMI and GFNI (and the OS saves
/// the AVX-512 state).
#[inline]
pub(crate) fn detected() -> bool {
    vbmi_cpuid::get()
}

/// A register's worth of the eight round-tweakey cells of round `r` with c0
/// and c1, as rows 0 and 1.
#[inline(always)]
fn round_key_lo(k: &[u8; 8], r: usize) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_cvtsi64_si128((u64::from_le_bytes(*k) ^ round_constant_lo(r)) as i64) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn encrypt_rtk_vbmi(rtk: &RoundTweakeys, block: &mut [u8; 16]) {
    let t = Table::load(&S8_TABLE);
    let c = Consts::<X>::new();
    // Opaque, so that LLVM combines it with the round tweakey first instead of
    // moving the constant XOR onto the state's chain (see `x86`).
    let c2 = core::hint::black_box(X::splat(&C2_AFTER_LINEAR));
    let mut x = X::splat(block);
    for (r, k) in rtk.as_cells().iter().enumerate() {
        let addition = X(round_key_lo(k, r)).shuffle(c.linear[0]).xor(c2);
        x = c.round(&t, x, addition);
    }
    // SAFETY: a 16-byte unaligned store into the block.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), x.0) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn decrypt_rtk_vbmi(rtk: &RoundTweakeys, block: &mut [u8; 16]) {
    let t = Table::load(&S8_INV_TABLE);
    let [q0, q1, q2] = linear_inv_shuffles().map(|q| X::splat(&q));
    let c2 = core::hint::black_box(X::splat(&C2));
    let mut x = X::splat(block);
    for (r, k) in rtk.as_cells().iter().enumerate().rev() {
        let addition = X(round_key_lo(k, r)).xor(c2);
        let y = X::xor3(x.shuffle(q0), x.shuffle(q1), x.shuffle(q2).xor(addition));
        x = y.lookup(&t);
    }
    // SAFETY: a 16-byte unaligned store into the block.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), x.0) }
}

/// Encrypts one block of 8-bit cells under `rtk`.
///
/// # Panics
/// Without the CPU features (callers check).
pub(crate) fn encrypt_block(rtk: &RoundTweakeys, block: &mut [u8; 16]) {
    assert!(detected(), "the VBMI path needs AVX-512 VBMI and GFNI");
    // SAFETY: the features were just detected.
    unsafe { encrypt_rtk_vbmi(rtk, block) }
}

/// Decrypts one block of 8-bit cells under `rtk`.
///
/// # Panics
/// Without the CPU features (callers check).
pub(crate) fn decrypt_block(rtk: &RoundTweakeys, block: &mut [u8; 16]) {
    assert!(detected(), "the VBMI path needs AVX-512 VBMI and GFNI");
    // SAFETY: the features were just detected.
    unsafe { decrypt_rtk_vbmi(rtk, block) }
}

/// `blocks` (one register's worth or fewer) into lanes, zero in the rest.
#[inline(always)]
fn load_lanes<const L: usize>(blocks: &[[u8; 16]]) -> [u8; 64] {
    let mut lanes = [0u8; 64];
    for (lane, b) in lanes.chunks_exact_mut(16).zip(blocks).take(L) {
        lane.copy_from_slice(b);
    }
    lanes
}

/// The rounds of [`encrypt_lanes`] on registers of `R::LANES` blocks.
#[inline(always)]
fn lanes<R: Reg, const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, x: R) -> R {
    let t = Table::load(&S8_TABLE);
    let c = Consts::<R>::new();
    let mut arrays = Arrays::<R>::new(tk);
    let mut x = x;
    for (r, constants) in CONSTANTS_AFTER_LINEAR.iter().enumerate().take(rounds) {
        let addition = arrays.part::<TKS>(r).xor(R::splat(constants));
        x = c.round(&t, x, addition);
    }
    x
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn lanes2_vbmi<const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    let mut bytes = load_lanes::<2>(blocks);
    // SAFETY: 32-byte unaligned load and store within a 64-byte array.
    unsafe {
        let x = Y(_mm256_loadu_si256(bytes.as_ptr().cast()));
        let y = lanes::<Y, TKS>(tk, rounds, x);
        _mm256_storeu_si256(bytes.as_mut_ptr().cast(), y.0);
    }
    for (b, lane) in blocks.iter_mut().zip(bytes.chunks_exact(16)) {
        b.copy_from_slice(lane);
    }
    bytes.zeroize();
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn lanes4_vbmi<const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    let mut bytes = load_lanes::<4>(blocks);
    // SAFETY: 64-byte unaligned load and store of a 64-byte array.
    unsafe {
        let x = Z(_mm512_loadu_si512(bytes.as_ptr().cast()));
        let y = lanes::<Z, TKS>(tk, rounds, x);
        _mm512_storeu_si512(bytes.as_mut_ptr().cast(), y.0);
    }
    for (b, lane) in blocks.iter_mut().zip(bytes.chunks_exact(16)) {
        b.copy_from_slice(lane);
    }
    bytes.zeroize();
}

/// Encrypts up to four blocks under one tweakey given as its TK arrays `tk`
/// (one to three), `rounds` rounds, the schedule run in the
/// rounds: one or two blocks in a 256-bit register, three or four in a
/// 512-bit one.
///
/// # Panics
/// Without the CPU features (callers check), or with more than four blocks.
pub(crate) fn encrypt_lanes(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    assert!(detected(), "the VBMI path needs AVX-512 VBMI and GFNI");
    assert!(blocks.len() <= 4 && rounds <= MAX_ROUNDS, "at most four blocks");
    // SAFETY: the features were just detected.
    unsafe {
        match (blocks.len() <= 2, tk.len()) {
            (true, 1) => lanes2_vbmi::<1>(tk, rounds, blocks),
            (true, 2) => lanes2_vbmi::<2>(tk, rounds, blocks),
            (true, _) => lanes2_vbmi::<3>(tk, rounds, blocks),
            (false, 1) => lanes4_vbmi::<1>(tk, rounds, blocks),
            (false, 2) => lanes4_vbmi::<2>(tk, rounds, blocks),
            (false, _) => lanes4_vbmi::<3>(tk, rounds, blocks),
        }
    }
}
