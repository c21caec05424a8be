//! [`PerBlockTweakeys`]: every block with a whole tweakey of its own.

use super::super::batch::Direction;
use super::super::paths::{crypt_per_block, Path, PathUnavailable};
use super::BlockKeys;
use crate::{InvalidRounds, Variant};

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
