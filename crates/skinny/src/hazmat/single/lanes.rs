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

/// A lanes kernel chosen once: the CPU's features are read when it is made,
/// not at every call (a hash or a short Romulus message makes many calls of
/// a few hundred cycles each).
#[derive(Clone, Copy, Debug)]
pub struct Lanes {
    path: Path,
    kernel: Kernel,
}

#[derive(Clone, Copy, Debug)]
enum Kernel {
    #[cfg(target_arch = "x86_64")]
    Vbmi(super::vbmi::Detected),
    #[cfg(target_arch = "x86_64")]
    SplitAvx2(super::split_avx2::Detected),
    /// One block at a time from round tweakeys, on the path.
    OneByOne,
}

impl Lanes {
    /// The fastest kernel this CPU has (on [`Path::best_for`] 8-bit cells).
    pub fn best() -> Self {
        Self::on_path(Path::best_for(CellWidth::Byte)).unwrap_or_else(|_| unreachable!("the best path is available"))
    }

    /// The kernel of `path`: `Avx512Vbmi` and `Ssse3Split` (two blocks a
    /// 256-bit register where the CPU has AVX2) run the blocks together; the
    /// other paths one at a time from round tweakeys.
    ///
    /// # Errors
    /// [`PathUnavailable`] if this CPU cannot run `path`.
    pub fn on_path(path: Path) -> Result<Self, PathUnavailable> {
        if !path.is_available() {
            return Err(PathUnavailable(path));
        }
        #[cfg(target_arch = "x86_64")]
        {
            if let (Path::Avx512Vbmi, Some(t)) = (path, super::vbmi::token()) {
                return Ok(Self { path, kernel: Kernel::Vbmi(t) });
            }
            if let (Path::Ssse3Split, Some(t)) = (path, super::split_avx2::token()) {
                return Ok(Self { path, kernel: Kernel::SplitAvx2(t) });
            }
        }
        Ok(Self { path, kernel: Kernel::OneByOne })
    }

    /// The path.
    pub fn path(&self) -> Path {
        self.path
    }

    /// Encrypts `blocks` (up to [`MAX_LANES`]) in place under the tweakey
    /// whose TK arrays are `tk` (one to three: SKINNY-128-128, -256 or -384),
    /// `rounds` rounds; nothing is copied from the arrays.
    ///
    /// # Errors
    /// [`LanesError`], with `blocks` untouched.
    pub fn encrypt(&self, tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) -> Result<(), LanesError> {
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
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            Kernel::Vbmi(t) => super::vbmi::encrypt_lanes(t, tk, rounds, blocks),
            #[cfg(target_arch = "x86_64")]
            Kernel::SplitAvx2(t) => super::split_avx2::encrypt_lanes(t, tk, rounds, blocks),
            Kernel::OneByOne => one_by_one(self.path, variant, tk, rounds, blocks),
        }
        Ok(())
    }
}

/// Encrypts `blocks` (up to [`MAX_LANES`] 16-byte blocks) in place under one
/// tweakey `tweakey` (16, 32 or 48 bytes: SKINNY-128-128, -256 or -384) with
/// `rounds` rounds, on the fastest path: with AVX-512 VBMI all of them in one
/// register; with AVX2 two a register; else one after the other. Equals
/// `Skinny::with_rounds(variant, tweakey, rounds)` and `encrypt_block` on each.
/// (A [`Lanes`] kept between calls skips reading the CPU's features.)
///
/// # Errors
/// [`LanesError`], with `blocks` untouched.
pub fn encrypt_lanes(tweakey: &[u8], rounds: usize, blocks: &mut [[u8; 16]]) -> Result<(), LanesError> {
    encrypt_lanes_with(Path::best_for(CellWidth::Byte), tweakey, rounds, blocks)
}

/// [`encrypt_lanes`] on `path` (for tests and benchmarks; see
/// [`Lanes::on_path`]).
///
/// # Errors
/// As [`encrypt_lanes`], and [`LanesError::Path`].
pub fn encrypt_lanes_with(
    path: Path,
    tweakey: &[u8],
    rounds: usize,
    blocks: &mut [[u8; 16]],
) -> Result<(), LanesError> {
    let (tk, rest) = tweakey.as_chunks::<16>();
    if !rest.is_empty() || tk.len() > 3 {
        return Err(LanesError::TweakeyLength(tweakey.len()));
    }
    let refs: [&TweakeyArray; 3] = core::array::from_fn(|i| tk.get(i).unwrap_or(&[0; 16]));
    Lanes::on_path(path).map_err(LanesError::Path)?.encrypt(&refs[..tk.len()], rounds, blocks)
}

fn one_by_one(path: Path, variant: Variant, tk: &[&TweakeyArray], rounds: usize, blocks: &mut [[u8; 16]]) {
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
