//! The single-block paths against the specification code: every variant, every
//! round count from 1 to the full one, both directions, random keys and blocks,
//! on every path this CPU has (a path it lacks must refuse and leave the block
//! alone). Then the public single-block entry points (`Skinny`, the RustCrypto
//! types, the tweakable types) against the specification.

use cipher::{
    Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit, TweakBlockCipherDecrypt, TweakBlockCipherEncrypt,
};
use skinny::hazmat::single::{self, Path, PathUnavailable};
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

fn spec_encrypt(c: &Skinny, block: &[u8]) -> Vec<u8> {
    let mut out = block.to_vec();
    spec::encrypt_block(c.variant().cell_width(), round_tweakeys(c), &mut out);
    out
}

fn spec_decrypt(c: &Skinny, block: &[u8]) -> Vec<u8> {
    let mut out = block.to_vec();
    spec::decrypt_block(c.variant().cell_width(), round_tweakeys(c), &mut out);
    out
}

/// Keys and blocks per (variant, round count).
const CASES: usize = 6;

fn check_path(path: Path, seed: u64) {
    let mut rng = Rng(seed);
    for v in Variant::ALL {
        let width = v.cell_width();
        for rounds in 1..=v.rounds() {
            for case in 0..CASES {
                let c = Skinny::with_rounds(v, &rng.bytes(v.tweakey_bytes()), rounds).expect("valid setup");
                let rtk = round_tweakeys(&c);
                let plain = rng.bytes(v.block_bytes());
                let mut got = plain.clone();
                single::encrypt_block_with(path, width, rtk, &mut got).expect("path available");
                assert_eq!(got, spec_encrypt(&c, &plain), "{v} {} rounds {rounds} case {case}: encrypt", path.name());
                single::decrypt_block_with(path, width, rtk, &mut got).expect("path available");
                assert_eq!(got, plain, "{v} {} rounds {rounds} case {case}: round trip", path.name());

                let other = rng.bytes(v.block_bytes());
                let mut got = other.clone();
                single::decrypt_block_with(path, width, rtk, &mut got).expect("path available");
                assert_eq!(got, spec_decrypt(&c, &other), "{v} {} rounds {rounds} case {case}: decrypt", path.name());
            }
        }
    }
}

#[test]
fn every_available_path_matches_the_specification() {
    for (i, path) in Path::ALL.into_iter().enumerate() {
        if path.is_available() {
            check_path(path, 0x5151_0000 + i as u64);
        } else {
            let c = Skinny::new(Variant::Skinny128_256, &[1; 32]).expect("key length");
            let mut block = [9u8; 16];
            let w = c.variant().cell_width();
            assert_eq!(single::encrypt_block_with(path, w, round_tweakeys(&c), &mut block), Err(PathUnavailable(path)));
            assert_eq!(single::decrypt_block_with(path, w, round_tweakeys(&c), &mut block), Err(PathUnavailable(path)));
            assert_eq!(block, [9u8; 16], "an unavailable path left the block alone");
        }
    }
}

#[test]
fn best_paths_are_available_and_as_documented() {
    assert!(Path::Portable.is_available());
    // 8-bit cells: the VBMI path, else the nibble-split path, else portable.
    let byte = Path::best_for(spec::CellWidth::Byte);
    let expected = if Path::Avx512Vbmi.is_available() {
        Path::Avx512Vbmi
    } else if Path::Ssse3Split.is_available() {
        Path::Ssse3Split
    } else {
        Path::Portable
    };
    assert_eq!(byte, expected);
    // 4-bit cells: the fastest available of the paths with their own 4-bit
    // code, i.e. every such path after it in `ALL` (slowest first) is
    // unavailable (the split path runs the SSSE3 code for 4-bit cells, the
    // VBMI path the AVX-512/GFNI code).
    let best = Path::best_for(spec::CellWidth::Nibble);
    assert!(best.is_available());
    let own_nibble_code = |p: &&Path| **p != Path::Ssse3Split && **p != Path::Avx512Vbmi;
    for &p in Path::ALL.iter().filter(own_nibble_code).skip_while(|&&p| p != best).skip(1) {
        assert!(!p.is_available(), "{} is available but best_for chose {}", p.name(), best.name());
    }
}

