//! One-thread speed of SKINNY-tk3-Hash and SKINNY-tk2-Hash: each member
//! hashing 64 B, 1 KiB, 16 KiB and 1 MiB of zeros in one call, best of
//! `PASSES` timings of about 2^18 bytes (one call at least) each. `MEMBERS`
//! picks the members by digit (`3`, `2`; default `32`); `SIZES` is a comma
//! list of byte counts. Lines are `NAME LEN B  hash X MiB/s`, the format the
//! Romulus examples and the peer harness print, for `scripts/peers/compare.sh`.
//! `cargo run --release -p skinny-hash --example hash_speed [PASSES] [MEMBERS] [SIZES]`

use skinny_hash::digest::Digest;
use skinny_hash::{SkinnyTk2Hash, SkinnyTk3Hash};
use std::hint::black_box;
use std::time::Instant;

/// Seconds per call of `f`, best of `passes` timings of `reps` calls.
fn best(passes: usize, reps: usize, mut f: impl FnMut()) -> f64 {
    (0..passes)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..reps {
                f();
            }
            t.elapsed().as_secs_f64() / reps as f64
        })
        .fold(f64::MAX, f64::min)
}

/// One member at one size: its speed line.
fn member<D: Digest>(name: &str, len: usize, passes: usize) {
    let msg = vec![0u8; len];
    let reps = ((1 << 18) / len.max(64)).max(1);
    let secs = best(passes, reps, || {
        black_box(D::digest(black_box(&msg)));
    });
    let mib_s = len as f64 / secs / f64::from(1 << 20);
    println!("{name:<15} {len:>7} B  hash {mib_s:>7.2} MiB/s");
}

fn main() {
    let passes = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let members = std::env::args().nth(2).unwrap_or_else(|| "32".into());
    let sizes: Vec<usize> = std::env::args()
        .nth(3)
        .map(|list| list.split(',').map(|n| n.parse().expect("SIZES: a comma list of byte counts")).collect())
        .unwrap_or_else(|| vec![64, 1024, 16 * 1024, 1 << 20]);
    for len in sizes {
        if members.contains('3') {
            member::<SkinnyTk3Hash>("SKINNY-tk3-Hash", len, passes);
        }
        if members.contains('2') {
            member::<SkinnyTk2Hash>("SKINNY-tk2-Hash", len, passes);
        }
    }
}
