//! Hostile files: each is refused with one error, and nothing is released
//! but chunks that verified before the failure (none for a header failure).

use crate::common;
use common::*;
use skinny_aead::aead::{AeadInOut, KeyInit};
use skinny_seal::{hazmat, open, FileKey, OpenError, OpenOptions, OpenReader, Scheme, SealOptions, SeekableOpener};
use std::io::Read;

/// Opens `file` on every path; each must fail, the whole-stream path with
/// nothing written past `released` bytes. Returns the whole-stream error.
fn refuse(file: &[u8], oo: &OpenOptions, released: usize) -> OpenError {
    let k = key();
    let mut out = Vec::new();
    let e = open(file, &mut out, &[&k], oo).expect_err("opened a hostile file");
    assert!(out.len() <= released, "{e}: released {} bytes", out.len());
    let mut back = Vec::new();
    let r = OpenReader::new(file, &[&k], oo).map(|mut r| r.read_to_end(&mut back));
    assert!(matches!(r, Err(_) | Ok(Err(_))), "{e}: the reader took it");
    assert!(back.len() <= released);
    let r = SeekableOpener::new(std::io::Cursor::new(file), &[&k], oo).map(|mut s| s.read_to_end(&mut Vec::new()));
    assert!(matches!(r, Err(_) | Ok(Err(_))), "{e}: the seekable opener took it");
    e
}

fn m1_file(len: usize, options: &SealOptions) -> (Vec<u8>, Vec<u8>) {
    let msg = message(len, 11);
    (sealed_det(&msg, options, 1), msg)
}

#[test]
fn downgrade_is_refused() {
    let (file, _) = m1_file(3000, &seal_opts(Scheme::M1, 10));
    for id in [3u8, 4, 6, 2, 5, 7] {
        let mut bad = file.clone();
        bad[11] = id;
        let s = Scheme::from_id(id).unwrap();
        let e = refuse(&bad, &open_opts(s), 0);
        // The stanza's wrap has the header start as AD: it no longer opens.
        assert!(matches!(e, OpenError::NoMatchingIdentity), "relabelled to {}: {e}", s.name());
        if s.short_tag() {
            assert!(matches!(refuse(&bad, &OpenOptions::default(), 0), OpenError::ShortTagScheme(_)));
        }
    }
    // A 64-bit-tag file opens only when its scheme is named.
    let (m3, msg) = m1_file(100, &seal_opts(Scheme::M3, 10));
    assert!(matches!(refuse(&m3, &OpenOptions::default(), 0), OpenError::ShortTagScheme(Scheme::M3)));
    assert!(matches!(refuse(&m3, &open_opts(Scheme::M4), 0), OpenError::ShortTagScheme(Scheme::M3)));
    let mut back = Vec::new();
    open(&m3[..], &mut back, &[&key()], &open_opts(Scheme::M3)).unwrap();
    assert_eq!(back, msg);
    // A scheme expected and another found: refused from the header, on every
    // open path, before any byte is written.
    let (m1, _) = m1_file(3000, &seal_opts(Scheme::M1, 10));
    let expect_m2 = OpenOptions { expect_scheme: Some(Scheme::M2), ..OpenOptions::default() };
    let e = refuse(&m1, &expect_m2, 0);
    assert!(matches!(e, OpenError::OtherScheme { expected: Scheme::M2, found: Scheme::M1 }), "{e}");
}

#[test]
fn context_is_bound() {
    let ctx = |c: &[u8]| SealOptions { context: Some(c.to_vec()), ..seal_opts(Scheme::M1, 10) };
    let with = |c: &[u8]| OpenOptions { context: Some(c.to_vec()), ..OpenOptions::default() };
    let (a, msg) = m1_file(2500, &ctx(b"backup of /home, 2026-12-01"));
    let mut back = Vec::new();
    open(&a[..], &mut back, &[&key()], &with(b"backup of /home, 2026-12-01")).unwrap();
    assert_eq!(back, msg);
    assert!(matches!(refuse(&a, &with(b"backup of /home, 2026-11-01"), 0), OpenError::Authentication { chunk: 0 }));
    assert!(matches!(refuse(&a, &OpenOptions::default(), 0), OpenError::ContextRequired));
    // The empty context is a context.
    assert!(matches!(refuse(&a, &with(b""), 0), OpenError::Authentication { chunk: 0 }));
    let (plain, _) = m1_file(100, &seal_opts(Scheme::M1, 10));
    assert!(matches!(refuse(&plain, &with(b"x"), 0), OpenError::ContextNotBound));
    // Clearing or setting the flag changes the header start, the AD of every
    // stanza's wrap (and the MAC'd bytes).
    let mut cleared = a.clone();
    cleared[13] = 0;
    assert!(matches!(refuse(&cleared, &OpenOptions::default(), 0), OpenError::NoMatchingIdentity));
    let mut set = plain.clone();
    set[13] = 1;
    assert!(matches!(refuse(&set, &with(b""), 0), OpenError::NoMatchingIdentity));
}

