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
//! the portable fallback on an AVX2 machine and compare the two. See
//! `docs/cpu-bitsliced.md` for the operation counts and speeds.

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
mod word;

pub(crate) use batch::Direction;
pub use keys::round_key_bits;
pub(crate) use keys::SlicedTweakeys;

use crate::spec::CellWidth;

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
