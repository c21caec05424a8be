//! The streaming front (`skinny_many::stream`) on the CPU engine: every KAT
//! through it, random mixed messages against the single-message types, order
//! under many small flushes, the deadline, back-pressure, forged messages,
//! failing engines, and shutdown with messages in flight.

use crate::common;

use common::{cases, single_open, single_seal, Case};
use proptest::prelude::*;
use skinny_aead::Member;
use skinny_exec::Threads;
use skinny_many::stream::{Completion, Config, Message, Op, Runner, Stream, StreamError, Ticket};
use skinny_many::{cpu, Batch, ManyError, MessageError, Output, Scheme};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

const ROMULUS_N: &str = include_str!("../../../skinny-romulus/tests/kat/romulus-n.txt");
const ROMULUS_M: &str = include_str!("../../../skinny-romulus/tests/kat/romulus-m.txt");
const M1: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M1.txt");
const M2: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M2.txt");
const M3: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M3.txt");
const M4: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M4.txt");
const M5: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M5.txt");
const M6: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M6.txt");

/// One engine for every test: streams share it through `Arc`.
fn engine() -> Arc<cpu::Engine> {
    static ENGINE: OnceLock<Arc<cpu::Engine>> = OnceLock::new();
    Arc::clone(ENGINE.get_or_init(|| Arc::new(cpu::Engine::new(Threads::from_count(Some(2))).expect("threads"))))
}

fn stream(config: Config) -> Stream {
    Stream::new(config, engine()).expect("stream")
}

/// Receives `n` completions, checking that they come in ticket order from `first`.
fn recv_in_order(s: &Stream, first: u64, n: usize) -> Vec<Completion> {
    (0..n)
        .map(|k| {
            let c = s.recv_timeout(Duration::from_secs(60)).expect("a completion");
            assert_eq!(c.ticket(), Ticket(first + k as u64), "completion order");
            c
        })
        .collect()
}

/// Seals and opens a KAT file through two streams: half the cases one at a
/// time, half as a slice, flushed now and then, small batches.
fn kat(scheme: Scheme, file: &str) {
    let cases: Vec<Case> = cases(file);
    assert_eq!(cases.len(), 1089, "{scheme}: every case");
    for op in [Op::Seal, Op::Open] {
        let s = stream(Config::new(scheme, op).target(100).deadline(Duration::from_millis(5)));
        let message = |c: &Case| {
            Message::new(&c.key, &c.nonce, c.ad.clone(), if op == Op::Seal { c.pt.clone() } else { c.ct.clone() })
        };
        let (half, rest) = cases.split_at(cases.len() / 2);
        for (i, c) in half.iter().enumerate() {
            assert_eq!(s.submit(message(c)).expect("submit"), Ticket(i as u64));
            if i % 97 == 0 {
                s.flush();
            }
        }
        let rest: Vec<Message> = rest.iter().map(message).collect();
        let tickets = s.submit_slice(&rest).expect("submit");
        assert_eq!(tickets.first(), Some(&Ticket(half.len() as u64)));
        s.flush();
        for (c, done) in cases.iter().zip(recv_in_order(&s, 0, cases.len())) {
            let want = if op == Op::Seal { &c.ct } else { &c.pt };
            assert_eq!(done.bytes().expect("ok"), &want[..], "{scheme} {op:?} Count = {}", c.count);
        }
        assert!(s.try_recv().is_none());
        assert_eq!((s.in_flight(), s.in_flight_bytes()), (0, 0));
    }
}

#[test]
fn kat_romulus_n() {
    kat(Scheme::RomulusN, ROMULUS_N);
}

#[test]
fn kat_romulus_m() {
    kat(Scheme::RomulusM, ROMULUS_M);
}

#[test]
fn kat_skinny_aead_m1_to_m6() {
    for (m, file) in
        [(Member::M1, M1), (Member::M2, M2), (Member::M3, M3), (Member::M4, M4), (Member::M5, M5), (Member::M6, M6)]
    {
        kat(Scheme::SkinnyAead(m), file);
    }
}

/// A message: key, nonce, AD, plaintext.
type Plain = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

