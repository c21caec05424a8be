//! Version-1 files (written by earlier releases; here by
//! `hazmat::seal_v1_with_prefix`) open under their raw 16-byte key, on every
//! path, with the same policy on 64-bit tags; `format` checks the version-1
//! format itself (its test vector, header changes), `damage` every kind of
//! damage, `engine` the chunk engine's reads, writes, windows and threads.

use crate::common;
mod damage;
mod engine;
mod format;

use common::*;
use skinny_seal::{hazmat, open, OpenError, OpenOptions, OpenReader, Scheme, SeekableOpener, SymmetricKey};
use std::io::Read;

/// The SKINNY-AEAD schemes, the only ones of version 1.
fn members() -> impl Iterator<Item = Scheme> {
    Scheme::ALL.into_iter().filter(|s| s.id() <= 6)
}

/// `msg` sealed as a version-1 file under `raw`.
fn seal_v1(msg: &[u8], raw: &[u8; 16], scheme: Scheme, chunk_log2: u8) -> Vec<u8> {
    let prefix = vec![0x3c; scheme.nonce_len() - 5];
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix(msg, &mut file, raw, &seal_opts(scheme, chunk_log2), &prefix).unwrap();
    file
}

#[test]
fn v1_files_open_on_every_path() {
    let raw = [0x24u8; 16];
    let k = SymmetricKey::from_bytes(&raw).unwrap();
    for scheme in members() {
        for len in [0usize, 1, 1023, 1024, 1025, 5000] {
            let msg = message(len, 9);
            let file = seal_v1(&msg, &raw, scheme, 10);
            let oo = open_opts(scheme);
            let mut back = Vec::new();
            let r = open(&file[..], &mut back, &[&k], &oo).unwrap();
            assert_eq!((back.as_slice(), r.version), (&msg[..], 1));
            let mut back = Vec::new();
            OpenReader::new(&file[..], &[&k], &oo).unwrap().read_to_end(&mut back).unwrap();
            assert_eq!(back, msg);
            let mut back = Vec::new();
            SeekableOpener::new(std::io::Cursor::new(&file), &[&k], &oo).unwrap().read_to_end(&mut back).unwrap();
            assert_eq!(back, msg);
            if scheme.short_tag() {
                let e = open(&file[..], Vec::new(), &[&k], &OpenOptions::default()).unwrap_err();
                assert!(matches!(e, OpenError::ShortTagScheme(_)));
            }
        }
    }
    // A v1 file needs the raw 16-byte key; the wrong one fails its first chunk.
    let file = seal_v1(b"x", &raw, Scheme::M1, 16);
    let e = open(&file[..], Vec::new(), &[&key()], &OpenOptions::default()).unwrap_err();
    assert!(matches!(e, OpenError::V1NeedsRawKey), "{e}");
    let e = open(&file[..], Vec::new(), &[&SymmetricKey::from_bytes(&[1; 16]).unwrap()], &OpenOptions::default())
        .unwrap_err();
    assert!(matches!(e, OpenError::Authentication { chunk: 0 }), "{e}");
    let oo = OpenOptions { context: Some(b"c".to_vec()), ..OpenOptions::default() };
    assert!(matches!(open(&file[..], Vec::new(), &[&k], &oo), Err(OpenError::ContextNotBound)));
}

#[test]
fn v1_sealing_takes_only_what_version_1_holds() {
    let raw = [1u8; 16];
    let refused = |options: skinny_seal::SealOptions, prefix: &[u8]| {
        let mut out = Vec::new();
        let r = hazmat::seal_v1_with_prefix(&b"x"[..], &mut out, &raw, &options, prefix);
        matches!(r, Err(skinny_seal::SealError::InvalidOptions(_))) && out.is_empty()
    };
    assert!(refused(seal_opts(Scheme::RomulusN, 10), &[0; 11]), "Romulus");
    let context = skinny_seal::SealOptions { context: Some(Vec::new()), ..seal_opts(Scheme::M1, 10) };
    assert!(refused(context, &[0; 11]), "a context");
    assert!(refused(seal_opts(Scheme::M2, 10), &[0; 11]), "an 11-byte prefix for a 96-bit nonce");
}
