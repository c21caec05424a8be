//! SKINNY itself on secret keys and blocks: every bitsliced path (whole
//! batches and a padded tail; one key for all blocks, a tweakey per block, a
//! TK1 per block), every single-block path, the fixed-tweakey-part calls,
//! the specification code, and the RustCrypto types on top.

use crate::secret::{bytes, public, same, secret, secret_copy};
use skinny::cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use skinny::cipher::{TweakBlockCipherDecrypt, TweakBlockCipherEncrypt};
use skinny::hazmat::bitsliced::{self, Direction, PerBlockTk1, PerBlockTweakeys};
use skinny::hazmat::single::{self, FixedTweakeyPart};
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{BitslicedSkinny, Skinny, Variant};

/// The bitsliced paths this CPU (or valgrind's CPU) runs.
pub fn bitsliced_paths() -> Vec<bitsliced::Path> {
    bitsliced::Path::ALL.into_iter().filter(|p| p.is_available()).collect()
}

/// The single-block paths this CPU (or valgrind's CPU) runs.
pub fn single_paths() -> Vec<single::Path> {
    single::Path::ALL.into_iter().filter(|p| p.is_available()).collect()
}

/// One key for all blocks: `Skinny::encrypt_blocks_with` (masks built per
/// call) and `BitslicedSkinny` (masks kept), a batch and one block more (the
/// padded tail), both ways; every path gives the same ciphertext.
pub fn bitsliced_one_key() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let bs = v.block_bytes();
        let c = Skinny::new(v, &secret(10 + i as u64, v.tweakey_bytes())).expect("tweakey length");
        let kept = BitslicedSkinny::new(&c);
        let plain = bytes(20 + i as u64, (bitsliced::Path::Avx512.batch_blocks() / 2 + 1) * bs);
        let mut first: Option<Vec<u8>> = None;
        for path in bitsliced_paths() {
            let n = (path.batch_blocks() + 1) * bs;
            let mut buf = secret_copy(&plain[..n.min(plain.len())]);
            c.encrypt_blocks_with(path, &mut buf).expect("available path");
            public(&buf);
            let mut again = secret_copy(&plain[..buf.len()]);
            kept.encrypt_blocks_with(path, &mut again).expect("available path");
            same(&again, &buf, "kept masks against masks per call");
            let common = first.get_or_insert_with(|| buf.clone()).len().min(buf.len());
            same(&buf[..common], &first.as_ref().expect("set")[..common], "paths differ");
            c.decrypt_blocks_with(path, &mut buf).expect("available path");
            same(&buf, &plain[..buf.len()], "bitsliced round trip");
            kept.decrypt_blocks_with(path, &mut again).expect("available path");
            same(&again, &plain[..again.len()], "bitsliced round trip, kept masks");
        }
        // The public entry points on the best path.
        let mut buf = secret_copy(&plain[..4 * bs]);
        c.encrypt_blocks(&mut buf);
        c.decrypt_blocks(&mut buf);
        same(&buf, &plain[..4 * bs], "encrypt_blocks round trip");
    }
}

/// A tweakey of its own for every block (`PerBlockTweakeys`) and a TK1 of
/// its own for every block (`PerBlockTk1`, with and without a base TK1, and
/// its LFSR counter form), on every path.
pub fn bitsliced_per_block() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let (bs, tk) = (v.block_bytes(), v.tweakey_bytes());
        for path in bitsliced_paths() {
            let n = path.batch_blocks() + 3;
            let seed = 100 * i as u64;
            let plain = bytes(seed + 1, n * bs);
            let tweakeys = secret(seed + 2, n * tk);
            let engine = PerBlockTweakeys::new(v, v.rounds()).expect("rounds").on_path(path).expect("path");
            let mut buf = secret_copy(&plain);
            engine.encrypt(&mut buf, &tweakeys);
            public(&buf);
            engine.decrypt(&mut buf, &tweakeys);
            same(&buf, &plain, "per-block tweakeys round trip");

            let key = secret(seed + 3, tk);
            let tk1s = secret(seed + 4, n * bs);
            for with_base in [false, true] {
                let engine = if with_base {
                    PerBlockTk1::with_base_tk1(v, v.rounds(), &key)
                } else {
                    PerBlockTk1::new(v, v.rounds(), &key)
                };
                let engine = engine.expect("setup").on_path(path).expect("path");
                let mut buf = secret_copy(&plain);
                engine.encrypt(&mut buf, &tk1s);
                public(&buf);
                engine.decrypt(&mut buf, &tk1s);
                same(&buf, &plain, "per-block TK1 round trip");
                if bs == 16 {
                    let mut buf = secret_copy(&plain);
                    let next = engine.crypt_lfsr(Direction::Encrypt, &mut buf, 1, 64);
                    public(&buf);
                    engine.crypt_lfsr(Direction::Decrypt, &mut buf, 1, 24);
                    public(&buf);
                    assert_ne!(next, 0);
                }
            }
        }
    }
}

