//! The GPU engine (`gpu::GpuMany`, feature `cuda`) against the single-message
//! types of every scheme (Romulus-N, -M, SKINNY-AEAD M1-M6): every official
//! KAT sealed and opened as one batch, random batches of mixed lengths (0 to
//! 4 KiB of AD and of message) through all three paths (host, device,
//! page-locked), tampered messages that fail alone, and every KAT through
//! the streaming front. Without a usable GPU
//! each test is ignored (one line says why); with `SKINNY_REQUIRE_GPU=1` each
//! fails (`skinny_test_support::gpu`).

mod common;

use common::{batch_of, cases, single_seal};
use skinny_aead::Member;
use skinny_many::gpu::{GpuMany, GpuManyError, Pass};
use skinny_many::{Batch, MessageError, Output, Scheme};
use skinny_test_support::rng::SplitMix64 as Rng;

/// The KAT files of `skinny-romulus` and `skinny-aead` (their READMEs name
/// the sources), embedded so that the test binary runs anywhere.
const KATS: [(Scheme, &str); 8] = [
    (Scheme::RomulusN, include_str!("../../skinny-romulus/tests/kat/romulus-n.txt")),
    (Scheme::RomulusM, include_str!("../../skinny-romulus/tests/kat/romulus-m.txt")),
    (Scheme::SkinnyAead(Member::M1), include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M1.txt")),
    (Scheme::SkinnyAead(Member::M2), include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M2.txt")),
    (Scheme::SkinnyAead(Member::M3), include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M3.txt")),
    (Scheme::SkinnyAead(Member::M4), include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M4.txt")),
    (Scheme::SkinnyAead(Member::M5), include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M5.txt")),
    (Scheme::SkinnyAead(Member::M6), include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M6.txt")),
];

fn engine() -> GpuMany {
    skinny_test_support::gpu::open(|| GpuMany::new(0))
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

fn every_kat_seals_and_opens_as_one_batch() {
    let gpu = engine();
    for (scheme, text) in KATS {
        let cases = cases(text);
        assert_eq!(cases.len(), 1089, "{scheme}: every case");
        let want_ct: Vec<_> = cases.iter().map(|c| Some(c.ct.clone())).collect();
        let want_pt: Vec<_> = cases.iter().map(|c| Some(c.pt.clone())).collect();
        let sealed = gpu.seal(&batch_of(scheme, &cases, true)).expect("seal");
        assert_messages(&sealed, &want_ct, &format!("{scheme} KAT seal"));
        let opened = gpu.open(&batch_of(scheme, &cases, false)).expect("open");
        assert_messages(&opened, &want_pt, &format!("{scheme} KAT open"));
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
        let (key, nonce) = (rng.bytes(16), rng.bytes(scheme.nonce_len()));
        let (ad, msg) = (rng.bytes(ad_len), rng.bytes(msg_len));
        let ct = single_seal(scheme, &key, &nonce, &ad, &msg);
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
    sealed.push(&[1; 16], &vec![2; scheme.nonce_len()], b"ad", &vec![3; scheme.tag_len() - 1]).expect("lengths");
    pts.push(None);
    RandomBatch { plain, cts, sealed, pts }
}

fn random_batches_match_the_cpu_on_every_path() {
    let gpu = engine();
    for scheme in Scheme::ALL {
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

fn many_chunks_of_uniform_messages_match_the_cpu() {
    // 64-byte messages, no AD (the speed case), across several page-locked
    // chunks: every lane of every thread full.
    let gpu = engine();
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
        assert_eq!(out.message(i), Ok(&single_seal(Scheme::RomulusN, &key, nonce, b"", msg)[..]), "message {i}");
    }
}

fn one_bad_tag_fails_only_its_message_in_every_scheme() {
    // 64 messages of one length class (two full kernel threads): each
    // message with one bit of its ciphertext, tag or AD flipped in turn
    // fails alone, the rest open.
    let gpu = engine();
    for scheme in Scheme::ALL {
        let mut rng = Rng(0x7461_6d70 + scheme.name().len() as u64);
        for victim in [0, 17, 63] {
            for what in 0..3 {
                let mut sealed = Batch::new(scheme);
                let mut want = Vec::new();
                for i in 0..64 {
                    let (key, nonce, mut ad, msg) =
                        (rng.bytes(16), rng.bytes(scheme.nonce_len()), rng.bytes(20), rng.bytes(40));
                    let mut ct = single_seal(scheme, &key, &nonce, &ad, &msg);
                    if i == victim {
                        match what {
                            0 => ct[3] ^= 0x10,
                            1 => *ct.last_mut().expect("a tag") ^= 1,
                            _ => ad[19] ^= 0x80,
                        }
                    }
                    sealed.push(&key, &nonce, &ad, &ct).expect("lengths");
                    want.push(if i == victim { None } else { Some(msg) });
                }
                let out = gpu.open(&sealed).expect("open");
                assert_messages(&out, &want, &format!("{scheme}: message {victim}, change {what}"));
            }
        }
    }
}

/// Every KAT through the streaming front on the GPU engine (issue 38's "done
/// when": every KAT as a batch and through the front on every path): one
/// message at a time, flushed now and then, completions in submission order.
fn every_kat_through_the_streaming_front() {
    use skinny_many::stream::{Config, Message, Op, Stream, Ticket};
    use std::sync::Arc;
    use std::time::Duration;
    let gpu = Arc::new(engine());
    for (scheme, text) in KATS {
        let cases = cases(text);
        for op in [Op::Seal, Op::Open] {
            let s =
                Stream::new(Config::new(scheme, op).target(512).deadline(Duration::from_millis(5)), Arc::clone(&gpu))
                    .expect("stream");
            for (i, c) in cases.iter().enumerate() {
                let data = if op == Op::Seal { c.pt.clone() } else { c.ct.clone() };
                assert_eq!(
                    s.submit(Message::new(&c.key, &c.nonce, c.ad.clone(), data)).expect("submit"),
                    Ticket(i as u64)
                );
                if i % 300 == 0 {
                    s.flush();
                }
            }
            s.flush();
            for (i, c) in cases.iter().enumerate() {
                let done = s.recv().expect("a completion for every message");
                assert_eq!(done.ticket(), Ticket(i as u64), "{scheme} {op:?}: order");
                let want = if op == Op::Seal { &c.ct } else { &c.pt };
                assert_eq!(done.bytes().expect("authentic"), &want[..], "{scheme} {op:?} Count = {}", c.count);
            }
        }
    }
}

skinny_test_support::gpu_test_main! {
    probe: || GpuMany::new(0),
    gpu: [every_kat_seals_and_opens_as_one_batch, every_kat_through_the_streaming_front, random_batches_match_the_cpu_on_every_path, many_chunks_of_uniform_messages_match_the_cpu, one_bad_tag_fails_only_its_message_in_every_scheme],
}
