//! Bitsliced SKINNY: many blocks at once, constant time.
//!
//! A batch of blocks is transposed so that one machine word holds the same bit of
//! every block (module `transpose`); the round function then works on whole
//! words with XOR, AND, OR and NOT only (modules `sbox`, `round`); the round
//! tweakeys, the same for every block, are spread into all-ones/all-zero masks
//! (module `keys`) before the batches run. Nothing branches on or indexes by
//! secret data.
//!
//! Three code paths share that code through one word abstraction (module `word`):
//! - [`Path::PortableU64`]: `u64` slices, 64 blocks a batch, every target;
//! - [`Path::Avx2`]: 256-bit slices, 256 blocks a batch, x86-64 with AVX2 found
//!   at run time (`cpufeatures`: one CPUID query, cached in a static, with or
//!   without `std`);
//! - [`Path::Avx512`]: 512-bit slices, 512 blocks a batch, x86-64 with AVX-512F
//!   found at run time the same way; its three-input logic instruction makes
//!   each S-box gate one operation.
//!
//! [`crate::Skinny::encrypt_blocks`] picks [`Path::best`];
//! [`crate::Skinny::encrypt_blocks_with`] runs a chosen path, so tests can force
//! a slower path on any machine and compare them.
//!
//! [`PerBlockTweakeys`] runs the same rounds with a tweakey of its own for every
//! block: the tweakeys are transposed like the data and the tweakey schedule runs
//! in bitsliced form between the rounds (module `tweakeys`), again with bitwise
//! operations only. See `docs/cpu-bitsliced.md` for the operation counts and
//! speeds.

// Index loops over cells and bits read like the specification's formulas.
#![allow(clippy::needless_range_loop)]

/// `$shift::<n>($x)` for the shift counts the bitsliced code uses (the
/// transposition's powers of two up to 32; 3, 20, 56 and 60 for the LFSR
/// counter rows of `tweakeys::crypt_blocks_lfsr`): the x86 shift intrinsics
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

use crate::spec::tweakey::RoundTweakeys;
use crate::spec::CellWidth;
use crate::{InvalidRounds, InvalidTweakeyLength, SetupError, Variant};
use tweakeys::BlockKeys;

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
        let keys = BlockKeys::Whole { tk_count: v.tk_count(), tweakeys };
        crypt_per_block(self.path, v.cell_width(), self.rounds, direction, data, keys);
    }
}

/// Runs per-block keying on `path`, which was checked to be available when the
/// caller's value was made.
fn crypt_per_block(path: Path, width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8], keys: BlockKeys<'_>) {
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

/// Reduced- or full-round SKINNY in which every block has its own TK1 and all
/// blocks share TK2..TKz, run bitsliced and in constant time: the shape of
/// SKINNY-AEAD, whose TK1 holds a block counter and domain (and, in M5/M6, the
/// nonce) while the key (and, in M1-M4, the nonce) fills the other arrays.
///
/// The shared arrays' round tweakeys are expanded once, in [`PerBlockTk1::new`],
/// into the same masks one-tweakey code uses; per batch only the blocks' TK1s
/// are transposed and permuted (TK1 has no LFSR). Faster than
/// [`PerBlockTweakeys`] for the same work, by as much as there are shared
/// arrays. The value holds the expanded masks (about 14 KiB for 56 rounds):
/// secret, wiped when dropped.
///
/// Block `i` of the data is encrypted under the tweakey
/// `tk1[i·b .. (i+1)·b] ‖ TK2 ‖ .. ‖ TKz` (`b` = the block size).
///
/// ```
/// use skinny::hazmat::bitsliced::PerBlockTk1;
/// use skinny::{Skinny, Variant};
///
/// let v = Variant::Skinny128_256;
/// let mut tweakey = [9u8; 32]; // TK1 (ignored here) ‖ TK2
/// let cipher = PerBlockTk1::new(v, v.rounds(), &tweakey).unwrap();
/// let tk1s = [[1u8; 16], [2u8; 16]].concat();
/// let mut data = [7u8; 32]; // two blocks
/// cipher.encrypt(&mut data, &tk1s);
/// tweakey[..16].fill(2);
/// let mut second = [7u8; 16];
/// Skinny::new(v, &tweakey).unwrap().encrypt_block(&mut second);
/// assert_eq!(data[16..], second);
/// cipher.decrypt(&mut data, &tk1s);
/// assert_eq!(data, [7u8; 32]);
/// ```
#[derive(Clone)]
pub struct PerBlockTk1 {
    variant: Variant,
    rounds: usize,
    path: Path,
    shared: SlicedTweakeys,
}

