//! CPU speed of the bitsliced SKINNY code: ECB encryption and decryption of every
//! variant, one thread on each bitsliced path, then all threads through rayon.
//!
//! ```text
//! cargo run --release -p skinny --example cpu_speed -- [--threads N] [--mib M] [--seconds S] [--variant V]
//!     [--path P[,P…]] [--no-spec]
//! ```
//!
//! `--path` (or the environment variable `SKINNY_CPU_PATH`, read here and never
//! by the library) names the bitsliced paths to measure (`portable-u64`, `avx2`,
//! `avx512`; default: every path this CPU has); the last one named also runs the
//! many-thread figure. So `--path avx2` measures a machine with AVX-512 as if it
//! had none. `--no-spec` leaves out the block-at-a-time baseline. With
//! `--threads 1` the many-thread figure is left out.
//!
//! MiB/s is bytes over wall-clock time (std::time::Instant). Cycles per byte are
//! time-stamp-counter ticks (rdtsc) per byte on x86-64: the TSC runs at a fixed
//! rate, which the program estimates against wall time and prints, so c/B are
//! nominal-frequency cycles, not core cycles under turbo. Elsewhere c/B is shown
//! as "-". "best pass" is the MiB/s of the fastest single pass over the buffer:
//! near the mean on an idle machine, higher when other programs took turns on the
//! core (the default 1 MiB buffer keeps a pass to a few milliseconds so that some
//! pass runs undisturbed). Data is random-looking, the key fixed; the first pass
//! is a warm-up.

use rayon::prelude::*;
use skinny::hazmat::bitsliced::Path;
use skinny::{BitslicedSkinny, Skinny, Variant};
use std::time::{Duration, Instant};

/// Bytes a rayon task gets, as in skinny-bulk's cpu backend (which, like the
/// bitsliced figures here, keeps the key's masks in a [`BitslicedSkinny`]).
const PIECE: usize = 64 * 1024;

struct Options {
    threads: usize,
    mib: usize,
    seconds: f64,
    only: Option<Variant>,
    /// Paths to measure, in order; None: every available one.
    paths: Option<Vec<Path>>,
    spec: bool,
}

