//! What the tests share: keys, options, deterministic files, messages.
#![allow(dead_code)]

use skinny_seal::{hazmat, FileKey, OpenOptions, Scheme, SealOptions, SymmetricKey};

pub fn key() -> SymmetricKey {
    SymmetricKey::from_bytes(&[0x42; 32]).expect("32 bytes")
}

pub fn other_key() -> SymmetricKey {
    SymmetricKey::from_bytes(&[0x43; 32]).expect("32 bytes")
}

pub fn message(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

pub fn seal_opts(scheme: Scheme, chunk_log2: u8) -> SealOptions {
    SealOptions { scheme, chunk_log2, ..SealOptions::default() }
}

/// Options that open `scheme` (naming it when its tag is 64 bits).
pub fn open_opts(scheme: Scheme) -> OpenOptions {
    OpenOptions { allow_short_tag_scheme: scheme.short_tag().then_some(scheme), ..OpenOptions::default() }
}

/// A file sealed deterministically under `key()` (file key and salts from `seed`).
pub fn sealed_det(msg: &[u8], options: &SealOptions, seed: u8) -> Vec<u8> {
    let fk = FileKey::from_bytes([seed; 32]);
    let salt = [seed ^ 0x5a; 16];
    let start = hazmat::header_start(options, &salt);
    let stanza = hazmat::key_stanza_with_salt(&key(), &fk, &start, &[seed ^ 0xa5; 16]);
    let mut out = Vec::new();
    hazmat::seal_with_salt_and_file_key(msg, &mut out, vec![stanza], &fk, salt, options).expect("seal");
    out
}

/// The header length of a file with one key stanza.
pub const ONE_KEY_HEADER: usize = 30 + 1 + 3 + 64 + 32;
