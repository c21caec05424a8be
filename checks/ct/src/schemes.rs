//! The schemes on secret keys, plaintexts and associated data: every
//! SKINNY-AEAD member, Romulus-N, -M, -T (on every single-block path) and
//! -H, and SKINNY-tk2/tk3-Hash. Each AEAD seals, opens what it sealed, and
//! refuses a changed tag (the verdict is declassified by the schemes
//! themselves, `skinny::hazmat::ct::declassify`: the caller learns it).

use crate::cipher::single_paths;
use crate::secret::{bytes, public, same, secret, secret_copy};
use aead::{AeadInOut, KeyInit, Nonce};
use digest::Digest;
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};

/// Message lengths: empty, partial and whole blocks, and (at 4 KiB and
/// more) enough blocks for a whole bitsliced batch in SKINNY-AEAD.
const LENGTHS: [usize; 6] = [0, 1, 16, 33, 200, 4200];

/// Seal, open, open with a changed tag (refused, output wiped).
fn seal_open_refuse<A: AeadInOut + KeyInit>(seed: u64, lengths: &[usize]) {
    let key = secret(seed, A::key_size());
    let c = A::new_from_slice(&key).expect("key length");
    for (i, &len) in lengths.iter().enumerate() {
        let s = seed + 10 * i as u64;
        let mut nonce = Nonce::<A>::default();
        let n = nonce.len();
        nonce.copy_from_slice(&bytes(s + 1, n));
        let ad = secret(s + 2, len % 37);
        let plain = bytes(s + 3, len);
        let mut buf = secret_copy(&plain);
        let tag = c.encrypt_inout_detached(&nonce, &ad, buf.as_mut_slice().into()).expect("lengths");
        public(&buf);
        public(&tag);
        let sealed = buf.clone();
        c.decrypt_inout_detached(&nonce, &ad, buf.as_mut_slice().into(), &tag).expect("the tag it made");
        same(&buf, &plain, "open");
        let mut bad = tag.clone();
        let at = len % bad.len();
        bad[at] ^= 0x10;
        let mut buf = sealed;
        assert!(c.decrypt_inout_detached(&nonce, &ad, buf.as_mut_slice().into(), &bad).is_err(), "changed tag");
        same(&buf, &vec![0; len], "refused output wiped");
    }
}

/// SKINNY-AEAD M1-M6.
pub fn skinny_aead() {
    seal_open_refuse::<SkinnyAeadM1>(1000, &LENGTHS);
    seal_open_refuse::<SkinnyAeadM2>(1100, &LENGTHS);
    seal_open_refuse::<SkinnyAeadM3>(1200, &LENGTHS);
    seal_open_refuse::<SkinnyAeadM4>(1300, &LENGTHS);
    seal_open_refuse::<SkinnyAeadM5>(1400, &LENGTHS);
    seal_open_refuse::<SkinnyAeadM6>(1500, &LENGTHS);
}

/// Romulus-N, -M, -T and -H on `skinny`'s own path choice, then forced onto
/// every single-block path.
pub fn romulus() {
    let lengths = &LENGTHS[..5];
    let forced = single_paths().into_iter().map(Some);
    for (i, path) in std::iter::once(None).chain(forced).enumerate() {
        skinny_romulus::hazmat::force_single_block_path(path).expect("available path");
        let seed = 2000 + 100 * i as u64;
        seal_open_refuse::<RomulusN>(seed, lengths);
        seal_open_refuse::<RomulusM>(seed + 30, lengths);
        seal_open_refuse::<RomulusT>(seed + 60, lengths);
        for len in [0, 31, 32, 100] {
            let digest = RomulusH::digest(secret(seed + 90 + len as u64, len));
            public(&digest);
        }
    }
    skinny_romulus::hazmat::force_single_block_path(None).expect("no path forced");
}

/// SKINNY-tk3-Hash and SKINNY-tk2-Hash, whole and in pieces.
pub fn skinny_hash() {
    for len in [0, 1, 16, 31, 32, 100] {
        let m = secret(3000 + len as u64, len);
        let d3 = skinny_hash::SkinnyTk3Hash::digest(&m);
        public(&d3);
        let d2 = skinny_hash::SkinnyTk2Hash::digest(&m);
        public(&d2);
        let mut h = skinny_hash::SkinnyTk2Hash::new();
        for piece in m.chunks(7) {
            h.update(piece);
        }
        same(&h.finalize(), &d2, "tk2 in pieces");
    }
}
