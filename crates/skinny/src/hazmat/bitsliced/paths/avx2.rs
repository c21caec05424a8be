//! The AVX2 path: one 256-bit register per bit slice, 256 blocks a batch, chosen at
//! run time when the CPU has AVX2.
//!
//! This module allows `unsafe` for the intrinsics (as do `avx512.rs` and the
//! single-block x86 code). Its soundness rests on one rule: an [`Avx2Word`] is
//! only ever made inside the `#[target_feature(enable = "avx2")]` batch
//! functions below ([`crypt_with_avx2`], …), which are only entered after AVX2
//! was found on this CPU (see [`detected`]); the out-of-line rounds take
//! `Avx2Word`s, so they too only run after it.
#![allow(unsafe_code)]

use crate::hazmat::bitsliced::batch::{crypt_blocks, Direction};
use crate::hazmat::bitsliced::keys::SlicedTweakeys;
use crate::hazmat::bitsliced::per_block::{
    crypt_blocks_for, crypt_blocks_in as crypt_per_block_keyed, crypt_blocks_lfsr, BlockKeys, FixedKeys, PerBlockWord,
    Tks,
};
use crate::hazmat::bitsliced::round::{
    decrypt_pairs, decrypt_round, encrypt_pairs, encrypt_round, RoundKey, RoundWord, State,
};
use crate::hazmat::bitsliced::word::Word;
use crate::spec::tweakey::RoundTweakeys;
use crate::spec::CellWidth;
use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi32,
    _mm256_set1_epi64x, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};

// Run-time detection without `std`: one CPUID (and XGETBV, for the OS's AVX
// state) the first time, then a cached answer in a static; a build that already
// targets AVX2 answers true without asking.
cpufeatures::new!(avx2_cpuid, "avx2");

/// Whether this CPU has AVX2 (and the OS saves its registers).
#[inline]
pub fn detected() -> bool {
    avx2_cpuid::get()
}

/// A bit slice of 256 blocks in one AVX2 register.
#[derive(Clone, Copy)]
struct Avx2Word(__m256i);

