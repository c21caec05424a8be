//! One-thread speed of the first (unoptimised) version: each scheme sealing and
//! opening 64 B, 1 KiB and 16 KiB messages (no AD), Romulus-H hashing them, and
//! what one SKINNY-128-384+ call costs split into its two parts (the 40-round
//! schedule of a fresh 384-bit tweakey, and the encryption of one block with
//! it), taken in turns, best of `PASSES` each.
//! `cargo run --release -p skinny-romulus --example romulus_speed [PASSES]`

use skinny::{Skinny, Variant};
use skinny_romulus::aead::{AeadInOut, KeyInit, Nonce, Tag};
use skinny_romulus::digest::Digest;
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};
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

fn mib_s(bytes: usize, secs: f64) -> f64 {
    bytes as f64 / secs / f64::from(1 << 20)
}

fn aead<A: AeadInOut + KeyInit>(name: &str, len: usize, passes: usize) {
    let cipher = A::new_from_slice(&[7u8; 16]).expect("16-byte key");
    let nonce = Nonce::<A>::try_from(&[1u8; 16][..]).expect("16-byte nonce");
    let mut buf = vec![0u8; len];
    let mut tag = Tag::<A>::default();
    let reps = (1 << 18) / len.max(64);
    let seal = best(passes, reps, || {
        tag = cipher.encrypt_inout_detached(&nonce, &[], buf.as_mut_slice().into()).expect("length");
    });
    let open = best(passes, reps, || {
        let mut copy = buf.clone();
        cipher.decrypt_inout_detached(&nonce, &[], copy.as_mut_slice().into(), &tag).expect("own tag");
    });
    println!("{name:<10} {len:>6} B  seal {:>7.2} MiB/s  open {:>7.2} MiB/s", mib_s(len, seal), mib_s(len, open));
}

fn main() {
    let passes = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let tweakey = [3u8; 48];
    let schedule = best(passes, 100_000, || {
        black_box(Skinny::with_rounds(Variant::Skinny128_384, black_box(&tweakey), 40).expect("fits"));
    });
    let cipher = Skinny::with_rounds(Variant::Skinny128_384, &tweakey, 40).expect("fits");
    let mut block = [0u8; 16];
    let encrypt = best(passes, 100_000, || cipher.encrypt_block(black_box(&mut block)));
    println!(
        "one call: schedule {:.0} ns + block {:.0} ns = {:.0} ns (16 bytes: {:.1} MiB/s at one call per block)",
        schedule * 1e9,
        encrypt * 1e9,
        (schedule + encrypt) * 1e9,
        mib_s(16, schedule + encrypt)
    );
    for len in [64, 1024, 16 * 1024] {
        aead::<RomulusN>("Romulus-N", len, passes);
        aead::<RomulusM>("Romulus-M", len, passes);
        aead::<RomulusT>("Romulus-T", len, passes);
        let msg = vec![0u8; len];
        let hash = best(passes, (1 << 18) / len, || {
            black_box(RomulusH::digest(black_box(&msg)));
        });
        println!("{:<10} {len:>6} B  hash {:>7.2} MiB/s", "Romulus-H", mib_s(len, hash));
    }
}
