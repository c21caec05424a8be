//! Messages longer than the KATs' 32 bytes (which end after two blocks, inside
//! the first batch of the block engine): the crate against a plain
//! one-block-at-a-time transcription of the mode, written here on
//! `skinny::Skinny`, for lengths across several batches.

use skinny::{Skinny, Variant};
use skinny_aead::aead::array::typenum::Unsigned;
use skinny_aead::aead::{Aead, AeadCore, Key, KeyInit, Nonce, Payload};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};

fn bytes(seed: u8, n: usize) -> Vec<u8> {
    (0..n).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed) ^ (i >> 8) as u8).collect()
}

/// The mode, one block at a time. `tk3`: M1-M4 layout, else M5/M6.
fn reference(tk3: bool, prefix: u8, tag_len: usize, key: &[u8], nonce: &[u8], ad: &[u8], pt: &[u8]) -> Vec<u8> {
    let (variant, bits) = if tk3 { (Variant::Skinny128_384, 64) } else { (Variant::Skinny128_256, 24) };
    let enc = |counter: u64, domain: u8, block: &mut [u8]| {
        let mut tk = vec![0u8; variant.tweakey_bytes()];
        if tk3 {
            tk[..8].copy_from_slice(&counter.to_le_bytes());
            tk[15] = prefix | domain;
            tk[16..16 + nonce.len()].copy_from_slice(nonce);
            tk[32..].copy_from_slice(key);
        } else {
            tk[..3].copy_from_slice(&counter.to_le_bytes()[..3]);
            tk[3] = prefix | domain;
            tk[4..16].copy_from_slice(nonce);
            tk[16..].copy_from_slice(key);
        }
        Skinny::new(variant, &tk).unwrap().encrypt_block(block);
    };
    let next = |x: u64| {
        let top = x >> (bits - 1) & 1;
        let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
        ((x << 1) & mask) ^ (0x1b * top)
    };

    let mut out = Vec::new();
    let mut sum = [0u8; 16];
    let mut lfsr = 1u64;
    let mut blocks = pt.chunks_exact(16);
    for m in &mut blocks {
        sum.iter_mut().zip(m).for_each(|(s, b)| *s ^= b);
        let mut c = m.to_vec();
        enc(lfsr, 0, &mut c);
        out.extend_from_slice(&c);
        lfsr = next(lfsr);
    }
    let rest = blocks.remainder();
    let mut tag = if rest.is_empty() {
        enc(lfsr, 4, &mut sum);
        sum
    } else {
        let mut pad = [0u8; 16];
        enc(lfsr, 1, &mut pad);
        out.extend(rest.iter().zip(pad).map(|(m, p)| m ^ p));
        sum.iter_mut().zip(rest).for_each(|(s, b)| *s ^= b);
        sum[rest.len()] ^= 0x80;
        lfsr = next(lfsr);
        enc(lfsr, 5, &mut sum);
        sum
    };
    let mut lfsr = 1u64;
    let mut blocks = ad.chunks_exact(16);
    for a in &mut blocks {
        let mut b = a.to_vec();
        enc(lfsr, 2, &mut b);
        tag.iter_mut().zip(b).for_each(|(t, x)| *t ^= x);
        lfsr = next(lfsr);
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        let mut b = [0u8; 16];
        b[..rest.len()].copy_from_slice(rest);
        b[rest.len()] = 0x80;
        enc(lfsr, 3, &mut b);
        tag.iter_mut().zip(b).for_each(|(t, x)| *t ^= x);
    }
    out.extend_from_slice(&tag[..tag_len]);
    out
}

fn check<A: Aead + KeyInit + AeadCore>(tk3: bool, prefix: u8) {
    let tag_len = A::TagSize::USIZE;
    let key = bytes(1, 16);
    let nonce = bytes(2, A::NonceSize::USIZE);
    let cipher = A::new(&Key::<A>::try_from(&key[..]).unwrap());
    let n = Nonce::<A>::try_from(&nonce[..]).unwrap();
    // Around one batch (16 blocks), two, and a partial third.
    for len in [0, 255, 256, 257, 271, 272, 511, 512, 513, 16 * 37 + 5] {
        for ad_len in [0, 256, 300, 16 * 40] {
            let pt = bytes(3, len);
            let ad = bytes(4, ad_len);
            let want = reference(tk3, prefix, tag_len, &key, &nonce, &ad, &pt);
            let got = cipher.encrypt(&n, Payload { msg: &pt, aad: &ad }).unwrap();
            assert_eq!(got, want, "pt {len} bytes, AD {ad_len}");
            assert_eq!(cipher.decrypt(&n, Payload { msg: &got, aad: &ad }).unwrap(), pt);
        }
    }
}

#[test]
fn long_m1() {
    check::<SkinnyAeadM1>(true, 0x00);
}

#[test]
fn long_m4() {
    check::<SkinnyAeadM4>(true, 0x18);
}

#[test]
fn long_m5() {
    check::<SkinnyAeadM5>(false, 0x10);
}

#[test]
fn long_m6() {
    check::<SkinnyAeadM6>(false, 0x18);
}

/// The reference is itself right: it reproduces the last KAT case (Count =
/// 1089: 32-byte PT and AD, key and nonce 00 01 02 ..) of M1 and of M5.
#[test]
fn reference_matches_kat() {
    let k: Vec<u8> = (0..32).collect();
    let m1 = reference(true, 0, 16, &k[..16], &k[..16], &k, &k);
    assert_eq!(
        hex::encode_upper(m1),
        "241F0DAC2C5DDA488F0E68CADBF2CC9F67EF4064A3ED5F36CC0BA74D1927363534F280DC0720A01AE8A9C176EF641E49"
    );
    let m5 = reference(false, 0x10, 16, &k[..16], &k[..12], &k, &k);
    assert_eq!(
        hex::encode_upper(m5),
        "141DE4122F09D2E045E60CF3C96B1534A04A9135204535AE92BD5D11629F3C8F38403768F1F007648189C0B8C93CA5F8"
    );
}
