//! The chunk engines in memory (no file I/O), CPU against GPU: `seal_on` and
//! `open_on` of `MIB` MiB (default 1024) from a buffer into a buffer, M1 and
//! M5, chunks of 2^`LOG2` bytes (default 16: 64 KiB), best and median of
//! `RUNS` runs after a warm-up, and a check that each engine opens the
//! other's file. Separates the engines' speed from the file path that
//! `scripts/device/seal-vs-cp.sh` measures.
//! `cargo run --release -p skinny-seal --features cuda --example engines_speed [MIB] [RUNS] [LOG2]`

use skinny_aead::gpu::GpuDevice;
use skinny_seal::{Job, OpenOptions, Scheme, SealOptions, SymmetricKey};
use std::time::Instant;

fn stats(mut t: Vec<f64>) -> (f64, f64) {
    t.sort_by(f64::total_cmp);
    (t[0], t[t.len() / 2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mib: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1024);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5).max(1);
    let log2: u8 = args.next().and_then(|a| a.parse().ok()).unwrap_or(16);
    let len = mib << 20;
    let gpu = GpuDevice::first()?;
    println!("{}; {} rayon threads; {mib} MiB, 2^{log2}-byte chunks", gpu.describe(), rayon::current_num_threads());
    let plain: Vec<u8> =
        (0..len).map(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) as u8).collect();
    let key = SymmetricKey::from_bytes(&[7u8; 16])?;
    let engines = [("cpu", Job::cpu()), ("gpu", Job::on_device(gpu))];
    for member in [Scheme::M1, Scheme::M5] {
        let opts = SealOptions { scheme: member, chunk_log2: log2, ..SealOptions::default() };
        let member = member.name();
        let mut files = Vec::new();
        for (name, engine) in &engines {
            let mut file = Vec::with_capacity(len + len / 1000 + 64);
            let mut out = Vec::with_capacity(len);
            let (mut seal_t, mut open_t) = (Vec::new(), Vec::new());
            for run in 0..=runs {
                file.clear();
                let t = Instant::now();
                skinny_seal::seal_on(engine, &plain[..], &mut file, &[&key], &opts)?;
                let s = t.elapsed().as_secs_f64();
                out.clear();
                let t = Instant::now();
                skinny_seal::open_on(engine, &file[..], &mut out, &[&key], &OpenOptions::default())?;
                let o = t.elapsed().as_secs_f64();
                assert!(out == plain, "{member} on {name}: round trip");
                if run > 0 {
                    seal_t.push(s);
                    open_t.push(o);
                }
            }
            let gbs = |t: f64| len as f64 / t / 1e9;
            let ((sb, sm), (ob, om)) = (stats(seal_t), stats(open_t));
            println!(
                "{member} {name}: seal {:.2} GB/s best, {:.2} median; open {:.2} GB/s best, {:.2} median",
                gbs(sb),
                gbs(sm),
                gbs(ob),
                gbs(om)
            );
            files.push(file);
        }
        // Each engine opens the other's file (different random file keys).
        for (i, (name, engine)) in engines.iter().enumerate() {
            let mut out = Vec::with_capacity(len);
            skinny_seal::open_on(engine, &files[1 - i][..], &mut out, &[&key], &OpenOptions::default())?;
            assert!(out == plain, "{member}: {name} opening the other engine's file");
        }
        println!("{member}: each engine opened the other's file");
    }
    Ok(())
}
