//! # SKINNY
//!
//! The SKINNY family of tweakable block ciphers (Beierle, Jean, Kölbl, Leander,
//! Moradi, Peyrin, Sasaki, Sasdrich, Sim; CRYPTO 2016): all six variants,
//! encryption and decryption, behind the RustCrypto [`cipher`] traits.
//!
//! | type | block | tweakey | rounds |
//! |---|---|---|---|
//! | [`Skinny64_64`]   | 64  | 64  | 32 |
//! | [`Skinny64_128`]  | 64  | 128 | 36 |
//! | [`Skinny64_192`]  | 64  | 192 | 40 |
//! | [`Skinny128_128`] | 128 | 128 | 40 |
//! | [`Skinny128_256`] | 128 | 256 | 48 |
//! | [`Skinny128_384`] | 128 | 384 | 56 |
//!
//! The key of these types is the whole tweakey TK1 ‖ TK2 ‖ TK3 in the
//! specification's byte order. The `Tweakable*` types take TK1 as a per-call tweak
//! and the rest as the key ([`cipher::TweakBlockCipherEncrypt`]).
//!
//! Where the code lives:
//! - [`Skinny`]: a cipher whose variant is chosen at run time, for bulk layers;
//!   [`BitslicedSkinny`]: the same with its bitsliced round-tweakey masks kept,
//!   for engines that encrypt many pieces with one key.
//! - [`hazmat`]: the specification code, the bitsliced engine, the single-block
//!   path and the round tweakeys, for this workspace's other crates and for
//!   tests; not a stable API.
//!
//! # Security
//!
//! These are bare block ciphers: a building block, not a way to protect data by
//! themselves. Encrypting several blocks takes a mode, and the block modes
//! (ECB, CBC, CTR, ... whether from RustCrypto or from `skinny-bulk`) are
//! **unauthenticated**: they hide data but let anyone change it undetected. ECB
//! shows which blocks are equal. Use an authenticated construction (an AEAD, or
//! encrypt-then-MAC) for anything that needs integrity. All code here is constant
//! time (no branch or table index depends on secret data) and wipes key material
//! when dropped.
//!
//! # Platforms
//!
//! `#![no_std]` and no allocator, whatever the features (`std`, on by default,
//! changes nothing today). AVX-512F and AVX2 (many blocks) and SSSE3 or
//! AVX-512VL with GFNI (single blocks) are found at run time on x86-64 (with
//! `cpufeatures`, also without std); every other CPU runs the portable
//! bitsliced and single-block code.
//! `checks/no-std` in the repository builds a `#![no_std]` static library on it.
//!
//! ```
//! use skinny::Skinny128_256;
//! use skinny::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
//!
//! let key = [0x42u8; 32];
//! let cipher = Skinny128_256::new(&key.into());
//! let mut block = Array::from([0u8; 16]);
//! cipher.encrypt_block(&mut block);
//! cipher.decrypt_block(&mut block);
//! assert_eq!(block, Array::from([0u8; 16]));
//! ```
//!
//! With a RustCrypto mode crate (here CTR with a 128-bit big-endian counter):
//!
//! ```
//! use skinny::Skinny128_256;
//! use skinny::cipher::{KeyIvInit, StreamCipher};
//!
//! let mut data = *b"attack at dawn, attack at dawn!";
//! let mut ctr = ctr::Ctr128BE::<Skinny128_256>::new(&[7u8; 32].into(), &[0u8; 16].into());
//! ctr.apply_keystream(&mut data);
//! let mut ctr = ctr::Ctr128BE::<Skinny128_256>::new(&[7u8; 32].into(), &[0u8; 16].into());
//! ctr.apply_keystream(&mut data);
//! assert_eq!(&data, b"attack at dawn, attack at dawn!");
//! ```
#![no_std]
// Only the x86 intrinsics modules (bitsliced AVX2 and AVX-512, single-block
// SSSE3 / AVX-512) opt back in to `unsafe`, each block with a SAFETY comment.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub use cipher;

pub mod counter;
pub mod hazmat;
mod tweakable;
mod typed;
mod variant;

// Short paths for the crate's own code.
use hazmat::spec::tweakey::RoundTweakeys;
use hazmat::{bitsliced, single, spec};

pub use hazmat::spec::CellWidth;
pub use tweakable::{TweakableSkinny128_256, TweakableSkinny128_384, TweakableSkinny64_128, TweakableSkinny64_192};
pub use typed::{Skinny128_128, Skinny128_256, Skinny128_384, Skinny64_128, Skinny64_192, Skinny64_64};
pub use variant::{UnknownVariant, Variant};