#[test]
fn swapped_files_and_payloads_are_refused() {
    let opts = seal_opts(Scheme::M1, 10);
    let msg = message(2500, 4);
    let a = sealed_det(&msg, &opts, 1);
    let b = sealed_det(&msg, &opts, 2);
    // B's header with A's chunks: other AD, other payload key.
    let mut spliced = b[..ONE_KEY_HEADER].to_vec();
    spliced.extend_from_slice(&a[ONE_KEY_HEADER..]);
    assert!(matches!(refuse(&spliced, &OpenOptions::default(), 0), OpenError::Authentication { chunk: 0 }));
    // Swapping whole files under one context: a file sealed for another context fails.
    let c = |s: &[u8]| SealOptions { context: Some(s.to_vec()), ..opts.clone() };
    let other = sealed_det(&msg, &c(b"file B"), 2);
    let oo = OpenOptions { context: Some(b"file A".to_vec()), ..OpenOptions::default() };
    assert!(matches!(refuse(&other, &oo, 0), OpenError::Authentication { chunk: 0 }));
}

#[test]
fn a_reused_salt_still_gives_distinct_keys() {
    let salt = [7u8; 16];
    let (f1, f2) = (FileKey::from_bytes([1; 32]), FileKey::from_bytes([2; 32]));
    let pk = |fk: &FileKey, salt: &[u8; 16]| *hazmat::payload_key(fk, salt, Scheme::M1, 0, b"");
    assert_ne!(pk(&f1, &salt), pk(&f2, &salt));
    assert_ne!(pk(&f1, &salt), pk(&f1, &[8u8; 16]));
    assert_ne!(*hazmat::header_key(&f1, &salt), *hazmat::header_key(&f2, &salt));
    assert_ne!(*hazmat::header_key(&f1, &salt), *hazmat::header_key(&f1, &[8u8; 16]));
    // Per scheme, flags and context too.
    assert_ne!(pk(&f1, &salt), *hazmat::payload_key(&f1, &salt, Scheme::M3, 0, b""));
    assert_ne!(*hazmat::payload_key(&f1, &salt, Scheme::M1, 1, b""), pk(&f1, &salt));
    assert_ne!(
        *hazmat::payload_key(&f1, &salt, Scheme::M1, 1, b"a"),
        *hazmat::payload_key(&f1, &salt, Scheme::M1, 1, b"b")
    );
    // Two files sealed with the same salt and different file keys share no chunk bytes.
    let opts = seal_opts(Scheme::M1, 10);
    let msg = message(100, 1);
    let seal_with = |fk: &FileKey| {
        let start = hazmat::header_start(&opts, &salt);
        let st = hazmat::key_stanza_with_salt(&key(), fk, &start, &[1; 16]);
        let mut out = Vec::new();
        hazmat::seal_with_salt_and_file_key(&msg[..], &mut out, vec![st], fk, salt, &opts).unwrap();
        out
    };
    let (a, b) = (seal_with(&f1), seal_with(&f2));
    assert_ne!(a[ONE_KEY_HEADER..], b[ONE_KEY_HEADER..]);
}

