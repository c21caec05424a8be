//! The GPU engine (`gpu::GpuMany`, feature `cuda`) against the single-message
//! Romulus types: every official KAT of Romulus-N and -M sealed and opened as
//! one batch, random batches of mixed lengths (0 to 4 KiB of AD and of
//! message) through all three paths (host, device, page-locked), and tampered
//! messages that fail alone. Skips with a line where there is no GPU; fails
//! instead when `SKINNY_REQUIRE_GPU=1`.
#![cfg(feature = "cuda")]

use skinny_many::gpu::{GpuMany, GpuManyError, Pass};
use skinny_many::{Batch, MessageError, Output, Scheme};
use skinny_romulus::aead::{AeadInOut, KeyInit};
use skinny_romulus::{RomulusM, RomulusN};
use skinny_test_support::rng::SplitMix64 as Rng;

/// The KAT files of `skinny-romulus` (tests/kat/README.md there names their
/// source), embedded so that the test binary runs anywhere.
const KAT_N: &str = include_str!("../../skinny-romulus/tests/kat/romulus-n.txt");
const KAT_M: &str = include_str!("../../skinny-romulus/tests/kat/romulus-m.txt");

fn engine() -> Option<GpuMany> {
    skinny_test_support::gpu::or_skip(|| GpuMany::new(0))
}

/// The CPU type's ciphertext ‖ tag.
fn cpu_seal(scheme: Scheme, key: &[u8], nonce: &[u8], ad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut buf = msg.to_vec();
    let nonce = nonce.try_into().expect("16-byte nonce");
    let tag = match scheme {
        Scheme::RomulusN => {
            RomulusN::new_from_slice(key).expect("key").encrypt_inout_detached(nonce, ad, buf.as_mut_slice().into())
        }
        Scheme::RomulusM => {
            RomulusM::new_from_slice(key).expect("key").encrypt_inout_detached(nonce, ad, buf.as_mut_slice().into())
        }
        Scheme::SkinnyAead(_) => unreachable!("Romulus only"),
    }
    .expect("length");
    buf.extend_from_slice(&tag);
    buf
}

/// (key, nonce, pt, ad, ct ‖ tag) of a KAT case.
type Case = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

fn kat_cases(text: &str) -> Vec<Case> {
    text.replace('\r', "")
        .split("\n\n")
        .filter(|r| !r.trim().is_empty())
        .map(|r| {
            let field = |name: &str| {
                let v = r
                    .lines()
                    .filter_map(|l| l.split_once('='))
                    .find(|(k, _)| k.trim() == name)
                    .map(|(_, v)| v.trim())
                    .unwrap_or_else(|| panic!("no {name}"));
                hex::decode(v).expect("hex")
            };
            (field("Key"), field("Nonce"), field("PT"), field("AD"), field("CT"))
        })
        .collect()
}

/// Every message as wanted (`None`: refused as forged).
fn assert_messages(out: &Output, want: &[Option<Vec<u8>>], what: &str) {
    assert_eq!(out.len(), want.len(), "{what}: message count");
    for (i, w) in want.iter().enumerate() {
        match w {
            Some(bytes) => assert_eq!(out.message(i), Ok(&bytes[..]), "{what}: message {i}"),
            None => assert_eq!(out.message(i), Err(MessageError::Forged), "{what}: message {i}"),
        }
    }
}

#[test]
fn every_kat_seals_and_opens_as_one_batch() {
    let Some(gpu) = engine() else { return };
    for (scheme, text) in [(Scheme::RomulusN, KAT_N), (Scheme::RomulusM, KAT_M)] {
        let cases = kat_cases(text);
        assert_eq!(cases.len(), 1089, "{scheme}: every case");
        let mut plain = Batch::new(scheme);
        let mut sealed = Batch::new(scheme);
        for (key, nonce, pt, ad, ct) in &cases {
            plain.push(key, nonce, ad, pt).expect("lengths");
            sealed.push(key, nonce, ad, ct).expect("lengths");
        }
        let want_ct: Vec<_> = cases.iter().map(|c| Some(c.4.clone())).collect();
        let want_pt: Vec<_> = cases.iter().map(|c| Some(c.2.clone())).collect();
        assert_messages(&gpu.seal(&plain).expect("seal"), &want_ct, &format!("{scheme} KAT seal"));
        assert_messages(&gpu.open(&sealed).expect("open"), &want_pt, &format!("{scheme} KAT open"));
    }
}

/// A sealed batch and what each message must give.
struct RandomBatch {
    plain: Batch,
    cts: Vec<Option<Vec<u8>>>,
    sealed: Batch,
    pts: Vec<Option<Vec<u8>>>,
}

