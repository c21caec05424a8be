//! The v2 test vectors of docs/sealed-format.md (copied in
//! tests/data/v2-vectors.txt): each file is rebuilt from its inputs with the
//! hazmat calls and must match byte for byte, and the document must hold
//! the same lines. `SKINNY_SEAL_PRINT_VECTORS=1` prints them instead.

use sha2::{Digest, Sha256};
use skinny_seal::{hazmat, open, FileKey, OpenOptions, Scheme, SealOptions, SymmetricKey};

struct Vector {
    name: &'static str,
    scheme: Scheme,
    context: Option<&'static [u8]>,
    plaintext: Vec<u8>,
    full: bool,
}

fn vectors() -> Vec<Vector> {
    vec![
        Vector {
            name: "m1-one-key",
            scheme: Scheme::M1,
            context: None,
            plaintext: b"attack at dawn".to_vec(),
            full: true,
        },
        Vector {
            name: "romulus-n-context",
            scheme: Scheme::RomulusN,
            context: Some(b"backup 2026-12-01"),
            plaintext: b"attack at dawn".to_vec(),
            full: true,
        },
        Vector {
            name: "m5-three-chunks",
            scheme: Scheme::M5,
            context: None,
            plaintext: (0..2500u32).map(|i| (i % 251) as u8).collect(),
            full: false,
        },
    ]
}

/// The vector's lines, computed.
fn compute(v: &Vector) -> Vec<String> {
    let user_key: Vec<u8> = (0u8..32).collect();
    let fk_bytes: [u8; 32] = core::array::from_fn(|i| 0x80 + i as u8);
    let salt: [u8; 16] = core::array::from_fn(|i| 0x40 + i as u8);
    let stanza_salt: [u8; 16] = core::array::from_fn(|i| 0x60 + i as u8);
    let options =
        SealOptions { scheme: v.scheme, chunk_log2: 10, context: v.context.map(<[u8]>::to_vec), input_len: None };
    let key = SymmetricKey::from_bytes(&user_key).unwrap();
    let fk = FileKey::from_bytes(fk_bytes);
    let start = hazmat::header_start(&options, &salt);
    let stanza = hazmat::key_stanza_with_salt(&key, &fk, &start, &stanza_salt);
    let mut file = Vec::new();
    hazmat::seal_with_salt_and_file_key(&v.plaintext[..], &mut file, vec![stanza], &fk, salt, &options).unwrap();
    // It opens, and to the plaintext.
    let oo = OpenOptions { context: options.context.clone(), allow_short_tag_scheme: None, expect_scheme: None };
    let mut back = Vec::new();
    open(&file[..], &mut back, &[&key], &oo).unwrap();
    assert_eq!(back, v.plaintext);
    let flags = u8::from(v.context.is_some());
    let pk = hazmat::payload_key(&fk, &salt, v.scheme, flags, v.context.unwrap_or_default());
    let mut lines = vec![
        format!("vector: {}", v.name),
        format!("scheme: {} (id {}), chunk_log2: 10", v.scheme.short_name(), v.scheme.id()),
        format!(
            "context: {}",
            v.context.map_or("(none)".to_string(), |c| format!(
                "{:?} (hex {})",
                String::from_utf8_lossy(c),
                hex::encode(c)
            ))
        ),
        format!("user_key: {}", hex::encode(&user_key)),
        format!("file_key: {}", hex::encode(fk_bytes)),
        format!("payload_salt: {}", hex::encode(salt)),
        format!("stanza_salt: {}", hex::encode(stanza_salt)),
        format!("k_header: {}", hex::encode(*hazmat::header_key(&fk, &salt))),
        format!("k_payload: {}", hex::encode(*pk)),
    ];
    if v.full {
        lines.push(format!("plaintext: {}", hex::encode(&v.plaintext)));
        lines.push(format!("file: {}", hex::encode(&file)));
    } else {
        lines.push(format!("plaintext: {} bytes, byte i = i mod 251", v.plaintext.len()));
        lines.push(format!("file_len: {}", file.len()));
        lines.push(format!("file_sha256: {}", hex::encode(Sha256::digest(&file))));
    }
    lines
}

#[test]
fn v2_vectors_reproduce() {
    let computed: Vec<String> = vectors().iter().flat_map(|v| compute(v).into_iter().chain([String::new()])).collect();
    if std::env::var_os("SKINNY_SEAL_PRINT_VECTORS").is_some() {
        println!("{}", computed.join("\n"));
        return;
    }
    let data = include_str!("../data/v2-vectors.txt");
    let stored: Vec<&str> = data.lines().collect();
    assert_eq!(stored.len(), computed.len(), "tests/data/v2-vectors.txt has another number of lines");
    for (s, c) in stored.iter().zip(&computed) {
        assert_eq!(s, c);
    }
    // The specification holds the same lines (where the repository is there).
    if let Ok(doc) = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/sealed-format.md")) {
        for line in computed.iter().filter(|l| !l.is_empty()) {
            assert!(doc.contains(line.as_str()), "docs/sealed-format.md lacks: {line}");
        }
    }
}
