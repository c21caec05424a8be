//! The AVX2 path: one 256-bit register per bit slice, 256 blocks a batch, chosen at
//! run time when the CPU has AVX2.
//!
//! The only `unsafe` code of the crate is here. Its soundness rests on one rule:
//! an [`Avx2Word`] is only ever made inside [`crypt_with_avx2`], which is only
//! entered after AVX2 was found on this CPU (see [`detected`]).
#![allow(unsafe_code)]

use super::batch::{crypt_blocks, Direction};
use super::keys::SlicedTweakeys;
use super::word::Word;
use crate::spec::CellWidth;
use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_set_epi64x, _mm256_slli_epi64,
    _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256,
};

/// Whether this CPU has AVX2. With `std` this asks the CPU (std caches the answer
/// after the first call); without `std` it is whatever the build targets.
#[inline]
pub fn detected() -> bool {
    #[cfg(feature = "std")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx2")
    }
}

/// A bit slice of 256 blocks in one AVX2 register.
#[derive(Clone, Copy)]
struct Avx2Word(__m256i);

impl Word for Avx2Word {
    const LANES: usize = 4;

    #[inline(always)]
    fn splat(x: u64) -> Self {
        // SAFETY: Avx2Word code only runs after AVX2 was detected (module rule).
        Self(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[inline(always)]
    fn not(self) -> Self {
        self.xor(Self::splat(u64::MAX))
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule). The
        // shift is an immediate, so each constant `n` gets its own instruction.
        Self(unsafe {
            match n {
                1 => _mm256_slli_epi64::<1>(self.0),
                2 => _mm256_slli_epi64::<2>(self.0),
                4 => _mm256_slli_epi64::<4>(self.0),
                8 => _mm256_slli_epi64::<8>(self.0),
                16 => _mm256_slli_epi64::<16>(self.0),
                32 => _mm256_slli_epi64::<32>(self.0),
                _ => unreachable!("the transposition shifts by powers of two up to 32"),
            }
        })
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        // SAFETY: as for `shl`.
        Self(unsafe {
            match n {
                1 => _mm256_srli_epi64::<1>(self.0),
                2 => _mm256_srli_epi64::<2>(self.0),
                4 => _mm256_srli_epi64::<4>(self.0),
                8 => _mm256_srli_epi64::<8>(self.0),
                16 => _mm256_srli_epi64::<16>(self.0),
                32 => _mm256_srli_epi64::<32>(self.0),
                _ => unreachable!("the transposition shifts by powers of two up to 32"),
            }
        })
    }
    #[inline(always)]
    fn from_lanes(mut lane: impl FnMut(usize) -> u64) -> Self {
        let (l0, l1, l2, l3) = (lane(0), lane(1), lane(2), lane(3));
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_set_epi64x(l3 as i64, l2 as i64, l1 as i64, l0 as i64) })
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        let mut lanes = [0u64; 4];
        // SAFETY: AVX2 was detected (module rule); `lanes` is 32 writable bytes and
        // the unaligned store has no alignment requirement.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast::<__m256i>(), self.0) };
        for (k, v) in lanes.into_iter().enumerate() {
            sink(k, v);
        }
    }
}

/// Runs the batches with every Avx2Word operation compiled to AVX2 instructions.
#[target_feature(enable = "avx2")]
fn crypt_with_avx2(keys: &SlicedTweakeys, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8]) {
    match width {
        CellWidth::Nibble => crypt_blocks::<Avx2Word, 4>(keys, rounds, dir, data),
        CellWidth::Byte => crypt_blocks::<Avx2Word, 8>(keys, rounds, dir, data),
    }
}

/// Encrypts or decrypts whole blocks in place, 256 at a time (a shorter tail is
/// padded with zeros and the padding thrown away). Returns false, touching
/// nothing, when this CPU has no AVX2.
pub(crate) fn crypt(keys: &SlicedTweakeys, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8]) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `crypt_with_avx2` needs AVX2, which `detected` just confirmed.
    unsafe { crypt_with_avx2(keys, width, rounds, dir, data) };
    true
}
