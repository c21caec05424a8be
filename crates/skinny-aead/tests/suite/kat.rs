//! The NIST LWC known-answer tests of all six members (tests/data/README.md
//! says where the files come from): every case encrypted (CT = ciphertext ‖ tag)
//! and decrypted, through `Aead` (to a `Vec`) and `AeadInOut` (in place and
//! from one buffer to another).

use skinny_aead::aead::array::typenum::Unsigned;
use skinny_aead::aead::inout::InOutBuf;
use skinny_aead::aead::{Aead, AeadCore, AeadInOut, KeyInit, Nonce, Payload, Tag};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};

use crate::kat_files;
use kat_files::{load, parse, CASES};

/// Checks every case of `member`; returns how many passed (all, or it panics).
fn check<A: AeadInOut + Aead + KeyInit>(member: &str) -> usize {
    let cases = load(member);
    let tag_len = A::TagSize::USIZE;
    let mut lengths = std::collections::BTreeSet::new();
    for c in &cases {
        let at = format!("{member} Count = {}", c.count);
        assert_eq!(c.ct.len(), c.pt.len() + tag_len, "{at}: CT length");
        lengths.insert((c.pt.len(), c.ad.len()));
        let cipher = A::new_from_slice(&c.key).expect("key length");
        let nonce = Nonce::<A>::try_from(&c.nonce[..]).expect("nonce length");

        let ct = cipher.encrypt(&nonce, Payload { msg: &c.pt, aad: &c.ad }).unwrap();
        assert_eq!(hex::encode_upper(&ct), hex::encode_upper(&c.ct), "{at}: encrypt");
        let pt = cipher.decrypt(&nonce, Payload { msg: &c.ct, aad: &c.ad }).unwrap();
        assert_eq!(pt, c.pt, "{at}: decrypt");

        // In place, detached.
        let mut buf = c.pt.clone();
        let tag = cipher.encrypt_inout_detached(&nonce, &c.ad, buf.as_mut_slice().into()).unwrap();
        assert_eq!(buf, c.ct[..c.pt.len()], "{at}: encrypt in place");
        assert_eq!(tag[..], c.ct[c.pt.len()..], "{at}: detached tag");
        cipher.decrypt_inout_detached(&nonce, &c.ad, buf.as_mut_slice().into(), &tag).unwrap();
        assert_eq!(buf, c.pt, "{at}: decrypt in place");

        // From one buffer to another.
        let mut out = vec![0u8; c.pt.len()];
        let tag2 = cipher.encrypt_inout_detached(&nonce, &c.ad, InOutBuf::new(&c.pt, &mut out).unwrap()).unwrap();
        assert_eq!(out, c.ct[..c.pt.len()], "{at}: encrypt in-out");
        assert_eq!(tag2, tag);
        let mut back = vec![0u8; c.pt.len()];
        let tag = Tag::<A>::try_from(&c.ct[c.pt.len()..]).unwrap();
        cipher
            .decrypt_inout_detached(&nonce, &c.ad, InOutBuf::new(&c.ct[..c.pt.len()], &mut back).unwrap(), &tag)
            .unwrap();
        assert_eq!(back, c.pt, "{at}: decrypt in-out");
    }
    // The file covers every (PT, AD) length pair from 0 to 32 bytes.
    assert_eq!(lengths.len(), CASES, "{member}: distinct (PT, AD) lengths");
    cases.len()
}

fn nonce_len<A: AeadCore>() -> usize {
    A::NonceSize::USIZE
}

#[test]
fn kat_m1() {
    assert_eq!(nonce_len::<SkinnyAeadM1>(), 16);
    assert_eq!(check::<SkinnyAeadM1>("M1"), CASES);
}

#[test]
fn kat_m2() {
    assert_eq!(nonce_len::<SkinnyAeadM2>(), 12);
    assert_eq!(check::<SkinnyAeadM2>("M2"), CASES);
}

#[test]
fn kat_m3() {
    assert_eq!(nonce_len::<SkinnyAeadM3>(), 16);
    assert_eq!(check::<SkinnyAeadM3>("M3"), CASES);
}

#[test]
fn kat_m4() {
    assert_eq!(nonce_len::<SkinnyAeadM4>(), 12);
    assert_eq!(check::<SkinnyAeadM4>("M4"), CASES);
}

#[test]
fn kat_m5() {
    assert_eq!(nonce_len::<SkinnyAeadM5>(), 12);
    assert_eq!(check::<SkinnyAeadM5>("M5"), CASES);
}

#[test]
fn kat_m6() {
    assert_eq!(nonce_len::<SkinnyAeadM6>(), 12);
    assert_eq!(check::<SkinnyAeadM6>("M6"), CASES);
}

/// The parser itself: a truncated file, or one with a case missing, fails.
#[test]
fn parser_rejects_short_files() {
    let text =
        std::fs::read_to_string(format!("{}/tests/data/SKINNY-AEAD-M1.txt", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let cut = &text[..text.len() / 2];
    let cut = &cut[..cut.rfind("\n\n").unwrap()];
    assert!(parse(cut).len() < CASES);
    let broken = text.replacen("PT = \n", "", 1);
    assert!(std::panic::catch_unwind(|| parse(&broken)).is_err());
}
