//! A dudect-style timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my
//! code constant time?", DATE 2017) for the paths valgrind cannot run
//! (AVX-512), and any other: each measurement times one call on inputs of one
//! of two classes, chosen at random per measurement: class 0 a fixed key and
//! fixed data, class 1 a random key and random data. Welch's t statistic
//! between the two classes' cycle counts, on all measurements and on those
//! below each of several percentiles (cropping, as dudect does, to drop
//! interrupts and other noise), must stay small: dudect calls |t| above 10
//! "probably not constant time" and above 500 "definitely not"; below 4.5 no
//! leak is seen.
//!
//! ```text
//! dudect [--seconds S] [TARGET ...]     S seconds per target (default 10)
//! dudect --list                         the targets this CPU can run
//! ```
//!
//! Targets: `bitsliced-<path>` (one key, one batch), `per-block-<path>` (a
//! tweakey per block), `per-block-tk1-<path>`, `single-<path>`,
//! `single-decrypt-<path>`, `lanes-<path>` (three blocks under one whole
//! tweakey, as a hash's compression function), and the
//! positive control `leaky-compare` (a byte compare that stops at the first
//! difference: its |t| must be large, or the test has no power). By default
//! every target this CPU runs. Times with `rdtsc` between `lfence`s on
//! x86-64 (`Instant` elsewhere); pin it to one core (`taskset -c 2`).

use skinny::hazmat::bitsliced::{self, PerBlockTk1, PerBlockTweakeys};
use skinny::hazmat::round_tweakeys;
use skinny::hazmat::single;
use skinny::{Skinny, Variant};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Measurements per round of input preparation.
const CHUNK: usize = 2000;
/// Measurements dropped at the start (warm-up).
const WARMUP: usize = 2000;

fn main() {
    let mut seconds = 10.0;
    let mut targets = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => seconds = args.next().and_then(|s| s.parse().ok()).expect("--seconds takes a number"),
            "--list" => {
                available().iter().for_each(|t| println!("{t}"));
                return;
            }
            "--bench" => {} // cargo's argument for benchmarks; nothing to do
            _ => targets.push(a),
        }
    }
    if targets.is_empty() {
        targets = available();
    }
    println!("dudect: {seconds} s per target; |t| > 10: probably not constant time, > 500: definitely not");
    let mut worst_real: f64 = 0.0;
    for t in &targets {
        let Some(target) = Target::parse(t) else {
            eprintln!("dudect: unknown or unavailable target {t} (see --list)");
            std::process::exit(2);
        };
        let r = measure(&target, Duration::from_secs_f64(seconds));
        println!(
            "{t:<28} {:>9} measurements, max |t| {:>7.2} (at {}), median {} cycles: {}",
            r.count,
            r.max_t.abs(),
            r.at,
            r.median,
            verdict(r.max_t.abs())
        );
        if t != "leaky-compare" {
            worst_real = worst_real.max(r.max_t.abs());
        }
    }
    println!("largest |t| over the real targets: {worst_real:.2}");
}

fn verdict(t: f64) -> &'static str {
    if t > 500.0 {
        "definitely not constant time"
    } else if t > 10.0 {
        "probably not constant time"
    } else if t > 4.5 {
        "inconclusive (4.5 < |t| <= 10)"
    } else {
        "no leak seen"
    }
}

/// Every target this CPU runs.
fn available() -> Vec<String> {
    let mut v = Vec::new();
    for p in bitsliced::Path::ALL.into_iter().filter(|p| p.is_available()) {
        for kind in ["bitsliced", "per-block", "per-block-tk1"] {
            v.push(format!("{kind}-{}", p.name()));
        }
    }
    for p in single::Path::ALL.into_iter().filter(|p| p.is_available()) {
        v.push(format!("single-{}", p.name()));
        v.push(format!("single-decrypt-{}", p.name()));
        v.push(format!("lanes-{}", p.name()));
    }
    v.push("leaky-compare".into());
    v
}

/// What one measurement runs, and its inputs for both classes.
enum Target {
    /// `Skinny::encrypt_blocks_with` on one batch (masks built in the call).
    Bitsliced(bitsliced::Path),
    /// `PerBlockTweakeys` on one batch.
    PerBlock(bitsliced::Path),
    /// `PerBlockTk1` on one batch (the key's masks built outside the timing).
    PerBlockTk1(bitsliced::Path),
    /// One block on a single-block path.
    Single(single::Path),
    /// One block decrypted on a single-block path.
    SingleDecrypt(single::Path),
    /// Three blocks under one whole tweakey (`single::encrypt_lanes_with`, a
    /// hash's compression function).
    Lanes(single::Path),
    /// A compare that stops at the first differing byte (must leak).
    LeakyCompare,
}