impl Word for Avx2Word {
    const LANES: usize = 4;
    // SAFETY: every bit pattern is a valid `__m256i`; no instruction runs.
    const ZERO: Self = Self(unsafe { core::mem::transmute::<[u64; 4], __m256i>([0; 4]) });

    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn splat(x: u64) -> Self {
        // SAFETY: Avx2Word code only runs after AVX2 was detected (module rule).
        Self(unsafe { _mm256_set1_epi64x(x as i64) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn splat_mask(m: u32) -> Self {
        // SAFETY: Avx2Word code only runs after AVX2 was detected (module rule).
        // The eight 32-bit lanes all equal to `m` (0 or all ones) make every bit `m`.
        Self(unsafe { _mm256_set1_epi32(m as i32) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_and_si256(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_or_si256(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        Self(unsafe { _mm256_andnot_si256(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn not(self) -> Self {
        self.xor(Self::splat(u64::MAX))
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn shl(self, n: u32) -> Self {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule). The
        // shift is an immediate, so each constant `n` gets its own instruction.
        Self(unsafe { shift_by_immediate!(_mm256_slli_epi64, self.0, n) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn shr(self, n: u32) -> Self {
        // SAFETY: as for `shl`.
        Self(unsafe { shift_by_immediate!(_mm256_srli_epi64, self.0, n) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn load_row8(blocks: &[u8], i: usize) -> Self {
        let row = &blocks[32 * i..32 * i + 32];
        // SAFETY: AVX2 was detected (module rule); `row` is 32 readable bytes and
        // the unaligned load has no alignment requirement.
        Self(unsafe { _mm256_loadu_si256(row.as_ptr().cast::<__m256i>()) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn store_row8(self, blocks: &mut [u8], i: usize) {
        let row = &mut blocks[32 * i..32 * i + 32];
        // SAFETY: AVX2 was detected (module rule); `row` is 32 writable bytes and
        // the unaligned store has no alignment requirement.
        unsafe { _mm256_storeu_si256(row.as_mut_ptr().cast::<__m256i>(), self.0) }
    }
    /// Blocks 4i..4i+4 are 64 contiguous bytes: two loads, then the 64-bit
    /// unpacks gather first halves and second halves, lanes in block order
    /// (4i, 4i+2, 4i+1, 4i+3), which `store_row16` puts back.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn load_row16(blocks: &[u8], i: usize) -> (Self, Self) {
        let row = &blocks[64 * i..64 * i + 64];
        // SAFETY: AVX2 was detected (module rule); `row` is 64 readable bytes, read
        // as two unaligned 32-byte loads.
        unsafe {
            let a = _mm256_loadu_si256(row.as_ptr().cast::<__m256i>());
            let b = _mm256_loadu_si256(row[32..].as_ptr().cast::<__m256i>());
            (Self(_mm256_unpacklo_epi64(a, b)), Self(_mm256_unpackhi_epi64(a, b)))
        }
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn store_row16(lo: Self, hi: Self, blocks: &mut [u8], i: usize) {
        let row = &mut blocks[64 * i..64 * i + 64];
        // SAFETY: AVX2 was detected (module rule); `row` is 64 writable bytes,
        // written as two unaligned 32-byte stores.
        unsafe {
            let a = _mm256_unpacklo_epi64(lo.0, hi.0);
            let b = _mm256_unpackhi_epi64(lo.0, hi.0);
            _mm256_storeu_si256(row.as_mut_ptr().cast::<__m256i>(), a);
            _mm256_storeu_si256(row[32..].as_mut_ptr().cast::<__m256i>(), b);
        }
    }
    fn wipe(words: &mut [Self]) {
        // zeroize's volatile write of a zeroed register needs no AVX2 instruction.
        for w in words {
            zeroize::Zeroize::zeroize(&mut w.0);
        }
    }
}

impl RoundWord for Avx2Word {
    #[inline(always)]
    fn encrypt_pairs<const BITS: usize>(
        a: &mut State<Avx2Word>,
        b: &mut State<Avx2Word>,
        keys: &SlicedTweakeys,
        paired: usize,
    ) {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        unsafe { encrypt_pairs_avx2::<BITS>(a, b, keys, paired) }
    }
    #[inline(always)]
    fn decrypt_pairs<const BITS: usize>(
        a: &mut State<Avx2Word>,
        b: &mut State<Avx2Word>,
        keys: &SlicedTweakeys,
        paired: usize,
    ) {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        unsafe { decrypt_pairs_avx2::<BITS>(a, b, keys, paired) }
    }
    #[inline(always)]
    fn encrypt_round<const BITS: usize, K: RoundKey<Self>>(s: &State<Self>, out: &mut State<Self>, key: &K) {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        unsafe { encrypt_round_avx2::<BITS, K>(s, out, key) }
    }
    #[inline(always)]
    fn decrypt_round<const BITS: usize, K: RoundKey<Self>>(s: &State<Self>, out: &mut State<Self>, key: &K) {
        // SAFETY: AVX2 was detected before any Avx2Word exists (module rule).
        unsafe { decrypt_round_avx2::<BITS, K>(s, out, key) }
    }
}

/// One encryption round with every Avx2Word operation compiled to AVX2
/// instructions, one copy per cell width and keying, called once a round (see
/// `RoundWord::encrypt_round` for why it is not inlined).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn encrypt_round_avx2<const BITS: usize, K: RoundKey<Avx2Word>>(
    s: &State<Avx2Word>,
    out: &mut State<Avx2Word>,
    key: &K,
) {
    encrypt_round::<Avx2Word, BITS, K>(s, out, key);
}

/// The decryption round as [`encrypt_round_avx2`].
#[target_feature(enable = "avx2")]
#[inline(never)]
fn decrypt_round_avx2<const BITS: usize, K: RoundKey<Avx2Word>>(
    s: &State<Avx2Word>,
    out: &mut State<Avx2Word>,
    key: &K,
) {
    decrypt_round::<Avx2Word, BITS, K>(s, out, key);
}

/// The round pairs of one-tweakey batches (`round::encrypt_pairs`) compiled
/// with AVX2, the states as arguments (see `RoundWord::encrypt_pairs`).
#[target_feature(enable = "avx2")]
#[inline(never)]
fn encrypt_pairs_avx2<const BITS: usize>(
    a: &mut State<Avx2Word>,
    b: &mut State<Avx2Word>,
    keys: &SlicedTweakeys,
    paired: usize,
) {
    encrypt_pairs::<Avx2Word, BITS>(a, b, keys, paired);
}

/// The decryption pairs as [`encrypt_pairs_avx2`].
#[target_feature(enable = "avx2")]
#[inline(never)]
fn decrypt_pairs_avx2<const BITS: usize>(
    a: &mut State<Avx2Word>,
    b: &mut State<Avx2Word>,
    keys: &SlicedTweakeys,
    paired: usize,
) {
    decrypt_pairs::<Avx2Word, BITS>(a, b, keys, paired);
}

/// Runs the batches of one cell width with every Avx2Word operation compiled
/// to AVX2 instructions, a frame of its own per width.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn crypt_with_avx2<const BITS: usize>(keys: &SlicedTweakeys, rounds: usize, dir: Direction, data: &mut [u8]) {
    crypt_blocks::<Avx2Word, BITS>(keys, rounds, dir, data);
}

/// [`SlicedTweakeys::fill`] compiled with AVX2.
#[target_feature(enable = "avx2")]
fn fill_keys_with_avx2(keys: &mut SlicedTweakeys, rtk: &RoundTweakeys) {
    keys.fill(rtk)
}

/// Fills `keys` with the bitsliced masks of `rtk`, built with AVX2
/// instructions; false, doing nothing, when this CPU has no AVX2.
pub(crate) fn fill_keys(keys: &mut SlicedTweakeys, rtk: &RoundTweakeys) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `fill_keys_with_avx2` needs AVX2, which `detected` just confirmed.
    unsafe { fill_keys_with_avx2(keys, rtk) };
    true
}

/// Encrypts or decrypts whole blocks in place, 256 at a time (a shorter tail is
/// padded with zeros and the padding thrown away). Returns false, touching
/// nothing, when this CPU has no AVX2.
pub(crate) fn crypt(keys: &SlicedTweakeys, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8]) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `crypt_with_avx2` needs AVX2, which `detected` just confirmed.
    unsafe {
        match width {
            CellWidth::Nibble => crypt_with_avx2::<4>(keys, rounds, dir, data),
            CellWidth::Byte => crypt_with_avx2::<8>(keys, rounds, dir, data),
        }
    };
    true
}

impl PerBlockWord for Avx2Word {
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
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
        // SAFETY: only `crypt_blocks_for::<Self>` calls this, and only from
        // `crypt_per_block`, after AVX2 was detected.
        unsafe { per_block_keyed_avx2::<BITS, Z, G>(rounds, dir, data, tweakeys, fixed, a, b, tks, halves) }
    }
    #[inline(always)]
    fn crypt_blocks_counted(
        shared: &SlicedTweakeys,
        rounds: usize,
        dir: Direction,
        data: &mut [u8],
        start: u64,
        bits: u32,
    ) {
        // SAFETY: as above.
        unsafe { per_block_counted_avx2(shared, rounds, dir, data, start, bits) }
    }
}

/// One per-block keying's batches compiled with AVX2, a frame of its own.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn per_block_keyed_avx2<const BITS: usize, const Z: usize, G: FixedKeys<Avx2Word>>(
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    tweakeys: &[u8],
    fixed: &G,
    a: &mut State<Avx2Word>,
    b: &mut State<Avx2Word>,
    tks: &mut Tks<Avx2Word, Z>,
    halves: &mut [[Avx2Word; 64]; 2],
) {
    crypt_per_block_keyed::<Avx2Word, BITS, Z, G>(rounds, dir, data, tweakeys, fixed, [a, b], tks, halves);
}

/// The LFSR-counter batches compiled with AVX2, a frame of their own.
#[target_feature(enable = "avx2")]
#[inline(never)]
fn per_block_counted_avx2(
    shared: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    start: u64,
    bits: u32,
) {
    crypt_blocks_lfsr::<Avx2Word>(shared, rounds, dir, data, start, bits);
}

/// Per-block tweakeys (see `bitsliced::per_block`) with every Avx2Word operation
/// compiled to AVX2 instructions.
#[target_feature(enable = "avx2")]
fn crypt_per_block_with_avx2(width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8], keys: BlockKeys<'_>) {
    crypt_blocks_for::<Avx2Word>(width, rounds, dir, data, keys);
}

/// Encrypts or decrypts whole blocks in place with per-block tweakeys, 256 at a
/// time. Returns false, touching nothing, when this CPU has no AVX2.
pub(crate) fn crypt_per_block(
    width: CellWidth,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    keys: BlockKeys<'_>,
) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `crypt_per_block_with_avx2` needs AVX2, which `detected` just confirmed.
    unsafe { crypt_per_block_with_avx2(width, rounds, dir, data, keys) };
    true
}

/// A lockstep operation (see `bitsliced::lockstep`) with every Avx2Word
/// operation compiled to AVX2 instructions.
#[target_feature(enable = "avx2")]
fn lockstep_with_avx2(op: crate::hazmat::bitsliced::lockstep::engine::Op<'_>) {
    crate::hazmat::bitsliced::lockstep::engine::run::<Avx2Word>(op);
}

/// Runs a lockstep operation. Returns false, touching nothing, when this CPU
/// has no AVX2.
pub(crate) fn lockstep(op: crate::hazmat::bitsliced::lockstep::engine::Op<'_>) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `lockstep_with_avx2` needs AVX2, which `detected` just confirmed.
    unsafe { lockstep_with_avx2(op) };
    true
}