/// Tails of up to this many blocks after the last whole batch go one block at a
/// time through the single-block path: measured with `examples/cpu_speed`, one
/// block of the *specification* code costs about 1/5 of a padded 256-block AVX2
/// batch of SKINNY-128 (and 1/10 of a padded 64-block portable one); the
/// single-block path is faster than that, so the limit is on the safe side (not
/// measured again).
const SINGLE_TAIL_BLOCKS: usize = 4;

/// The tweakey given does not have the variant's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidTweakeyLength {
    /// The variant asked for.
    pub variant: Variant,
    /// The length given, in bytes.
    pub got: usize,
}

impl core::fmt::Display for InvalidTweakeyLength {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} needs a key of {} bytes (the whole tweakey), got {} byte{}",
            self.variant,
            self.variant.tweakey_bytes(),
            self.got,
            if self.got == 1 { "" } else { "s" }
        )
    }
}

impl core::error::Error for InvalidTweakeyLength {}

/// A round count outside 1 ..= the variant's full count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidRounds {
    /// The variant asked for.
    pub variant: Variant,
    /// The count given.
    pub got: usize,
}

impl core::fmt::Display for InvalidRounds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} has 1 to {} rounds, not {}", self.variant, self.variant.rounds(), self.got)
    }
}

impl core::error::Error for InvalidRounds {}

/// Why [`Skinny::with_rounds`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// The tweakey's length is not the variant's.
    Tweakey(InvalidTweakeyLength),
    /// The round count is out of range.
    Rounds(InvalidRounds),
}