impl PerBlockTk1 {
    /// `rounds` rounds of `variant` (1 ..= `variant.rounds()`; fewer than the
    /// full count are for cryptanalysis only) on [`Path::best`], with TK2..TKz
    /// taken from `tweakey` (a whole tweakey, TK1 ‖ TK2 ‖ TK3, whose TK1 is not
    /// used: every block brings its own).
    ///
    /// # Errors
    /// [`SetupError`] for a tweakey of the wrong length or a round count out of
    /// range.
    pub fn new(variant: Variant, rounds: usize, tweakey: &[u8]) -> Result<Self, SetupError> {
        Self::build(variant, rounds, tweakey, false)
    }

    /// [`PerBlockTk1::new`] keeping the tweakey's TK1 as a base that every
    /// block's TK1 is XORed onto: block `i` is encrypted under
    /// `(base ⊕ tk1_i) ‖ TK2 ‖ .. ‖ TKz`, `tk1_i` its TK1 from `tk1s` or its
    /// counter in [`PerBlockTk1::crypt_lfsr`]. The base costs nothing per
    /// block: TK1's schedule is linear, so the base's round tweakeys are
    /// folded into the shared masks with TK2..TKz's.
    ///
    /// # Errors
    /// As [`PerBlockTk1::new`].
    pub fn with_base_tk1(variant: Variant, rounds: usize, tweakey: &[u8]) -> Result<Self, SetupError> {
        Self::build(variant, rounds, tweakey, true)
    }

    fn build(variant: Variant, rounds: usize, tweakey: &[u8], keep_tk1: bool) -> Result<Self, SetupError> {
        if tweakey.len() != variant.tweakey_bytes() {
            return Err(SetupError::Tweakey(InvalidTweakeyLength { variant, got: tweakey.len() }));
        }
        if !(1..=variant.rounds()).contains(&rounds) {
            return Err(SetupError::Rounds(InvalidRounds { variant, got: rounds }));
        }
        let mut shared_only = [0u8; 48];
        let shared_only = &mut shared_only[..tweakey.len()];
        let b = if keep_tk1 { 0 } else { variant.block_bytes() };
        shared_only[b..].copy_from_slice(&tweakey[b..]);
        let rtk = RoundTweakeys::expand_rounds(variant, shared_only, rounds);
        zeroize::Zeroize::zeroize(shared_only);
        Ok(Self { variant, rounds, path: Path::best(), shared: SlicedTweakeys::new(&rtk) })
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

    /// Encrypts whole blocks of `data` in place, block `i` under its own TK1
    /// (`tk1s`: one block-sized TK1 per block) and the shared arrays. A tail
    /// shorter than a batch is padded to one (and the padding wiped).
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks, or `tk1s` is not exactly one
    /// block per block of `data`.
    pub fn encrypt(&self, data: &mut [u8], tk1s: &[u8]) {
        self.crypt(Direction::Encrypt, data, tk1s);
    }

    /// Decrypts whole blocks of `data` in place (see [`PerBlockTk1::encrypt`]).
    ///
    /// # Panics
    /// As [`PerBlockTk1::encrypt`].
    pub fn decrypt(&self, data: &mut [u8], tk1s: &[u8]) {
        self.crypt(Direction::Decrypt, data, tk1s);
    }

    /// [`PerBlockTk1::encrypt`] or [`PerBlockTk1::decrypt`].
    ///
    /// # Panics
    /// As [`PerBlockTk1::encrypt`].
    pub fn crypt(&self, direction: Direction, data: &mut [u8], tk1s: &[u8]) {
        let bs = self.variant.block_bytes();
        assert_eq!(data.len() % bs, 0, "whole blocks");
        assert_eq!(tk1s.len(), data.len(), "one TK1 per block");
        if data.is_empty() {
            return;
        }
        let keys = BlockKeys::Tk1 { shared: &self.shared, tk1: tk1s };
        crypt_per_block(self.path, self.variant.cell_width(), self.rounds, direction, data, keys);
    }
}

impl PerBlockTk1 {
    /// Encrypts or decrypts whole blocks of `data` in place (16-byte blocks
    /// only), block `i` under the shared arrays and its own TK1, the counter
    /// `c_i` XORed, little-endian, into the first 8 bytes of the base TK1
    /// (see [`PerBlockTk1::with_base_tk1`]; zero after [`PerBlockTk1::new`]).
    /// `c_0 = start`, and each next counter is one step of the LFSR of
    /// SKINNY-AEAD on `bits` bits (multiplication by x modulo x^`bits` + x^4 +
    /// x^3 + x + 1; `bits` = 64 in M1-M4, 24 in M5 and M6). Returns the counter
    /// after the last block (`start` stepped once per block).
    ///
    /// The same as [`PerBlockTk1::crypt`] with those TK1s written out, but the
    /// counters are made in bitsliced form inside each batch (64 words stepped
    /// by x^lanes, one transposition of half a block's width): no TK1 is built,
    /// gathered or transposed, and the odd rounds, where TK1's schedule puts
    /// no counter cell, cost what one-tweakey rounds cost. Constant time in
    /// the data and the tweakey; the counter is taken as public (in
    /// SKINNY-AEAD it is) but not branched on either.
    ///
    /// ```
    /// use skinny::hazmat::bitsliced::{Direction, PerBlockTk1};
    /// use skinny::Variant;
    ///
    /// let v = Variant::Skinny128_384;
    /// let mut tweakey = [3u8; 48];
    /// tweakey[..16].fill(0);
    /// tweakey[15] = 2; // SKINNY-AEAD M1: TK1 = counter ‖ 0^56 ‖ domain byte
    /// let cipher = PerBlockTk1::with_base_tk1(v, v.rounds(), &tweakey).unwrap();
    /// let mut data = [7u8; 48];
    /// let next = cipher.crypt_lfsr(Direction::Encrypt, &mut data, 1, 64);
    /// assert_eq!(next, 8); // 1 -> 2 -> 4 -> 8
    /// // The same with the TK1s written out: counters 1, 2, 4.
    /// let tk1s: Vec<u8> = [1u8, 2, 4].iter().flat_map(|&c| { let mut t = [0u8; 16]; t[0] = c; t }).collect();
    /// let mut want = [7u8; 48];
    /// cipher.encrypt(&mut want, &tk1s);
    /// assert_eq!(data, want);
    /// ```
    ///
    /// # Panics
    /// If the variant's blocks are not 16 bytes, `data` is not a whole number
    /// of blocks, `bits` is neither 24 nor 64, or `start` has bits above
    /// `bits`.
    pub fn crypt_lfsr(&self, direction: Direction, data: &mut [u8], start: u64, bits: u32) -> u64 {
        assert_eq!(self.variant.block_bytes(), 16, "16-byte blocks only");
        assert_eq!(data.len() % 16, 0, "whole blocks");
        assert!(bits == 24 || bits == 64, "the counter has 24 or 64 bits");
        assert_eq!(start & !(u64::MAX >> (64 - bits)), 0, "the counter fits in its bits");
        let n = data.len() / 16;
        if n > 0 {
            let keys = BlockKeys::Lfsr { shared: &self.shared, start, bits };
            crypt_per_block(self.path, self.variant.cell_width(), self.rounds, direction, data, keys);
        }
        if bits == 24 {
            tweakeys::lfsr_advance::<24>(start, n)
        } else {
            tweakeys::lfsr_advance::<64>(start, n)
        }
    }
}

impl core::fmt::Debug for PerBlockTk1 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PerBlockTk1")
            .field("variant", &self.variant)
            .field("rounds", &self.rounds)
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::batch::crypt_blocks;
    use super::word::TernaryU64;
    use super::*;
    use crate::spec;
    use crate::Skinny;

