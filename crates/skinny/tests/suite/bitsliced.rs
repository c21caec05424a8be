//! The bitsliced paths against the portable specification code: every variant,
//! both directions, lengths from 0 to well past one batch (multiples of the batch
//! and not), on the portable-u64 path and, where the CPU has them, the AVX2 and
//! AVX-512 paths (a test of a path the CPU lacks says so on stderr and checks
//! that the path is refused).
//! Then RustCrypto CTR over the typed ciphers (whose parallel blocks go through
//! the bitsliced code) with counters that wrap inside a batch.

use cipher::{KeyIvInit, StreamCipher};
use skinny::hazmat::bitsliced::{Path, PathUnavailable};
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{BitslicedSkinny, Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

/// Block counts: empty, single, around the u64 batch (64), around the AVX2 batch
/// (256), around the AVX-512 batch (512), several batches with and without a tail.
const LENGTHS: [usize; 19] = [0, 1, 2, 3, 31, 63, 64, 65, 127, 128, 255, 256, 257, 511, 512, 513, 700, 1025, 1541];

fn spec_encrypt(c: &Skinny, data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    for b in out.chunks_exact_mut(c.block_bytes()) {
        spec::encrypt_block(c.variant().cell_width(), round_tweakeys(c), b);
    }
    out
}

fn spec_decrypt(c: &Skinny, data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    for b in out.chunks_exact_mut(c.block_bytes()) {
        spec::decrypt_block(c.variant().cell_width(), round_tweakeys(c), b);
    }
    out
}

fn check_path(path: Path, seed: u64) {
    let mut rng = Rng(seed);
    for v in Variant::ALL {
        for (round, &blocks) in LENGTHS.iter().enumerate() {
            let c = Skinny::new(v, &rng.bytes(v.tweakey_bytes())).expect("key length");
            let plain = rng.bytes(blocks * v.block_bytes());
            let want = spec_encrypt(&c, &plain);

            let mut got = plain.clone();
            c.encrypt_blocks_with(path, &mut got).expect("path available");
            assert_eq!(got, want, "{v} {path} encrypt {blocks} blocks (case {round})");

            let random_cipher = rng.bytes(blocks * v.block_bytes());
            let mut got = random_cipher.clone();
            c.decrypt_blocks_with(path, &mut got).expect("path available");
            assert_eq!(got, spec_decrypt(&c, &random_cipher), "{v} {path} decrypt {blocks} blocks");

            // The same with the masks kept in a `BitslicedSkinny` instead of built
            // per call.
            let kept = BitslicedSkinny::new(&c);
            let mut got = plain.clone();
            kept.encrypt_blocks_with(path, &mut got).expect("path available");
            assert_eq!(got, want, "{v} {path} kept masks, encrypt {blocks} blocks");
            let mut got = random_cipher.clone();
            kept.decrypt_blocks_with(path, &mut got).expect("path available");
            assert_eq!(got, spec_decrypt(&c, &random_cipher), "{v} {path} kept masks, decrypt {blocks} blocks");
        }
    }
}

#[test]
fn portable_u64_path_matches_spec() {
    check_path(Path::PortableU64, 1);
}

/// Runs [`check_path`] on `path`, or, on a CPU without it, says so and checks
/// that it is refused without touching the data.
fn check_path_where_available(path: Path, seed: u64) {
    if !path.is_available() {
        eprintln!("SKIPPED: this CPU cannot run the {path} path; it is not exercised here");
        let c = Skinny::new(Variant::Skinny64_64, &[0; 8]).expect("key length");
        let mut data = [7u8; 8];
        assert_eq!(c.encrypt_blocks_with(path, &mut data), Err(PathUnavailable(path)));
        assert_eq!(data, [7u8; 8], "untouched when the path is unavailable");
        return;
    }
    eprintln!("the {path} path runs on this CPU: checking it against the specification");
    check_path(path, seed);
}

#[test]
fn avx2_path_matches_spec_where_available() {
    check_path_where_available(Path::Avx2, 2);
}

#[test]
fn avx512_path_matches_spec_where_available() {
    check_path_where_available(Path::Avx512, 4);
}

#[test]
fn paths_by_name() {
    for path in Path::ALL {
        assert_eq!(Path::from_name(path.name()), Some(path));
        assert_eq!(Path::from_name(&path.name().to_uppercase()), Some(path));
    }
    assert_eq!(Path::from_name("avx1024"), None);
    assert!(Path::best().is_available());
}

#[test]
fn default_dispatch_matches_spec() {
    let mut rng = Rng(3);
    for v in Variant::ALL {
        let c = Skinny::new(v, &rng.bytes(v.tweakey_bytes())).expect("key length");
        for blocks in [0, 1, 4, 5, 258, 260, 261, 300, 516, 517, 1000] {
            let plain = rng.bytes(blocks * v.block_bytes());
            let mut data = plain.clone();
            c.encrypt_blocks(&mut data);
            assert_eq!(data, spec_encrypt(&c, &plain), "{v} {blocks} blocks");
            c.decrypt_blocks(&mut data);
            assert_eq!(data, plain, "{v} {blocks} blocks round trip");
            let kept = BitslicedSkinny::new(&c);
            kept.encrypt_blocks(&mut data);
            assert_eq!(data, spec_encrypt(&c, &plain), "{v} {blocks} blocks, kept masks");
            kept.decrypt_blocks(&mut data);
            assert_eq!(data, plain, "{v} {blocks} blocks round trip, kept masks");
        }
    }
}

/// Adds `n` to a big-endian counter the width of `ctr`, wrapping.
fn counter_plus(ctr: &[u8], n: u64) -> Vec<u8> {
    let mut out = ctr.to_vec();
    let mut carry = u128::from(n);
    for b in out.iter_mut().rev() {
        let s = u128::from(*b) + (carry & 0xff);
        *b = s as u8;
        carry = (carry >> 8) + (s >> 8);
    }
    out
}

/// CTR keystream block by block with the specification code: block `i` of the
/// keystream is E(counter + i), the counter taking the whole block (`full`) or its
/// last 64 bits only, with the nonce half unchanged.
fn spec_ctr(c: &Skinny, iv: &[u8], data: &[u8], counter_bytes: usize) -> Vec<u8> {
    let bs = c.block_bytes();
    let mut out = data.to_vec();
    for (i, chunk) in out.chunks_mut(bs).enumerate() {
        let mut block = iv.to_vec();
        let low = counter_plus(&iv[bs - counter_bytes..], i as u64);
        block[bs - counter_bytes..].copy_from_slice(&low);
        spec::encrypt_block(c.variant().cell_width(), round_tweakeys(c), &mut block);
        for (d, k) in chunk.iter_mut().zip(block) {
            *d ^= k;
        }
    }
    out
}

macro_rules! ctr_check {
    ($ty:ty, $flavor:ty, $counter_bytes:expr, $iv:expr, $seed:expr) => {{
        let mut rng = Rng($seed);
        let v = <$ty>::VARIANT;
        let key = rng.bytes(v.tweakey_bytes());
        let iv: Vec<u8> = $iv;
        // Whole batches, a batch and a bit, and a ragged byte length.
        for len in [0usize, 5, 256 * v.block_bytes(), 700 * v.block_bytes() + 3] {
            let data = rng.bytes(len);
            let mut got = data.clone();
            let mut stream = cipher::StreamCipherCoreWrapper::<ctr::CtrCore<$ty, $flavor>>::new(
                key.as_slice().try_into().expect("key"),
                iv.as_slice().try_into().expect("iv"),
            );
            stream.apply_keystream(&mut got);
            let c = Skinny::new(v, &key).expect("key length");
            assert_eq!(got, spec_ctr(&c, &iv, &data, $counter_bytes), "{} ctr {} bytes", v, len);
        }
    }};
}

/// An IV whose last 8 bytes are `low` and whose other bytes are `high_byte`.
fn iv_with_low(block: usize, high_byte: u8, low: u64) -> Vec<u8> {
    let mut iv = vec![high_byte; block];
    iv[block - 8..].copy_from_slice(&low.to_be_bytes());
    iv
}

#[test]
fn rustcrypto_ctr_wraps_inside_a_batch() {
    use skinny::*;
    // 128-bit blocks, 128-bit counter: the low 64 bits wrap after 100 blocks, in the
    // middle of the first 256-block batch, and carry into the high half.
    let near_wrap = u64::MAX - 99;
    ctr_check!(Skinny128_128, ctr::flavors::Ctr128BE, 16, iv_with_low(16, 0x00, near_wrap), 10);
    ctr_check!(Skinny128_256, ctr::flavors::Ctr128BE, 16, iv_with_low(16, 0x5a, near_wrap), 11);
    // The whole 128-bit counter wraps to zero too.
    ctr_check!(Skinny128_384, ctr::flavors::Ctr128BE, 16, iv_with_low(16, 0xff, near_wrap), 12);
    // 64-bit counter in the last half of a 128-bit block: wraps, the nonce half stays.
    ctr_check!(Skinny128_256, ctr::flavors::Ctr64BE, 8, iv_with_low(16, 0xa5, near_wrap), 13);
    // 64-bit blocks: the whole block is the counter and wraps to zero.
    ctr_check!(Skinny64_64, ctr::flavors::Ctr64BE, 8, iv_with_low(8, 0, near_wrap), 14);
    ctr_check!(Skinny64_128, ctr::flavors::Ctr64BE, 8, iv_with_low(8, 0, near_wrap), 15);
    ctr_check!(Skinny64_192, ctr::flavors::Ctr64BE, 8, iv_with_low(8, 0, u64::MAX - 3), 16);
}

/// The typed ciphers' many-block calls (which hand the bitsliced code whole
/// parallel-block batches, the rest one at a time) against `spec`,
/// both directions.
macro_rules! typed_many_blocks_check {
    ($ty:ty, $seed:expr) => {{
        use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
        let mut rng = Rng($seed);
        let v = <$ty>::VARIANT;
        let key = rng.bytes(v.tweakey_bytes());
        let typed = <$ty>::new(key.as_slice().try_into().expect("key"));
        let c = Skinny::new(v, &key).expect("key length");
        for blocks in [1usize, 255, 256, 511, 512, 513, 700, 1030] {
            let plain = rng.bytes(blocks * v.block_bytes());
            let mut arrays: Vec<_> =
                plain.chunks_exact(v.block_bytes()).map(|b| Array::try_from(b).expect("block")).collect();
            typed.encrypt_blocks(&mut arrays);
            let flat: Vec<u8> = arrays.iter().flat_map(|a| a.iter().copied()).collect();
            assert_eq!(flat, spec_encrypt(&c, &plain), "{} typed encrypt {} blocks", v, blocks);
            typed.decrypt_blocks(&mut arrays);
            let flat: Vec<u8> = arrays.iter().flat_map(|a| a.iter().copied()).collect();
            assert_eq!(flat, plain, "{} typed decrypt {} blocks", v, blocks);
        }
    }};
}

#[test]
fn typed_many_block_calls_match_spec() {
    use skinny::*;
    typed_many_blocks_check!(Skinny64_64, 20);
    typed_many_blocks_check!(Skinny64_128, 21);
    typed_many_blocks_check!(Skinny64_192, 22);
    typed_many_blocks_check!(Skinny128_128, 23);
    typed_many_blocks_check!(Skinny128_256, 24);
    typed_many_blocks_check!(Skinny128_384, 25);
}