fn plain(scheme: Scheme, max: usize) -> impl Strategy<Value = Plain> {
    (
        proptest::collection::vec(any::<u8>(), 16),
        proptest::collection::vec(any::<u8>(), scheme.nonce_len()),
        proptest::collection::vec(any::<u8>(), 0..max),
        proptest::collection::vec(any::<u8>(), 0..max),
    )
}

fn mixed() -> impl Strategy<Value = (Scheme, Vec<Plain>, usize)> {
    proptest::sample::select(Scheme::ALL.to_vec())
        .prop_flat_map(|s| (Just(s), proptest::collection::vec(plain(s, 700), 1..60), 1..20usize))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Random lengths (0..700 of AD and data) in every scheme, sealed then
    /// opened through streams with small random targets and a flush every
    /// `every` messages, against the single-message types.
    #[test]
    fn mixed_messages_match_single_messages((scheme, msgs, every) in mixed()) {
        let seal = stream(Config::new(scheme, Op::Seal).target(every + 3).deadline(Duration::from_millis(2)));
        let open = stream(Config::new(scheme, Op::Open).target(2 * every).deadline(Duration::from_millis(2)));
        for (i, (k, n, a, p)) in msgs.iter().enumerate() {
            seal.submit(Message::new(k, n, a.clone(), p.clone())).expect("submit");
            if i % every == 0 {
                seal.flush();
            }
        }
        for (i, ((k, n, a, p), done)) in msgs.iter().zip(recv_in_order(&seal, 0, msgs.len())).enumerate() {
            let want = single_seal(scheme, k, n, a, p);
            prop_assert_eq!(done.bytes().expect("sealed"), &want[..], "{} message {} sealed", scheme, i);
            open.submit(Message::new(k, n, a.clone(), want)).expect("submit");
        }
        for (i, ((k, n, a, p), done)) in msgs.iter().zip(recv_in_order(&open, 0, msgs.len())).enumerate() {
            let sealed = single_seal(scheme, k, n, a, p);
            let reopened = single_open(scheme, k, n, a, &sealed);
            prop_assert_eq!(reopened.as_deref(), Some(&p[..]));
            prop_assert_eq!(done.bytes().expect("opened"), &p[..], "{} message {} opened", scheme, i);
        }
    }
}

/// A Romulus-N message whose plaintext names its index.
fn numbered(i: usize) -> Message {
    let key = [(i % 251) as u8; 16];
    let nonce = (i as u128).to_le_bytes();
    Message::new(&key, &nonce, format!("ad {i}").into_bytes(), format!("message number {i}").into_bytes())
}

#[test]
fn order_under_many_small_flushes() {
    let s = stream(Config::new(Scheme::RomulusN, Op::Seal).target(7).deadline(Duration::from_millis(1)).pipeline(3));
    let mut received = 0u64;
    let total = 2000;
    for i in 0..total {
        assert_eq!(s.submit(numbered(i)).expect("submit"), Ticket(i as u64));
        if i % 3 == 0 {
            s.flush();
        }
        // Receive now and then, sometimes everything, sometimes what is done.
        if i % 5 == 0 {
            while let Some(c) = s.try_recv() {
                assert_eq!(c.ticket(), Ticket(received));
                received += 1;
            }
        }
        if i % 50 == 0 {
            s.flush();
            while let Some(c) = s.recv() {
                assert_eq!(c.ticket(), Ticket(received));
                received += 1;
            }
        }
    }
    s.flush();
    while let Some(c) = s.recv() {
        let i = c.ticket().get() as usize;
        assert_eq!(i as u64, received);
        let m = numbered(i);
        assert_eq!(
            c.bytes().expect("sealed"),
            &single_seal(Scheme::RomulusN, m.key(), m.nonce(), m.ad(), m.data())[..]
        );
        received += 1;
    }
    assert_eq!(received, total as u64);
}

