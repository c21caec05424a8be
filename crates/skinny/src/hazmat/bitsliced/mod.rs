//! Bitsliced SKINNY: many blocks at once, constant time.
//!
//! A batch of blocks is transposed so that one machine word holds the same bit of
//! every block (module `transpose`); the round function then works on whole
//! words with XOR, AND, OR and NOT only (modules `sbox`, `round`); the round
//! tweakeys, the same for every block, are spread into all-ones/all-zero masks
//! (module `keys`) before the batches run. Nothing branches on or indexes by
//! secret data.
//!
//! Two code paths share that code through one word abstraction (module `word`):
//! - [`Path::PortableU64`]: `u64` slices, 64 blocks a batch, every target;
//! - [`Path::Avx2`]: 256-bit slices, 256 blocks a batch, x86-64 with AVX2 found
//!   at run time (`cpufeatures`: one CPUID query, cached in a static, with or
//!   without `std`).
//!
//! [`crate::Skinny::encrypt_blocks`] picks [`Path::best`];
//! [`crate::Skinny::encrypt_blocks_with`] runs a chosen path, so tests can force
//! the portable fallback on an AVX2 machine and compare the two.
//!
//! [`PerBlockTweakeys`] runs the same rounds with a tweakey of its own for every
//! block: the tweakeys are transposed like the data and the tweakey schedule runs
//! in bitsliced form between the rounds (module `tweakeys`), again with bitwise
//! operations only. See `docs/cpu-bitsliced.md` for the operation counts and
//! speeds.

// Index loops over cells and bits read like the specification's formulas.
#![allow(clippy::needless_range_loop)]

#[cfg(target_arch = "x86_64")]
mod avx2;
mod batch;
mod keys;
mod portable;
mod round;
mod sbox;
mod transpose;
mod tweakeys;
mod word;

pub use batch::Direction;
pub use keys::round_key_bits;
pub(crate) use keys::SlicedTweakeys;

use crate::spec::CellWidth;
use crate::{InvalidRounds, Variant};

/// A bitsliced code path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// One `u64` per bit slice, 64 blocks a batch; runs everywhere.
    PortableU64,
    /// One AVX2 register per bit slice, 256 blocks a batch; x86-64 with AVX2 only.
    Avx2,
}

impl Path {
    /// Both paths.
    pub const ALL: [Path; 2] = [Path::PortableU64, Path::Avx2];

    /// Short name, e.g. for benchmark tables.
    pub const fn name(self) -> &'static str {
        match self {
            Path::PortableU64 => "portable-u64",
            Path::Avx2 => "avx2",
        }
    }

    /// Blocks processed together; a shorter tail costs a whole batch.
    pub const fn batch_blocks(self) -> usize {
        match self {
            Path::PortableU64 => portable::BATCH_BLOCKS,
            Path::Avx2 => 256,
        }
    }

    /// Whether this CPU (and build) can run the path.
    pub fn is_available(self) -> bool {
        match self {
            Path::PortableU64 => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => avx2::detected(),
            #[cfg(not(target_arch = "x86_64"))]
            Path::Avx2 => false,
        }
    }

    /// The fastest path this CPU has.
    pub fn best() -> Path {
        if Path::Avx2.is_available() {
            Path::Avx2
        } else {
            Path::PortableU64
        }
    }
}

impl core::fmt::Display for Path {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The path asked for cannot run on this CPU (AVX2 missing, or not x86-64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathUnavailable(pub Path);

impl core::fmt::Display for PathUnavailable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "the {} bitsliced path cannot run on this CPU", self.0)
    }
}

impl core::error::Error for PathUnavailable {}

