//! One thread: per-block tweakeys ([`PerBlockTweakeys`]) against one shared
//! tweakey (a [`BitslicedSkinny`], masks built once) on each bitsliced path, and
//! against what a fresh key per block costs without them (a key schedule and the
//! one-block specification code per block).
//!
//! ```text
//! cargo run --release -p skinny --example per_block_speed -- [--rounds R] [--seconds S]
//! ```
//!
//! `--rounds` runs that many rounds of every variant (capped at the variant's
//! count; default: the full count). The buffer is 4096 blocks (the lab's batch),
//! the tweakeys random-looking and all different. Figures are blocks per second,
//! mean over about `S` seconds after a warm-up, and of the fastest single pass
//! (the one least disturbed by other programs on the machine).

use skinny::hazmat::bitsliced::{Path, PerBlockTweakeys};
use skinny::{BitslicedSkinny, Skinny, Variant};
use std::time::{Duration, Instant};

const BLOCKS: usize = 4096;

/// (mean, best pass) blocks per second of `work` over `BLOCKS` blocks.
fn measure(seconds: f64, mut work: impl FnMut()) -> (f64, f64) {
    work();
    let budget = Duration::from_secs_f64(seconds);
    let t0 = Instant::now();
    let (mut passes, mut best) = (0usize, f64::INFINITY);
    while t0.elapsed() < budget {
        let p0 = Instant::now();
        work();
        best = best.min(p0.elapsed().as_secs_f64());
        passes += 1;
    }
    let n = BLOCKS as f64;
    (n * passes as f64 / t0.elapsed().as_secs_f64(), n / best)
}

fn fill(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32).map(|i| (i ^ seed).wrapping_mul(2_654_435_761).rotate_right(13) as u8).collect()
}

fn main() {
    let mut rounds: Option<usize> = None;
    let mut seconds = 0.5;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().and_then(|v| v.parse::<f64>().ok());
        match (a.as_str(), value) {
            ("--rounds", Some(r)) if r >= 1.0 => rounds = Some(r as usize),
            ("--seconds", Some(s)) if s > 0.0 => seconds = s,
            _ => {
                eprintln!("usage: per_block_speed [--rounds R] [--seconds S]");
                std::process::exit(2);
            }
        }
    }
    println!("per_block_speed: one thread, {BLOCKS} blocks a call, blocks/s as mean (best pass), 10^6");
    println!();
    println!("| variant | rounds | path | shared key | per-block tweakeys | per-block / shared | key schedule + 1 block each |");
    println!("|---|---|---|---|---|---|---|");
    for v in Variant::ALL {
        let r = rounds.map_or(v.rounds(), |r| r.min(v.rounds()));
        let key = fill(v.tweakey_bytes(), 7);
        let shared = BitslicedSkinny::new(&Skinny::with_rounds(v, &key, r).expect("valid parameters"));
        let tweakeys = fill(BLOCKS * v.tweakey_bytes(), 99);
        let mut buf = fill(BLOCKS * v.block_bytes(), 1);
        let (bb, tb) = (v.block_bytes(), v.tweakey_bytes());
        // The lab's former fresh-key path: one key schedule per block.
        let spec = measure(seconds / 2.0, || {
            for (b, k) in buf.chunks_exact_mut(bb).zip(tweakeys.chunks_exact(tb)) {
                Skinny::with_rounds(v, k, r).expect("valid parameters").encrypt_block(b);
            }
        });
        for path in Path::ALL.into_iter().filter(|p| p.is_available()) {
            let pbt = PerBlockTweakeys::new(v, r).expect("rounds in range").on_path(path).expect("available");
            let one = measure(seconds, || shared.encrypt_blocks_with(path, &mut buf).expect("available"));
            let per = measure(seconds, || pbt.encrypt(&mut buf, &tweakeys));
            println!(
                "| {v} | {r} | {path} | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.2} ({:.2}) | {:.3} ({:.3}) |",
                one.0 / 1e6,
                one.1 / 1e6,
                per.0 / 1e6,
                per.1 / 1e6,
                per.0 / one.0,
                per.1 / one.1,
                spec.0 / 1e6,
                spec.1 / 1e6
            );
        }
    }
}
