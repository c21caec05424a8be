//! One-thread speed: each scheme sealing and opening 64 B, 1 KiB and 16 KiB
//! messages (no AD), Romulus-H hashing them, and what one SKINNY-128-384+ call
//! costs: expanding a message's fixed part (TK2 ‖ TK3 = nonce ‖ key, once per
//! message) and one block with a fresh TK1 added to it; best of `PASSES` each.
//! `SCHEMES` picks the schemes by letter (default `nmth`; `nm` for the
//! comparison with aadomn/skinny in `scripts/romulus-peer-compare.sh`).
//! `cargo run --release -p skinny-romulus --example romulus_speed [PASSES] [SCHEMES]`

use skinny::hazmat::single::FixedTweakeyPart;
use skinny::Variant;
use skinny_romulus::aead::inout::InOutBuf;
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
    // As the peers' NIST API does: plaintext to a ciphertext buffer, and back
    // to a third buffer, no allocation in the timed loops.
    let msg = vec![0u8; len];
    let (mut ct, mut back) = (vec![0u8; len], vec![0u8; len]);
    let mut tag = Tag::<A>::default();
    let reps = (1 << 18) / len.max(64);
    let seal = best(passes, reps, || {
        let buf = InOutBuf::new(&msg, &mut ct).expect("same lengths");
        tag = cipher.encrypt_inout_detached(&nonce, &[], buf).expect("length");
    });
    let open = best(passes, reps, || {
        let buf = InOutBuf::new(&ct, &mut back).expect("same lengths");
        cipher.decrypt_inout_detached(&nonce, &[], buf, &tag).expect("own tag");
    });
    println!("{name:<10} {len:>6} B  seal {:>7.2} MiB/s  open {:>7.2} MiB/s", mib_s(len, seal), mib_s(len, open));
}

fn main() {
    let passes = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let schemes = std::env::args().nth(2).unwrap_or_else(|| "nmth".into());
    let fixed = [3u8; 32];
    let setup = best(passes, 100_000, || {
        black_box(FixedTweakeyPart::new(Variant::Skinny128_384, black_box(&fixed), 40).expect("fits"));
    });
    let part = FixedTweakeyPart::new(Variant::Skinny128_384, &fixed, 40).expect("fits");
    let (mut block, tk1) = ([0u8; 16], [5u8; 16]);
    let encrypt =
        best(passes, 100_000, || part.encrypt_block(black_box(&tk1), black_box(&mut block)).expect("lengths"));
    println!(
        "one call: fixed part {:.0} ns (once per message), block {:.0} ns ({:.1} MiB/s at one call per block)",
        setup * 1e9,
        encrypt * 1e9,
        mib_s(16, encrypt)
    );
    for len in [64, 1024, 16 * 1024] {
        if schemes.contains('n') {
            aead::<RomulusN>("Romulus-N", len, passes);
        }
        if schemes.contains('m') {
            aead::<RomulusM>("Romulus-M", len, passes);
        }
        if schemes.contains('t') {
            aead::<RomulusT>("Romulus-T", len, passes);
        }
        if schemes.contains('h') {
            let msg = vec![0u8; len];
            let hash = best(passes, (1 << 18) / len, || {
                black_box(RomulusH::digest(black_box(&msg)));
            });
            println!("{:<10} {len:>6} B  hash {:>7.2} MiB/s", "Romulus-H", mib_s(len, hash));
        }
    }
}
