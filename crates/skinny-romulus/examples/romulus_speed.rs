//! One-thread speed: each scheme sealing and opening 64 B, 1 KiB, 16 KiB and
//! 1 MiB messages (no AD), Romulus-H hashing them, and what one
//! SKINNY-128-384+ call costs: expanding a message's fixed part (TK2 ‖ TK3 =
//! nonce ‖ key, once per message) and one block with a fresh TK1 added to it;
//! best of `PASSES` timings of about 2^18 bytes (one call at least) each.
//! `SCHEMES` picks what runs by letter: `c` the one-call line, `n`, `m`, `t`,
//! `h` the schemes (default `cnmth`). `SIZES` is a comma list of byte counts.
//! Each scheme first prints `check NAME HEX`: the tag (Romulus-H: the digest)
//! of 64 zero bytes under key 07.., nonce 01.., which
//! `scripts/peers/compare.sh` compares with the peer's harness
//! (scripts/peers/aadomn/bench.c) before it trusts the timings.
//! `cargo run --release -p skinny-romulus --example romulus_speed [PASSES] [SCHEMES] [SIZES]`

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

/// Calls per timing: about 2^18 bytes, and one call at least.
fn reps_for(len: usize) -> usize {
    ((1 << 18) / len.max(64)).max(1)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn mib_s(bytes: usize, secs: f64) -> f64 {
    bytes as f64 / secs / f64::from(1 << 20)
}

fn cipher_and_nonce<A: AeadInOut + KeyInit>() -> (A, Nonce<A>) {
    let cipher = A::new_from_slice(&[7u8; 16]).expect("16-byte key");
    let nonce = Nonce::<A>::try_from(&[1u8; 16][..]).expect("16-byte nonce");
    (cipher, nonce)
}

/// Prints the tag of 64 zero bytes: the line the peer's harness prints too.
fn aead_check<A: AeadInOut + KeyInit>(name: &str) {
    let (cipher, nonce) = cipher_and_nonce::<A>();
    let mut msg = [0u8; 64];
    let tag = cipher.encrypt_inout_detached(&nonce, &[], InOutBuf::from(&mut msg[..])).expect("length");
    println!("check {name} {}", hex(&tag));
}

fn aead<A: AeadInOut + KeyInit>(name: &str, len: usize, passes: usize) {
    let (cipher, nonce) = cipher_and_nonce::<A>();
    // As the peers' NIST API does: plaintext to a ciphertext buffer, and back
    // to a third buffer, no allocation in the timed loops.
    let msg = vec![0u8; len];
    let (mut ct, mut back) = (vec![0u8; len], vec![0u8; len]);
    let mut tag = Tag::<A>::default();
    let reps = reps_for(len);
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
    let schemes = std::env::args().nth(2).unwrap_or_else(|| "cnmth".into());
    let sizes: Vec<usize> = std::env::args()
        .nth(3)
        .map(|list| list.split(',').map(|n| n.parse().expect("SIZES: a comma list of byte counts")).collect())
        .unwrap_or_else(|| vec![64, 1024, 16 * 1024, 1 << 20]);
    if schemes.contains('c') {
        one_call(passes);
    }
    if schemes.contains('n') {
        aead_check::<RomulusN>("Romulus-N");
    }
    if schemes.contains('m') {
        aead_check::<RomulusM>("Romulus-M");
    }
    if schemes.contains('t') {
        aead_check::<RomulusT>("Romulus-T");
    }
    if schemes.contains('h') {
        println!("check Romulus-H {}", hex(&RomulusH::digest([0u8; 64])));
    }
    for len in sizes {
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
            let hash = best(passes, reps_for(len), || {
                black_box(RomulusH::digest(black_box(&msg)));
            });
            println!("{:<10} {len:>6} B  hash {:>7.2} MiB/s", "Romulus-H", mib_s(len, hash));
        }
    }
}

/// What one SKINNY-128-384+ call costs: the fixed part's expansion, and a block.
fn one_call(passes: usize) {
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
}
