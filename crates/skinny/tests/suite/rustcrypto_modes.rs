//! The typed ciphers inside the RustCrypto mode crates (ctr, ecb, cbc, cfb-mode,
//! ofb) agree with the modes' textbook definitions over the run-time cipher, on
//! random keys, IVs and lengths; and the tweakable types agree with the plain
//! cipher under tweakey TK1 ‖ key.

use cipher::block_padding::Pkcs7;
use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, BlockModeDecrypt, BlockModeEncrypt, KeyInit, KeyIvInit,
    StreamCipher, TweakBlockCipherDecrypt, TweakBlockCipherEncrypt,
};
use proptest::prelude::*;
use skinny::{Skinny, Variant};
use skinny_test_support::textbook;

macro_rules! agreement {
    ($name:ident, $ty:ty, $ctr:ident) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
            #[test]
            fn $name(
                key in proptest::collection::vec(any::<u8>(), <$ty>::VARIANT.tweakey_bytes()),
                iv in proptest::collection::vec(any::<u8>(), <$ty>::VARIANT.block_bytes()),
                data in proptest::collection::vec(any::<u8>(), 0..700),
            ) {
                let dyn_c = Skinny::new(<$ty>::VARIANT, &key).unwrap();
                let bs = <$ty>::VARIANT.block_bytes();

                // CTR through the ctr crate.
                let mut buf = data.clone();
                ctr::$ctr::<$ty>::new_from_slices(&key, &iv).unwrap().apply_keystream(&mut buf);
                prop_assert_eq!(&buf, &textbook::ctr(&dyn_c, &iv, &data));

                // CBC with PKCS#7 through the cbc crate, both ways.
                let ct = cbc::Encryptor::<$ty>::new_from_slices(&key, &iv).unwrap().encrypt_padded_vec::<Pkcs7>(&data);
                prop_assert_eq!(&ct, &textbook::cbc_encrypt(&dyn_c, &iv, &textbook::pkcs7(&data, dyn_c.block_bytes())));
                let pt = cbc::Decryptor::<$ty>::new_from_slices(&key, &iv).unwrap().decrypt_padded_vec::<Pkcs7>(&ct).unwrap();
                prop_assert_eq!(&pt, &data);

                // ECB through the ecb crate (whole blocks).
                let whole = &data[..data.len() - data.len() % bs];
                let mut blocks = whole.to_vec();
                let (b, _) = Array::slice_as_chunks_mut(&mut blocks);
                ecb::Encryptor::<$ty>::new_from_slice(&key).unwrap().encrypt_blocks(b);
                let mut want = whole.to_vec();
                dyn_c.encrypt_blocks(&mut want);
                prop_assert_eq!(&blocks, &want);
                let (b, _) = Array::slice_as_chunks_mut(&mut blocks);
                ecb::Decryptor::<$ty>::new_from_slice(&key).unwrap().decrypt_blocks(b);
                prop_assert_eq!(&blocks[..], whole);

                // Full-block CFB through cfb-mode (any length, buffered).
                let mut buf = data.clone();
                cfb_mode::BufEncryptor::<$ty>::new_from_slices(&key, &iv).unwrap().encrypt(&mut buf);
                prop_assert_eq!(&buf, &textbook::cfb(&dyn_c, true, &iv, &data));
                cfb_mode::BufDecryptor::<$ty>::new_from_slices(&key, &iv).unwrap().decrypt(&mut buf);
                prop_assert_eq!(&buf, &data);

                // OFB through ofb.
                let mut buf = data.clone();
                ofb::Ofb::<$ty>::new_from_slices(&key, &iv).unwrap().apply_keystream(&mut buf);
                prop_assert_eq!(&buf, &textbook::ofb(&dyn_c, &iv, &data));

                // Single blocks through the traits.
                if data.len() >= bs {
                    let c = <$ty>::new_from_slice(&key).unwrap();
                    let mut blk = Array::try_from(&data[..bs]).unwrap();
                    c.encrypt_block(&mut blk);
                    let mut want = data[..bs].to_vec();
                    dyn_c.encrypt_block(&mut want);
                    prop_assert_eq!(blk.as_slice(), &want[..]);
                    c.decrypt_block(&mut blk);
                    prop_assert_eq!(blk.as_slice(), &data[..bs]);
                }
            }
        }
    };
}

agreement!(skinny64_64_modes, skinny::Skinny64_64, Ctr64BE);
agreement!(skinny64_128_modes, skinny::Skinny64_128, Ctr64BE);
agreement!(skinny64_192_modes, skinny::Skinny64_192, Ctr64BE);
agreement!(skinny128_128_modes, skinny::Skinny128_128, Ctr128BE);
agreement!(skinny128_256_modes, skinny::Skinny128_256, Ctr128BE);
agreement!(skinny128_384_modes, skinny::Skinny128_384, Ctr128BE);

macro_rules! tweakable {
    ($name:ident, $tw:ty, $variant:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]
            #[test]
            fn $name(tweakey in proptest::collection::vec(any::<u8>(), $variant.tweakey_bytes()),
                     block in proptest::collection::vec(any::<u8>(), $variant.block_bytes())) {
                let bs = $variant.block_bytes();
                let (tweak, key) = tweakey.split_at(bs);
                let tc = <$tw>::new_from_slice(key).unwrap();
                let tweak = Array::try_from(tweak).unwrap();
                let mut b = Array::try_from(block.as_slice()).unwrap();
                tc.encrypt_block(&tweak, &mut b);
                let mut want = block.clone();
                Skinny::new($variant, &tweakey).unwrap().encrypt_block(&mut want);
                prop_assert_eq!(b.as_slice(), &want[..]);
                tc.decrypt_block(&tweak, &mut b);
                prop_assert_eq!(b.as_slice(), &block[..]);
            }
        }
    };
}

tweakable!(tweakable64_128, skinny::TweakableSkinny64_128, Variant::Skinny64_128);
tweakable!(tweakable64_192, skinny::TweakableSkinny64_192, Variant::Skinny64_192);
tweakable!(tweakable128_256, skinny::TweakableSkinny128_256, Variant::Skinny128_256);
tweakable!(tweakable128_384, skinny::TweakableSkinny128_384, Variant::Skinny128_384);
