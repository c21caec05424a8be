//! The version-1 format: round trips at the chunk boundaries for every member,
//! the documented test vector (recomputed from the AEAD directly), header
//! changes and options; and what `damage` and `engine` share (a key, the
//! files they seal and open).

use super::members as all_members;
use skinny_aead::aead::{Aead, KeyInit, Payload};
use skinny_aead::SkinnyAeadM1;
use skinny_seal::{hazmat, OpenError, OpenOptions, Scheme, SealError, SealOptions, SealReport, SymmetricKey};

pub(super) const KEY: [u8; 16] = [0x42; 16];
/// A version-1 header's length.
pub(super) const HEADER_LEN: usize = 24;
/// Version 1's chunk sizes, as powers of two.
pub(super) const MIN_CHUNK_LOG2: u8 = 4;
pub(super) const MAX_CHUNK_LOG2: u8 = 24;

pub(super) fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

/// Version 1's options: a member and a chunk size.
pub(super) fn options(member: Scheme, chunk_log2: u8) -> SealOptions {
    SealOptions { scheme: member, chunk_log2, ..SealOptions::default() }
}

/// The nonce prefix every file here is sealed with (but where a test names one).
pub(super) fn prefix(member: Scheme) -> Vec<u8> {
    (0..member.nonce_len() - 5).map(|i| 0x70 + i as u8).collect()
}

pub(super) fn seal_v1(
    plain: impl std::io::Read + Send,
    out: impl std::io::Write + Send,
    o: &SealOptions,
    prefix: &[u8],
) -> Result<SealReport, SealError> {
    hazmat::seal_v1_with_prefix(plain, out, &KEY, o, prefix)
}

pub(super) fn seal_with(member: Scheme, log2: u8, plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let r = seal_v1(plain, &mut out, &options(member, log2), &prefix(member)).unwrap();
    assert_eq!(r.plaintext_bytes, plain.len() as u64);
    out
}

/// Opens a version-1 file under `key` (naming its member, read from the
/// header, so a 64-bit tag opens too).
pub(super) fn open_into(
    file: impl std::io::Read + Send,
    out: impl std::io::Write + Send,
    key: &[u8; 16],
    member: Option<Scheme>,
) -> Result<SealReport, OpenError> {
    let k = SymmetricKey::from_bytes(key).unwrap();
    let oo = OpenOptions { allow_short_tag_scheme: member, ..OpenOptions::default() };
    skinny_seal::open(file, out, &[&k], &oo)
}

/// The member a file's header names, if any.
pub(super) fn member_of(file: &[u8]) -> Option<Scheme> {
    file.get(11).and_then(|&id| Scheme::from_id(id))
}

pub(super) fn open(file: &[u8], key: &[u8; 16]) -> Result<Vec<u8>, OpenError> {
    let mut out = Vec::new();
    open_into(file, &mut out, key, member_of(file)).map(|_| out)
}

fn expected_len(member: Scheme, log2: u8, n: usize) -> usize {
    let cs = 1usize << log2;
    let chunks = if n == 0 { 1 } else { n.div_ceil(cs) };
    HEADER_LEN + n + chunks * member.tag_len()
}

#[test]
fn round_trips_at_every_boundary_for_every_member() {
    for member in all_members() {
        for log2 in [4u8, 6, 10] {
            let cs = 1usize << log2;
            for n in [0, 1, cs - 1, cs, cs + 1, 3 * cs, 3 * cs + 5, 40 * cs + 3] {
                let plain = data(n);
                let file = seal_with(member, log2, &plain);
                assert_eq!(file.len(), expected_len(member, log2, n), "{member:?} 2^{log2} {n}");
                assert_eq!(open(&file, &KEY).unwrap(), plain, "{member:?} 2^{log2} {n}");
            }
        }
    }
}

#[test]
fn default_options_and_a_large_input() {
    let plain = data((1 << 16) * 5 + 77);
    let file = seal_with(Scheme::M1, skinny_seal::format::DEFAULT_CHUNK_LOG2, &plain);
    assert_eq!(&file[..10], b"SKINNYSEAL");
    assert_eq!(file[12], 16);
    assert_eq!(open(&file, &KEY).unwrap(), plain);
}

