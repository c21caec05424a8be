//! [`PerBlockTk1`]: every block with a TK1 of its own, TK2..TKz shared.

use super::super::batch::Direction;
use super::super::keys::SlicedTweakeys;
use super::super::paths::{crypt_per_block, Path, PathUnavailable};
use super::{lfsr_advance, BlockKeys};
use crate::spec::tweakey::RoundTweakeys;
use crate::{InvalidRounds, InvalidTweakeyLength, SetupError, Variant};

/// Reduced- or full-round SKINNY in which every block has its own TK1 and all
/// blocks share TK2..TKz, run bitsliced and in constant time: the shape of
/// SKINNY-AEAD, whose TK1 holds a block counter and domain (and, in M5/M6, the
/// nonce) while the key (and, in M1-M4, the nonce) fills the other arrays.
///
/// The shared arrays' round tweakeys are expanded once, in [`PerBlockTk1::new`],
/// into the same masks one-tweakey code uses; per batch only the blocks' TK1s
/// are transposed and permuted (TK1 has no LFSR). Faster than
/// [`PerBlockTweakeys`](super::tweakeys::PerBlockTweakeys) for the
/// same work, by as much as there are shared arrays. The value holds the
/// expanded masks (about 14 KiB for 56 rounds): secret, wiped when dropped.
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
            lfsr_advance::<24>(start, n)
        } else {
            lfsr_advance::<64>(start, n)
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
