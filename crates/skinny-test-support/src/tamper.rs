//! Forgeries against any AEAD of the `aead` traits fail and release nothing:
//! a flipped bit anywhere in the ciphertext, the tag, the AD or the nonce, a
//! wrong key, a truncated tag or a missing byte. Each rejection is checked
//! through every entry point: `Aead::decrypt` returns an error;
//! `decrypt_in_place` leaves the message part of the buffer all zero;
//! `decrypt_inout_detached` into another buffer leaves that buffer all zero
//! and the ciphertext untouched.

use crate::rng::bytes;
use aead::array::typenum::Unsigned;
use aead::inout::InOutBuf;
use aead::{Aead, AeadInOut, Key, KeyInit, Nonce, Payload, Tag};

/// `data` with bit `bit` flipped.
pub fn flip(data: &[u8], bit: usize) -> Vec<u8> {
    let mut v = data.to_vec();
    v[bit / 8] ^= 1 << (bit % 8);
    v
}

/// Decrypts `ct` (ciphertext ‖ tag) every way; returns whether it was accepted.
/// A rejection must leave no plaintext anywhere.
pub fn accepted<A: AeadInOut + Aead>(cipher: &A, nonce: &Nonce<A>, ad: &[u8], ct: &[u8]) -> bool {
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

/// Every forgery of a few message and AD lengths from `seed`: each flipped
/// bit of the ciphertext, tag, AD, nonce and key, AD a byte longer or
/// shorter, every truncation, a byte removed or inserted; each must be
/// refused through every entry point ([`accepted`]), and the genuine
/// ciphertext accepted.
pub fn forgeries<A: AeadInOut + Aead + KeyInit>(seed: u64) {
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
