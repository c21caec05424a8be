//! The edges: an empty batch, a batch of one, tampered messages (each fails
//! alone, its output wiped), data shorter than a tag, placements.

use crate::common;

use common::single_seal;
use skinny_exec::{GpuSelection, Placement, Threads};
use skinny_many::{cpu, Batch, ManyError, MessageError, Scheme};

fn key(i: usize) -> Vec<u8> {
    (0..16).map(|j| (i * 13 + j * 5) as u8).collect()
}

fn msg(i: usize) -> Vec<u8> {
    (0..(i * 11) % 90).map(|j| (j ^ i) as u8).collect()
}

/// A sealed batch of `n` messages (ciphertext ‖ tag, ready to open).
fn sealed_batch(scheme: Scheme, n: usize) -> Batch {
    let mut b = Batch::new(scheme);
    for i in 0..n {
        let nonce = vec![i as u8; scheme.nonce_len()];
        let ad = vec![7u8; i % 20];
        b.push(&key(i), &nonce, &ad, &single_seal(scheme, &key(i), &nonce, &ad, &msg(i))).unwrap();
    }
    b
}

#[test]
fn an_empty_batch_gives_an_empty_output() {
    for scheme in Scheme::ALL {
        let b = Batch::new(scheme);
        let out = cpu::seal(Threads::All, &b).unwrap();
        assert!(out.is_empty());
        assert!(cpu::open(Threads::All, &b).unwrap().is_empty());
        assert!(skinny_many::seal(&Placement::default(), &b).unwrap().is_empty());
    }
}

#[test]
fn a_batch_of_one() {
    for scheme in Scheme::ALL {
        let b = sealed_batch(scheme, 1);
        let out = cpu::open(Threads::from_count(Some(4)), &b).unwrap();
        assert_eq!(out.len(), 1);
        assert_eq!(out.message(0).unwrap(), &msg(0)[..]);
    }
}

/// One flipped bit anywhere in one message's data, AD, nonce or key fails
/// that message and only it.
#[test]
fn one_flipped_bit_fails_exactly_its_message() {
    for scheme in Scheme::ALL {
        let n = 40;
        let good = sealed_batch(scheme, n);
        for (victim, what) in [(3, 0), (17, 1), (29, 2), (39, 3)] {
            let mut b = Batch::new(scheme);
            for i in 0..n {
                let (mut k, mut nonce, mut ad, mut data) =
                    (key(i), good.nonce(i).to_vec(), good.ad(i).to_vec(), good.data(i).to_vec());
                if i == victim {
                    match what {
                        0 => {
                            let at = (i * 5) % data.len();
                            data[at] ^= 1 << (i % 8);
                        }
                        1 if !ad.is_empty() => ad[0] ^= 0x80,
                        1 => ad.push(0),
                        2 => nonce[1] ^= 4,
                        _ => k[15] ^= 1,
                    }
                }
                b.push(&k, &nonce, &ad, &data).unwrap();
            }
            let out = cpu::open(Threads::from_count(Some(2)), &b).unwrap();
            assert_eq!(out.failures().collect::<Vec<_>>(), vec![(victim, MessageError::Forged)], "{scheme}");
            assert_eq!(out.ok_count(), n - 1);
            for i in (0..n).filter(|&i| i != victim) {
                assert_eq!(out.message(i).unwrap(), &msg(i)[..], "{scheme}: message {i}");
            }
        }
    }
}

#[test]
fn data_shorter_than_a_tag_is_forged() {
    for scheme in Scheme::ALL {
        let mut b = sealed_batch(scheme, 3);
        b.push(&key(9), &vec![0; scheme.nonce_len()], b"", &[1, 2, 3]).unwrap();
        let out = cpu::open(Threads::All, &b).unwrap();
        assert_eq!(out.failures().collect::<Vec<_>>(), vec![(3, MessageError::Forged)]);
    }
}

#[test]
fn placements_route_to_the_cpu_or_say_why_not() {
    let gpu = Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All };
    let cpu = Placement::Cpu { threads: Threads::from_count(Some(2)) };
    // Every scheme follows one rule.
    for scheme in [Scheme::RomulusN, Scheme::SkinnyAead(skinny_aead::Member::M1)] {
        let b = sealed_batch(scheme, 5);
        assert_eq!(skinny_many::open(&cpu, &b).unwrap().ok_count(), 5);
        assert_eq!(skinny_many::open(&Placement::default(), &b).unwrap().ok_count(), 5);
        // Without the GPU engine a GPU placement is refused by the rule; with
        // it, the GPU is tried and either serves the batch or fails with its
        // reason.
        for result in
            [skinny_many::open(&gpu, &b).map(|o| o.ok_count()), skinny_many::seal(&gpu, &b).map(|o| o.ok_count())]
        {
            match result {
                #[cfg(not(feature = "cuda"))]
                Err(ManyError::Placement(_)) => {}
                #[cfg(feature = "cuda")]
                Err(ManyError::Gpu(_)) => {}
                #[cfg(feature = "cuda")]
                Ok(n) => assert_eq!(n, 5),
                other => panic!("{scheme}: unexpected: {other:?}"),
            }
        }
    }
}

#[test]
fn the_shared_engine_is_kept_per_thread_count() {
    use skinny_exec::Threads;
    use skinny_many::cpu;
    let two = Threads::from_count(Some(2));
    let a = cpu::shared(two).unwrap();
    let b = cpu::shared(two).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b), "one engine for one thread count");
    assert_eq!(a.threads(), 2);
    // Older counts are let go after four others; a holder keeps its engine.
    for n in 3..8 {
        assert_eq!(cpu::shared(Threads::from_count(Some(n))).unwrap().threads(), n);
    }
    let c = cpu::shared(two).unwrap();
    assert_eq!(c.threads(), 2);
    assert_eq!(a.threads(), 2);
}