impl Target {
    fn parse(name: &str) -> Option<Target> {
        if name == "leaky-compare" {
            return Some(Target::LeakyCompare);
        }
        let bs = |p: &str| bitsliced::Path::from_name(p).filter(|p| p.is_available());
        if let Some(p) = name.strip_prefix("per-block-tk1-") {
            return bs(p).map(Target::PerBlockTk1);
        }
        if let Some(p) = name.strip_prefix("per-block-") {
            return bs(p).map(Target::PerBlock);
        }
        if let Some(p) = name.strip_prefix("bitsliced-") {
            return bs(p).map(Target::Bitsliced);
        }
        let one = |p: &str| single::Path::ALL.into_iter().find(|q| q.name() == p && q.is_available());
        if let Some(p) = name.strip_prefix("single-decrypt-") {
            return one(p).map(Target::SingleDecrypt);
        }
        if let Some(p) = name.strip_prefix("lanes-") {
            return one(p).map(Target::Lanes);
        }
        one(name.strip_prefix("single-")?).map(Target::Single)
    }

    /// The variant (the widest tweakey: the most key material per call).
    const VARIANT: Variant = Variant::Skinny128_384;

    /// Times one call with `key` and `data` (of [`Target::input_len`]).
    fn time(&self, key: &[u8], data: &mut [u8]) -> u64 {
        let v = Self::VARIANT;
        match *self {
            Target::Bitsliced(p) => {
                let c = Skinny::new(v, key).expect("tweakey length");
                cycles(|| c.encrypt_blocks_with(p, data).expect("available"))
            }
            Target::PerBlock(p) => {
                let e = PerBlockTweakeys::new(v, v.rounds()).expect("rounds").on_path(p).expect("available");
                let n = data.len() / 16;
                cycles(|| e.encrypt(data, &key[..n * 48]))
            }
            Target::PerBlockTk1(p) => {
                let e = PerBlockTk1::new(v, v.rounds(), &key[..48]).expect("setup").on_path(p).expect("available");
                let n = data.len() / 16;
                cycles(|| e.encrypt(data, &key[48..48 + n * 16]))
            }
            Target::Single(p) => {
                let c = Skinny::new(v, &key[..48]).expect("tweakey length");
                let rtk = round_tweakeys(&c);
                cycles(|| single::encrypt_block_with(p, v.cell_width(), rtk, data).expect("available"))
            }
            Target::SingleDecrypt(p) => {
                let c = Skinny::new(v, &key[..48]).expect("tweakey length");
                let rtk = round_tweakeys(&c);
                cycles(|| single::decrypt_block_with(p, v.cell_width(), rtk, data).expect("available"))
            }
            Target::Lanes(p) => {
                let (blocks, _) = data.as_chunks_mut::<16>();
                cycles(|| single::encrypt_lanes_with(p, &key[..48], v.rounds(), blocks).expect("available"))
            }
            Target::LeakyCompare => {
                let reference = [0x5au8; 64];
                cycles(|| {
                    black_box(leaky_eq(black_box(&reference), black_box(&key[..64])));
                })
            }
        }
    }

    /// (key bytes, data bytes) per measurement.
    fn input_len(&self) -> (usize, usize) {
        match *self {
            Target::Bitsliced(p) => (48, p.batch_blocks() * 16),
            Target::PerBlock(p) => (p.batch_blocks() * 48, p.batch_blocks() * 16),
            Target::PerBlockTk1(p) => (48 + p.batch_blocks() * 16, p.batch_blocks() * 16),
            Target::Single(_) | Target::SingleDecrypt(_) => (48, 16),
            Target::Lanes(_) => (48, 48),
            Target::LeakyCompare => (64, 0),
        }
    }

    /// Class 0's fixed key: all zero, except the control's (equal to its
    /// reference, so the compare runs to the end).
    fn fixed_key(&self, len: usize) -> Vec<u8> {
        match self {
            Target::LeakyCompare => vec![0x5a; len],
            _ => vec![0; len],
        }
    }
}

#[inline(never)]
fn leaky_eq(a: &[u8], b: &[u8]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return false;
        }
    }
    true
}

