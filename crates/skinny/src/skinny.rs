//! [`Skinny`]: a SKINNY cipher whose variant is chosen at run time, the one
//! that the bulk layers and the RustCrypto types run on.

use crate::hazmat::spec::tweakey::RoundTweakeys;
use crate::hazmat::{bitsliced, single};
use crate::{InvalidRounds, InvalidTweakeyLength, SetupError, Variant};

/// Tails of up to this many blocks after the last whole batch go one block at a
/// time through the single-block path: measured with `examples/cpu_speed`, one
/// block of the *specification* code costs about 1/5 of a padded 256-block AVX2
/// batch of SKINNY-128 (and 1/10 of a padded 64-block portable one); the
/// single-block path is faster than that, so the limit is on the safe side (not
/// measured again).
const SINGLE_TAIL_BLOCKS: usize = 4;

/// A SKINNY cipher whose variant is chosen at run time, with its round tweakeys
/// expanded once. Key material is wiped when it is dropped and never printed.
///
/// Small (under 500 bytes) and cheap to clone: the bitsliced masks that
/// [`Skinny::encrypt_blocks`] needs are built per call. An engine that calls it
/// on many pieces with one key keeps them once in a
/// [`BitslicedSkinny`](crate::BitslicedSkinny).
#[derive(Clone)]
pub struct Skinny {
    variant: Variant,
    pub(crate) rtk: RoundTweakeys,
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
    /// a 64 KiB call on AVX2); [`BitslicedSkinny`](crate::BitslicedSkinny) keeps them instead.
    /// With `alloc`, a call allocates the masks (up to 14 KiB) and its batch
    /// buffers (3-8 KiB on AVX2, twice that on AVX-512), and a zero-padded
    /// batch when it has a tail; none per batch.
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
    pub(crate) fn crypt_sliced(
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
            None => self.crypt_with_new_masks(path, dir, data),
        }
    }

    /// [`Skinny::crypt_sliced`] with masks built for the call (with `alloc`
    /// one allocation of up to 14 KiB; without, on the stack in a frame of
    /// its own, only while a call needs them).
    #[inline(never)]
    fn crypt_with_new_masks(
        &self,
        path: bitsliced::Path,
        dir: bitsliced::Direction,
        data: &mut [u8],
    ) -> Result<(), bitsliced::PathUnavailable> {
        let mut slot = None;
        let keys = bitsliced::SlicedTweakeys::build_in(&mut slot, &self.rtk);
        bitsliced::crypt(path, keys, self.variant.cell_width(), self.rounds(), dir, data)
    }
}

impl core::fmt::Debug for Skinny {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Skinny {{ variant: {}, rounds: {}, .. }}", self.variant, self.rounds())
    }
}
