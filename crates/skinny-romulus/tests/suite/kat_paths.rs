//! Every known-answer test on every single-block path this CPU has, each
//! forced in turn (`hazmat::force_single_block_path`), seal and open. One test
//! in its own binary, since the forced path is process-wide.

use crate::common;

use common::{aead_cases, hash_cases};
use skinny_romulus::aead::{Aead, KeyInit, Nonce, Payload};
use skinny_romulus::digest::Digest;
use skinny_romulus::hazmat::{force_single_block_path, Path};
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};

fn check<A: Aead + KeyInit>(file: &str, path: Path) -> usize {
    let cases = aead_cases(file);
    for c in &cases {
        let at = format!("{file} Count = {} on {}", c.count, path.name());
        let cipher = A::new_from_slice(&c.key).expect("key length");
        let nonce = Nonce::<A>::try_from(&c.nonce[..]).expect("nonce length");
        let ct = cipher.encrypt(&nonce, Payload { msg: &c.pt, aad: &c.ad }).expect("seal");
        assert_eq!(ct, c.ct, "{at}: seal");
        let pt = cipher.decrypt(&nonce, Payload { msg: &c.ct, aad: &c.ad }).expect("open");
        assert_eq!(pt, c.pt, "{at}: open");
    }
    cases.len()
}

#[test]
fn every_kat_on_every_available_path() {
    let mut ran = 0;
    for path in Path::ALL {
        if force_single_block_path(Some(path)).is_err() {
            assert!(!path.is_available());
            continue;
        }
        assert_eq!(check::<RomulusN>("romulus-n.txt", path), 1089);
        assert_eq!(check::<RomulusM>("romulus-m.txt", path), 1089);
        assert_eq!(check::<RomulusT>("romulus-t.txt", path), 1089);
        for c in &hash_cases() {
            assert_eq!(RomulusH::digest(&c.msg)[..], c.md, "Romulus-H Count = {} on {}", c.count, path.name());
        }
        ran += 1;
    }
    force_single_block_path(None).expect("no path forced");
    assert!(ran >= 1, "the portable path at least");
}
