//! A few blocks under one tweakey given whole, the tweakey schedule run in
//! the rounds: what a hash's compression function needs (Romulus-H: two
//! SKINNY-128-384+ blocks under each message block's tweakey; SKINNY-tk3-Hash
//! three SKINNY-128-384 blocks, SKINNY-tk2-Hash two SKINNY-128-256 blocks,
//! under the state). The tweakey changes every call, so expanding and storing
//! round tweakeys would cost more than the blocks; and the blocks are
//! independent, so they share registers: one per 128-bit lane.

use super::{Path, PathUnavailable};
use crate::spec::tweakey::{RoundTweakeys, TweakeyArray, MAX_ROUNDS};
use crate::{CellWidth, Variant};
use zeroize::Zeroize;

/// The most blocks one [`encrypt_lanes`] call takes.
pub const MAX_LANES: usize = 4;

/// Why [`encrypt_lanes`] refused a call (nothing written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanesError {
    /// The tweakey was not one, two or three 16-byte TK arrays.
    TweakeyLength(usize),
    /// More than [`MAX_LANES`] blocks.
    Blocks(usize),
    /// Zero rounds, or more than the variant of this tweakey size has.
    Rounds(usize),
    /// The path asked for cannot run on this CPU.
    Path(PathUnavailable),
}

impl core::fmt::Display for LanesError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::TweakeyLength(n) => write!(f, "a tweakey of one to three 16-byte TK arrays, got {n} bytes"),
            Self::Blocks(n) => write!(f, "at most {MAX_LANES} blocks a call, got {n}"),
            Self::Rounds(n) => write!(f, "{n} rounds is outside what the variant of this tweakey size has"),
            Self::Path(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for LanesError {}

/// Encrypts `blocks` (up to [`MAX_LANES`] 16-byte blocks) in place under one
/// tweakey `tweakey` (16, 32 or 48 bytes: SKINNY-128-128, -256 or -384) with
/// `rounds` rounds, on the fastest path: with AVX-512 VBMI all of them in one
/// register; with AVX2 two a register; else one after the other. Equals
/// `Skinny::with_rounds(variant, tweakey, rounds)` and `encrypt_block` on each.
///
/// # Errors
/// [`LanesError`], with `blocks` untouched.
pub fn encrypt_lanes(tweakey: &[u8], rounds: usize, blocks: &mut [[u8; 16]]) -> Result<(), LanesError> {
    encrypt_lanes_with(Path::best_for(CellWidth::Byte), tweakey, rounds, blocks)
}

/// [`encrypt_lanes`] with the tweakey as its TK arrays (one to three), for
/// callers that keep the arrays apart and change one between calls (Romulus:
/// TK1 per call, nonce and key fixed): nothing is copied from them.
///
/// # Errors
/// As [`encrypt_lanes`] (a tweakey length is three arrays' at most).
pub fn encrypt_lanes_arrays(tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) -> Result<(), LanesError> {
    lanes_on(Path::best_for(CellWidth::Byte), tk, rounds, blocks)
}

/// [`encrypt_lanes_arrays`] on `path`.
///
/// # Errors
/// As [`encrypt_lanes_with`].
pub fn encrypt_lanes_arrays_with(
    path: Path,
    tk: &[&TweakeyArray],
    rounds: usize,
    blocks: &mut [[u8; 16]],
) -> Result<(), LanesError> {
    lanes_on(path, tk, rounds, blocks)
}

/// [`encrypt_lanes`] on `path` (for tests and benchmarks): `Avx512Vbmi` and
/// `Ssse3Split` (two blocks a 256-bit register where the CPU has AVX2) run
/// the blocks together; the other paths one at a time from round tweakeys.
///
/// # Errors
/// As [`encrypt_lanes`], and [`LanesError::Path`].
pub fn encrypt_lanes_with(path: Path, tweakey: &[u8], rounds: usize, blocks: &mut [[u8; 16]]) -> Result<(), LanesError> {
    let (tk, rest) = tweakey.as_chunks::<16>();
    if !rest.is_empty() || tk.len() > 3 {
        return Err(LanesError::TweakeyLength(tweakey.len()));
    }
    let refs: [&TweakeyArray; 3] = core::array::from_fn(|i| tk.get(i).unwrap_or(&[0; 16]));
    lanes_on(path, &refs[..tk.len()], rounds, blocks)
}

fn lanes_on(path: Path, tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) -> Result<(), LanesError> {
    let variant = match tk.len() {
        1 => Variant::Skinny128_128,
        2 => Variant::Skinny128_256,
        3 => Variant::Skinny128_384,
        n => return Err(LanesError::TweakeyLength(16 * n)),
    };
    if blocks.len() > MAX_LANES {
        return Err(LanesError::Blocks(blocks.len()));
    }
    if !(1..=variant.rounds()).contains(&rounds) || rounds > MAX_ROUNDS {
        return Err(LanesError::Rounds(rounds));
    }
    if !path.is_available() {
        return Err(LanesError::Path(PathUnavailable(path)));
    }
    run(path, variant, tk, rounds, blocks);
    Ok(())
}

fn run(path: Path, variant: Variant, tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
    #[cfg(target_arch = "x86_64")]
    match path {
        Path::Avx512Vbmi => return super::vbmi::encrypt_lanes(tk, rounds, blocks),
        Path::Ssse3Split if crate::hazmat::bitsliced::Path::Avx2.is_available() => {
            return super::split_avx2::encrypt_lanes(tk, rounds, blocks)
        }
        _ => {}
    }
    let mut whole = [0u8; 48];
    for (dst, src) in whole.chunks_exact_mut(16).zip(tk) {
        dst.copy_from_slice(*src);
    }
    let rtk = RoundTweakeys::expand_rounds(variant, &whole[..16 * tk.len()], rounds);
    whole.zeroize();
    for block in blocks {
        super::crypt(path, true, CellWidth::Byte, &rtk, block);
    }
}
