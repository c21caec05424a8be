//! The many-message engine's speed: Romulus-N, Romulus-M and SKINNY-AEAD-M1
//! sealing and opening batches of 64-byte messages (no AD), then 1 KiB, a
//! packet mix (IMIX) beside the same bytes in equal lengths, and mixed
//! lengths up to 64 KiB, each message with its own key and nonce; messages/s and
//! GB/s of message bytes for 1..N threads, beside the same library's
//! single-message path on the same threads (rayon over the messages, each
//! through `skinny_romulus` / `skinny_aead`), and the ratio. For Romulus-N
//! (whose same-shape messages run in lockstep groups) also the lane engine
//! alone (`cpu::Tuning { lockstep: false, .. }`), and its ratio.
//!
//! First it prints the two per-call costs the engine chooses between: one
//! bitsliced batch with a whole tweakey per block, and one single-block call
//! (its schedule and rounds).
//!
//! `cargo run --release -p skinny-many --example many_speed [MESSAGES]`
//! (default 65536 messages of 64 bytes); `... many_speed MESSAGES profile`
//! (`profile-m`) only seals 64-byte Romulus-N (-M) messages on one thread for
//! ten seconds (to run under a profiler); `... many_speed MESSAGES 1,4,16`
//! measures those thread counts only, and `... many_speed MESSAGES 1,16
//! imix,mixed` those series only.

use aead::inout::InOutBuf;
use aead::{AeadInOut, KeyInit};
use rayon::prelude::*;
use skinny::hazmat::bitsliced::{Lockstep, PerBlockTweakeys};
use skinny::{Skinny, Variant};
use skinny_aead::{Member, SkinnyAeadM1};
use skinny_many::cpu::Tuning;
use skinny_many::{cpu, Batch, Scheme};
use skinny_romulus::{RomulusM, RomulusN};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Runs `f` until it has taken `at_least`, three times; the best time per run.
fn best(at_least: Duration, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..3 {
        let (mut runs, t0) = (0u32, Instant::now());
        while runs == 0 || t0.elapsed() < at_least {
            f();
            runs += 1;
        }
        best = best.min(t0.elapsed().as_secs_f64() / f64::from(runs));
    }
    best
}

fn call_costs() {
    let v = Variant::Skinny128_384;
    let pbt = PerBlockTweakeys::new(v, 40).unwrap();
    let n = pbt.path().batch_blocks();
    let mut blocks = vec![7u8; 16 * n];
    let tweakeys: Vec<u8> = (0..48 * n).map(|i| (i * 29) as u8).collect();
    let batch = best(Duration::from_millis(200), || pbt.encrypt(black_box(&mut blocks), &tweakeys));
    let mut block = [7u8; 16];
    let single = best(Duration::from_millis(200), || {
        for tk in tweakeys.chunks_exact(48).take(64) {
            Skinny::with_rounds(v, tk, 40).unwrap().encrypt_block(black_box(&mut block));
        }
    }) / 64.0;
    let lanes = skinny::hazmat::single::Lanes::best();
    let inline = best(Duration::from_millis(200), || {
        for tk in tweakeys.chunks_exact(48).take(64) {
            let (a, _) = tk.as_chunks::<16>();
            lanes.encrypt(&[&a[0], &a[1], &a[2]], 40, core::slice::from_mut(black_box(&mut block))).unwrap();
        }
    }) / 64.0;
    println!(
        "SKINNY-128-384+ (40 rounds), one call each: bitsliced batch of {n} ({}) {:.1} ns a block; single-block {:.1} ns a call (schedule + rounds), {:.1} ns with the schedule in the rounds ({:?}); a batch = {:.0} single calls",
        pbt.path().name(),
        batch / n as f64 * 1e9,
        single * 1e9,
        inline * 1e9,
        lanes.path(),
        batch / inline
    );
    // A lockstep call: the lanes' TK2 ‖ TK3 expanded once, TK1 shared, the
    // state kept sliced (what a Romulus-N group runs per call), and the
    // expansion itself (once per group and nonce ‖ key).
    let ls = Lockstep::new(v, 40).unwrap();
    let n = ls.lanes();
    let mut table = vec![0u8; ls.tweakey_table_bytes()];
    let rest: Vec<u8> = (0..32 * n).map(|i| (i * 31) as u8).collect();
    let expand = best(Duration::from_millis(200), || ls.expand(black_box(&rest), &mut table));
    let mut state = vec![0u8; ls.state_bytes()];
    let call = best(Duration::from_millis(200), || ls.encrypt(black_box(&mut state), &[3u8; 16], &table));
    let mut blocks = vec![1u8; 16 * n];
    let slice = best(Duration::from_millis(200), || {
        ls.slice_in(black_box(&blocks), &mut state);
        ls.slice_out(&state, &mut blocks);
    });
    println!(
        "lockstep batch of {n} ({}): a call {:.1} ns a block, the expansion of TK2 ‖ TK3 {:.1} ns a block, slicing in and out {:.1} ns a block",
        ls.path().name(),
        call / n as f64 * 1e9,
        expand / n as f64 * 1e9,
        slice / n as f64 * 1e9
    );
}