fn parse_paths(list: &str) -> Result<Vec<Path>, String> {
    list.split(',')
        .map(|n| Path::from_name(n).ok_or_else(|| format!("unknown path {n:?} (portable-u64, avx2, avx512)")))
        .collect()
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        mib: 1,
        seconds: 0.4,
        only: None,
        paths: match std::env::var("SKINNY_CPU_PATH") {
            Ok(list) => Some(parse_paths(&list).map_err(|e| format!("SKINNY_CPU_PATH: {e}"))?),
            Err(_) => None,
        },
        spec: true,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "--threads" => o.threads = value("--threads")?.parse().map_err(|_| "--threads: a whole number")?,
            "--mib" => o.mib = value("--mib")?.parse().map_err(|_| "--mib: a whole number")?,
            "--seconds" => o.seconds = value("--seconds")?.parse().map_err(|_| "--seconds: a number")?,
            "--variant" => {
                o.only = Some(value("--variant")?.parse().map_err(|e: skinny::UnknownVariant| e.to_string())?)
            }
            "--path" => o.paths = Some(parse_paths(&value("--path")?)?),
            "--no-spec" => o.spec = false,
            "-h" | "--help" => {
                return Err("usage: cpu_speed [--threads N] [--mib M (buffer size)] [--seconds S (per figure)] [--variant skinny-128-128] [--path avx2,avx512 (or SKINNY_CPU_PATH)] [--no-spec]".into())
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    if o.threads == 0 || o.mib == 0 || o.seconds <= 0.0 || !o.seconds.is_finite() {
        return Err("--threads, --mib and --seconds must be positive".into());
    }
    if let Some(missing) = o.paths.iter().flatten().find(|p| !p.is_available()) {
        return Err(format!("this CPU cannot run the {missing} path"));
    }
    Ok(o)
}

#[cfg(target_arch = "x86_64")]
fn ticks() -> Option<u64> {
    // SAFETY: rdtsc exists on every x86-64 CPU and only reads the counter.
    #[allow(unsafe_code)]
    Some(unsafe { core::arch::x86_64::_rdtsc() })
}

#[cfg(not(target_arch = "x86_64"))]
fn ticks() -> Option<u64> {
    None
}

/// One figure: mean MiB/s and TSC ticks per byte over the whole measurement, and
/// the MiB/s of the fastest single pass (what an otherwise idle core gives; on a
/// busy machine the mean drops, the best pass much less).
struct Speed {
    mib_s: f64,
    ticks_per_byte: Option<f64>,
    best_mib_s: f64,
}

/// Runs `work` over `buf` again and again for about `seconds` (after one warm-up).
fn measure(buf: &mut [u8], seconds: f64, mut work: impl FnMut(&mut [u8])) -> Speed {
    work(buf);
    let budget = Duration::from_secs_f64(seconds);
    let (t0, c0) = (Instant::now(), ticks());
    let mut bytes = 0usize;
    let mut best = f64::INFINITY;
    while t0.elapsed() < budget {
        let p0 = Instant::now();
        work(buf);
        best = best.min(p0.elapsed().as_secs_f64());
        bytes += buf.len();
    }
    let (wall, c1) = (t0.elapsed().as_secs_f64(), ticks());
    const MIB: f64 = 1024.0 * 1024.0;
    Speed {
        mib_s: bytes as f64 / wall / MIB,
        ticks_per_byte: c0.zip(c1).map(|(a, b)| (b - a) as f64 / bytes as f64),
        best_mib_s: buf.len() as f64 / best / MIB,
    }
}

/// The TSC rate in GHz, from ticks over a sleep of 200 ms.
fn tsc_ghz() -> Option<f64> {
    let (t0, c0) = (Instant::now(), ticks()?);
    std::thread::sleep(Duration::from_millis(200));
    let (wall, c1) = (t0.elapsed().as_secs_f64(), ticks()?);
    Some((c1 - c0) as f64 / wall / 1e9)
}

fn cpb(s: &Speed) -> String {
    s.ticks_per_byte.map_or("-".into(), |t| format!("{t:.2}"))
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("cpu_speed: {e}");
            std::process::exit(2);
        }
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(o.threads).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("cpu_speed: cannot start {} threads: {e}", o.threads);
            std::process::exit(1);
        }
    };
    let fill = |n: usize| -> Vec<u8> { (0..n).map(|i| (i as u32).wrapping_mul(2_654_435_761) as u8).collect() };
    let mut buf = fill(o.mib << 20);
    let mut big = if o.threads > 1 { fill((o.mib << 20) * o.threads) } else { Vec::new() };
    let paths: Vec<Path> =
        o.paths.clone().unwrap_or_else(|| Path::ALL.into_iter().filter(|p| p.is_available()).collect());
    let top = paths.last().copied();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "cpu_speed: {} MiB buffer, {:.1} s a figure, best path {}, measured {:?}, {} threads of {} available",
        o.mib,
        o.seconds,
        Path::best(),
        paths.iter().map(|p| p.name()).collect::<Vec<_>>(),
        o.threads,
        cores
    );
    match tsc_ghz() {
        Some(g) => println!("c/B = rdtsc ticks per byte; TSC rate estimated at {g:.3} GHz against wall time"),
        None => println!("c/B not available (no rdtsc on this architecture)"),
    }
    println!();
    println!(
        "| variant | rounds | path | enc MiB/s | enc c/B | enc best pass | dec MiB/s | dec c/B | dec best pass | enc MiB/s {t}T (best) | dec MiB/s {t}T (best) | {t}T/1T enc (best) |",
        t = o.threads
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for v in Variant::ALL.into_iter().filter(|v| o.only.is_none_or(|w| w == *v)) {
        let key: Vec<u8> = (0..v.tweakey_bytes() as u8).map(|i| i.wrapping_mul(29) ^ 0x5c).collect();
        let c = match Skinny::new(v, &key) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("cpu_speed: {e}");
                std::process::exit(1);
            }
        };
        // The specification code one block at a time: the baseline.
        let bs = c.block_bytes();
        if o.spec {
            let enc = measure(&mut buf, o.seconds / 2.0, |b| b.chunks_exact_mut(bs).for_each(|x| c.encrypt_block(x)));
            let dec = measure(&mut buf, o.seconds / 2.0, |b| b.chunks_exact_mut(bs).for_each(|x| c.decrypt_block(x)));
            println!(
                "| {v} | {} | spec, 1 block | {:.0} | {} | {:.0} | {:.0} | {} | {:.0} | | | |",
                v.rounds(),
                enc.mib_s,
                cpb(&enc),
                enc.best_mib_s,
                dec.mib_s,
                cpb(&dec),
                dec.best_mib_s
            );
        }
        // What the bulk backend holds: the bitsliced masks built once.
        let bulk = BitslicedSkinny::new(&c);
        for &path in &paths {
            let enc = measure(&mut buf, o.seconds, |b| {
                let _ = bulk.encrypt_blocks_with(path, b);
            });
            let dec = measure(&mut buf, o.seconds, |b| {
                let _ = bulk.decrypt_blocks_with(path, b);
            });
            // All threads, on a buffer `threads` times larger so every thread gets
            // as many pieces as the single thread had.
            let many = if Some(path) == top && o.threads > 1 {
                let e = pool.install(|| {
                    measure(&mut big, o.seconds, |b| {
                        b.par_chunks_mut(PIECE).for_each(|p| {
                            let _ = bulk.encrypt_blocks_with(path, p);
                        })
                    })
                });
                let d = pool.install(|| {
                    measure(&mut big, o.seconds, |b| {
                        b.par_chunks_mut(PIECE).for_each(|p| {
                            let _ = bulk.decrypt_blocks_with(path, p);
                        })
                    })
                });
                format!(
                    "{:.0} ({:.0}) | {:.0} ({:.0}) | {:.2} ({:.2})",
                    e.mib_s,
                    e.best_mib_s,
                    d.mib_s,
                    d.best_mib_s,
                    e.mib_s / enc.mib_s,
                    e.best_mib_s / enc.best_mib_s
                )
            } else {
                " | | ".into()
            };
            let (enc_best, dec_best) = (enc.best_mib_s, dec.best_mib_s);
            println!(
                "| {v} | {} | {path} | {:.0} | {} | {enc_best:.0} | {:.0} | {} | {dec_best:.0} | {many} |",
                v.rounds(),
                enc.mib_s,
                cpb(&enc),
                dec.mib_s,
                cpb(&dec),
            );
        }
    }
}
