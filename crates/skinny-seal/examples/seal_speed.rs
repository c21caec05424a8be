//! v1 against v2 sealing and opening speed on the CPU, in memory: a 256 MiB
//! plaintext (or `SKINNY_SEAL_SPEED_MIB`), M1, 64 KiB chunks, all cores,
//! each run twice, alternately. v2 does the same chunk work as v1 (AD 32
//! bytes instead of 24: two blocks either way) plus a few HKDF/HMAC calls a
//! file, so the two should match.
//!
//! `cargo run --release -p skinny-seal --example seal_speed`

use skinny_seal::{hazmat, OpenOptions, SealOptions, SymmetricKey};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mib: usize = std::env::var("SKINNY_SEAL_SPEED_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(256);
    let n = mib << 20;
    let plain: Vec<u8> = (0..n).map(|i| (i as u32).wrapping_mul(2_654_435_761).to_be_bytes()[0]).collect();
    let raw = [7u8; 16];
    let key = SymmetricKey::from_bytes(&raw)?;
    let rate = |t: f64| n as f64 / t / 1e9;
    for round in 1..=2 {
        let mut file = Vec::with_capacity(n + n / 1000 + 4096);
        let t = Instant::now();
        hazmat::seal_v1_with_prefix(&plain[..], &mut file, &raw, &SealOptions::default(), &[round; 11])?;
        let s1 = t.elapsed().as_secs_f64();
        let mut back = Vec::with_capacity(n);
        let t = Instant::now();
        skinny_seal::open(&file[..], &mut back, &[&key], &OpenOptions::default())?;
        let o1 = t.elapsed().as_secs_f64();
        assert!(back == plain);
        let mut file = Vec::with_capacity(n + n / 1000 + 4096);
        let t = Instant::now();
        skinny_seal::seal(&plain[..], &mut file, &[&key], &SealOptions::default())?;
        let s2 = t.elapsed().as_secs_f64();
        let mut back = Vec::with_capacity(n);
        let t = Instant::now();
        skinny_seal::open(&file[..], &mut back, &[&key], &OpenOptions::default())?;
        let o2 = t.elapsed().as_secs_f64();
        assert!(back == plain);
        println!(
            "round {round}: {mib} MiB  v1 seal {s1:.3} s ({:.3} GB/s) open {o1:.3} s ({:.3} GB/s)  v2 seal {s2:.3} s ({:.3} GB/s) open {o2:.3} s ({:.3} GB/s)",
            rate(s1),
            rate(o1),
            rate(s2),
            rate(o2)
        );
    }
    Ok(())
}
