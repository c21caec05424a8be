//! The AVX-512 path: one 512-bit register per bit slice, 512 blocks a batch, chosen
//! at run time when the CPU has AVX-512F. Besides twice the lanes of AVX2 it has
//! 32 registers instead of 16 (fewer spills of the 128-slice state) and a
//! three-input logic instruction, `vpternlogq`, that evaluates any Boolean
//! function of three words given as an 8-bit truth table: the whole S-box gate
//! `x ⊕ NOR(a, b)`, a three-way XOR, a bit select (see the `Word` defaults it
//! replaces).
//!
//! Like `avx2.rs`, this module allows `unsafe` for the intrinsics, under one rule:
//! an [`Avx512Word`] is only ever made inside the `#[target_feature(enable =
//! "avx512f")]` functions below, which are only entered after AVX-512F (and the
//! OS's saving of the `zmm` and mask registers) was found on this CPU (see
//! [`detected`]). Every instruction used is AVX-512F.
#![allow(unsafe_code)]

use crate::hazmat::bitsliced::batch::{crypt_blocks, Direction};
use crate::hazmat::bitsliced::keys::SlicedTweakeys;
use crate::hazmat::bitsliced::round::{
    decrypt_round, decrypt_round_pair, encrypt_round, encrypt_round_pair, RoundKey, RoundWord, State,
};
use crate::hazmat::bitsliced::word::Word;
use crate::spec::CellWidth;
use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_loadu_si512, _mm512_or_si512, _mm512_set1_epi32,
    _mm512_set1_epi64, _mm512_slli_epi64, _mm512_srli_epi64, _mm512_storeu_si512, _mm512_ternarylogic_epi64,
    _mm512_unpackhi_epi64, _mm512_unpacklo_epi64, _mm512_xor_si512,
};

// CPUID leaf 7 for AVX-512F and XGETBV for the OS's zmm/opmask state, asked once
// and cached in a static (with or without `std`); a build that already targets
// AVX-512F answers true without asking.
cpufeatures::new!(avx512_cpuid, "avx512f");

/// Whether this CPU has AVX-512F (and the OS saves its registers).
#[inline]
pub fn detected() -> bool {
    avx512_cpuid::get()
}

/// A bit slice of 512 blocks in one AVX-512 register.
#[derive(Clone, Copy)]
struct Avx512Word(__m512i);

// `vpternlogq`'s truth-table operands: bit `4a + 2b + c` of the immediate is the
// result for input bits (a, b, c). The three inputs as tables; any formula of
// them written with these constants is the immediate that computes it.
const A: i32 = 0xf0;
const B: i32 = 0xcc;
const C: i32 = 0xaa;

impl Avx512Word {
    /// `vpternlogq` with truth table `IMM` on (`a`, `b`, `c`).
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn ternlog<const IMM: i32>(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: Avx512Word code only runs after AVX-512F was detected (module rule).
        Self(unsafe { _mm512_ternarylogic_epi64::<IMM>(a.0, b.0, c.0) })
    }
}

