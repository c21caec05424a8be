//! A [`FixedTweakeyPart`](crate::hazmat::single::FixedTweakeyPart) on the
//! VBMI path: the fixed TK arrays' round additions stored through the linear
//! layer, each call's arrays added in the rounds.
#![allow(unsafe_code)]

use super::super::circuit::CONSTANTS_AFTER_LINEAR;
use super::super::split::KEY_CONTROLS;
use super::detected;
use super::registers::{Arrays, Consts, Reg, Table, X};
use super::tables::S8_TABLE;
use crate::spec::tweakey::{TweakeyArray, MAX_ROUNDS};
use core::arch::x86_64::{_mm_loadu_si128, _mm_storeu_si128};
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The round additions of the fixed TK arrays (with every round constant),
/// through the linear layer, one `u128` a round. Wiped when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct VbmiRoundKeys {
    keys: [u128; MAX_ROUNDS],
    #[zeroize(skip)]
    rounds: usize,
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn expand_vbmi(tk: &[TweakeyArray; 3], out: &mut VbmiRoundKeys) {
    let mut arrays = Arrays::<X>::new(&[&tk[0], &tk[1], &tk[2]]);
    for (r, key) in out.keys.iter_mut().enumerate().take(out.rounds) {
        let k = arrays.part::<3>(r).xor(X::splat(&CONSTANTS_AFTER_LINEAR[r]));
        let mut bytes = [0u8; 16];
        // SAFETY: a 16-byte unaligned store into a local array.
        unsafe { _mm_storeu_si128(bytes.as_mut_ptr().cast(), k.0) };
        *key = u128::from_le_bytes(bytes);
    }
}

/// Round `r`'s stored addition as a register.
#[inline(always)]
fn stored(keys: &VbmiRoundKeys, r: usize) -> X {
    // SAFETY: a 16-byte unaligned load of a `u128` (little-endian on x86).
    X(unsafe { _mm_loadu_si128((&keys.keys[r] as *const u128).cast()) })
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn encrypt_tk1_vbmi(fixed: &VbmiRoundKeys, tk1: &TweakeyArray, block: &mut [u8; 16]) {
    let t = Table::load(&S8_TABLE);
    let c = Consts::<X>::new();
    let tk1 = X::splat(tk1);
    let mut x = X::splat(block);
    for r in 0..fixed.rounds {
        // TK1 has no LFSR: its part is one shuffle of the array as given.
        let addition = tk1.shuffle(X::splat(&KEY_CONTROLS[r % 16])).xor(stored(fixed, r));
        x = c.round(&t, x, addition);
    }
    // SAFETY: a 16-byte unaligned store into the block.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), x.0) }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
fn encrypt_arrays_vbmi<const TKS: usize>(fixed: &VbmiRoundKeys, tk: &[TweakeyArray; 3], block: &mut [u8; 16]) {
    let t = Table::load(&S8_TABLE);
    let c = Consts::<X>::new();
    let mut arrays = Arrays::<X>::new(&[&tk[0], &tk[1], &tk[2]]);
    let mut x = X::splat(block);
    for r in 0..fixed.rounds {
        let addition = arrays.part::<TKS>(r).xor(stored(fixed, r));
        x = c.round(&t, x, addition);
    }
    // SAFETY: a 16-byte unaligned store into the block.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), x.0) }
}

impl VbmiRoundKeys {
    /// The fixed part for `rounds` rounds from the fixed TK arrays in their
    /// slots of `tk` (the per-call slots zero), with the round constants.
    ///
    /// # Panics
    /// Without the CPU features (callers check), or if `rounds` is over
    /// [`MAX_ROUNDS`].
    pub(crate) fn expand(tk: &[TweakeyArray; 3], rounds: usize) -> Self {
        assert!(detected(), "the VBMI path needs AVX-512 VBMI and GFNI");
        assert!(rounds <= MAX_ROUNDS, "rounds in range");
        let mut out = Self { keys: [0; MAX_ROUNDS], rounds };
        // SAFETY: the features were just detected.
        unsafe { expand_vbmi(tk, &mut out) };
        out
    }

    /// Encrypts one block with TK1 = `tk1` added to this fixed part.
    pub(crate) fn encrypt_tk1(&self, tk1: &TweakeyArray, block: &mut [u8; 16]) {
        // SAFETY: `self` exists only where `expand` found the features.
        unsafe { encrypt_tk1_vbmi(self, tk1, block) }
    }

    /// Encrypts one block with the arrays `tk` (zero in the fixed slots) added
    /// to this fixed part; `given` arrays (2 or 3) are per call.
    pub(crate) fn encrypt_arrays(&self, tk: &[TweakeyArray; 3], given: usize, block: &mut [u8; 16]) {
        // SAFETY: as in `encrypt_tk1`.
        match given {
            2 => unsafe { encrypt_arrays_vbmi::<2>(self, tk, block) },
            _ => unsafe { encrypt_arrays_vbmi::<3>(self, tk, block) },
        }
    }
}
