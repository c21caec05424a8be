//! Every known-answer test on the specification-style reference.

use crate::common;

use common::{aead_cases, hash_cases};
use skinny_romulus::reference::{romulus_h, romulus_m, romulus_n, romulus_t};

type Encrypt = fn(&[u8; 16], &[u8; 16], &[u8], &mut [u8]) -> [u8; 16];
type Decrypt = fn(&[u8; 16], &[u8; 16], &[u8], &mut [u8], &[u8]) -> Result<(), skinny_romulus::reference::Error>;

fn check(file: &str, encrypt: Encrypt, decrypt: Decrypt) -> usize {
    let cases = aead_cases(file);
    for c in &cases {
        let at = format!("{file} Count = {}", c.count);
        let mut buf = c.pt.clone();
        let tag = encrypt(&c.key, &c.nonce, &c.ad, &mut buf);
        assert_eq!(hex::encode_upper(&buf), hex::encode_upper(&c.ct[..c.pt.len()]), "{at}: ciphertext");
        assert_eq!(hex::encode_upper(tag), hex::encode_upper(&c.ct[c.pt.len()..]), "{at}: tag");
        decrypt(&c.key, &c.nonce, &c.ad, &mut buf, &tag).unwrap_or_else(|_| panic!("{at}: decrypt"));
        assert_eq!(buf, c.pt, "{at}: decrypt");
        let mut bad = tag;
        bad[0] ^= 1;
        let mut buf = c.ct[..c.pt.len()].to_vec();
        assert!(decrypt(&c.key, &c.nonce, &c.ad, &mut buf, &bad).is_err(), "{at}: forged tag");
        assert!(buf.iter().all(|&b| b == 0), "{at}: wiped on failure");
    }
    cases.len()
}

#[test]
fn romulus_n_kats() {
    assert_eq!(check("romulus-n.txt", romulus_n::encrypt, romulus_n::decrypt), 1089);
}

#[test]
fn romulus_m_kats() {
    assert_eq!(check("romulus-m.txt", romulus_m::encrypt, romulus_m::decrypt), 1089);
}

#[test]
fn romulus_t_kats() {
    assert_eq!(check("romulus-t.txt", romulus_t::encrypt, romulus_t::decrypt), 1089);
}

#[test]
fn romulus_h_kats() {
    let cases = hash_cases();
    for c in &cases {
        assert_eq!(hex::encode_upper(romulus_h::hash(&[&c.msg])), hex::encode_upper(c.md), "Count = {}", c.count);
        // The same input cut in two pieces hashes the same.
        let (a, b) = c.msg.split_at(c.msg.len() / 3);
        assert_eq!(romulus_h::hash(&[a, b]), c.md, "Count = {} in two pieces", c.count);
    }
    assert_eq!(cases.len(), 1025);
}