/// The cycles `f` takes (rdtsc between lfences on x86-64, nanoseconds elsewhere).
#[inline(always)]
fn cycles(f: impl FnOnce()) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: lfence and rdtsc exist on every x86-64 CPU.
        let start = unsafe {
            _mm_lfence();
            _rdtsc()
        };
        f();
        // SAFETY: as above.
        let end = unsafe {
            _mm_lfence();
            _rdtsc()
        };
        end.wrapping_sub(start)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let t = Instant::now();
        f();
        t.elapsed().as_nanos() as u64
    }
}

/// Online mean and variance (Welford) of one class.
#[derive(Clone, Copy, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }
}

/// Welch's t between the two classes.
fn welch(c: &[Moments; 2]) -> f64 {
    if c[0].n < 2.0 || c[1].n < 2.0 {
        return 0.0;
    }
    let var = |m: &Moments| m.m2 / (m.n - 1.0);
    let se = (var(&c[0]) / c[0].n + var(&c[1]) / c[1].n).sqrt();
    if se == 0.0 {
        0.0
    } else {
        (c[0].mean - c[1].mean) / se
    }
}

struct Measured {
    count: usize,
    max_t: f64,
    at: String,
    median: u64,
}

/// Measures `target` for `budget`: dudect's tests on all measurements and
/// cropped below percentiles taken from the warm-up.
fn measure(target: &Target, budget: Duration) -> Measured {
    let (key_len, data_len) = target.input_len();
    let fixed_key = target.fixed_key(key_len);
    let fixed_data = vec![0u8; data_len];
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64);
    let mut rng = SplitMix(seed);
    // Percentile cuts: dudect's 1 - 0.5^(10 (i+1) / N), here N = 20.
    let fractions: Vec<f64> = (0..20).map(|i| 1.0 - 0.5f64.powf(10.0 * (i as f64 + 1.0) / 20.0)).collect();
    let mut cuts: Vec<u64> = Vec::new();
    let mut tests = vec![[Moments::default(); 2]; fractions.len() + 1];
    let mut warm = Vec::with_capacity(WARMUP);
    let mut all = Vec::new();
    let start = Instant::now();
    let mut keys = vec![0u8; CHUNK * key_len];
    let mut datas = vec![0u8; CHUNK * data_len];
    let mut classes = vec![0u8; CHUNK];
    while start.elapsed() < budget {
        // Inputs for a chunk, prepared outside the timed calls.
        for (i, class) in classes.iter_mut().enumerate() {
            *class = (rng.next() & 1) as u8;
            let (k, d) = (&mut keys[i * key_len..][..key_len], &mut datas[i * data_len..][..data_len]);
            if *class == 0 {
                k.copy_from_slice(&fixed_key);
                d.copy_from_slice(&fixed_data);
            } else {
                rng.fill(k);
                rng.fill(d);
            }
        }
        for (i, &class) in classes.iter().enumerate() {
            let t = target.time(&keys[i * key_len..][..key_len], &mut datas[i * data_len..][..data_len]);
            if warm.len() < WARMUP {
                warm.push(t);
                if warm.len() == WARMUP {
                    let mut s = warm.clone();
                    s.sort_unstable();
                    cuts = fractions.iter().map(|f| s[((s.len() as f64 * f) as usize).min(s.len() - 1)]).collect();
                }
                continue;
            }
            let class = usize::from(class);
            tests[0][class].push(t as f64);
            for (j, &cut) in cuts.iter().enumerate() {
                if t < cut {
                    tests[j + 1][class].push(t as f64);
                }
            }
            if all.len() < 1_000_000 {
                all.push(t);
            }
        }
    }
    let mut best = (0.0f64, String::from("all"));
    for (j, m) in tests.iter().enumerate() {
        // dudect ignores tests with too few measurements to mean anything.
        if m[0].n + m[1].n < 10_000.0 {
            continue;
        }
        let t = welch(m);
        if t.abs() > best.0.abs() {
            best = (t, if j == 0 { "all".into() } else { format!("p{:.1}", 100.0 * fractions[j - 1]) });
        }
    }
    all.sort_unstable();
    let median = all.get(all.len() / 2).copied().unwrap_or(0);
    Measured { count: tests[0][0].n as usize + tests[0][1].n as usize, max_t: best.0, at: best.1, median }
}

/// SplitMix64: the classes and the random inputs.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn fill(&mut self, out: &mut [u8]) {
        for c in out.chunks_mut(8) {
            let x = self.next().to_le_bytes();
            c.copy_from_slice(&x[..c.len()]);
        }
    }
}