#[test]
fn skinny_single_blocks_match_the_specification() {
    let mut rng = Rng(0x5eed_0001);
    for v in Variant::ALL {
        for rounds in [1, 2, v.rounds() - 1, v.rounds()] {
            let c = Skinny::with_rounds(v, &rng.bytes(v.tweakey_bytes()), rounds).expect("valid setup");
            let plain = rng.bytes(v.block_bytes());
            let mut got = plain.clone();
            c.encrypt_block(&mut got);
            assert_eq!(got, spec_encrypt(&c, &plain), "{v} rounds {rounds}");
            c.decrypt_block(&mut got);
            assert_eq!(got, plain, "{v} rounds {rounds}");
        }
    }
}

macro_rules! check_typed {
    ($ty:ty, $rng:expr) => {{
        let v = <$ty>::VARIANT;
        let key = $rng.bytes(v.tweakey_bytes());
        let typed = <$ty>::new_from_slice(&key).expect("key length");
        let dynamic = Skinny::new(v, &key).expect("key length");
        let plain = $rng.bytes(v.block_bytes());
        let mut block = Array::try_from(plain.as_slice()).expect("block length");
        typed.encrypt_block(&mut block);
        assert_eq!(block.as_slice(), spec_encrypt(&dynamic, &plain), "{v} typed encrypt");
        typed.decrypt_block(&mut block);
        assert_eq!(block.as_slice(), plain, "{v} typed decrypt");
    }};
}

#[test]
fn typed_single_blocks_match_the_specification() {
    let mut rng = Rng(0x5eed_0002);
    for _ in 0..4 {
        check_typed!(skinny::Skinny64_64, rng);
        check_typed!(skinny::Skinny64_128, rng);
        check_typed!(skinny::Skinny64_192, rng);
        check_typed!(skinny::Skinny128_128, rng);
        check_typed!(skinny::Skinny128_256, rng);
        check_typed!(skinny::Skinny128_384, rng);
    }
}

macro_rules! check_tweakable {
    ($ty:ty, $v:expr, $rng:expr) => {{
        let v: Variant = $v;
        let bs = v.block_bytes();
        let key = $rng.bytes(v.tweakey_bytes() - bs);
        let tweak = $rng.bytes(bs);
        let cipher = <$ty>::new_from_slice(&key).expect("key length");
        let whole = Skinny::new(v, &[tweak.clone(), key.clone()].concat()).expect("tweakey length");
        let plain = $rng.bytes(bs);
        let tweak_arr = Array::try_from(tweak.as_slice()).expect("tweak length");
        let mut block = Array::try_from(plain.as_slice()).expect("block length");
        cipher.encrypt_block(&tweak_arr, &mut block);
        assert_eq!(block.as_slice(), spec_encrypt(&whole, &plain), "{v} tweakable encrypt");
        cipher.decrypt_block(&tweak_arr, &mut block);
        assert_eq!(block.as_slice(), plain, "{v} tweakable decrypt");
        let other = $rng.bytes(bs);
        let mut block = Array::try_from(other.as_slice()).expect("block length");
        cipher.decrypt_block(&tweak_arr, &mut block);
        assert_eq!(block.as_slice(), spec_decrypt(&whole, &other), "{v} tweakable decrypt of random data");
    }};
}

#[test]
fn tweakable_single_blocks_match_the_specification() {
    let mut rng = Rng(0x5eed_0003);
    for _ in 0..4 {
        check_tweakable!(skinny::TweakableSkinny64_128, Variant::Skinny64_128, rng);
        check_tweakable!(skinny::TweakableSkinny64_192, Variant::Skinny64_192, rng);
        check_tweakable!(skinny::TweakableSkinny128_256, Variant::Skinny128_256, rng);
        check_tweakable!(skinny::TweakableSkinny128_384, Variant::Skinny128_384, rng);
    }
}
