//! One type per variant, with the RustCrypto `cipher` traits.

use crate::bitsliced::{Direction, SlicedTweakeys};
use crate::{Skinny, Variant};
use cipher::consts::{U16, U24, U32, U48, U512, U8};
use cipher::{
    AlgorithmName, Block, BlockCipherDecBackend, BlockCipherDecClosure, BlockCipherDecrypt, BlockCipherEncBackend,
    BlockCipherEncClosure, BlockCipherEncrypt, BlockSizeUser, InOut, Key, KeyInit, KeySizeUser, ParBlocks,
    ParBlocksSizeUser,
};
use core::cell::RefCell;
use core::marker::PhantomData;

/// The backend handed to RustCrypto closures: a borrowed [`Skinny`] at a fixed
/// block size. Parallel blocks go through the bitsliced code of
/// [`Skinny::encrypt_blocks`], so modes such as CTR and ECB get the fastest
/// single-thread code.
///
/// The cipher types are kept small, so the bitsliced masks are not in them: the
/// backend builds them at its first parallel-blocks call and keeps them for the
/// rest of the closure (one `encrypt_blocks` or `apply_keystream` call of a
/// mode), then wipes them. Single blocks never build them. A closure with just
/// one parallel-blocks call pays for them each time (measured on AVX2 with
/// 256-block calls: about 15 % of that batch).
pub(crate) struct Backend<'a, BS> {
    inner: &'a Skinny,
    sliced: RefCell<Option<SlicedTweakeys>>,
    _block: PhantomData<BS>,
}

impl<'a, BS> Backend<'a, BS> {
    pub(crate) fn new(inner: &'a Skinny) -> Self {
        Self { inner, sliced: RefCell::new(None), _block: PhantomData }
    }

    /// Whole blocks on the best bitsliced path with this closure's masks.
    #[inline]
    fn crypt_par(&self, dir: Direction, data: &mut [u8]) {
        let mut sliced = self.sliced.borrow_mut();
        if sliced.is_none() {
            build_masks(&mut sliced, self.inner);
        }
        self.inner.crypt_blocks_best(dir, data, sliced.as_ref());
    }
}

/// Builds `inner`'s masks into `slot` in place (a `OnceCell`'s initialiser
/// would move the 14 KiB through several frames, all kept at opt-level 0), in
/// a frame of its own that is gone before the blocks run.
#[inline(never)]
fn build_masks(slot: &mut Option<SlicedTweakeys>, inner: &Skinny) {
    SlicedTweakeys::build_in(slot, &inner.rtk);
}

macro_rules! backend_for_block_size {
    ($bs:ty, $par:ty) => {
        impl BlockSizeUser for Backend<'_, $bs> {
            type BlockSize = $bs;
        }

        impl ParBlocksSizeUser for Backend<'_, $bs> {
            type ParBlocksSize = $par;
        }

        impl BlockCipherEncBackend for Backend<'_, $bs> {
            #[inline]
            fn encrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
                self.inner.encrypt_block(block.into_out_with_copied_in());
            }

            #[inline]
            fn encrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let out = blocks.into_out_with_copied_in();
                self.crypt_par(Direction::Encrypt, Block::<Self>::slice_as_flattened_mut(out));
            }
        }

        impl BlockCipherDecBackend for Backend<'_, $bs> {
            #[inline]
            fn decrypt_block(&self, block: InOut<'_, '_, Block<Self>>) {
                self.inner.decrypt_block(block.into_out_with_copied_in());
            }

            #[inline]
            fn decrypt_par_blocks(&self, blocks: InOut<'_, '_, ParBlocks<Self>>) {
                let out = blocks.into_out_with_copied_in();
                self.crypt_par(Direction::Decrypt, Block::<Self>::slice_as_flattened_mut(out));
            }
        }
    };
}

// The AVX-512 bitsliced batch (512 blocks), so each `encrypt_par_blocks` call is
// one whole batch; it is two AVX2 batches or eight portable 64-block ones.
backend_for_block_size!(U8, U512);
backend_for_block_size!(U16, U512);

macro_rules! define_skinny {
    ($(#[$doc:meta])* $name:ident, $variant:expr, $block:ty, $key:ty) => {
        $(#[$doc])*
        ///
        /// The key is the whole tweakey (TK1 ‖ TK2 ‖ TK3). Key material is wiped on
        /// drop and never shown by `Debug`.
        #[derive(Clone)]
        pub struct $name {
            inner: Skinny,
        }

        impl $name {
            /// The variant this type implements.
            pub const VARIANT: Variant = $variant;

            /// The run-time form of this cipher.
            pub fn as_dyn(&self) -> &Skinny {
                &self.inner
            }

            /// Wraps an expanded run-time cipher of the same variant without expanding
            /// the key again; gives it back if the variant differs. The wrapper runs
            /// the rounds `inner` runs: a reduced-round cipher from
            /// [`Skinny::with_rounds`] stays reduced (for experiments through the
            /// RustCrypto mode crates), while `KeyInit` always makes the full one.
            ///
            /// # Errors
            /// The cipher itself, when its variant is not this type's.
            // The error hands the caller's own cipher back (the same size as the
            // `Ok` value, under 500 bytes); boxing it would need an allocator.
            #[allow(clippy::result_large_err)]
            pub fn from_dyn(inner: Skinny) -> Result<Self, Skinny> {
                if inner.variant() == $variant {
                    Ok(Self { inner })
                } else {
                    Err(inner)
                }
            }
        }

        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                let rtk = crate::RoundTweakeys::expand($variant, key.as_slice());
                Self { inner: Skinny::from_parts($variant, rtk) }
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl BlockCipherEncrypt for $name {
            fn encrypt_with_backend(&self, f: impl BlockCipherEncClosure<BlockSize = Self::BlockSize>) {
                f.call(&Backend::<$block>::new(&self.inner));
            }
        }

        impl BlockCipherDecrypt for $name {
            fn decrypt_with_backend(&self, f: impl BlockCipherDecClosure<BlockSize = Self::BlockSize>) {
                f.call(&Backend::<$block>::new(&self.inner));
            }
        }

        impl AlgorithmName for $name {
            fn write_alg_name(f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(stringify!($name))
            }
        }

        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(concat!(stringify!($name), " { .. }"))
            }
        }

        // The round tweakeys inside `Skinny` zeroize themselves on drop.
        impl cipher::zeroize::ZeroizeOnDrop for $name {}
    };
}

define_skinny!(
    /// SKINNY-64-64: 64-bit block, 64-bit tweakey, 32 rounds.
    Skinny64_64, Variant::Skinny64_64, U8, U8
);
define_skinny!(
    /// SKINNY-64-128: 64-bit block, 128-bit tweakey, 36 rounds.
    Skinny64_128, Variant::Skinny64_128, U8, U16
);
define_skinny!(
    /// SKINNY-64-192: 64-bit block, 192-bit tweakey, 40 rounds.
    Skinny64_192, Variant::Skinny64_192, U8, U24
);
define_skinny!(
    /// SKINNY-128-128: 128-bit block, 128-bit tweakey, 40 rounds.
    Skinny128_128, Variant::Skinny128_128, U16, U16
);
define_skinny!(
    /// SKINNY-128-256: 128-bit block, 256-bit tweakey, 48 rounds. The paper's cipher.
    Skinny128_256, Variant::Skinny128_256, U16, U32
);
define_skinny!(
    /// SKINNY-128-384: 128-bit block, 384-bit tweakey, 56 rounds.
    Skinny128_384, Variant::Skinny128_384, U16, U48
);
