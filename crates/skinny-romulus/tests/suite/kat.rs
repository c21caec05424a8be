//! Every known-answer test on the product code: each AEAD case encrypted (CT =
//! ciphertext ‖ tag) and decrypted through `Aead` (to a `Vec`) and `AeadInOut`
//! (in place and from one buffer to another); each hash case in one piece, byte
//! by byte, and through `finalize_reset`.

use crate::common;

use common::{aead_cases, hash_cases};
use skinny_romulus::aead::inout::InOutBuf;
use skinny_romulus::aead::{Aead, AeadInOut, KeyInit, Nonce, Payload, Tag};
use skinny_romulus::digest::{Digest, FixedOutputReset, Update};
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};

/// Checks every case of `file`; returns how many passed (all, or it panics).
fn check<A: AeadInOut + Aead + KeyInit>(file: &str) -> usize {
    let cases = aead_cases(file);
    let mut lengths = std::collections::BTreeSet::new();
    for c in &cases {
        let at = format!("{file} Count = {}", c.count);
        assert_eq!(c.ct.len(), c.pt.len() + 16, "{at}: CT length");
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
    assert_eq!(lengths.len(), 33 * 33, "{file}: distinct (PT, AD) lengths");
    cases.len()
}

#[test]
fn romulus_n_kats() {
    assert_eq!(check::<RomulusN>("romulus-n.txt"), 1089);
}

#[test]
fn romulus_m_kats() {
    assert_eq!(check::<RomulusM>("romulus-m.txt"), 1089);
}

#[test]
fn romulus_t_kats() {
    assert_eq!(check::<RomulusT>("romulus-t.txt"), 1089);
}

#[test]
fn romulus_h_kats() {
    let cases = hash_cases();
    let mut reused = RomulusH::new();
    for c in &cases {
        let at = format!("Count = {}", c.count);
        assert_eq!(hex::encode_upper(RomulusH::digest(&c.msg)), hex::encode_upper(c.md), "{at}");
        let mut h = RomulusH::default();
        for b in &c.msg {
            Update::update(&mut h, std::slice::from_ref(b));
        }
        assert_eq!(h.finalize()[..], c.md, "{at}: byte by byte");
        Update::update(&mut reused, &c.msg);
        assert_eq!(reused.finalize_fixed_reset()[..], c.md, "{at}: after a reset");
    }
    assert_eq!(cases.len(), 1025);
}

/// What generic code over `digest` asks of a hash besides its output
/// (`SimpleHmac` needs the block size): the 32-byte message block, the name.
#[test]
fn romulus_h_names_itself_and_its_block() {
    use skinny_romulus::digest::common::{AlgorithmName, BlockSizeUser};
    struct Name;
    impl std::fmt::Display for Name {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            RomulusH::write_alg_name(f)
        }
    }
    assert_eq!(RomulusH::block_size(), 32);
    assert_eq!(Name.to_string(), "Romulus-H");
}
