//! [`BitslicedSkinny`]: a [`Skinny`] with its bitsliced masks kept, for bulk
//! engines that encrypt many pieces with one key.

use crate::hazmat::bitsliced;
use crate::Skinny;

/// A [`Skinny`] together with its round tweakeys spread into bitsliced masks,
/// built once: for bulk engines that call [`BitslicedSkinny::encrypt_blocks`] on
/// many pieces (from many threads) with one key, so no call pays for the masks.
///
/// With `alloc` (the default) the masks (up to 14 KiB) are on the heap and
/// the value is small; without it they are inline (about 15 KiB: build it
/// where it stays). Keep one per key, don't clone it per piece. Key material
/// is wiped when dropped, never printed.
#[derive(Clone)]
pub struct BitslicedSkinny {
    cipher: Skinny,
    sliced: bitsliced::SlicedTweakeys,
}

impl BitslicedSkinny {
    /// Builds the masks of `cipher`'s round tweakeys.
    pub fn new(cipher: &Skinny) -> Self {
        Self { cipher: cipher.clone(), sliced: bitsliced::SlicedTweakeys::new(&cipher.rtk) }
    }

    /// The cipher (for single blocks, the variant, ...).
    pub fn cipher(&self) -> &Skinny {
        &self.cipher
    }

    /// [`Skinny::encrypt_blocks`] with the kept masks.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    pub fn encrypt_blocks(&self, data: &mut [u8]) {
        self.cipher.crypt_blocks_best(bitsliced::Direction::Encrypt, data, Some(&self.sliced));
    }

    /// [`Skinny::decrypt_blocks`] with the kept masks.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    pub fn decrypt_blocks(&self, data: &mut [u8]) {
        self.cipher.crypt_blocks_best(bitsliced::Direction::Decrypt, data, Some(&self.sliced));
    }

    /// [`Skinny::encrypt_blocks_with`] with the kept masks.
    ///
    /// # Errors
    /// [`bitsliced::PathUnavailable`], with `data` untouched, if this CPU cannot
    /// run `path`.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    pub fn encrypt_blocks_with(
        &self,
        path: bitsliced::Path,
        data: &mut [u8],
    ) -> Result<(), bitsliced::PathUnavailable> {
        self.cipher.crypt_sliced(path, bitsliced::Direction::Encrypt, data, Some(&self.sliced))
    }

    /// [`Skinny::decrypt_blocks_with`] with the kept masks.
    ///
    /// # Errors
    /// [`bitsliced::PathUnavailable`], with `data` untouched, if this CPU cannot
    /// run `path`.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    pub fn decrypt_blocks_with(
        &self,
        path: bitsliced::Path,
        data: &mut [u8],
    ) -> Result<(), bitsliced::PathUnavailable> {
        self.cipher.crypt_sliced(path, bitsliced::Direction::Decrypt, data, Some(&self.sliced))
    }
}

impl core::fmt::Debug for BitslicedSkinny {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "BitslicedSkinny {{ variant: {}, .. }}", self.cipher.variant())
    }
}

// Both fields wipe themselves on drop.
impl zeroize::ZeroizeOnDrop for BitslicedSkinny {}
