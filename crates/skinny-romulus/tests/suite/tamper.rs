//! Forgeries fail and release nothing: a flipped bit anywhere in the ciphertext,
//! the tag, the AD or the nonce, a wrong key, a truncated tag or a missing byte.
//! Each rejection is checked through every entry point: `Aead::decrypt` returns
//! an error; `decrypt_in_place` leaves the message part of the buffer all zero;
//! `decrypt_inout_detached` into another buffer leaves that buffer all zero and
//! the ciphertext untouched.

use skinny_romulus::aead::array::typenum::Unsigned;
use skinny_romulus::aead::inout::InOutBuf;
use skinny_romulus::aead::{Aead, AeadInOut, Key, KeyInit, Nonce, Payload, Tag};
use skinny_romulus::{RomulusM, RomulusN, RomulusT};

/// Deterministic test bytes (splitmix64).
fn bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

fn flip(data: &[u8], bit: usize) -> Vec<u8> {
    let mut v = data.to_vec();
    v[bit / 8] ^= 1 << (bit % 8);
    v
}

/// Decrypts `ct` (ciphertext ‖ tag) every way; returns whether it was accepted.
/// A rejection must leave no plaintext anywhere.
fn accepted<A: AeadInOut + Aead>(cipher: &A, nonce: &Nonce<A>, ad: &[u8], ct: &[u8]) -> bool {
    let tag_len = A::TagSize::USIZE;
    let vec_result = cipher.decrypt(nonce, Payload { msg: ct, aad: ad });

    let mut in_place = ct.to_vec();
    let in_place_result = cipher.decrypt_in_place(nonce, ad, &mut in_place);

    let mut inout_result = None;
    if ct.len() >= tag_len {
        let (body, tag) = ct.split_at(ct.len() - tag_len);
        let tag = Tag::<A>::try_from(tag).unwrap();
        let mut out = vec![0x55u8; body.len()];
        let r = cipher.decrypt_inout_detached(nonce, ad, InOutBuf::new(body, &mut out).unwrap(), &tag);
        if r.is_err() {
            assert!(out.iter().all(|&b| b == 0), "in-out: output wiped on failure");
        }
        inout_result = Some(r.is_ok());
    }

    let ok = vec_result.is_ok();
    assert_eq!(in_place_result.is_ok(), ok, "in place agrees with Vec");
    if let Some(r) = inout_result {
        assert_eq!(r, ok, "in-out agrees with Vec");
    }
    if !ok {
        // Nothing truncated, the message part wiped (the tag bytes stay).
        assert_eq!(in_place.len(), ct.len());
        let body = ct.len().saturating_sub(tag_len);
        assert!(in_place[..body].iter().all(|&b| b == 0), "in place: message part wiped on failure");
    }
    ok
}

fn forgeries<A: AeadInOut + Aead + KeyInit>(seed: u64) {
    let tag_len = A::TagSize::USIZE;
    let nonce_len = A::NonceSize::USIZE;
    for (i, &(pt_len, ad_len)) in [(0, 0), (0, 9), (5, 0), (16, 16), (21, 3), (40, 33)].iter().enumerate() {
        let s = seed + 100 * i as u64;
        let key_bytes = bytes(s, 16);
        let key = Key::<A>::try_from(&key_bytes[..]).unwrap();
        let nonce_bytes = bytes(s + 1, nonce_len);
        let nonce = Nonce::<A>::try_from(&nonce_bytes[..]).unwrap();
        let pt = bytes(s + 2, pt_len);
        let ad = bytes(s + 3, ad_len);
        let cipher = A::new(&key);
        let ct = cipher.encrypt(&nonce, Payload { msg: &pt, aad: &ad }).unwrap();
        assert_eq!(ct.len(), pt_len + tag_len);
        // The control: the genuine ciphertext is accepted and decrypts.
        assert!(accepted(&cipher, &nonce, &ad, &ct));
        assert_eq!(cipher.decrypt(&nonce, Payload { msg: &ct, aad: &ad }).unwrap(), pt);

        for bit in 0..ct.len() * 8 {
            assert!(!accepted(&cipher, &nonce, &ad, &flip(&ct, bit)), "ciphertext/tag bit {bit}");
        }
        for bit in 0..ad.len() * 8 {
            assert!(!accepted(&cipher, &nonce, &flip(&ad, bit), &ct), "AD bit {bit}");
        }
        // AD extended or cut by a byte.
        let mut longer = ad.clone();
        longer.push(0);
        assert!(!accepted(&cipher, &nonce, &longer, &ct), "AD with a zero byte appended");
        if !ad.is_empty() {
            assert!(!accepted(&cipher, &nonce, &ad[..ad.len() - 1], &ct), "AD cut short");
        }
        for bit in 0..nonce_len * 8 {
            let n = Nonce::<A>::try_from(&flip(&nonce_bytes, bit)[..]).unwrap();
            assert!(!accepted(&cipher, &n, &ad, &ct), "nonce bit {bit}");
        }
        for bit in 0..128 {
            let other = A::new(&Key::<A>::try_from(&flip(&key_bytes, bit)[..]).unwrap());
            assert!(!accepted(&other, &nonce, &ad, &ct), "key bit {bit}");
        }
        // Truncated: the tag cut by 1 .. all its bytes, and then some.
        for cut in 1..=ct.len() {
            assert!(!accepted(&cipher, &nonce, &ad, &ct[..ct.len() - cut]), "cut by {cut}");
        }
        // A ciphertext byte removed, or one inserted.
        if pt_len > 0 {
            let mut short = ct.clone();
            short.remove(0);
            assert!(!accepted(&cipher, &nonce, &ad, &short), "first byte removed");
        }
        let mut long = ct.clone();
        long.insert(0, 0);
        assert!(!accepted(&cipher, &nonce, &ad, &long), "a byte inserted");
    }
}

#[test]
fn forgeries_romulus_n() {
    forgeries::<RomulusN>(1);
}

#[test]
fn forgeries_romulus_m() {
    forgeries::<RomulusM>(2);
}

#[test]
fn forgeries_romulus_t() {
    forgeries::<RomulusT>(3);
}

/// The schemes are distinct: one (key, nonce, AD, message) gives three
/// different outputs, so a domain mix-up cannot hide behind another scheme.
#[test]
fn schemes_differ() {
    fn ct<A: Aead + KeyInit>() -> Vec<u8> {
        let cipher = A::new(&Key::<A>::try_from(&[3u8; 16][..]).unwrap());
        let nonce = Nonce::<A>::try_from(&[9u8; 16][..]).unwrap();
        cipher.encrypt(&nonce, Payload { msg: b"seventeen bytes!!", aad: b"ad" }).unwrap()
    }
    let all = [ct::<RomulusN>(), ct::<RomulusM>(), ct::<RomulusT>()];
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(all[i][..17], all[j][..17], "schemes {i} and {j}");
            assert_ne!(all[i][17..], all[j][17..], "tags of schemes {i} and {j}");
        }
    }
}