    fn bytes(n: usize, seed: u64) -> alloc_free::Bytes {
        alloc_free::Bytes::new(n, seed)
    }

    /// Fixed-size buffers (the crate is `no_std` without `alloc`).
    mod alloc_free {
        pub(super) struct Bytes {
            buf: [u8; 3 * 64 * 48],
            len: usize,
        }
        impl Bytes {
            pub(super) fn new(len: usize, mut seed: u64) -> Self {
                let mut buf = [0u8; 3 * 64 * 48];
                for b in &mut buf[..len] {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    *b = (seed >> 56) as u8;
                }
                Self { buf, len }
            }
            pub(super) fn get(&mut self) -> &mut [u8] {
                &mut self.buf[..self.len]
            }
        }
    }

    /// The formulations for words with three-input operations, run on plain
    /// `u64` arithmetic ([`TernaryU64`]), against the specification code: shared
    /// and per-block tweakeys, both directions, every variant, full and reduced
    /// rounds, a whole batch plus a padded tail. Runs on every machine.
    #[test]
    fn ternary_formulations_match_the_specification() {
        for (k, v) in Variant::ALL.into_iter().enumerate() {
            let (bs, tb) = (v.block_bytes(), v.tweakey_bytes());
            for rounds in [1, 2, 7, v.rounds()] {
                let blocks = 64 + 9;
                let mut key = bytes(tb, 100 + k as u64);
                let c = Skinny::with_rounds(v, key.get(), rounds).unwrap();
                let keys = SlicedTweakeys::new(&c.rtk);
                let mut data = bytes(blocks * bs, 200 + k as u64);
                let mut want = bytes(blocks * bs, 200 + k as u64);
                for b in want.get().chunks_exact_mut(bs) {
                    spec::encrypt_block(v.cell_width(), &c.rtk, b);
                }
                let d = data.get();
                match v.cell_width() {
                    CellWidth::Nibble => crypt_blocks::<TernaryU64, 4>(&keys, rounds, Direction::Encrypt, d),
                    CellWidth::Byte => crypt_blocks::<TernaryU64, 8>(&keys, rounds, Direction::Encrypt, d),
                }
                assert_eq!(d, want.get(), "{v} {rounds} rounds, shared tweakey, encryption");
                match v.cell_width() {
                    CellWidth::Nibble => crypt_blocks::<TernaryU64, 4>(&keys, rounds, Direction::Decrypt, d),
                    CellWidth::Byte => crypt_blocks::<TernaryU64, 8>(&keys, rounds, Direction::Decrypt, d),
                }
                assert_eq!(d, bytes(blocks * bs, 200 + k as u64).get(), "{v} {rounds} rounds, shared, decryption");

                let mut tks = bytes(blocks * tb, 300 + k as u64);
                let tks = tks.get();
                let mut want = bytes(blocks * bs, 400 + k as u64);
                for (b, tk) in want.get().chunks_exact_mut(bs).zip(tks.chunks_exact(tb)) {
                    Skinny::with_rounds(v, tk, rounds).unwrap().encrypt_block(b);
                }
                let mut data = bytes(blocks * bs, 400 + k as u64);
                let d = data.get();
                let z = v.tk_count();
                tweakeys::crypt_blocks_for::<TernaryU64>(
                    v.cell_width(),
                    rounds,
                    Direction::Encrypt,
                    d,
                    tweakeys::BlockKeys::Whole { tk_count: z, tweakeys: tks },
                );
                assert_eq!(d, want.get(), "{v} {rounds} rounds, per-block tweakeys, encryption");
                tweakeys::crypt_blocks_for::<TernaryU64>(
                    v.cell_width(),
                    rounds,
                    Direction::Decrypt,
                    d,
                    tweakeys::BlockKeys::Whole { tk_count: z, tweakeys: tks },
                );
                assert_eq!(d, bytes(blocks * bs, 400 + k as u64).get(), "{v} {rounds} rounds, per-block, decryption");
            }
        }
    }

