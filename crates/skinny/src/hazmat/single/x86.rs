//! The x86-64 single-block paths: the whole 128-bit state in one XMM register,
//! one cell per byte.
//!
//! - ShiftRows and MixColumns together are three byte shuffles (`pshufb` with
//!   constant controls) XORed, plus the round tweakey, itself one shuffle of the
//!   eight round-tweakey cells away from the critical path.
//! - S8 is the circuit of `circuit`: four layers of shifts, AND, XOR on all 16
//!   cells at once, then one bit gather. [`Path::Ssse3`] builds it from SSE2
//!   operations; [`Path::Avx512Gfni`] does each gate's `a & b & mask` and each
//!   layer's three-way XOR in one `vpternlogq`, and the final bit gather in one
//!   `gf2p8affineqb` (a constant 8×8 bit matrix per byte).
//! - S4 (the 4-bit cells of SKINNY-64) is one `pshufb` whose *table* is the
//!   16-entry S-box held in a register and whose *indices* are the cells: the
//!   shuffle reads registers only, in the same time whatever the indices, so it
//!   is a constant-time lookup (the vector-permute technique of vpaes). Both
//!   paths use it.
//!
//! The only other `unsafe` module of the crate besides the bitsliced AVX2 one.
//! Its soundness rests on one rule: the `#[target_feature]` entry points are
//! only called after [`ssse3_detected`] (or [`avx512_gfni_detected`]) said yes,
//! and the `#[inline(always)]` helpers that use intrinsics are only called from
//! those entry points.
#![allow(unsafe_code)]

use super::circuit::{self, Bits};
use super::Path;
use crate::spec::tweakey::RoundTweakeys;
use crate::spec::CellWidth;
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_cvtsi32_si128, _mm_cvtsi64_si128, _mm_gf2p8affine_epi64_epi8, _mm_loadl_epi64,
    _mm_loadu_si128, _mm_or_si128, _mm_packus_epi16, _mm_set1_epi16, _mm_set1_epi64x, _mm_set1_epi8, _mm_shuffle_epi8,
    _mm_sll_epi64, _mm_slli_epi16, _mm_srl_epi64, _mm_srli_epi16, _mm_storel_epi64, _mm_storeu_si128,
    _mm_ternarylogic_epi64, _mm_unpacklo_epi8, _mm_xor_si128,
};

// One CPUID (and XGETBV) the first time, then a cached answer, also without std.
cpufeatures::new!(ssse3_cpuid, "ssse3");
cpufeatures::new!(avx512_gfni_cpuid, "avx512f", "avx512vl", "gfni");

/// Whether this CPU has SSSE3 (`pshufb`).
#[inline]
pub(crate) fn ssse3_detected() -> bool {
    ssse3_cpuid::get()
}

/// Whether this CPU has AVX-512F, AVX-512VL and GFNI (and the OS saves the
/// AVX-512 state); every such CPU also has SSSE3.
#[inline]
pub(crate) fn avx512_gfni_detected() -> bool {
    avx512_gfni_cpuid::get() && ssse3_cpuid::get()
}

/// A register of cells with SSE2 and SSSE3 operations.
#[derive(Clone, Copy)]
struct Sse(__m128i);

/// The same register with AVX-512VL three-input logic and GFNI.
#[derive(Clone, Copy)]
struct Avx512(__m128i);

/// What the round code needs besides [`Bits`]: the register itself.
trait Xmm: Bits {
    fn new(x: __m128i) -> Self;
    fn get(self) -> __m128i;
}

