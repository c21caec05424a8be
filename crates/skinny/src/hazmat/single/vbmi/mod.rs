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

use super::circuit::CONSTANTS_AFTER_LINEAR;
use super::circuit::{linear_inv_shuffles, round_constant_lo};
use crate::spec::tweakey::{RoundTweakeys, TweakeyArray, MAX_ROUNDS};
use core::arch::x86_64::{__m128i, _mm_cvtsi64_si128, _mm_storeu_si128};
use registers::{Arrays, Consts, Reg, Table, X, Y, Z};
use tables::{C2, C2_AFTER_LINEAR, S8_INV_TABLE, S8_TABLE};

// One CPUID (and XGETBV) the first time, then a cached answer, also without std.
cpufeatures::new!(vbmi_cpuid, "avx512f", "avx512bw", "avx512vl", "avx512vbmi", "gfni");

/// Whether this CPU has AVX-512F, -BW, -VL, -VBMI and GFNI (and the OS saves
/// the AVX-512 state).
#[inline]
pub(crate) fn detected() -> bool {
    vbmi_cpuid::get()
}

/// Proof that [`detected`] said yes: the entry points that take one need not
/// ask again (a lanes engine asks once, at its making, not per call).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Detected(());

/// A [`Detected`] where the CPU has the features.
pub(crate) fn token() -> Option<Detected> {
    detected().then_some(Detected(()))
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

/// The rounds of [`encrypt_lanes`] on a register of blocks, `blocks` in
/// its lanes (missing ones zero) and back.
#[inline(always)]
fn lanes<R: Reg, const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    let t = Table::load(&S8_TABLE);
    let c = Consts::<R>::new();
    let mut arrays = Arrays::<R>::new(tk);
    let mut x = R::load(blocks);
    for (r, constants) in CONSTANTS_AFTER_LINEAR.iter().enumerate().take(rounds) {
        let addition = arrays.part::<TKS>(r).xor(R::splat(constants));
        x = c.round(&t, x, addition);
    }
    x.store(blocks);
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn lanes_vbmi<R: Reg, const TKS: usize>(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    lanes::<R, TKS>(tk, rounds, blocks);
}

/// Encrypts up to four blocks under one tweakey given as its TK arrays `tk`
/// (one to three), `rounds` rounds, the schedule run in the rounds: one
/// block in a 128-bit register, two in 256 bits, three or four in 512.
///
/// # Panics
/// With more than four blocks.
pub(crate) fn encrypt_lanes(_: Detected, tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    assert!(blocks.len() <= 4 && rounds <= MAX_ROUNDS, "at most four blocks");
    // SAFETY: the features were detected when the `Detected` was made.
    unsafe {
        match (blocks.len(), tk.len()) {
            (0..=1, 1) => lanes_vbmi::<X, 1>(tk, rounds, blocks),
            (0..=1, 2) => lanes_vbmi::<X, 2>(tk, rounds, blocks),
            (0..=1, _) => lanes_vbmi::<X, 3>(tk, rounds, blocks),
            (2, 1) => lanes_vbmi::<Y, 1>(tk, rounds, blocks),
            (2, 2) => lanes_vbmi::<Y, 2>(tk, rounds, blocks),
            (2, _) => lanes_vbmi::<Y, 3>(tk, rounds, blocks),
            (_, 1) => lanes_vbmi::<Z, 1>(tk, rounds, blocks),
            (_, 2) => lanes_vbmi::<Z, 2>(tk, rounds, blocks),
            (_, _) => lanes_vbmi::<Z, 3>(tk, rounds, blocks),
        }
    }
}