/// Every single-block path, both ways, every variant; the public
/// single-block call (`Skinny::encrypt_block`, the best path) and the
/// specification code (the `cpu-serial` backend's) beside them.
pub fn single_block() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let c = Skinny::new(v, &secret(200 + i as u64, v.tweakey_bytes())).expect("tweakey length");
        let (w, rtk) = (v.cell_width(), round_tweakeys(&c));
        let plain = bytes(210 + i as u64, v.block_bytes());
        let mut want = secret_copy(&plain);
        spec::encrypt_block(w, rtk, &mut want);
        public(&want);
        for path in single_paths() {
            let mut b = secret_copy(&plain);
            single::encrypt_block_with(path, w, rtk, &mut b).expect("available path");
            same(&b, &want, "single-block path against the specification");
            single::decrypt_block_with(path, w, rtk, &mut b).expect("available path");
            same(&b, &plain, "single-block round trip");
        }
        let mut b = secret_copy(&plain);
        c.encrypt_block(&mut b);
        same(&b, &want, "Skinny::encrypt_block");
        spec::decrypt_block(w, rtk, &mut b);
        c.decrypt_block(&mut b);
        spec::encrypt_block(w, rtk, &mut b);
        same(&b, &plain, "specification and best path round trip");
    }
}

/// `single::encrypt_lanes`: one to four blocks under one whole tweakey
/// (secret, as a hash's state is), every tweakey size and path.
pub fn lanes() {
    for z in 1..=3usize {
        let tweakey = secret(250 + z as u64, 16 * z);
        let rounds = [40, 48, 56][z - 1];
        for n in 1..=single::MAX_LANES {
            let plain = bytes(260 + 10 * z as u64 + n as u64, 16 * n);
            let mut want = secret_copy(&plain);
            let (blocks, _) = want.as_chunks_mut::<16>();
            single::encrypt_lanes_with(single::Path::Portable, &tweakey, rounds, blocks).expect("a valid call");
            public(&want);
            for path in single_paths() {
                let mut b = secret_copy(&plain);
                let (blocks, _) = b.as_chunks_mut::<16>();
                single::encrypt_lanes_with(path, &tweakey, rounds, blocks).expect("available path");
                same(&b, &want, "lanes: paths differ");
            }
        }
    }
}

/// `FixedTweakeyPart`: the last arrays fixed (secret), the first given per
/// call (secret too here), on every single-block path and the default one.
pub fn fixed_tweakey_part() {
    for (i, v) in Variant::ALL.into_iter().enumerate() {
        let bs = v.block_bytes();
        for fixed_arrays in 0..v.tk_count() {
            let seed = 300 + 10 * i as u64 + fixed_arrays as u64;
            let fixed = secret(seed, fixed_arrays * bs);
            let part = FixedTweakeyPart::new(v, &fixed, v.rounds()).expect("fixed arrays fit");
            let per_call = secret(seed + 1, part.per_call_bytes());
            let plain = bytes(seed + 2, bs);
            let mut want = secret_copy(&plain);
            part.encrypt_block(&per_call, &mut want).expect("lengths");
            public(&want);
            for path in single_paths() {
                let mut b = secret_copy(&plain);
                part.encrypt_block_with(path, &per_call, &mut b).expect("available path");
                same(&b, &want, "fixed part: paths differ");
            }
            let mut b = want.clone();
            part.decrypt_block(&per_call, &mut b).expect("lengths");
            same(&b, &plain, "fixed part round trip");
        }
    }
}

/// The RustCrypto types: single blocks, parallel blocks, the tweakable types.
pub fn rustcrypto_types() {
    let key = secret(400, 32);
    let c = skinny::Skinny128_256::new_from_slice(&key).expect("key length");
    let plain = bytes(401, 16 * 40);
    let mut blocks: Vec<Array<u8, _>> = plain.chunks(16).map(|b| Array::try_from(b).expect("16 bytes")).collect();
    for b in &mut blocks {
        skinny::hazmat::ct::mark_secret(b);
    }
    c.encrypt_blocks(&mut blocks);
    c.encrypt_block(&mut blocks[0]);
    c.decrypt_block(&mut blocks[0]);
    c.decrypt_blocks(&mut blocks);
    let flat: Vec<u8> = blocks.iter().flat_map(|b| b.iter().copied()).collect();
    same(&flat, &plain, "RustCrypto round trip");

    let t = skinny::TweakableSkinny128_384::new_from_slice(&secret(402, 32)).expect("key length");
    let t64 = skinny::TweakableSkinny64_192::new_from_slice(&secret(403, 16)).expect("key length");
    let tweak = Array::try_from(&secret(404, 16)[..]).expect("16 bytes");
    let tweak64 = Array::try_from(&secret(405, 8)[..]).expect("8 bytes");
    let mut b = Array::try_from(&secret_copy(&plain[..16])[..]).expect("16 bytes");
    t.encrypt_block(&tweak, &mut b);
    public(&b);
    t.decrypt_block(&tweak, &mut b);
    same(&b, &plain[..16], "tweakable round trip");
    let mut b = Array::try_from(&secret_copy(&plain[..8])[..]).expect("8 bytes");
    t64.encrypt_block(&tweak64, &mut b);
    public(&b);
    t64.decrypt_block(&tweak64, &mut b);
    same(&b, &plain[..8], "tweakable 64 round trip");
}