#[test]
fn a_two_key_file_fails_the_header_mac() {
    let opts = seal_opts(Scheme::M1, 10);
    let salt = [3u8; 16];
    let (fk1, fk2) = (FileKey::from_bytes([1; 32]), FileKey::from_bytes([2; 32]));
    let start = hazmat::header_start(&opts, &salt);
    // Key A's stanza holds FK1 (the MAC's), key B's a second file key.
    let sa = hazmat::key_stanza_with_salt(&key(), &fk1, &start, &[4; 16]);
    let sb = hazmat::key_stanza_with_salt(&other_key(), &fk2, &start, &[5; 16]);
    let mut file = Vec::new();
    hazmat::seal_with_salt_and_file_key(&b"two faces"[..], &mut file, vec![sa, sb], &fk1, salt, &opts).unwrap();
    let mut out = Vec::new();
    open(&file[..], &mut out, &[&key()], &OpenOptions::default()).unwrap();
    assert_eq!(out, b"two faces");
    let mut out = Vec::new();
    let e = open(&file[..], &mut out, &[&other_key()], &OpenOptions::default()).unwrap_err();
    assert!(matches!(e, OpenError::HeaderMac), "{e}");
    assert!(out.is_empty());
}

#[test]
fn wrong_key_and_damaged_header_bytes() {
    let (file, _) = m1_file(100, &seal_opts(Scheme::M1, 10));
    let mut out = Vec::new();
    let e = open(&file[..], &mut out, &[&other_key()], &OpenOptions::default()).unwrap_err();
    assert!(matches!(e, OpenError::NoMatchingIdentity) && out.is_empty(), "{e}");
    // A changed MAC: the stanza opens, the MAC does not verify.
    let mut bad = file.clone();
    bad[ONE_KEY_HEADER - 1] ^= 0x80;
    assert!(matches!(refuse(&bad, &OpenOptions::default(), 0), OpenError::HeaderMac));
    // Every byte of the header, flipped: refused, nothing released.
    for i in 0..ONE_KEY_HEADER {
        let mut bad = file.clone();
        bad[i] ^= 0x01;
        refuse(&bad, &OpenOptions::default(), 0);
    }
}

/// Rewrites a header field of `file` (one key stanza) and says how it is refused.
fn with_byte(file: &[u8], at: usize, value: u8) -> OpenError {
    let mut bad = file.to_vec();
    bad[at] = value;
    refuse(&bad, &open_opts(Scheme::M3), 0)
}

#[test]
fn non_canonical_headers_are_refused() {
    let (file, _) = m1_file(100, &seal_opts(Scheme::M1, 10));
    assert!(matches!(with_byte(&file, 10, 3), OpenError::UnsupportedVersion(3)));
    assert!(matches!(with_byte(&file, 10, 0), OpenError::UnsupportedVersion(0)));
    for v in [0u8, 9, 255] {
        assert!(matches!(with_byte(&file, 11, v), OpenError::BadHeader(_)), "scheme {v}");
    }
    for v in [0u8, 9, 25, 255] {
        assert!(matches!(with_byte(&file, 12, v), OpenError::BadHeader(_)), "chunk {v}");
    }
    for v in [2u8, 0x80, 0xff] {
        assert!(matches!(with_byte(&file, 13, v), OpenError::BadHeader(_)), "flags {v}");
    }
    for v in [0u8, 65, 255] {
        assert!(matches!(with_byte(&file, 30, v), OpenError::BadHeader(_)), "count {v}");
    }
    // Two stanzas announced, one there: the MAC is read as a stanza.
    assert!(matches!(with_byte(&file, 30, 2), OpenError::BadHeader(_) | OpenError::TruncatedHeader));
    for v in [0u8, 4, 255] {
        assert!(matches!(with_byte(&file, 31, v), OpenError::BadHeader(_)), "kind {v}");
    }
    // Kind 1 with another kind's length, and lengths one off.
    assert!(matches!(with_byte(&file, 31, 3), OpenError::BadHeader(_)));
    for (hi, lo) in [(0u8, 63u8), (0, 65), (1, 64), (0xff, 0xff)] {
        let mut bad = file.clone();
        bad[32] = hi;
        bad[33] = lo;
        assert!(matches!(refuse(&bad, &OpenOptions::default(), 0), OpenError::BadHeader(_)));
    }
    // The same stanza twice; a passphrase stanza beside another.
    let stanza = file[31..31 + 67].to_vec();
    let twice = |second: &[u8]| {
        let mut bad = file[..30].to_vec();
        bad.push(2);
        bad.extend_from_slice(&stanza);
        bad.extend_from_slice(second);
        bad.extend_from_slice(&file[31 + 67..]);
        refuse(&bad, &OpenOptions::default(), 0)
    };
    assert!(matches!(twice(&stanza), OpenError::BadHeader(_)));
    let mut pass = vec![2u8, 0, 73];
    pass.extend_from_slice(&[0u8; 73]);
    assert!(matches!(twice(&pass), OpenError::BadHeader(_)));
    // Cut inside the header, at every length.
    for n in 0..ONE_KEY_HEADER {
        let e = refuse(&file[..n], &OpenOptions::default(), 0);
        assert!(matches!(e, OpenError::TruncatedHeader | OpenError::NotSealed), "cut at {n}: {e}");
    }
    assert!(matches!(refuse(b"not a sealed file at all", &OpenOptions::default(), 0), OpenError::NotSealed));
}

