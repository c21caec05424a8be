//! How long the passphrase key derivation (Argon2id) takes on this machine, for
//! the default parameters and a few around them: the floor is `t` passes over
//! `m` KiB of memory, single-threaded (`p` lanes run one after another).
//!
//! `cargo run --release -p skinny-seal --example passphrase_cost`

use skinny_seal::recipients::PassphraseParams;
use std::time::Instant;

fn main() {
    let d = PassphraseParams::DEFAULT;
    let candidates = [
        d,
        PassphraseParams { m_kib: 64 * 1024, t: 2, p: 1 },
        PassphraseParams { m_kib: 64 * 1024, t: 3, p: 1 },
        PassphraseParams { m_kib: 256 * 1024, t: 3, p: 1 },
    ];
    for params in candidates {
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let start = Instant::now();
            let key = params.derive(b"a passphrase of ordinary length", &[7u8; 16]);
            let secs = start.elapsed().as_secs_f64();
            assert!(key.is_ok(), "derivation failed");
            best = best.min(secs);
        }
        let passes_mib = f64::from(params.m_kib) / 1024.0 * f64::from(params.t);
        println!(
            "m = {} MiB, t = {}, p = {}: best of 3 {:.3} s ({:.0} MiB of block passes, {:.2} GiB/s)",
            params.m_kib / 1024,
            params.t,
            params.p,
            best,
            passes_mib,
            passes_mib / 1024.0 / best
        );
    }
}