/// A batch of `lens.len()` messages of `scheme` (key and nonce from the index).
fn batch(scheme: Scheme, lens: &[usize], sealed: bool) -> Batch {
    let mut b = Batch::with_capacity(scheme, lens.len(), lens.iter().sum());
    for (i, &len) in lens.iter().enumerate() {
        let key: Vec<u8> = (0..16).map(|j| (i + j) as u8).collect();
        let nonce: Vec<u8> = (0..scheme.nonce_len()).map(|j| (i * 3 + j) as u8).collect();
        let msg = vec![(i % 251) as u8; len];
        let data = if sealed { single(scheme, &key, &nonce, &msg) } else { msg };
        b.push(&key, &nonce, &[], &data).unwrap();
    }
    b
}

fn seal_one<A: AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], msg: &mut [u8]) -> aead::Tag<A> {
    let c = A::new_from_slice(key).unwrap();
    c.encrypt_inout_detached(nonce.try_into().unwrap(), &[], InOutBuf::from(msg)).unwrap()
}

fn open_one<A: AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], data: &mut [u8], tag_len: usize) {
    let c = A::new_from_slice(key).unwrap();
    let (body, tag) = data.split_at_mut(data.len() - tag_len);
    c.decrypt_inout_detached(nonce.try_into().unwrap(), &[], InOutBuf::from(body), (&*tag).try_into().unwrap())
        .unwrap();
}

/// One message through the single-message type: ciphertext ‖ tag.
fn single(scheme: Scheme, key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut out = msg.to_vec();
    let tag = match scheme {
        Scheme::RomulusN => seal_one::<RomulusN>(key, nonce, &mut out).to_vec(),
        Scheme::RomulusM => seal_one::<RomulusM>(key, nonce, &mut out).to_vec(),
        _ => seal_one::<SkinnyAeadM1>(key, nonce, &mut out).to_vec(),
    };
    out.extend_from_slice(&tag);
    out
}

/// The single-message path over a whole batch (rayon over messages).
fn single_path(b: &Batch, sealing: bool) {
    let scheme = b.scheme();
    let flat = b.flat();
    (0..b.len()).into_par_iter().for_each(|i| {
        let key = &flat.keys[16 * i..16 * i + 16];
        let mut data = b.data(i).to_vec();
        match (scheme, sealing) {
            (Scheme::RomulusN, true) => drop(seal_one::<RomulusN>(key, b.nonce(i), &mut data)),
            (Scheme::RomulusM, true) => drop(seal_one::<RomulusM>(key, b.nonce(i), &mut data)),
            (_, true) => drop(seal_one::<SkinnyAeadM1>(key, b.nonce(i), &mut data)),
            (Scheme::RomulusN, false) => open_one::<RomulusN>(key, b.nonce(i), &mut data, 16),
            (Scheme::RomulusM, false) => open_one::<RomulusM>(key, b.nonce(i), &mut data, 16),
            (_, false) => open_one::<SkinnyAeadM1>(key, b.nonce(i), &mut data, 16),
        }
        black_box(&data);
    });
}