#[test]
fn the_prefix_fills_the_header_field() {
    let a = seal_with(Scheme::M1, 4, b"same");
    assert_eq!(a[13..24], prefix(Scheme::M1)[..]);
    // 96-bit members: 7 bytes, then zeros.
    let c = seal_with(Scheme::M5, 4, b"same");
    assert_eq!((&c[13..20], &c[20..24]), (&prefix(Scheme::M5)[..], &[0u8, 0, 0, 0][..]));
}

const VECTOR: &str = "534b494e4e595345414c010104a0a1a2a3a4a5a6a7a8a9aa4376df7bf676be4b\
                      196e22136a382ace0a5a532ec2f6d73a0541369d923dde571e330aea81ec5db6\
                      3583ae3e1eb4e03459591281950341b8";

#[test]
fn the_documented_test_vector() {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let prefix: [u8; 11] = core::array::from_fn(|i| 0xa0 + i as u8);
    let plain = b"Sealed with SKINNY-AEAD!";
    let options = options(Scheme::M1, 4);
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix(&plain[..], &mut file, &key, &options, &prefix).unwrap();
    assert_eq!(hex::encode(&file), VECTOR);
    // The same bytes from the AEAD itself, by the format's definition.
    let header = &file[..HEADER_LEN];
    let aead = SkinnyAeadM1::new(&key.into());
    let mut expect = header.to_vec();
    for (i, (part, last)) in [(&plain[..16], 0u8), (&plain[16..], 1u8)].into_iter().enumerate() {
        let mut nonce = [0u8; 16];
        nonce[..11].copy_from_slice(&prefix);
        nonce[11..15].copy_from_slice(&(i as u32).to_be_bytes());
        nonce[15] = last;
        expect.extend(aead.encrypt(&nonce.into(), Payload { msg: part, aad: header }).unwrap());
    }
    assert_eq!(file, expect);
    assert_eq!(open(&file, &key).unwrap(), plain);
    // A prefix of the wrong length is refused.
    let e = hazmat::seal_v1_with_prefix(&plain[..], Vec::new(), &key, &options, &prefix[..7]).unwrap_err();
    assert!(matches!(e, SealError::InvalidOptions(_)), "{e}");
}

/// A file of three chunks of 16 bytes and a last one of 5, for the damage tests.
pub(super) fn small(member: Scheme) -> (Vec<u8>, Vec<u8>) {
    let plain = data(3 * 16 + 5);
    (seal_with(member, 4, &plain), plain)
}

#[test]
fn header_changes_and_wrong_keys_are_detected() {
    let (file, _) = small(Scheme::M1);
    let mut wrong = KEY;
    wrong[15] ^= 1;
    assert!(matches!(open(&file, &wrong), Err(OpenError::Authentication { chunk: 0 })));
    // Another valid member id, chunk size or version (3: version 2 is read
    // as a version-2 header).
    for (at, value) in [(11usize, 3u8), (12, 5), (10, 3), (0, b'X'), (11, 9), (12, 30)] {
        let mut bad = file.clone();
        bad[at] = value;
        let e = open(&bad, &KEY).unwrap_err();
        let ok = match at {
            0 => matches!(e, OpenError::NotSealed),
            10 => matches!(e, OpenError::UnsupportedVersion(3)),
            _ => matches!(e, OpenError::Authentication { .. } | OpenError::BadHeader(_)),
        };
        assert!(ok, "byte {at} = {value}: {e}");
    }
    // A 96-bit member's unused prefix bytes must be zero.
    let (mut m5, _) = small(Scheme::M5);
    m5[23] = 1;
    assert!(matches!(open(&m5, &KEY), Err(OpenError::BadHeader(_))));
    assert!(matches!(open(b"hello", &KEY), Err(OpenError::NotSealed)));
    assert!(matches!(open(b"SKINNY", &KEY), Err(OpenError::TruncatedHeader)));
    assert!(matches!(open(&file[..HEADER_LEN], &KEY), Err(OpenError::TruncatedInside)));
}

#[test]
fn bad_options_are_refused() {
    for log2 in [0u8, 3, 25] {
        let e = seal_v1(&b""[..], Vec::new(), &options(Scheme::M1, log2), &prefix(Scheme::M1));
        assert!(matches!(e, Err(SealError::InvalidOptions(_))));
    }
}