// The SSE2 operations both register types share, and the `Xmm` wrapper.
// SAFETY (every `unsafe` block of the macro): SSE2 is part of x86-64, and the
// register types only exist inside the entry points (module rule).
macro_rules! sse_bits {
    ($t:ident { $($extra:item)* }) => {
        impl Xmm for $t {
            #[inline(always)]
            fn new(x: __m128i) -> Self {
                Self(x)
            }
            #[inline(always)]
            fn get(self) -> __m128i {
                self.0
            }
        }

        impl Bits for $t {
            #[inline(always)]
            fn splat8(b: u8) -> Self {
                Self(unsafe { _mm_set1_epi8(b as i8) })
            }
            #[inline(always)]
            fn xor(self, o: Self) -> Self {
                Self(unsafe { _mm_xor_si128(self.0, o.0) })
            }
            #[inline(always)]
            fn and(self, o: Self) -> Self {
                Self(unsafe { _mm_and_si128(self.0, o.0) })
            }
            #[inline(always)]
            fn or(self, o: Self) -> Self {
                Self(unsafe { _mm_or_si128(self.0, o.0) })
            }
            // Shift counts are constants after inlining, so these become
            // immediate shifts (`psllq xmm, imm`).
            #[inline(always)]
            fn shl(self, n: u32) -> Self {
                Self(unsafe { _mm_sll_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
            }
            #[inline(always)]
            fn shr(self, n: u32) -> Self {
                Self(unsafe { _mm_srl_epi64(self.0, _mm_cvtsi32_si128(n as i32)) })
            }
            $($extra)*
        }
    };
}

sse_bits!(Sse {});

sse_bits!(Avx512 {
    #[inline(always)]
    fn and3(a: Self, b: Self, m: Self) -> Self {
        // SAFETY: AVX-512F/VL were detected before any Avx512 value exists (module rule).
        Self(unsafe { _mm_ternarylogic_epi64::<0x80>(a.0, b.0, m.0) })
    }

    #[inline(always)]
    fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: as in `and3`.
        Self(unsafe { _mm_ternarylogic_epi64::<0x96>(a.0, b.0, c.0) })
    }

    #[inline(always)]
    fn gather_bits<const M: usize>(self, gather: &circuit::Gather<M>) -> Self {
        // Output bit j of each byte is the parity of (matrix byte 7-j) & input;
        // with one bit set per matrix byte, that is a bit move.
        // SAFETY: GFNI was detected before any Avx512 value exists (module rule).
        Self(unsafe { _mm_gf2p8affine_epi64_epi8::<0>(self.0, _mm_set1_epi64x(gather.matrix as i64)) })
    }
});

/// A 16-byte constant in a register.
#[inline(always)]
fn constant(bytes: [u8; 16]) -> __m128i {
    // SAFETY: an unaligned load of a 16-byte array; SSE2 is part of x86-64.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// `pshufb`: byte `i` of the result is byte `ctrl[i]` of `x` (0 where bit 7 of
/// the control is set).
#[inline(always)]
fn shuffle(x: __m128i, ctrl: __m128i) -> __m128i {
    // SAFETY: SSSE3 was detected before the entry points run (module rule).
    unsafe { _mm_shuffle_epi8(x, ctrl) }
}

#[inline(always)]
fn xor(a: __m128i, b: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_xor_si128(a, b) }
}

/// The eight round-tweakey cells of round `r` with c0 and c1 folded in, as the
/// low half of a register (rows 0 and 1).
#[inline(always)]
fn round_key_lo(k: &[u8; 8], r: usize) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe { _mm_cvtsi64_si128((u64::from_le_bytes(*k) ^ circuit::round_constant_lo(r)) as i64) }
}

/// Loads a block as 16 cells, one per byte.
#[inline(always)]
fn load(width: CellWidth, block: &[u8]) -> __m128i {
    match width {
        CellWidth::Byte => {
            assert_eq!(block.len(), 16);
            // SAFETY: 16 readable bytes (checked); unaligned load; SSE2.
            unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
        }
        CellWidth::Nibble => {
            assert_eq!(block.len(), 8);
            // SAFETY: 8 readable bytes (checked), read by `movq`; SSE2. Cell 2i is
            // the high nibble of byte i: interleave high and low nibbles.
            unsafe {
                let x = _mm_loadl_epi64(block.as_ptr().cast());
                let low = _mm_set1_epi8(0x0f);
                _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16::<4>(x), low), _mm_and_si128(x, low))
            }
        }
    }
}

/// Stores 16 cells as a block (the inverse of [`load`]).
#[inline(always)]
fn store(width: CellWidth, x: __m128i, block: &mut [u8]) {
    match width {
        CellWidth::Byte => {
            assert_eq!(block.len(), 16);
            // SAFETY: 16 writable bytes (checked); unaligned store; SSE2.
            unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), x) }
        }
        CellWidth::Nibble => {
            assert_eq!(block.len(), 8);
            // SAFETY: 8 writable bytes (checked), written by `movq`; SSE2. Each
            // 16-bit lane holds cells 2i (low byte) and 2i+1: byte i is
            // (cell 2i << 4) | cell 2i+1, then the lanes are packed to bytes.
            unsafe {
                let pair = _mm_or_si128(_mm_slli_epi16::<4>(x), _mm_srli_epi16::<8>(x));
                let pair = _mm_and_si128(pair, _mm_set1_epi16(0xff));
                _mm_storel_epi64(block.as_mut_ptr().cast(), _mm_packus_epi16(pair, pair));
            }
        }
    }
}