#[test]
fn submitters_and_a_receiver_on_other_threads() {
    let s = stream(Config::new(Scheme::RomulusN, Op::Seal).target(64).max_messages(100));
    let per = 1500;
    std::thread::scope(|scope| {
        for t in 0..2 {
            let s = &s;
            scope.spawn(move || {
                for i in 0..per {
                    s.submit(numbered(t * per + i)).expect("submit");
                }
            });
        }
        let mut next = 0;
        while next < 2 * per as u64 {
            if let Some(c) = s.recv_timeout(Duration::from_millis(50)) {
                assert_eq!(c.ticket(), Ticket(next));
                assert!(c.is_ok());
                next += 1;
            }
            assert!(s.in_flight() <= 100, "the cap holds");
        }
    });
}

#[test]
fn deadline_completes_a_lone_message() {
    let deadline = Duration::from_millis(20);
    let s = stream(Config::new(Scheme::RomulusN, Op::Seal).target(100_000).deadline(deadline));
    for round in 0..3 {
        let start = Instant::now();
        let t = s.submit(numbered(round)).expect("submit");
        let done = s.recv_timeout(Duration::from_secs(2)).expect("completed without a flush");
        assert_eq!(done.ticket(), t);
        assert!(start.elapsed() < Duration::from_secs(2));
    }
}

#[test]
fn back_pressure_on_messages_and_bytes() {
    let s =
        stream(Config::new(Scheme::RomulusN, Op::Seal).target(1000).deadline(Duration::from_secs(600)).max_messages(4));
    for i in 0..4 {
        s.try_submit(numbered(i)).expect("room");
    }
    let full = s.try_submit(numbered(4)).expect_err("full");
    assert!(full.is_full());
    assert!(matches!(full.error, StreamError::Full { messages: 4, .. }), "{:?}", full.error);
    let back = full.into_message();
    assert_eq!(back.data(), b"message number 4");
    // Full cuts the pending batch without waiting for its 10-minute deadline.
    assert_eq!(s.recv_timeout(Duration::from_secs(60)).expect("done").ticket(), Ticket(0));
    assert_eq!(s.try_submit(back).expect("room again"), Ticket(4));
    s.flush();
    assert_eq!(recv_in_order(&s, 1, 4).len(), 4);

    let s = stream(Config::new(Scheme::RomulusN, Op::Seal).deadline(Duration::from_millis(1)).max_bytes(100));
    let sized = |n: usize| Message::new(&[1; 16], &[2; 16], Vec::new(), vec![7u8; n]);
    s.try_submit(sized(60)).expect("room");
    assert!(s.try_submit(sized(60)).expect_err("over the byte cap").is_full());
    s.try_submit(sized(40)).expect("fits exactly");
    assert_eq!(s.in_flight_bytes(), 100);
    recv_in_order(&s, 0, 2);
    // Larger than the cap: in, alone.
    s.try_submit(sized(500)).expect("alone");
    assert!(s.try_submit(sized(1)).expect_err("full").is_full());
    assert_eq!(s.recv().expect("done").bytes().expect("sealed").len(), 516);
}

#[test]
fn blocking_submit_waits_for_a_receiver() {
    // The last messages submitted go out at their deadline (nobody flushes).
    let s = stream(
        Config::new(Scheme::RomulusN, Op::Seal).target(1000).deadline(Duration::from_millis(10)).max_messages(2),
    );
    std::thread::scope(|scope| {
        let s = &s;
        let submitter = scope.spawn(move || {
            for i in 0..10 {
                s.submit(numbered(i)).expect("submit");
            }
            10
        });
        let got = recv_in_order_patiently(s, 10);
        assert_eq!(submitter.join().expect("submitter"), 10);
        assert_eq!(got, 10);
    });
}

fn recv_in_order_patiently(s: &Stream, n: u64) -> u64 {
    let mut next = 0;
    let start = Instant::now();
    while next < n {
        assert!(start.elapsed() < Duration::from_secs(60), "stuck");
        if let Some(c) = s.recv_timeout(Duration::from_millis(20)) {
            assert_eq!(c.ticket(), Ticket(next));
            next += 1;
        }
    }
    next
}