#[test]
fn truncation_at_every_chunk_boundary_and_extra_bytes() {
    let s = 1024;
    let (file, _) = m1_file(5 * s + 7, &seal_opts(Scheme::M1, 10));
    let piece = s + 16;
    for k in 0..6 {
        let cut = ONE_KEY_HEADER + k * piece;
        let e = refuse(&file[..cut], &OpenOptions::default(), k * s);
        match k {
            0 => assert!(matches!(e, OpenError::TruncatedInside), "{e}"),
            _ => assert!(matches!(e, OpenError::Truncated { chunks } if chunks == k as u64), "cut {k}: {e}"),
        }
        // And cut inside the chunk after it.
        let e = refuse(&file[..cut + 5], &OpenOptions::default(), k * s);
        assert!(matches!(e, OpenError::TruncatedInside | OpenError::Authentication { .. }), "{e}");
    }
    for extra in [&[0u8][..], &[0u8; 16], &file[ONE_KEY_HEADER..ONE_KEY_HEADER + piece]] {
        let mut bad = file.clone();
        bad.extend_from_slice(extra);
        let e = refuse(&bad, &OpenOptions::default(), file.len());
        assert!(matches!(e, OpenError::TrailingData { chunk: 5 } | OpenError::Authentication { .. }), "{e}");
    }
    // A flipped chunk byte.
    let mut bad = file.clone();
    bad[ONE_KEY_HEADER + 2 * piece + 3] ^= 1;
    assert!(matches!(refuse(&bad, &OpenOptions::default(), 2 * s), OpenError::Authentication { chunk: 2 }));
}

#[test]
fn an_empty_last_chunk_after_full_ones_is_refused() {
    // Made by hand from the specification: header, then chunk 0 (full, not
    // last) and chunk 1 (empty, last) under K_payload with AD = header MAC.
    let s = 1024;
    let opts = seal_opts(Scheme::M1, 10);
    let msg = message(s, 3);
    let full = sealed_det(&msg, &opts, 1);
    let header = &full[..ONE_KEY_HEADER];
    let mac = &header[ONE_KEY_HEADER - 32..];
    let pk = hazmat::payload_key(&FileKey::from_bytes([1; 32]), &[1 ^ 0x5a; 16], Scheme::M1, 0, b"");
    let aead = skinny_aead::SkinnyAeadM1::new(&(*pk).into());
    let chunk = |i: u32, last: bool, data: &[u8]| {
        let mut nonce = [0u8; 16];
        nonce[11..15].copy_from_slice(&i.to_be_bytes());
        nonce[15] = u8::from(last);
        let mut buf = data.to_vec();
        let tag = aead.encrypt_inout_detached(&nonce.into(), mac, buf.as_mut_slice().into()).unwrap();
        buf.extend_from_slice(&tag);
        buf
    };
    // The hand-made one-chunk file is the sealer's (the nonce and AD as specified).
    assert_eq!([header, &chunk(0, true, &msg)[..]].concat(), full);
    let bad = [header, &chunk(0, false, &msg)[..], &chunk(1, true, b"")[..]].concat();
    let e = refuse(&bad, &OpenOptions::default(), s);
    assert!(matches!(e, OpenError::EmptyLastChunk { chunk: 1 }), "{e}");
}
