//! The official known-answer tests of both members (tests/kat/README.md says
//! where the files come from): every case on the reference, on the hashers in
//! one call, and on the hashers fed in pieces (one byte, then blocks of
//! growing sizes), so that every case crosses rate boundaries at a different
//! place.

use skinny_hash::digest::{Digest, FixedOutputReset};
use skinny_hash::{spec, Member, SkinnyHash, SkinnyTk2Hash, SkinnyTk3Hash};

/// One `Count` / `Msg` / `MD` case.
struct Case {
    count: usize,
    msg: Vec<u8>,
    md: Vec<u8>,
}

/// Cases per file: every message length from 0 to 1024 bytes.
const CASES: usize = 1025;

fn load(dir: &str) -> Vec<Case> {
    let path = format!("{}/tests/kat/{dir}/LWC_HASH_KAT_256.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases = Vec::new();
    for record in text.split("\n\n").map(str::trim).filter(|r| !r.is_empty()) {
        let field = |name: &str| {
            record
                .lines()
                .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(" =")))
                .map(str::trim)
                .unwrap_or_else(|| panic!("{path}: no {name} in {record:?}"))
        };
        cases.push(Case {
            count: field("Count").parse().expect("Count"),
            msg: hex::decode(field("Msg")).expect("Msg hex"),
            md: hex::decode(field("MD")).expect("MD hex"),
        });
    }
    cases
}

/// Checks every case of `member` on all three routes; returns how many.
fn check<P: skinny_hash::parameters::Parameters>(dir: &str) -> usize {
    let member = SkinnyHash::<P>::MEMBER;
    let cases = load(dir);
    let mut reused = SkinnyHash::<P>::new();
    for (i, c) in cases.iter().enumerate() {
        let at = format!("{member} Count = {}", c.count);
        assert_eq!(c.count, i + 1, "{at}: numbering");
        assert_eq!(c.msg.len(), i, "{at}: message length");
        assert!(c.msg.iter().enumerate().all(|(j, &b)| b == j as u8), "{at}: the message is 00 01 02 ...");
        assert_eq!(hex::encode_upper(spec::hash(member, &c.msg)), hex::encode_upper(&c.md), "{at}: reference");
        assert_eq!(SkinnyHash::<P>::digest(&c.msg)[..], c.md, "{at}: one call");
        // Pieces of 1, 2, 3, ... bytes; the hasher reused after a reset.
        let mut rest = &c.msg[..];
        let mut size = 1;
        while !rest.is_empty() {
            let (piece, tail) = rest.split_at(size.min(rest.len()));
            Digest::update(&mut reused, piece);
            rest = tail;
            size += 1;
        }
        assert_eq!(reused.finalize_fixed_reset()[..], c.md, "{at}: in pieces");
    }
    cases.len()
}

#[test]
fn kat_skinny_tk3_hash() {
    assert_eq!(SkinnyTk3Hash::MEMBER, Member::Tk3);
    assert_eq!(check::<skinny_hash::parameters::Tk3>("skinnyhashtk3"), CASES);
}

#[test]
fn kat_skinny_tk2_hash() {
    assert_eq!(SkinnyTk2Hash::MEMBER, Member::Tk2);
    assert_eq!(check::<skinny_hash::parameters::Tk2>("skinnyhashtk2"), CASES);
}
