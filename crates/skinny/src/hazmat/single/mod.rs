//! One block at a time, for the serial modes (CBC and CFB encryption, OFB) and
//! the tweakable single-block calls: constant time and built for latency, since
//! each block of a chain waits for the one before.
//!
//! All paths run the same round structure on a state of 16 cells, one cell per
//! byte, kept complemented from the first round to the last (see `circuit`):
//!
//! - [`Path::Portable`]: two `u64` words; the S-box circuit on eight cells per
//!   word, the linear layer on `u32` rows. Every target.
//! - [`Path::Ssse3`]: the state in one XMM register; the linear layer is three
//!   byte shuffles; S8 is the circuit on all 16 cells, S4 a 16-entry shuffle
//!   table held in a register. x86-64 with SSSE3, found at run time.
//! - [`Path::Avx512Gfni`]: the same with S8's gates in three-input logic
//!   instructions and its final bit gather in one GFNI affine instruction.
//!   x86-64 with AVX-512F, AVX-512VL and GFNI, found at run time. (The 4-bit
//!   cells run the same code as on [`Path::Ssse3`].)
//! - [`Path::Ssse3Split`]: 8-bit cells as two XMM registers of nibbles (every
//!   cell's high nibble in one, its low nibble in the other) for all rounds;
//!   S8 is two steps of 16-entry register lookups (`split`), the linear layer
//!   runs on both registers. x86-64 with SSSE3. (Decryption and the 4-bit cells
//!   run the [`Path::Portable`] and [`Path::Ssse3`] code.)
//!
//! Round tweakeys are those of `spec::tweakey` (eight cells a round, expanded
//! at key setup); the round constants come from a public table indexed by the
//! round number. Nothing branches on or indexes memory by secret data; the one
//! data-dependent shuffle index (S4) selects among register bytes. See
//! `docs/cpu-single-block.md` for the operation counts, the speeds and the
//! constant-time argument.
//!
//! [`crate::Skinny::encrypt_block`] (and so the RustCrypto types' single
//! blocks and the tweakable types) runs [`Path::best_for`] its cell width; [`encrypt_block_with`]
//! runs a chosen path, so tests can compare every path with the specification.

mod circuit;
mod fixed_part;
mod lanes;
mod portable;
mod split;
#[cfg(target_arch = "x86_64")]
mod split_avx2;
#[cfg(target_arch = "x86_64")]
mod split_x86;
#[cfg(target_arch = "x86_64")]
mod vbmi;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use fixed_part::{FixedTweakeyPart, TweakeyPartError};
pub use lanes::{encrypt_lanes, encrypt_lanes_with, Lanes, LanesError, MAX_LANES};

use crate::spec::tweakey::RoundTweakeys;
use crate::spec::CellWidth;

/// A single-block code path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// Two `u64` words; runs everywhere.
    Portable,
    /// One XMM register with SSSE3 shuffles; x86-64 with SSSE3 only.
    Ssse3,
    /// One XMM register with AVX-512VL ternary logic and GFNI; x86-64 with
    /// AVX-512F, AVX-512VL and GFNI only.
    Avx512Gfni,
    /// 8-bit cells as two XMM registers of nibbles, S8 by register lookups;
    /// x86-64 with SSSE3 only.
    Ssse3Split,
    /// 8-bit cells in one register with the whole S-box as two 128-byte
    /// register lookups (`vpermi2b`) and a blend, encryption and decryption;
    /// x86-64 with AVX-512F, -BW, -VL, -VBMI and GFNI only. (4-bit cells run
    /// the [`Path::Avx512Gfni`] code.)
    Avx512Vbmi,
}

impl Path {
    /// Every path, slowest first.
    pub const ALL: [Path; 5] = [Path::Portable, Path::Ssse3, Path::Avx512Gfni, Path::Ssse3Split, Path::Avx512Vbmi];