/// S4 and S4⁻¹ as 16-byte tables for `pshufb` (cells index them).
const S4_TABLE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = crate::spec::sbox::sbox4(i as u8);
        i += 1;
    }
    t
};
const S4_INV_TABLE: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = crate::spec::sbox::sbox4_inv(i as u8);
        i += 1;
    }
    t
};

/// The round loop of encryption: `ones` is the complement the S-box works in
/// (0xff for the S8 circuit, 0 for the S4 table).
#[inline(always)]
fn encrypt_rounds(rtk: &RoundTweakeys, mut x: __m128i, ones: u8, sbox: impl Fn(__m128i) -> __m128i) -> __m128i {
    let [p0, p1, p2] = circuit::linear_shuffles().map(constant);
    // The part of each round's addition that is the same in all rounds, after
    // the linear layer (it is linear): the complement fix and c2.
    // `black_box` keeps LLVM from treating it as a constant, which it would
    // move to the end of the XOR chain, onto the critical path; as an opaque
    // loop-invariant value it is combined with the round tweakey first.
    let fixed = core::hint::black_box(constant(circuit::linear(circuit::fixed_addition(ones))));
    let all = constant([ones; 16]);
    x = xor(x, all);
    for (r, k) in rtk.as_cells().iter().enumerate() {
        // Off the critical path: the round tweakey through the linear layer.
        // With rows 2 and 3 zero, that is the first shuffle alone.
        let key = xor(shuffle(round_key_lo(k, r), p0), fixed);
        let y = sbox(x);
        x = xor(xor(shuffle(y, p0), shuffle(y, p1)), xor(shuffle(y, p2), key));
    }
    xor(x, all)
}

/// The round loop of decryption (see [`encrypt_rounds`]).
#[inline(always)]
fn decrypt_rounds(rtk: &RoundTweakeys, mut x: __m128i, ones: u8, sbox_inv: impl Fn(__m128i) -> __m128i) -> __m128i {
    let [q0, q1, q2] = circuit::linear_inv_shuffles().map(constant);
    // Opaque for the same reason as in `encrypt_rounds`.
    let fixed = core::hint::black_box(constant(circuit::fixed_addition(ones)));
    let all = constant([ones; 16]);
    x = xor(x, all);
    for (r, k) in rtk.as_cells().iter().enumerate().rev() {
        let key = xor(round_key_lo(k, r), fixed);
        let y = xor(xor(shuffle(x, q0), shuffle(x, q1)), xor(shuffle(x, q2), key));
        x = sbox_inv(y);
    }
    xor(x, all)
}

#[inline(always)]
fn crypt<B: Xmm>(encrypt: bool, width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    let x = load(width, block);
    let y = match (width, encrypt) {
        (CellWidth::Byte, true) => encrypt_rounds(rtk, x, 0xff, |x| circuit::sbox(B::new(x), &circuit::S8).get()),
        (CellWidth::Byte, false) => decrypt_rounds(rtk, x, 0xff, |x| circuit::sbox(B::new(x), &circuit::S8_INV).get()),
        (CellWidth::Nibble, true) => {
            let table = constant(S4_TABLE);
            encrypt_rounds(rtk, x, 0, |x| shuffle(table, x))
        }
        (CellWidth::Nibble, false) => {
            let table = constant(S4_INV_TABLE);
            decrypt_rounds(rtk, x, 0, |x| shuffle(table, x))
        }
    };
    store(width, y, block);
}

#[target_feature(enable = "ssse3")]
fn crypt_ssse3(encrypt: bool, width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    crypt::<Sse>(encrypt, width, rtk, block);
}

#[target_feature(enable = "ssse3,avx512f,avx512vl,gfni")]
fn crypt_avx512_gfni(encrypt: bool, width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    crypt::<Avx512>(encrypt, width, rtk, block);
}

/// Runs one block on `path` (one of the two x86 paths).
///
/// # Panics
/// If `path` is not available on this CPU (callers check first).
#[inline]
pub(crate) fn crypt_block(path: Path, encrypt: bool, width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    match path {
        Path::Ssse3 => {
            assert!(ssse3_detected(), "SSSE3 path without SSSE3");
            // SAFETY: SSSE3 was just detected.
            unsafe { crypt_ssse3(encrypt, width, rtk, block) }
        }
        Path::Avx512Gfni => {
            assert!(avx512_gfni_detected(), "AVX-512/GFNI path without them");
            // SAFETY: AVX-512F, AVX-512VL, GFNI and SSSE3 were just detected.
            unsafe { crypt_avx512_gfni(encrypt, width, rtk, block) }
        }
        Path::Portable | Path::Ssse3Split | Path::Avx512Vbmi => unreachable!("not one of the one-register x86 paths"),
    }
}