impl Word for Avx512Word {
    const LANES: usize = 8;
    // SAFETY: every bit pattern is a valid `__m512i`; no instruction runs.
    const ZERO: Self = Self(unsafe { core::mem::transmute::<[u64; 8], __m512i>([0; 8]) });
    const TERNARY: bool = true;

    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn splat(x: u64) -> Self {
        // SAFETY: Avx512Word code only runs after AVX-512F was detected (module rule).
        Self(unsafe { _mm512_set1_epi64(x as i64) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn splat_mask(m: u32) -> Self {
        // SAFETY: Avx512Word code only runs after AVX-512F was detected (module
        // rule). Sixteen 32-bit lanes equal to `m` (0 or all ones) make every bit
        // `m`; the compiler may fold the broadcast into the instruction that uses
        // it (an embedded `{1to16}` broadcast from memory).
        Self(unsafe { _mm512_set1_epi32(m as i32) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        Self(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn and(self, other: Self) -> Self {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        Self(unsafe { _mm512_and_si512(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn or(self, other: Self) -> Self {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        Self(unsafe { _mm512_or_si512(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn andnot(self, other: Self) -> Self {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        Self(unsafe { _mm512_andnot_si512(self.0, other.0) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn not(self) -> Self {
        // One instruction, no all-ones constant: the table of ¬a.
        Self::ternlog::<{ !A & 0xff }>(self, self, self)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn shl(self, n: u32) -> Self {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        // The shift is an immediate, so each constant `n` gets its own instruction.
        Self(unsafe { shift_by_immediate!(_mm512_slli_epi64, self.0, n) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn shr(self, n: u32) -> Self {
        // SAFETY: as for `shl`.
        Self(unsafe { shift_by_immediate!(_mm512_srli_epi64, self.0, n) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn load_row8(blocks: &[u8], i: usize) -> Self {
        let row = &blocks[64 * i..64 * i + 64];
        // SAFETY: AVX-512F was detected (module rule); `row` is 64 readable bytes
        // and the unaligned load has no alignment requirement.
        Self(unsafe { _mm512_loadu_si512(row.as_ptr().cast::<__m512i>()) })
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn store_row8(self, blocks: &mut [u8], i: usize) {
        let row = &mut blocks[64 * i..64 * i + 64];
        // SAFETY: AVX-512F was detected (module rule); `row` is 64 writable bytes
        // and the unaligned store has no alignment requirement.
        unsafe { _mm512_storeu_si512(row.as_mut_ptr().cast::<__m512i>(), self.0) }
    }
    /// Blocks 8i..8i+8 are 128 contiguous bytes: two loads of four blocks each
    /// (one block per 128-bit lane), then the 64-bit unpacks, which work inside
    /// each 128-bit lane, gather the first halves and the second halves (lanes in
    /// block order 8i, 8i+4, 8i+1, 8i+5, …), which `store_row16` puts back.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn load_row16(blocks: &[u8], i: usize) -> (Self, Self) {
        let row = &blocks[128 * i..128 * i + 128];
        // SAFETY: AVX-512F was detected (module rule); `row` is 128 readable bytes,
        // read as two unaligned 64-byte loads.
        unsafe {
            let a = _mm512_loadu_si512(row.as_ptr().cast::<__m512i>());
            let b = _mm512_loadu_si512(row[64..].as_ptr().cast::<__m512i>());
            (Self(_mm512_unpacklo_epi64(a, b)), Self(_mm512_unpackhi_epi64(a, b)))
        }
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn store_row16(lo: Self, hi: Self, blocks: &mut [u8], i: usize) {
        let row = &mut blocks[128 * i..128 * i + 128];
        // SAFETY: AVX-512F was detected (module rule); `row` is 128 writable
        // bytes, written as two unaligned 64-byte stores.
        unsafe {
            let a = _mm512_unpacklo_epi64(lo.0, hi.0);
            let b = _mm512_unpackhi_epi64(lo.0, hi.0);
            _mm512_storeu_si512(row.as_mut_ptr().cast::<__m512i>(), a);
            _mm512_storeu_si512(row[64..].as_mut_ptr().cast::<__m512i>(), b);
        }
    }
    fn wipe(words: &mut [Self]) {
        // zeroize's volatile write of a zeroed register needs no AVX-512 instruction.
        for w in words {
            zeroize::Zeroize::zeroize(&mut w.0);
        }
    }

    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor3(self, a: Self, b: Self) -> Self {
        Self::ternlog::<{ A ^ B ^ C }>(self, a, b)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_or(self, a: Self, b: Self) -> Self {
        Self::ternlog::<{ A ^ (B | C) }>(self, a, b)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_and(self, a: Self, b: Self) -> Self {
        Self::ternlog::<{ A ^ (B & C) }>(self, a, b)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_andnot(self, a: Self, b: Self) -> Self {
        Self::ternlog::<{ A ^ (!B & C & 0xff) }>(self, a, b)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_nor(self, a: Self, b: Self) -> Self {
        Self::ternlog::<{ A ^ (!(B | C) & 0xff) }>(self, a, b)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn blend(self, other: Self, mask: Self) -> Self {
        Self::ternlog::<{ (B & C) | (A & !C & 0xff) }>(self, other, mask)
    }
}

impl RoundWord for Avx512Word {
    #[inline(always)]
    fn encrypt_round<const BITS: usize, K: RoundKey<Self>>(s: &State<Self>, out: &mut State<Self>, key: &K) {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        unsafe { encrypt_round_avx512::<BITS, K>(s, out, key) }
    }
    #[inline(always)]
    fn decrypt_round<const BITS: usize, K: RoundKey<Self>>(s: &State<Self>, out: &mut State<Self>, key: &K) {
        // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
        unsafe { decrypt_round_avx512::<BITS, K>(s, out, key) }
    }
    #[inline(always)]
    fn encrypt_pairs<const BITS: usize>(
        a: &mut State<Self>,
        b: &mut State<Self>,
        keys: &SlicedTweakeys,
        paired: usize,
    ) {
        // Out-of-line rounds measured faster here than the loop inlined in the
        // batch function (one thread, best passes): 8-bit cells one round a
        // call (SKINNY-128-128 and -128-256 6-12 % faster), 4-bit cells two
        // rounds a call with the middle state local (SKINNY-64-128 encryption
        // 7 %, decryption 22 % faster; one round a call was 12 % slower).
        for r in (0..paired).step_by(2) {
            let (k0, k1) = (keys.round(r), keys.round(r + 1));
            // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
            unsafe {
                if BITS == 4 {
                    encrypt_round_pair_avx512::<BITS, _>(a, k0, k1);
                } else {
                    encrypt_round_avx512::<BITS, _>(a, b, k0);
                    encrypt_round_avx512::<BITS, _>(b, a, k1);
                }
            }
        }
    }
    #[inline(always)]
    fn decrypt_pairs<const BITS: usize>(
        a: &mut State<Self>,
        b: &mut State<Self>,
        keys: &SlicedTweakeys,
        paired: usize,
    ) {
        for r in (0..paired).step_by(2).rev() {
            let (k1, k0) = (keys.round(r + 1), keys.round(r));
            // SAFETY: AVX-512F was detected before any Avx512Word exists (module rule).
            unsafe {
                if BITS == 4 {
                    decrypt_round_pair_avx512::<BITS, _>(a, k1, k0);
                } else {
                    decrypt_round_avx512::<BITS, _>(a, b, k1);
                    decrypt_round_avx512::<BITS, _>(b, a, k0);
                }
            }
        }
    }
}

/// One encryption round with every Avx512Word operation compiled to AVX-512F
/// instructions, one copy per cell width and keying, called once a round (see
/// `RoundWord::encrypt_round` for why it is not inlined).
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn encrypt_round_avx512<const BITS: usize, K: RoundKey<Avx512Word>>(
    s: &State<Avx512Word>,
    out: &mut State<Avx512Word>,
    key: &K,
) {
    encrypt_round::<Avx512Word, BITS, K>(s, out, key);
}

/// The decryption round as [`encrypt_round_avx512`].
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn decrypt_round_avx512<const BITS: usize, K: RoundKey<Avx512Word>>(
    s: &State<Avx512Word>,
    out: &mut State<Avx512Word>,
    key: &K,
) {
    decrypt_round::<Avx512Word, BITS, K>(s, out, key);
}

/// Two encryption rounds in place (`round::encrypt_round_pair`), compiled to
/// AVX-512F instructions.
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn encrypt_round_pair_avx512<const BITS: usize, K: RoundKey<Avx512Word>>(a: &mut State<Avx512Word>, k0: &K, k1: &K) {
    encrypt_round_pair::<Avx512Word, BITS, K>(a, k0, k1);
}

/// Two decryption rounds in place (`round::decrypt_round_pair`), compiled to
/// AVX-512F instructions.
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn decrypt_round_pair_avx512<const BITS: usize, K: RoundKey<Avx512Word>>(a: &mut State<Avx512Word>, k0: &K, k1: &K) {
    decrypt_round_pair::<Avx512Word, BITS, K>(a, k0, k1);
}

/// Runs the batches of one cell width with every Avx512Word operation compiled
/// to AVX512 instructions, a frame of its own per width.
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn crypt_with_avx512<const BITS: usize>(keys: &SlicedTweakeys, rounds: usize, dir: Direction, data: &mut [u8]) {
    crypt_blocks::<Avx512Word, BITS>(keys, rounds, dir, data);
}

/// Encrypts or decrypts whole blocks in place, 512 at a time (a shorter tail is
/// padded with zeros and the padding thrown away). Returns false, touching
/// nothing, when this CPU has no AVX-512F.
pub(crate) fn crypt(keys: &SlicedTweakeys, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8]) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `crypt_with_avx512` needs AVX-512F, which `detected` just confirmed.
    unsafe {
        match width {
            CellWidth::Nibble => crypt_with_avx512::<4>(keys, rounds, dir, data),
            CellWidth::Byte => crypt_with_avx512::<8>(keys, rounds, dir, data),
        }
    };
    true
}

#[path = "avx512_entries.rs"]
mod entries;
pub(crate) use entries::{crypt_per_block, lockstep};

#[cfg(test)]
mod tests;
