//! The lockstep groups (Romulus-N messages run a bitsliced batch
//! at a time, each lane at its own position) on every bitsliced path this CPU has: group sizes around the
//! path's batch (W - 1, W, W + 1, 2W + 3) beside mixed leftovers, against the
//! single-message type; a forged tag inside a group fails that message only;
//! the same batches with the groups off give the same bytes.

use crate::common;

use common::{single_open, single_seal};
use skinny::hazmat::bitsliced::Path;
use skinny_many::cpu::{self, Tuning};
use skinny_many::{Batch, MessageError, Scheme};
use skinny_test_support::rng::SplitMix64 as Rng;

const N: Scheme = Scheme::RomulusN;

fn paths() -> Vec<Path> {
    Path::ALL.into_iter().filter(|p| p.is_available()).collect()
}

/// A message: key, nonce, AD, plaintext.
type Message = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

fn message(rng: &mut Rng, ad: usize, len: usize) -> Message {
    (rng.bytes(16), rng.bytes(16), rng.bytes(ad), rng.bytes(len))
}

/// `count` messages of random lengths: AD 0..70 bytes, data 0..300.
fn random_messages(rng: &mut Rng, count: usize) -> Vec<Message> {
    (0..count)
        .map(|_| {
            let ad = (rng.next() % 70) as usize;
            let len = (rng.next() % 300) as usize;
            message(rng, ad, len)
        })
        .collect()
}

/// Seals `msgs` and opens the result on `path` with the groups on (and on 1
/// and 3 threads), against the single calls and against the lane engine.
fn check(path: Path, msgs: &[Message]) {
    check_scheme(N, path, msgs);
}

/// [`check`] for `scheme` (Romulus-M runs in lockstep slots).
fn check_scheme(scheme: Scheme, path: Path, msgs: &[Message]) {
    let on = Tuning { lockstep: true, path };
    let off = Tuning { lockstep: false, path };
    let mut batch = Batch::new(scheme);
    for (k, n, a, p) in msgs {
        batch.push(k, n, a, p).unwrap();
    }
    let mut sealed_batch = Batch::new(scheme);
    let want: Vec<Vec<u8>> = msgs.iter().map(|(k, n, a, p)| single_seal(scheme, k, n, a, p)).collect();
    for ((k, n, a, _), w) in msgs.iter().zip(&want) {
        sealed_batch.push(k, n, a, w).unwrap();
    }
    for threads in [1, 3] {
        let pool = skinny_exec::worker_pool(threads).unwrap();
        let sealed = cpu::seal_tuned(&pool, &batch, on);
        let opened = cpu::open_tuned(&pool, &sealed_batch, on);
        for (i, ((k, n, a, p), w)) in msgs.iter().zip(&want).enumerate() {
            assert_eq!(
                sealed.message(i).unwrap(),
                &w[..],
                "{scheme} {path}: message {i} sealed ({} AD, {} bytes)",
                a.len(),
                p.len()
            );
            assert_eq!(opened.message(i).unwrap(), &p[..], "{path}: message {i} opened");
            assert_eq!(single_open(scheme, k, n, a, w).as_deref(), Some(&p[..]));
        }
        let lanes = cpu::seal_tuned(&pool, &batch, off);
        for i in 0..msgs.len() {
            assert_eq!(lanes.message(i).unwrap(), sealed.message(i).unwrap(), "{path}: lanes vs groups, {i}");
        }
    }
}

#[test]
fn group_sizes_around_the_batch() {
    let mut rng = Rng(0x5eed);
    for path in paths() {
        let w = path.batch_blocks();
        for count in [w - 1, w, w + 1, 2 * w + 3] {
            let msgs: Vec<Message> = (0..count).map(|_| message(&mut rng, 0, 64)).collect();
            check(path, &msgs);
        }
    }
}

#[test]
fn shapes_with_ad_and_partial_blocks_beside_leftovers() {
    let mut rng = Rng(26);
    for path in paths() {
        let w = path.batch_blocks();
        let mut msgs = Vec::new();
        // Groups of several shapes: AD of 0, 1, 16, 17, 33 and 48 bytes (no
        // pair, one pair with full and partial blocks, two pairs), messages
        // empty, partial, whole blocks, and partial again; a few shapes too
        // rare for a group; all interleaved.
        let shapes = [(0, 0), (1, 15), (16, 16), (17, 33), (33, 64), (48, 100), (5, 1)];
        for i in 0..(shapes.len() * w / 2 + 40) {
            let (ad, len) = if i % 19 == 7 { (i % 40, i % 50) } else { shapes[i % shapes.len()] };
            msgs.push(message(&mut rng, ad, len));
        }
        check(path, &msgs);
    }
}

#[test]
fn a_forged_tag_fails_only_its_own_message() {
    let mut rng = Rng(99);
    for path in paths() {
        let w = path.batch_blocks();
        let msgs: Vec<Message> = (0..w + 5).map(|_| message(&mut rng, 3, 40)).collect();
        let mut batch = Batch::new(N);
        let forged = [0, w / 2, w + 4];
        for (i, (k, n, a, p)) in msgs.iter().enumerate() {
            let mut c = single_seal(N, k, n, a, p);
            if forged.contains(&i) {
                let at = if i == w / 2 { c.len() - 1 } else { 0 };
                c[at] ^= 1;
            }
            batch.push(k, n, a, &c).unwrap();
        }
        let pool = skinny_exec::worker_pool(2).unwrap();
        let out = cpu::open_tuned(&pool, &batch, Tuning { lockstep: true, path });
        for (i, (_, _, _, p)) in msgs.iter().enumerate() {
            if forged.contains(&i) {
                assert_eq!(out.message(i), Err(MessageError::Forged), "{path}: message {i}");
            } else {
                assert_eq!(out.message(i).unwrap(), &p[..], "{path}: message {i}");
            }
        }
    }
}

#[test]
fn random_lengths_share_groups() {
    // Every lane at its own position: AD pairs beside none, messages ending
    // at different steps, partial blocks everywhere.
    let mut rng = Rng(0x1a9e5);
    for path in paths() {
        let w = path.batch_blocks();
        check(path, &random_messages(&mut rng, 2 * w + 17));
    }
}

#[test]
fn romulus_m_in_lockstep_slots() {
    // More messages than a batch (slots refilled), mixed lengths (the MAC's
    // pairs beside the encryption's nonce calls in one step), and a tail
    // finished through the lane engine.
    let mut rng = Rng(0x3a11);
    for path in paths() {
        let w = path.batch_blocks();
        check_scheme(Scheme::RomulusM, path, &random_messages(&mut rng, 2 * w + 17));
    }
}
