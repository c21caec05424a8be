//! The bitsliced code paths, one module each, and the choice between them: a
//! [`Path`] names one, says whether this CPU can run it, and the functions
//! here send a call to it.
//!
//! - `portable`: `u64` slices, every target;
//! - `avx2`: 256-bit slices, x86-64 with AVX2 found at run time;
//! - `avx512`: 512-bit slices and three-input logic, x86-64 with AVX-512F
//!   found at run time.

/// `$shift::<n>($x)` for the shift counts the bitsliced code uses (the
/// transposition's powers of two up to 32; 3, 20, 56 and 60 for the LFSR
/// counter rows of `per_block::lfsr_counter`): the x86 shift intrinsics
/// take their count as an immediate, so each constant count is its own
/// instruction. Used by the SIMD word types.
#[cfg(target_arch = "x86_64")]
macro_rules! shift_by_immediate {
    ($shift:ident, $x:expr, $n:expr) => {
        match $n {
            1 => $shift::<1>($x),
            2 => $shift::<2>($x),
            3 => $shift::<3>($x),
            4 => $shift::<4>($x),
            8 => $shift::<8>($x),
            16 => $shift::<16>($x),
            20 => $shift::<20>($x),
            32 => $shift::<32>($x),
            56 => $shift::<56>($x),
            60 => $shift::<60>($x),
            _ => unreachable!("a shift count the bitsliced code does not use"),
        }
    };
}

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod portable;

use super::batch::Direction;
use super::keys::SlicedTweakeys;
use super::per_block::BlockKeys;
use crate::spec::tweakey::RoundTweakeys;
use crate::spec::CellWidth;

/// A bitsliced code path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Path {
    /// One `u64` per bit slice, 64 blocks a batch; runs everywhere.
    PortableU64,
    /// One AVX2 register per bit slice, 256 blocks a batch; x86-64 with AVX2 only.
    Avx2,
    /// One AVX-512 register per bit slice, 512 blocks a batch, three-input logic
    /// (`vpternlogq`); x86-64 with AVX-512F only.
    Avx512,
}

impl Path {
    /// Every path, slowest first.
    pub const ALL: [Path; 3] = [Path::PortableU64, Path::Avx2, Path::Avx512];

    /// Short name, e.g. for benchmark tables.
    pub const fn name(self) -> &'static str {
        match self {
            Path::PortableU64 => "portable-u64",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }

    /// Blocks processed together; a shorter tail costs a whole batch.
    pub const fn batch_blocks(self) -> usize {
        match self {
            Path::PortableU64 => portable::BATCH_BLOCKS,
            Path::Avx2 => 256,
            Path::Avx512 => 512,
        }
    }

    /// Whether this CPU (and build) can run the path.
    pub fn is_available(self) -> bool {
        match self {
            Path::PortableU64 => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => avx2::detected(),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => avx512::detected(),
            #[cfg(not(target_arch = "x86_64"))]
            Path::Avx2 | Path::Avx512 => false,
        }
    }

    /// The fastest path this CPU has (AVX-512, else AVX2, else portable).
    pub fn best() -> Path {
        if Path::Avx512.is_available() {
            Path::Avx512
        } else if Path::Avx2.is_available() {
            Path::Avx2
        } else {
            Path::PortableU64
        }
    }

    /// The path named `name` (as [`Path::name`] writes it), if any.
    pub fn from_name(name: &str) -> Option<Path> {
        Path::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl core::fmt::Display for Path {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// The path asked for cannot run on this CPU (AVX2 or AVX-512F missing, or not x86-64).
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
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => {
            if avx512::crypt(keys, width, rounds, dir, data) {
                Ok(())
            } else {
                Err(PathUnavailable(path))
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        Path::Avx2 | Path::Avx512 => Err(PathUnavailable(path)),
    }
}

/// Runs a lockstep operation on `path`, which was checked to be available
/// when the caller's value was made.
pub(crate) fn lockstep(path: Path, op: super::lockstep::engine::Op<'_>) {
    match path {
        Path::PortableU64 => super::lockstep::engine::run::<u64>(op),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => assert!(avx2::lockstep(op), "the avx2 path was available when chosen"),
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => assert!(avx512::lockstep(op), "the avx512 path was available when chosen"),
        #[cfg(not(target_arch = "x86_64"))]
        Path::Avx2 | Path::Avx512 => unreachable!("on_path refuses the x86 paths off x86-64"),
    }
}

/// Runs per-block keying on `path`, which was checked to be available when the
/// caller's value was made.
pub(crate) fn crypt_per_block(
    path: Path,
    width: CellWidth,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    keys: BlockKeys<'_>,
) {
    match path {
        Path::PortableU64 => portable::crypt_per_block(width, rounds, dir, data, keys),
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => {
            let ran = avx2::crypt_per_block(width, rounds, dir, data, keys);
            // The path was checked when the caller's value was made, and CPUs do
            // not lose AVX2.
            assert!(ran, "the avx2 path was available when chosen");
        }
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => {
            let ran = avx512::crypt_per_block(width, rounds, dir, data, keys);
            // As for AVX2: checked when the caller's value was made.
            assert!(ran, "the avx512 path was available when chosen");
        }
        #[cfg(not(target_arch = "x86_64"))]
        Path::Avx2 | Path::Avx512 => unreachable!("on_path refuses the x86 paths off x86-64"),
    }
}

impl SlicedTweakeys {
    /// Spreads every bit of every round tweakey into a mask word, with the code
    /// vectorised for AVX2 when this CPU has it (it runs once per call of
    /// [`crate::Skinny::encrypt_blocks`], so its speed shows on short calls).
    /// Here rather than beside [`SlicedTweakeys::fill`] because it picks a
    /// path: the masks sit below the paths that use them.
    /// With `alloc` the value is small (the masks are on the heap); without
    /// it, 14 KiB that the caller should build where they stay
    /// ([`SlicedTweakeys::build_in`]).
    pub(crate) fn new(rtk: &RoundTweakeys) -> Self {
        let mut keys = Self::empty(rtk.rounds());
        keys.set(rtk);
        keys
    }

    /// [`SlicedTweakeys::new`] in place, into masks made by
    /// [`SlicedTweakeys::empty`] for at least `rtk`'s rounds.
    pub(crate) fn set(&mut self, rtk: &RoundTweakeys) {
        #[cfg(target_arch = "x86_64")]
        if avx2::fill_keys(self, rtk) {
            return;
        }
        self.fill(rtk)
    }
}
