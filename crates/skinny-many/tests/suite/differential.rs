//! Random batches against the single-message types: mixed lengths (0..4 KiB
//! of AD and of message), every scheme, sealed and opened, on one thread and
//! on several; and a few long messages beside many short ones (the lanes'
//! single-block tail, SKINNY-AEAD's whole-message route).

use crate::common;

use common::{single_open, single_seal};
use proptest::prelude::*;
use skinny_exec::Threads;
use skinny_many::{cpu, Batch, Scheme};

/// A message: key, nonce, AD, plaintext.
type Message = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

fn message(scheme: Scheme, max: usize) -> impl Strategy<Value = Message> {
    (
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), scheme.nonce_len()),
        proptest::collection::vec(any::<u8>(), 0..max),
        proptest::collection::vec(any::<u8>(), 0..max),
    )
}

/// Seals `msgs` as one batch and opens the result, both against the single
/// calls.
fn check(scheme: Scheme, msgs: &[Message], threads: usize) {
    let threads = Threads::from_count(Some(threads));
    let mut batch = Batch::new(scheme);
    for (k, n, a, p) in msgs {
        batch.push(k, n, a, p).unwrap();
    }
    let sealed = cpu::seal(threads, &batch).unwrap();
    let mut back = Batch::new(scheme);
    for (i, (k, n, a, p)) in msgs.iter().enumerate() {
        let want = single_seal(scheme, k, n, a, p);
        assert_eq!(sealed.message(i).unwrap(), &want[..], "{scheme}: message {i} sealed");
        back.push(k, n, a, &want).unwrap();
    }
    let opened = cpu::open(threads, &back).unwrap();
    for (i, (k, n, a, p)) in msgs.iter().enumerate() {
        assert_eq!(single_open(scheme, k, n, a, back.data(i)).as_deref(), Some(&p[..]));
        assert_eq!(opened.message(i).unwrap(), &p[..], "{scheme}: message {i} opened");
    }
}

fn scheme() -> impl Strategy<Value = Scheme> {
    proptest::sample::select(Scheme::ALL.to_vec())
}

fn batch(max_len: usize, max_msgs: usize) -> impl Strategy<Value = (Scheme, Vec<Message>, usize)> {
    scheme().prop_flat_map(move |s| (Just(s), proptest::collection::vec(message(s, max_len), 1..max_msgs), 1..4usize))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn mixed_batches_match_single_messages((scheme, msgs, threads) in batch(4096, 24)) {
        check(scheme, &msgs, threads);
    }

    #[test]
    fn many_short_messages_match((scheme, msgs, threads) in batch(80, 300)) {
        check(scheme, &msgs, threads);
    }
}

/// Enough short messages for several full bitsliced batches per step, with a
/// few long ones: the long Romulus messages run alone at the end (the
/// single-block calls), the long SKINNY-AEAD ones go whole.
#[test]
fn long_messages_among_many_short_ones() {
    for scheme in Scheme::ALL {
        let mut msgs = Vec::new();
        for i in 0..1100usize {
            let len = match i % 250 {
                0 => 20_000 + i,
                1 => 9_000,
                _ => i % 70,
            };
            let key: Vec<u8> = (0..16).map(|j| (i * 7 + j) as u8).collect();
            let nonce = vec![i as u8; scheme.nonce_len()];
            let ad = if i % 300 == 5 { vec![3u8; 10_000] } else { vec![i as u8; i % 5] };
            msgs.push((key, nonce, ad, (0..len).map(|j| (j * 31 + i) as u8).collect()));
        }
        check(scheme, &msgs, 2);
    }
}
