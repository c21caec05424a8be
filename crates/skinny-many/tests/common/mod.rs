//! What the tests share: the KAT parser, the single-message reference calls
//! (the product types of `skinny-romulus` and `skinny-aead`), and batch
//! helpers.

#![allow(dead_code)]

use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};
use skinny_aead::Member;
use skinny_many::{Batch, Scheme};

/// One known-answer case.
pub struct Case {
    pub count: usize,
    pub key: Vec<u8>,
    pub nonce: Vec<u8>,
    pub pt: Vec<u8>,
    pub ad: Vec<u8>,
    pub ct: Vec<u8>,
}

/// The cases of an `LWC_AEAD_KAT` file.
pub fn cases(text: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for record in text.split("\n\n").filter(|r| r.contains("Count")) {
        let field = |name: &str| -> &str {
            record
                .lines()
                .find_map(|l| l.strip_prefix(name).and_then(|r| r.trim_start().strip_prefix('=')))
                .map_or("", str::trim)
        };
        let bytes = |name: &str| hex::decode(field(name)).expect("hex");
        out.push(Case {
            count: field("Count").parse().expect("count"),
            key: bytes("Key"),
            nonce: bytes("Nonce"),
            pt: bytes("PT"),
            ad: bytes("AD"),
            ct: bytes("CT"),
        });
    }
    out
}

fn seal_with<A: AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], ad: &[u8], pt: &[u8]) -> Vec<u8> {
    let cipher = A::new_from_slice(key).expect("key");
    let mut out = pt.to_vec();
    let tag = cipher
        .encrypt_inout_detached(nonce.try_into().expect("nonce"), ad, InOutBuf::from(out.as_mut_slice()))
        .expect("seal");
    out.extend_from_slice(&tag);
    out
}

fn open_with<A: AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], ad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
    let cipher = A::new_from_slice(key).expect("key");
    let tag_len = ct.len().checked_sub(<A::TagSize as aead::array::typenum::Unsigned>::USIZE)?;
    let (body, tag) = ct.split_at(tag_len);
    let mut out = body.to_vec();
    cipher
        .decrypt_inout_detached(
            nonce.try_into().expect("nonce"),
            ad,
            InOutBuf::from(out.as_mut_slice()),
            tag.try_into().expect("tag"),
        )
        .ok()?;
    Some(out)
}

macro_rules! by_scheme {
    ($scheme:expr, $f:ident, $($arg:expr),*) => {
        match $scheme {
            Scheme::RomulusN => $f::<skinny_romulus::RomulusN>($($arg),*),
            Scheme::RomulusM => $f::<skinny_romulus::RomulusM>($($arg),*),
            Scheme::SkinnyAead(Member::M1) => $f::<skinny_aead::SkinnyAeadM1>($($arg),*),
            Scheme::SkinnyAead(Member::M2) => $f::<skinny_aead::SkinnyAeadM2>($($arg),*),
            Scheme::SkinnyAead(Member::M3) => $f::<skinny_aead::SkinnyAeadM3>($($arg),*),
            Scheme::SkinnyAead(Member::M4) => $f::<skinny_aead::SkinnyAeadM4>($($arg),*),
            Scheme::SkinnyAead(Member::M5) => $f::<skinny_aead::SkinnyAeadM5>($($arg),*),
            Scheme::SkinnyAead(Member::M6) => $f::<skinny_aead::SkinnyAeadM6>($($arg),*),
        }
    };
}

/// The single-message seal: ciphertext ‖ tag.
pub fn single_seal(scheme: Scheme, key: &[u8], nonce: &[u8], ad: &[u8], pt: &[u8]) -> Vec<u8> {
    by_scheme!(scheme, seal_with, key, nonce, ad, pt)
}

/// The single-message open: the plaintext, or `None` if not authentic.
pub fn single_open(scheme: Scheme, key: &[u8], nonce: &[u8], ad: &[u8], ct: &[u8]) -> Option<Vec<u8>> {
    by_scheme!(scheme, open_with, key, nonce, ad, ct)
}

/// A batch of the cases' plaintexts (`sealing`) or ciphertexts.
pub fn batch_of(scheme: Scheme, cases: &[Case], sealing: bool) -> Batch {
    let mut b = Batch::new(scheme);
    for c in cases {
        b.push(&c.key, &c.nonce, &c.ad, if sealing { &c.pt } else { &c.ct }).expect("lengths");
    }
    b
}