impl core::fmt::Display for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SetupError::Tweakey(e) => e.fmt(f),
            SetupError::Rounds(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for SetupError {}

/// A SKINNY cipher whose variant is chosen at run time, with its round tweakeys
/// expanded once. Key material is wiped when it is dropped and never printed.
///
/// Small (under 500 bytes) and cheap to clone: the bitsliced masks that
/// [`Skinny::encrypt_blocks`] needs are built per call. An engine that calls it
/// on many pieces with one key keeps them once in a [`BitslicedSkinny`].
#[derive(Clone)]
pub struct Skinny {
    variant: Variant,
    rtk: RoundTweakeys,
}

impl Skinny {
    /// Expands `tweakey` (TK1 ‖ TK2 ‖ TK3, `variant.tweakey_bytes()` long).
    ///
    /// # Errors
    /// [`InvalidTweakeyLength`] if the length is not the variant's.
    pub fn new(variant: Variant, tweakey: &[u8]) -> Result<Self, InvalidTweakeyLength> {
        if tweakey.len() != variant.tweakey_bytes() {
            return Err(InvalidTweakeyLength { variant, got: tweakey.len() });
        }
        Ok(Self::from_parts(variant, RoundTweakeys::expand(variant, tweakey)))
    }

    /// Expands `tweakey` for the first `rounds` rounds only: reduced-round
    /// SKINNY, for cryptanalysis (experiments that count right pairs, say).
    /// **Insecure below the full count**; `rounds == variant.rounds()` is the
    /// same cipher as [`Skinny::new`]. Every backend runs the given count.
    ///
    /// # Errors
    /// [`SetupError::Tweakey`] for a tweakey of the wrong length,
    /// [`SetupError::Rounds`] for a count outside 1 ..= `variant.rounds()`.
    pub fn with_rounds(variant: Variant, tweakey: &[u8], rounds: usize) -> Result<Self, SetupError> {
        if tweakey.len() != variant.tweakey_bytes() {
            return Err(SetupError::Tweakey(InvalidTweakeyLength { variant, got: tweakey.len() }));
        }
        if !(1..=variant.rounds()).contains(&rounds) {
            return Err(SetupError::Rounds(InvalidRounds { variant, got: rounds }));
        }
        Ok(Self::from_parts(variant, RoundTweakeys::expand_rounds(variant, tweakey, rounds)))
    }

    /// The number of rounds this cipher runs (the variant's, unless made by
    /// [`Skinny::with_rounds`]).
    pub fn rounds(&self) -> usize {
        self.rtk.rounds()
    }

    pub(crate) fn from_parts(variant: Variant, rtk: RoundTweakeys) -> Self {
        Self { variant, rtk }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Bytes in one block.
    pub fn block_bytes(&self) -> usize {
        self.variant.block_bytes()
    }

    /// Encrypts one block in place with the single-block path built for
    /// latency ([`single::Path::best_for`]): what serial modes such as CBC want.
    ///
    /// # Panics
    /// If `block` is not exactly one block long.
    #[inline]
    pub fn encrypt_block(&self, block: &mut [u8]) {
        assert_eq!(block.len(), self.block_bytes(), "one block");
        single::encrypt_block(self.variant.cell_width(), &self.rtk, block);
    }

    /// Decrypts one block in place ([`single::Path::best_for`]).
    ///
    /// # Panics
    /// If `block` is not exactly one block long.
    #[inline]
    pub fn decrypt_block(&self, block: &mut [u8]) {
        assert_eq!(block.len(), self.block_bytes(), "one block");
        single::decrypt_block(self.variant.cell_width(), &self.rtk, block);
    }

    /// Encrypts whole blocks in place, with the fastest constant-time code this CPU
    /// has for one thread: the bitsliced [`bitsliced::Path::best`] path in batches
    /// (a short tail is padded to a batch), any number of whole blocks.
    ///
    /// Each call spreads the round tweakeys into bitsliced masks first (1-3 % of
    /// a 64 KiB call on AVX2); [`BitslicedSkinny`] keeps them instead.
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    pub fn encrypt_blocks(&self, data: &mut [u8]) {
        self.crypt_blocks_best(bitsliced::Direction::Encrypt, data, None);
    }

    /// Decrypts whole blocks in place (see [`Skinny::encrypt_blocks`]).
    ///
    /// # Panics
    /// If `data` is not a whole number of blocks.
    pub fn decrypt_blocks(&self, data: &mut [u8]) {
        self.crypt_blocks_best(bitsliced::Direction::Decrypt, data, None);
    }

    /// Whole batches on the best path; a tail of at most [`SINGLE_TAIL_BLOCKS`]
    /// blocks one by one with the specification code (cheaper than a padded batch,
    /// and just as constant-time: which code runs depends on the length only).
    /// The masks are `sliced` when given, else built here if a batch needs them.
    pub(crate) fn crypt_blocks_best(
        &self,
        dir: bitsliced::Direction,
        data: &mut [u8],
        sliced: Option<&bitsliced::SlicedTweakeys>,
    ) {
        let bs = self.block_bytes();
        assert_eq!(data.len() % bs, 0, "whole blocks");
        let path = bitsliced::Path::best();
        let blocks = data.len() / bs;
        let tail = blocks % path.batch_blocks();
        let split = if tail <= SINGLE_TAIL_BLOCKS { (blocks - tail) * bs } else { data.len() };
        let (batched, rest) = data.split_at_mut(split);
        if !batched.is_empty() {
            self.crypt_sliced(path, dir, batched, sliced)
                .unwrap_or_else(|_| unreachable!("the best path is available"));
        }
        let width = self.variant.cell_width();
        for block in rest.chunks_exact_mut(bs) {
            match dir {
                bitsliced::Direction::Encrypt => single::encrypt_block(width, &self.rtk, block),
                bitsliced::Direction::Decrypt => single::decrypt_block(width, &self.rtk, block),
            }
        }
    }

    /// Encrypts whole blocks in place on a chosen bitsliced path, for tests and
    /// benchmarks that compare the paths (or force the portable fallback). Unlike
    /// [`Skinny::encrypt_blocks`], every block goes through the path, a short tail
    /// in a zero-padded batch.
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
        self.crypt_sliced(path, bitsliced::Direction::Encrypt, data, None)
    }

    /// Decrypts whole blocks in place on a chosen bitsliced path (see
    /// [`Skinny::encrypt_blocks_with`]).
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
        self.crypt_sliced(path, bitsliced::Direction::Decrypt, data, None)
    }

    /// All of `data` on `path`, with the given masks or masks built for this call.
    fn crypt_sliced(
        &self,
        path: bitsliced::Path,
        dir: bitsliced::Direction,
        data: &mut [u8],
        sliced: Option<&bitsliced::SlicedTweakeys>,
    ) -> Result<(), bitsliced::PathUnavailable> {
        assert_eq!(data.len() % self.block_bytes(), 0, "whole blocks");
        if !path.is_available() {
            return Err(bitsliced::PathUnavailable(path));
        }
        if data.is_empty() {
            return Ok(());
        }
        let v = self.variant;
        match sliced {
            Some(keys) => bitsliced::crypt(path, keys, v.cell_width(), self.rounds(), dir, data),
            None => {
                let keys = bitsliced::SlicedTweakeys::new(&self.rtk);
                bitsliced::crypt(path, &keys, v.cell_width(), self.rounds(), dir, data)
            }
        }
    }
}

impl core::fmt::Debug for Skinny {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Skinny {{ variant: {}, rounds: {}, .. }}", self.variant, self.rounds())
    }
}

/// A [`Skinny`] together with its round tweakeys spread into bitsliced masks,
/// built once: for bulk engines that call [`BitslicedSkinny::encrypt_blocks`] on
/// many pieces (from many threads) with one key, so no call pays for the masks.
///
/// About 29 KiB: keep one per key (behind a `Box` or `Arc` if it moves around),
/// don't clone it per piece. Key material is wiped when dropped, never printed.
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
        write!(f, "BitslicedSkinny {{ variant: {}, .. }}", self.cipher.variant)
    }
}

// Both fields wipe themselves on drop.
impl zeroize::ZeroizeOnDrop for BitslicedSkinny {}