    /// The LFSR-counter keying (SKINNY-AEAD's, `PerBlockTk1::crypt_lfsr`) with
    /// the three-input formulations on plain `u64` ([`TernaryU64`]: the
    /// counter rows use `xor3`, the transposition bit selects), against the
    /// per-block-TK1 keying with the TK1s written out. Runs on every machine.
    #[test]
    fn ternary_lfsr_counters_match_written_out_tk1s() {
        use crate::spec::tweakey::RoundTweakeys;
        for (k, v) in [Variant::Skinny128_256, Variant::Skinny128_384].into_iter().enumerate() {
            for (bits, start) in [(24u32, 1u64), (64, 1), (24, 0xab_cdef), (64, 0x8000_0000_0000_0001)] {
                let rounds = v.rounds();
                let blocks = 64 + 9;
                let mut tweakey = bytes(v.tweakey_bytes(), 500 + k as u64);
                let tweakey = tweakey.get();
                let with_base = SlicedTweakeys::new(&RoundTweakeys::expand_rounds(v, tweakey, rounds));
                let mut tk1s = bytes(blocks * 16, 0);
                let tk1s = tk1s.get();
                let mut c = start;
                for tk1 in tk1s.chunks_exact_mut(16) {
                    tk1.copy_from_slice(&tweakey[..16]);
                    for (t, b) in tk1.iter_mut().zip(c.to_le_bytes()) {
                        *t ^= b;
                    }
                    c = if bits == 24 { tweakeys::lfsr_step::<24>(c) } else { tweakeys::lfsr_step::<64>(c) };
                }
                tweakey[..16].fill(0);
                let without = SlicedTweakeys::new(&RoundTweakeys::expand_rounds(v, tweakey, rounds));
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let mut got = bytes(blocks * 16, 600 + k as u64);
                    let mut want = bytes(blocks * 16, 600 + k as u64);
                    let (got, want) = (got.get(), want.get());
                    let lfsr = tweakeys::BlockKeys::Lfsr { shared: &with_base, start, bits };
                    tweakeys::crypt_blocks_for::<TernaryU64>(CellWidth::Byte, rounds, dir, got, lfsr);
                    let tk1 = tweakeys::BlockKeys::Tk1 { shared: &without, tk1: tk1s };
                    tweakeys::crypt_blocks_for::<TernaryU64>(CellWidth::Byte, rounds, dir, want, tk1);
                    assert_eq!(got, want, "{v} {bits}-bit counter from {start:#x}, {dir:?}");
                }
            }
        }
    }
}
