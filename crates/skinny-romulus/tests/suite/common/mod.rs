//! The known-answer files of `tests/kat/` (README.md there names their source).

#![allow(dead_code)]

use std::path::PathBuf;

/// One case of an `LWC_AEAD_KAT` file.
pub struct AeadCase {
    pub count: usize,
    pub key: [u8; 16],
    pub nonce: [u8; 16],
    pub pt: Vec<u8>,
    pub ad: Vec<u8>,
    /// Ciphertext ‖ tag.
    pub ct: Vec<u8>,
}

/// One case of an `LWC_HASH_KAT` file.
pub struct HashCase {
    pub count: usize,
    pub msg: Vec<u8>,
    pub md: [u8; 32],
}

fn read(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/kat").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The `key = value` records of a KAT file, one map per blank-line-separated case.
fn records(text: &str) -> Vec<Vec<(String, String)>> {
    text.replace('\r', "")
        .split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            r.lines()
                .filter_map(|l| l.split_once('='))
                .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                .collect()
        })
        .collect()
}

fn field<'a>(record: &'a [(String, String)], name: &str) -> &'a str {
    record.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no {name}"))
}

fn bytes(record: &[(String, String)], name: &str) -> Vec<u8> {
    hex::decode(field(record, name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The cases of an AEAD file (`romulus-n.txt`, ...).
pub fn aead_cases(name: &str) -> Vec<AeadCase> {
    records(&read(name))
        .iter()
        .map(|r| AeadCase {
            count: field(r, "Count").parse().expect("Count"),
            key: bytes(r, "Key").try_into().expect("16-byte key"),
            nonce: bytes(r, "Nonce").try_into().expect("16-byte nonce"),
            pt: bytes(r, "PT"),
            ad: bytes(r, "AD"),
            ct: bytes(r, "CT"),
        })
        .collect()
}

/// The cases of the hash file.
pub fn hash_cases() -> Vec<HashCase> {
    records(&read("romulus-h.txt"))
        .iter()
        .map(|r| HashCase {
            count: field(r, "Count").parse().expect("Count"),
            msg: bytes(r, "Msg"),
            md: bytes(r, "MD").try_into().expect("32-byte digest"),
        })
        .collect()
}