#[test]
fn forged_messages_fail_alone() {
    let scheme = Scheme::SkinnyAead(Member::M1);
    let s = stream(Config::new(scheme, Op::Open).target(16));
    let mut plains = Vec::new();
    for i in 0..40u8 {
        let (key, nonce, ad, pt) = ([i; 16], vec![i ^ 0x55; scheme.nonce_len()], vec![i; 3], vec![i; i as usize]);
        let mut ct = single_seal(scheme, &key, &nonce, &ad, &pt);
        if i % 13 == 5 {
            ct[0] ^= 1;
        }
        s.submit(Message::new(&key, &nonce, ad, ct)).expect("submit");
        plains.push(pt);
    }
    s.flush();
    for (i, done) in recv_in_order(&s, 0, 40).into_iter().enumerate() {
        if i % 13 == 5 {
            assert!(matches!(done.bytes(), Err(StreamError::Message(MessageError::Forged))), "{i}: {done:?}");
            assert!(done.to_vec().is_err());
        } else {
            assert_eq!(&done.to_vec().expect("authentic")[..], &plains[i][..]);
        }
    }
}

#[test]
fn invalid_messages_and_configs_are_refused() {
    let s = stream(Config::new(Scheme::SkinnyAead(Member::M5), Op::Seal));
    let bad =
        s.submit(Message::new(&[0; 16], &[0; 16], Vec::new(), b"x".to_vec())).expect_err("M5 takes a 12-byte nonce");
    assert!(matches!(bad.error, StreamError::Invalid(_)));
    assert!(s.submit_slice(&[Message::new(&[0; 15], &[0; 12], Vec::new(), Vec::new())]).is_err());
    assert_eq!(s.in_flight(), 0);
    assert!(s.recv().is_none(), "nothing in flight");
    for config in [
        Config::new(Scheme::RomulusN, Op::Seal).target(0),
        Config::new(Scheme::RomulusN, Op::Seal).deadline(Duration::ZERO),
        Config::new(Scheme::RomulusN, Op::Seal).max_messages(0),
        Config::new(Scheme::RomulusN, Op::Seal).max_bytes(0),
        Config::new(Scheme::RomulusN, Op::Seal).pipeline(0),
    ] {
        assert!(matches!(Stream::new(config, engine()), Err(StreamError::Config(_))));
    }
}

/// An engine that fails every other batch, one way or another.
struct Flaky {
    calls: std::sync::atomic::AtomicUsize,
    panics: bool,
}

impl Runner for Flaky {
    fn run(&self, batch: &Batch, op: Op) -> Result<Output, ManyError> {
        if self.calls.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 2 == 1 {
            if self.panics {
                panic!("the test engine fails on purpose");
            }
            return Err(ManyError::NoGpuEngine);
        }
        engine().run(batch, op)
    }
}

#[test]
fn a_failing_engine_fails_its_batch_only() {
    for panics in [false, true] {
        let flaky = Flaky { calls: 0.into(), panics };
        let s = Stream::new(Config::new(Scheme::RomulusN, Op::Seal).target(4).pipeline(1), flaky).expect("stream");
        for batch in 0..4 {
            for i in 0..4 {
                s.submit(numbered(batch * 4 + i)).expect("submit");
            }
            for done in recv_in_order(&s, 4 * batch as u64, 4) {
                match (batch % 2, done.bytes()) {
                    (0, Ok(_)) => {}
                    (1, Err(StreamError::EnginePanicked)) if panics => {}
                    (1, Err(StreamError::Engine(_))) if !panics => {}
                    (_, other) => panic!("batch {batch}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn drop_with_messages_in_flight_does_not_hang() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for round in 0..20 {
            let s = stream(
                Config::new(Scheme::RomulusM, Op::Seal).target(50).deadline(Duration::from_secs(600)).pipeline(2),
            );
            for i in 0..(round * 37 % 300) {
                s.submit(numbered(i)).expect("submit");
                if i % 120 == 0 {
                    s.flush();
                }
            }
            if round % 3 == 0 {
                let _ = s.try_recv();
            }
            drop(s);
        }
        tx.send(()).expect("main thread waits");
    });
    rx.recv_timeout(Duration::from_secs(120)).expect("dropping streams with messages in flight returned");
}