/// A random batch (lengths 0 to 4 KiB, often the same so that classes fill
/// their 32 lanes), its CPU ciphertexts, and the sealed batch with every
/// seventh message altered and one too short for a tag (refused).
fn random_batches(scheme: Scheme, n: usize, seed: u64) -> RandomBatch {
    let mut rng = Rng(seed);
    let mut plain = Batch::new(scheme);
    let mut sealed = Batch::new(scheme);
    let (mut cts, mut pts) = (Vec::new(), Vec::new());
    for i in 0..n {
        let len = |rng: &mut Rng| match rng.next() % 4 {
            0 => (rng.next() % 4097) as usize,
            1 => (rng.next() % 3) as usize * 16,
            _ => (rng.next() % 40) as usize,
        };
        let (ad_len, msg_len) = (len(&mut rng), len(&mut rng));
        let (key, nonce, ad, msg) = (rng.bytes(16), rng.bytes(16), rng.bytes(ad_len), rng.bytes(msg_len));
        let ct = cpu_seal(scheme, &key, &nonce, &ad, &msg);
        plain.push(&key, &nonce, &ad, &msg).expect("lengths");
        let mut bad = ct.clone();
        let tamper = i % 7 == 3;
        if tamper {
            let at = (rng.next() as usize) % bad.len();
            bad[at] ^= 1 << (rng.next() % 8);
        }
        sealed.push(&key, &nonce, &ad, &bad).expect("lengths");
        cts.push(Some(ct));
        pts.push(if tamper { None } else { Some(msg) });
    }
    sealed.push(&[1; 16], &[2; 16], b"ad", &[3; 15]).expect("lengths");
    pts.push(None);
    RandomBatch { plain, cts, sealed, pts }
}

#[test]
fn random_batches_match_the_cpu_on_every_path() {
    let Some(gpu) = engine() else { return };
    for scheme in [Scheme::RomulusN, Scheme::RomulusM] {
        let c = random_batches(scheme, 1500, 0x6d61_6e79 + scheme.name().len() as u64);
        assert_messages(&gpu.seal(&c.plain).expect("seal"), &c.cts, &format!("{scheme} seal"));
        assert_messages(&gpu.open(&c.sealed).expect("open"), &c.pts, &format!("{scheme} open"));

        let dev = gpu.upload(&c.plain, Pass::Seal).expect("upload");
        let mut out = gpu.device_output(&dev).expect("output");
        assert!(matches!(gpu.open_device(&dev, &mut out), Err(GpuManyError::Mismatch)));
        gpu.seal_device(&dev, &mut out).expect("seal on the device");
        assert_messages(&gpu.download(&dev, &out).expect("download"), &c.cts, &format!("{scheme} device seal"));

        let pinned = gpu.pin(&c.sealed, Pass::Open).expect("pin");
        let mut out = gpu.pinned_output(&pinned).expect("pinned output");
        gpu.run_pinned(&pinned, &mut out).expect("open from page-locked memory");
        assert_messages(&out.to_output(&pinned).expect("output"), &c.pts, &format!("{scheme} page-locked open"));
    }
}

#[test]
fn many_chunks_of_uniform_messages_match_the_cpu() {
    // 64-byte messages, no AD (the speed case), across several page-locked
    // chunks: every lane of every thread full.
    let Some(gpu) = engine() else { return };
    let mut rng = Rng(64);
    let n = 1 << 20;
    let mut plain = Batch::with_capacity(Scheme::RomulusN, n, n * 64);
    for _ in 0..n {
        let (key, nonce, msg) = (rng.bytes(16), rng.bytes(16), rng.bytes(64));
        plain.push(&key, &nonce, b"", &msg).expect("lengths");
    }
    let pinned = gpu.pin(&plain, Pass::Seal).expect("pin");
    let mut out = gpu.pinned_output(&pinned).expect("pinned output");
    gpu.run_pinned(&pinned, &mut out).expect("seal from page-locked memory");
    let out = out.to_output(&pinned).expect("output");
    for i in (0..n).step_by(997).chain([n - 1]) {
        let (key, nonce, msg) = (plain.flat().keys[16 * i..16 * i + 16].to_vec(), plain.nonce(i), plain.data(i));
        assert_eq!(out.message(i), Ok(&cpu_seal(Scheme::RomulusN, &key, nonce, b"", msg)[..]), "message {i}");
    }
}

#[test]
fn skinny_aead_batches_are_refused() {
    let Some(gpu) = engine() else { return };
    let batch = Batch::new(Scheme::SkinnyAead(skinny_aead::Member::M1));
    assert!(matches!(gpu.seal(&batch), Err(GpuManyError::Scheme { .. })));
}