/// Encrypts or decrypts whole blocks of `data` in place on `path`.
pub(crate) fn crypt(
    path: Path,
    keys: &SlicedTweakeys,
    width: CellWidth,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
) -> Result<(), PathUnavailable> {
    match path {
        Path::PortableU64 => {
            portable::crypt(keys, width, rounds, dir, data);
            Ok(())
        }
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => {
            if avx2::crypt(keys, width, rounds, dir, data) {
                Ok(())
            } else {
                Err(PathUnavailable(path))
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Path::Avx2 => Err(PathUnavailable(path)),
    }
}

/// Reduced- or full-round SKINNY in which every block has its own tweakey, run
/// bitsliced and in constant time: block `i` of the data uses bytes
/// `i·t .. (i+1)·t` of the tweakey buffer, `t = variant.tweakey_bytes()`
/// (TK1 ‖ TK2 ‖ TK3 as for [`crate::Skinny::new`]).
///
/// Worth it when tweakeys change every few blocks (a fresh key per query of an
/// experiment); with one tweakey for many blocks, [`crate::BitslicedSkinny`] is
/// faster (its round keys are computed once, not per batch). Nothing is kept
/// between calls: the value holds no key material.
///
/// ```
/// use skinny::hazmat::bitsliced::PerBlockTweakeys;
/// use skinny::{Skinny, Variant};
///
/// let v = Variant::Skinny64_128;
/// let pbt = PerBlockTweakeys::new(v, v.rounds()).unwrap();
/// let tweakeys = [[1u8; 16], [2u8; 16]].concat();
/// let mut data = [7u8; 16]; // two 8-byte blocks
/// pbt.encrypt(&mut data, &tweakeys);
/// let mut first = [7u8; 8];
/// Skinny::new(v, &[1u8; 16]).unwrap().encrypt_block(&mut first);
/// assert_eq!(data[..8], first);
/// pbt.decrypt(&mut data, &tweakeys);
/// assert_eq!(data, [7u8; 16]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PerBlockTweakeys {
    variant: Variant,
    rounds: usize,
    path: Path,
}

impl PerBlockTweakeys {
    /// `rounds` rounds of `variant` (1 ..= `variant.rounds()`; the full count is
    /// the real cipher, fewer are for cryptanalysis) on [`Path::best`].
    ///
    /// # Errors
    /// [`InvalidRounds`] for a count out of range.
    pub fn new(variant: Variant, rounds: usize) -> Result<Self, InvalidRounds> {
        if !(1..=variant.rounds()).contains(&rounds) {
            return Err(InvalidRounds { variant, got: rounds });
        }
        Ok(Self { variant, rounds, path: Path::best() })
    }

    /// The same on a chosen path (tests force [`Path::PortableU64`] with it).
    ///
    /// # Errors
    /// [`PathUnavailable`] if this CPU cannot run `path`.
    pub fn on_path(self, path: Path) -> Result<Self, PathUnavailable> {
        if !path.is_available() {
            return Err(PathUnavailable(path));
        }
        Ok(Self { path, ..self })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The rounds run.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The bitsliced path used.
    pub fn path(&self) -> Path {
        self.path
    }

    /// Encrypts whole blocks of `data` in place, each with its own tweakey.
    /// Every block goes through the bitsliced path; a tail shorter than a batch
    /// is padded to one (and the padding wiped).
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks, or `tweakeys` is not exactly
    /// one tweakey per block.
    pub fn encrypt(&self, data: &mut [u8], tweakeys: &[u8]) {
        self.crypt(Direction::Encrypt, data, tweakeys);
    }

    /// Decrypts whole blocks of `data` in place, each with its own tweakey (see
    /// [`PerBlockTweakeys::encrypt`]).
    ///
    /// # Panics
    /// As [`PerBlockTweakeys::encrypt`].
    pub fn decrypt(&self, data: &mut [u8], tweakeys: &[u8]) {
        self.crypt(Direction::Decrypt, data, tweakeys);
    }

    /// [`PerBlockTweakeys::encrypt`] or [`PerBlockTweakeys::decrypt`].
    ///
    /// # Panics
    /// As [`PerBlockTweakeys::encrypt`].
    pub fn crypt(&self, direction: Direction, data: &mut [u8], tweakeys: &[u8]) {
        let v = self.variant;
        let bs = v.block_bytes();
        assert_eq!(data.len() % bs, 0, "whole blocks");
        assert_eq!(tweakeys.len(), data.len() / bs * v.tweakey_bytes(), "one tweakey per block");
        if data.is_empty() {
            return;
        }
        let (width, z, rounds) = (v.cell_width(), v.tk_count(), self.rounds);
        match self.path {
            Path::PortableU64 => portable::crypt_per_block(width, z, rounds, direction, data, tweakeys),
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => {
                let ran = avx2::crypt_per_block(width, z, rounds, direction, data, tweakeys);
                // The path was checked when `self` was made, and CPUs do not lose AVX2.
                assert!(ran, "the avx2 path was available when chosen");
            }
            #[cfg(not(target_arch = "x86_64"))]
            Path::Avx2 => unreachable!("on_path refuses avx2 off x86-64"),
        }
    }
}