fn series(label: &str, lens: &[usize], thread_counts: &[usize]) {
    let bytes: usize = lens.iter().sum();
    for scheme in [Scheme::RomulusN, Scheme::RomulusM, Scheme::SkinnyAead(Member::M1)] {
        let plain = batch(scheme, lens, false);
        let sealed = batch(scheme, lens, true);
        for &threads in thread_counts {
            let pool = skinny_exec::worker_pool(threads).unwrap();
            for (op, input) in [("seal", &plain), ("open", &sealed)] {
                let sealing = op == "seal";
                let run = |tuning: Tuning| {
                    best(Duration::from_millis(300), || {
                        black_box(if sealing {
                            cpu::seal_tuned(&pool, input, tuning)
                        } else {
                            cpu::open_tuned(&pool, input, tuning)
                        });
                    })
                };
                let engine = run(Tuning::default());
                // Only Romulus-N has lockstep groups; elsewhere the lane
                // engine is the batch figure.
                let lanes = (scheme == Scheme::RomulusN).then(|| run(Tuning { lockstep: false, ..Tuning::default() }));
                let one = best(Duration::from_millis(300), || pool.install(|| single_path(input, sealing)));
                let lane_figures = lanes.map_or(String::new(), |l| {
                    format!(
                        " | lanes only {:>6.2} M msg/s {:>6.3} GB/s (ratio {:.2})",
                        lens.len() as f64 / l / 1e6,
                        bytes as f64 / l / 1e9,
                        one / l
                    )
                });
                println!(
                    "{label:>12} {scheme:>14} {op} {threads:>2} threads: batch {:>6.2} M msg/s {:>6.3} GB/s | single-message path {:>6.2} M msg/s {:>6.3} GB/s | ratio {:.2}{lane_figures}",
                    lens.len() as f64 / engine / 1e6,
                    bytes as f64 / engine / 1e9,
                    lens.len() as f64 / one / 1e6,
                    bytes as f64 / one / 1e9,
                    one / engine
                );
            }
        }
    }
}

fn main() {
    let count: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(65536);
    let max_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let Some(which @ ("profile" | "profile-m")) = std::env::args().nth(2).as_deref() {
        let scheme = if which == "profile" { Scheme::RomulusN } else { Scheme::RomulusM };
        let (pool, input) = (skinny_exec::worker_pool(1).unwrap(), batch(scheme, &vec![64; count], false));
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(10) {
            black_box(cpu::seal_in(&pool, &input));
        }
        return;
    }
    let counts: Vec<usize> = match std::env::args().nth(2) {
        Some(list) => list.split(',').filter_map(|t| t.parse().ok()).collect(),
        None => (1..=max_threads).collect(),
    };
    // A third argument picks series by label (comma-separated).
    let only: Option<Vec<String>> = std::env::args().nth(3).map(|a| a.split(',').map(str::to_owned).collect());
    let series = |label: &str, lens: &[usize], counts: &[usize]| {
        if only.as_ref().is_none_or(|o| o.iter().any(|x| x == label)) {
            series(label, lens, counts);
        }
    };
    call_costs();
    series("64 B", &vec![64; count], &counts);
    series("1 KiB", &vec![1024; count / 16], &counts);
    // A packet mix (IMIX: 7 of 64 bytes, 4 of 576, 1 of 1500), then the
    // same bytes in messages of equal length (the target: the mix within
    // 1.3x of them).
    let imix: Vec<usize> =
        (0..count / 4).map(|i| [64, 576, 64, 64, 1500, 64, 576, 64, 576, 64, 64, 576][i % 12]).collect();
    let mean = imix.iter().sum::<usize>() / imix.len();
    series("imix", &imix, &counts);
    series("imix-equal", &vec![mean; imix.len()], &counts);
    // Mixed: 0 to 2 KiB, a few of 64 KiB.
    let mixed: Vec<usize> = (0..count / 8).map(|i| if i % 509 == 0 { 64 << 10 } else { (i * 7919) % 2048 }).collect();
    series("mixed", &mixed, &counts);
}
