//! Tweakable forms: TK1 is the per-call tweak, TK2 (‖ TK3) the key.
//!
//! The tweakey schedule is linear in each TK array, so the key's part of the
//! round tweakeys is expanded once and each call only adds TK1's part, which
//! needs no LFSR (just the cell permutation).

use crate::hazmat::single::FixedTweakeyPart;
use crate::Variant;
use cipher::consts::{U16, U32, U8};
use cipher::{
    AlgorithmName, Block, BlockSizeUser, InOut, Key, KeyInit, KeySizeUser, Tweak, TweakBlockCipherDecBackend,
    TweakBlockCipherDecClosure, TweakBlockCipherDecrypt, TweakBlockCipherEncBackend, TweakBlockCipherEncClosure,
    TweakBlockCipherEncrypt, TweakSizeUser,
};

/// The key part (TK2, TK3) expanded once at the full round count; TK1 is each
/// call's tweak.
fn key_part(variant: Variant, key: &[u8]) -> FixedTweakeyPart {
    FixedTweakeyPart::new(variant, key, variant.rounds())
        .unwrap_or_else(|_| unreachable!("the key type holds every array after TK1"))
}

macro_rules! define_tweakable {
    ($(#[$doc:meta])* $name:ident, $variant:expr, $block:ty, $key:ty) => {
        $(#[$doc])*
        ///
        /// Tweak = TK1 (one block); key = TK2 ‖ TK3. Encrypting with tweak `T`
        /// under key `K` equals the plain cipher under tweakey `T ‖ K`.
        #[derive(Clone)]
        pub struct $name {
            key: FixedTweakeyPart,
        }

        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                Self { key: key_part($variant, key.as_slice()) }
            }
        }

        impl BlockSizeUser for $name {
            type BlockSize = $block;
        }

        impl TweakSizeUser for $name {
            type TweakSize = $block;
        }

        impl TweakBlockCipherEncBackend for $name {
            fn encrypt_block_inout(&self, tweak: &Tweak<Self>, block: InOut<'_, '_, Block<Self>>) {
                self.key
                    .encrypt_block(tweak.as_slice(), block.into_out_with_copied_in())
                    .unwrap_or_else(|_| unreachable!("the types hold one tweak and one block"));
            }
        }

        impl TweakBlockCipherDecBackend for $name {
            fn decrypt_block_inout(&self, tweak: &Tweak<Self>, block: InOut<'_, '_, Block<Self>>) {
                self.key
                    .decrypt_block(tweak.as_slice(), block.into_out_with_copied_in())
                    .unwrap_or_else(|_| unreachable!("the types hold one tweak and one block"));
            }
        }

        impl TweakBlockCipherEncrypt for $name {
            fn encrypt_with_backend(
                &self,
                f: impl TweakBlockCipherEncClosure<BlockSize = Self::BlockSize, TweakSize = Self::TweakSize>,
            ) {
                f.call(self);
            }
        }

        impl TweakBlockCipherDecrypt for $name {
            fn decrypt_with_backend(
                &self,
                f: impl TweakBlockCipherDecClosure<BlockSize = Self::BlockSize, TweakSize = Self::TweakSize>,
            ) {
                f.call(self);
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

        impl cipher::zeroize::ZeroizeOnDrop for $name {}
    };
}

define_tweakable!(
    /// SKINNY-64-128 with TK1 as a 64-bit tweak and TK2 as a 64-bit key.
    TweakableSkinny64_128, Variant::Skinny64_128, U8, U8
);
define_tweakable!(
    /// SKINNY-64-192 with TK1 as a 64-bit tweak and TK2 ‖ TK3 as a 128-bit key.
    TweakableSkinny64_192, Variant::Skinny64_192, U8, U16
);
define_tweakable!(
    /// SKINNY-128-256 with TK1 as a 128-bit tweak and TK2 as a 128-bit key.
    TweakableSkinny128_256, Variant::Skinny128_256, U16, U16
);
define_tweakable!(
    /// SKINNY-128-384 with TK1 as a 128-bit tweak and TK2 ‖ TK3 as a 256-bit key.
    TweakableSkinny128_384, Variant::Skinny128_384, U16, U32
);
