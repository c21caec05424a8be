//! Tweakable forms: TK1 is the per-call tweak, TK2 (‖ TK3) the key.
//!
//! The tweakey schedule is linear in each TK array, so the key's part of the
//! round tweakeys is expanded once and each call only adds TK1's part, which
//! needs no LFSR (just the cell permutation).
//!
//! These types keep the key part as round tweakeys (448 bytes) rather than
//! holding a [`crate::hazmat::single::FixedTweakeyPart`], whose split form for
//! 56 rounds (1.8 KiB) would break the 1 KiB bound on cipher values that mode
//! types embed (`tests/sizes.rs`); each call XORs TK1's part in and runs
//! [`crate::hazmat::single::encrypt_block`] (the split path for 8-bit cells).

use crate::spec::{self, tweakey::RoundTweakeys};
use crate::Variant;
use cipher::consts::{U16, U32, U8};
use cipher::{
    AlgorithmName, Block, BlockSizeUser, InOut, Key, KeyInit, KeySizeUser, Tweak, TweakBlockCipherDecBackend,
    TweakBlockCipherDecClosure, TweakBlockCipherDecrypt, TweakBlockCipherEncBackend, TweakBlockCipherEncClosure,
    TweakBlockCipherEncrypt, TweakSizeUser,
};

/// Round tweakeys of the key part (TK2, TK3) of a tweakable cipher.
#[derive(Clone)]
struct KeyPart {
    variant: Variant,
    rtk: RoundTweakeys,
}

impl KeyPart {
    fn new(variant: Variant, key: &[u8]) -> Self {
        let width = variant.cell_width();
        let mut rtk = RoundTweakeys::zero(variant.rounds());
        for z in 1..variant.tk_count() {
            let mut tk = spec::tweakey::load_tk(width, key, z - 1);
            rtk.xor_schedule_of(width, z, &mut tk);
        }
        Self { variant, rtk }
    }

    /// The full round tweakeys for one tweak (TK1).
    fn with_tweak(&self, tweak: &[u8]) -> RoundTweakeys {
        let width = self.variant.cell_width();
        let mut rtk = RoundTweakeys::zero(self.variant.rounds());
        let mut tk1 = spec::tweakey::load_tk(width, tweak, 0);
        rtk.xor_schedule_of(width, 0, &mut tk1);
        rtk.xor_assign(&self.rtk);
        rtk
    }
}

macro_rules! define_tweakable {
    ($(#[$doc:meta])* $name:ident, $variant:expr, $block:ty, $key:ty) => {
        $(#[$doc])*
        ///
        /// Tweak = TK1 (one block); key = TK2 ‖ TK3. Encrypting with tweak `T`
        /// under key `K` equals the plain cipher under tweakey `T ‖ K`.
        #[derive(Clone)]
        pub struct $name {
            key: KeyPart,
        }

        impl KeySizeUser for $name {
            type KeySize = $key;
        }

        impl KeyInit for $name {
            fn new(key: &Key<Self>) -> Self {
                Self { key: KeyPart::new($variant, key.as_slice()) }
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
                let rtk = self.key.with_tweak(tweak.as_slice());
                crate::hazmat::single::encrypt_block($variant.cell_width(), &rtk, block.into_out_with_copied_in());
            }
        }

        impl TweakBlockCipherDecBackend for $name {
            fn decrypt_block_inout(&self, tweak: &Tweak<Self>, block: InOut<'_, '_, Block<Self>>) {
                let rtk = self.key.with_tweak(tweak.as_slice());
                crate::hazmat::single::decrypt_block($variant.cell_width(), &rtk, block.into_out_with_copied_in());
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
