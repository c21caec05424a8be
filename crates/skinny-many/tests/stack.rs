//! The CPU engine of skinny-many runs from a 64 KiB stack, in the test profile
//! and in the dev profile at opt-level 0 (`cargo test --profile dev -p
//! skinny-many --test stack`): seal and open of a small batch of mixed
//! lengths for every scheme, through `cpu::seal`/`cpu::open` (the caller's
//! thread; the work runs on the crate's own pool) and through
//! `cpu::seal_in`/`cpu::open_in` on a pool built here with 64 KiB stacks, so
//! the work itself is held to the bound. Each call runs in a child process
//! (see `skinny_test_support::stack`), so an overflow names the call.

use skinny_exec::Threads;
use skinny_many::{cpu, Batch, Scheme};
use skinny_test_support::stack::{check, Case, LIMIT};

/// Messages of 0, 1, 15, 16, 17, 1000, 5000 and 70 000 bytes.
fn batch(scheme: Scheme) -> Batch {
    let mut b = Batch::new(scheme);
    for (i, n) in [0usize, 1, 15, 16, 17, 1000, 5000, 70_000].into_iter().enumerate() {
        let nonce = vec![i as u8; scheme.nonce_len()];
        b.push(&[i as u8; 16], &nonce, &vec![1u8; i * 7], &vec![2u8; n]).expect("a valid message");
    }
    b
}

/// The sealed messages of `sealed` as a batch to open.
fn to_open(scheme: Scheme, plain: &Batch, sealed: &skinny_many::Output) -> Batch {
    let mut b = Batch::new(scheme);
    for i in 0..plain.len() {
        b.push(&[i as u8; 16], plain.nonce(i), plain.ad(i), sealed.message(i).expect("sealed")).expect("valid");
    }
    b
}

#[test]
fn the_cpu_engine_runs_from_64_kib_of_stack() {
    let mut cases = Vec::new();
    for scheme in Scheme::ALL {
        cases.push(Case::new(format!("cpu::seal/open {scheme:?}, 8 mixed messages"), move || {
            let plain = batch(scheme);
            let sealed = cpu::seal(Threads::Exactly(2.try_into().expect("2")), &plain).expect("seal");
            let opened = cpu::open(Threads::All, &to_open(scheme, &plain, &sealed)).expect("open");
            assert_eq!(opened.ok_count(), plain.len());
        }));
        cases.push(Case::new(format!("cpu::seal_in/open_in {scheme:?} on 64 KiB worker stacks"), move || {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).stack_size(LIMIT).build().expect("a pool");
            let plain = batch(scheme);
            let sealed = cpu::seal_in(&pool, &plain);
            let opened = cpu::open_in(&pool, &to_open(scheme, &plain, &sealed));
            assert_eq!(opened.ok_count(), plain.len());
        }));
    }
    check("the_cpu_engine_runs_from_64_kib_of_stack", cases);
}