    /// Short name, e.g. for benchmark tables.
    pub const fn name(self) -> &'static str {
        match self {
            Path::Portable => "portable-u64",
            Path::Ssse3 => "ssse3",
            Path::Avx512Gfni => "avx512-gfni",
            Path::Ssse3Split => "ssse3-split",
            Path::Avx512Vbmi => "avx512-vbmi",
        }
    }

    /// Whether this CPU (and build) can run the path. The answer of the CPUID
    /// query is cached after the first call.
    #[inline]
    pub fn is_available(self) -> bool {
        match self {
            Path::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Path::Ssse3 | Path::Ssse3Split => x86::ssse3_detected(),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512Gfni => x86::avx512_gfni_detected(),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512Vbmi => vbmi::detected() && x86::avx512_gfni_detected(),
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The fastest path this CPU can run for cells of `width`, as measured on
    /// the dev machine (`docs/cpu-single-block.md`):
    ///
    /// - 4-bit cells: [`Path::Avx512Gfni`], else [`Path::Ssse3`] (S4 is one
    ///   register shuffle there), else [`Path::Portable`];
    /// - 8-bit cells: [`Path::Ssse3Split`] (8 dependent vector operations a
    ///   round, against about 31 scalar ones on [`Path::Portable`] and 16 or 28
    ///   vector ones on the other XMM paths), else [`Path::Portable`].
    #[inline]
    pub fn best_for(width: CellWidth) -> Path {
        match width {
            CellWidth::Byte if Path::Avx512Vbmi.is_available() => Path::Avx512Vbmi,
            CellWidth::Byte if Path::Ssse3Split.is_available() => Path::Ssse3Split,
            CellWidth::Byte => Path::Portable,
            CellWidth::Nibble if Path::Avx512Gfni.is_available() => Path::Avx512Gfni,
            CellWidth::Nibble if Path::Ssse3.is_available() => Path::Ssse3,
            CellWidth::Nibble => Path::Portable,
        }
    }
}

/// A path was asked for that this CPU cannot run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathUnavailable(pub Path);

impl core::fmt::Display for PathUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the {} single-block path is not available on this CPU", self.0.name())
    }
}

impl core::error::Error for PathUnavailable {}

/// Encrypts one block (`width.block_bytes()` bytes) in place on
/// [`Path::best_for`] `width`.
///
/// # Panics
/// If `block` is not exactly one block long.
#[inline]
pub fn encrypt_block(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    crypt(Path::best_for(width), true, width, rtk, block);
}

/// Decrypts one block in place on [`Path::best_for`] `width`.
///
/// # Panics
/// If `block` is not exactly one block long.
#[inline]
pub fn decrypt_block(width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    crypt(Path::best_for(width), false, width, rtk, block);
}

/// Encrypts one block in place on `path`, for tests and benchmarks.
///
/// # Errors
/// [`PathUnavailable`], with `block` untouched, if this CPU cannot run `path`.
///
/// # Panics
/// If `block` is not exactly one block long.
pub fn encrypt_block_with(
    path: Path,
    width: CellWidth,
    rtk: &RoundTweakeys,
    block: &mut [u8],
) -> Result<(), PathUnavailable> {
    crypt_with(path, true, width, rtk, block)
}

/// Decrypts one block in place on `path`, for tests and benchmarks.
///
/// # Errors
/// [`PathUnavailable`], with `block` untouched, if this CPU cannot run `path`.
///
/// # Panics
/// If `block` is not exactly one block long.
pub fn decrypt_block_with(
    path: Path,
    width: CellWidth,
    rtk: &RoundTweakeys,
    block: &mut [u8],
) -> Result<(), PathUnavailable> {
    crypt_with(path, false, width, rtk, block)
}

/// [`crypt`] where `path` is available, else [`PathUnavailable`].
fn crypt_with(
    path: Path,
    encrypt: bool,
    width: CellWidth,
    rtk: &RoundTweakeys,
    block: &mut [u8],
) -> Result<(), PathUnavailable> {
    if !path.is_available() {
        return Err(PathUnavailable(path));
    }
    crypt(path, encrypt, width, rtk, block);
    Ok(())
}

#[inline]
fn crypt(path: Path, encrypt: bool, width: CellWidth, rtk: &RoundTweakeys, block: &mut [u8]) {
    assert_eq!(block.len(), width.block_bytes(), "one block");
    match path {
        Path::Portable if encrypt => portable::encrypt_block(width, rtk, block),
        Path::Portable => portable::decrypt_block(width, rtk, block),
        #[cfg(target_arch = "x86_64")]
        Path::Ssse3Split => match width {
            CellWidth::Byte if encrypt => {
                let block = <&mut [u8; 16]>::try_from(block).unwrap_or_else(|_| unreachable!("length checked"));
                split_x86::encrypt_block(rtk, block);
            }
            // The split path has no decryption (S8⁻¹ has no such split found).
            CellWidth::Byte => portable::decrypt_block(width, rtk, block),
            CellWidth::Nibble => x86::crypt_block(Path::Ssse3, encrypt, width, rtk, block),
        },
        #[cfg(target_arch = "x86_64")]
        Path::Avx512Vbmi => match width {
            CellWidth::Byte => {
                let block = <&mut [u8; 16]>::try_from(block).unwrap_or_else(|_| unreachable!("length checked"));
                if encrypt {
                    vbmi::encrypt_block(rtk, block);
                } else {
                    vbmi::decrypt_block(rtk, block);
                }
            }
            CellWidth::Nibble => x86::crypt_block(Path::Avx512Gfni, encrypt, width, rtk, block),
        },
        #[cfg(target_arch = "x86_64")]
        _ => x86::crypt_block(path, encrypt, width, rtk, block),
        #[cfg(not(target_arch = "x86_64"))]
        _ => unreachable!("only the portable path is available here"),
    }
}
