//! A gateway on loopback: simulated devices send sealed frames over UDP
//! (Romulus-N, each device its own key), and the gateway opens them through
//! the streaming front of the many-message engine (`skinny_many::stream`),
//! with each device's key looked up in a key store it loads from a file.
//!
//! For each flush deadline (1, 5 and 20 ms by default) it runs the load for
//! a while and reports the frames opened a second and the latency from each
//! frame's send timestamp to its completion (p50, p99, p99.9), and how many
//! frames were forged (altered in transit), from unknown devices, junk, or
//! dropped (lost by the socket or shed by a full front). It exits non-zero
//! if any unaltered frame failed to open or any altered one opened.
//!
//! The frame format is in `frame.rs`, the key store's in `keystore.rs`.
//!
//! ```text
//! cargo run --release -p skinny-many --example gateway -- [--duration SECONDS]
//!     [--devices N] [--rate FRAMES_PER_S] [--deadlines MS,MS,..] [--batch N]
//!     [--generators N] [--threads N] [--reading BYTES] [--gpu]
//! ```
//! `--gpu` opens on GPU 0 (a build with `--features cuda`).

mod frame;
mod keystore;
mod loadgen;
mod server;

use keystore::KeyStore;
use skinny_exec::Threads;
use skinny_many::stream::{Config, Op, Runner, Stream};
use skinny_many::{cpu, Scheme};
use std::net::UdpSocket;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    duration: Duration,
    devices: u32,
    rate: f64,
    deadlines: Vec<Duration>,
    batch: usize,
    generators: usize,
    threads: Option<usize>,
    reading: usize,
    gpu: bool,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        duration: Duration::from_secs(1),
        devices: 1000,
        rate: 20_000.0,
        deadlines: [1, 5, 20].map(Duration::from_millis).to_vec(),
        batch: 1024,
        generators: 2,
        threads: None,
        reading: 64,
        gpu: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--gpu" {
            a.gpu = true;
            continue;
        }
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("{flag}: bad value {value:?}");
        let number = |v: &str| v.trim().parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0).ok_or_else(bad);
        let count = || value.parse::<usize>().map_err(|_| bad());
        match flag.as_str() {
            "--duration" => a.duration = Duration::from_secs_f64(number(&value)?),
            "--devices" => a.devices = value.parse().map_err(|_| bad())?,
            "--rate" => a.rate = number(&value)?,
            "--deadlines" => {
                a.deadlines = value
                    .split(',')
                    .map(|ms| number(ms).map(|ms| Duration::from_secs_f64(ms / 1e3)))
                    .collect::<Result<_, _>>()?
            }
            "--batch" => a.batch = count()?,
            "--generators" => a.generators = count()?,
            "--threads" => a.threads = Some(count()?),
            "--reading" => a.reading = count()?,
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if a.devices == 0 || a.generators == 0 || a.rate <= 0.0 || a.batch == 0 || a.deadlines.iter().any(Duration::is_zero)
    {
        return Err("devices, generators, rate, batch and deadlines must be above 0".into());
    }
    Ok(a)
}

/// A directory of the run's own, removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The engine the front dispatches to.
fn runner(args: &Args) -> Result<(Arc<dyn Runner>, String), Box<dyn std::error::Error>> {
    if args.gpu {
        #[cfg(feature = "cuda")]
        {
            let gpu = skinny_many::gpu::GpuMany::new(0)?;
            let name = gpu.describe();
            return Ok((Arc::new(gpu), name));
        }
        #[cfg(not(feature = "cuda"))]
        return Err("--gpu needs a build with --features cuda".into());
    }
    let engine = cpu::Engine::new(Threads::from_count(args.threads))?;
    let name = format!("CPU, {} worker threads", engine.threads());
    Ok((Arc::new(engine), name))
}

/// The `p`-quantile of sorted `v`, in milliseconds.
fn quantile_ms(v: &[u64], p: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let i = ((p * v.len() as f64).ceil() as usize).clamp(1, v.len()) - 1;
    v[i] as f64 / 1e6
}

fn main() -> std::process::ExitCode {
    let args = match args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("gateway: {e}");
            }
            eprintln!("usage: gateway [--duration S] [--devices N] [--rate F/S] [--deadlines MS,..] [--batch N] [--generators N] [--threads N] [--reading B] [--gpu]");
            return std::process::ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("gateway: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<bool, Box<dyn std::error::Error>> {
    let seed = 0x5eed_0f6a_7e3a_7500;
    // The key store a provisioning system would have exported.
    let dir = TempDir(std::env::temp_dir().join(format!("skinny-gateway-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0)?;
    let store = dir.0.join("devices.keys");
    keystore::write(&store, args.devices, seed)?;
    let keys = KeyStore::load(&store)?;
    let (engine, name) = runner(args)?;
    println!(
        "gateway: Romulus-N, {} devices in the key store, {} frames/s offered by {} generator threads for {:.1} s per deadline, {}-byte readings, target batch {}, {name}",
        keys.len(),
        args.rate,
        args.generators,
        args.duration.as_secs_f64(),
        args.reading,
        args.batch
    );
    println!(
        "{:>9} {:>8} {:>8} {:>8} {:>10} {:>8} {:>8} {:>8} {:>7} {:>7} {:>6} {:>7}",
        "deadline",
        "sent",
        "received",
        "opened",
        "opened/s",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "forged",
        "unknown",
        "junk",
        "dropped"
    );
    let mut ok = true;
    for &deadline in &args.deadlines {
        let socket = UdpSocket::bind("127.0.0.1:0")?;
        let addr = socket.local_addr()?;
        let config = Config::new(Scheme::RomulusN, Op::Open)
            .target(args.batch)
            .deadline(deadline)
            .max_messages(64 * args.batch.max(64));
        let front = Stream::new(config, Arc::clone(&engine))?;
        let plan = loadgen::Plan {
            devices: args.devices,
            rate: args.rate,
            duration: args.duration,
            generators: args.generators,
            tamper_every: 997,
            unknown_every: 1499,
            junk_every: 4999,
            reading: args.reading,
            seed,
        };
        let sent = loadgen::Sent::default();
        let stop = AtomicBool::new(false);
        let epoch = Instant::now();
        let (tally, generated) = std::thread::scope(|scope| {
            let gateway = scope.spawn(|| server::serve(&socket, &keys, &front, &stop, epoch, plan.tamper_every));
            let generated = loadgen::run(&plan, addr, epoch, &sent);
            stop.store(true, Ordering::Release);
            (gateway.join(), generated)
        });
        generated?;
        let mut tally = tally.map_err(|_| "the gateway thread panicked")??;
        tally.latency_ns.sort_unstable();
        let total = sent.total();
        let dropped = total.saturating_sub(tally.received) + tally.shed;
        let rate = tally.opened as f64 / tally.busy.as_secs_f64().max(1e-9);
        println!(
            "{:>6.1} ms {:>8} {:>8} {:>8} {:>10.0} {:>8.3} {:>8.3} {:>8.3} {:>7} {:>7} {:>6} {:>7}",
            deadline.as_secs_f64() * 1e3,
            total,
            tally.received,
            tally.opened,
            rate,
            quantile_ms(&tally.latency_ns, 0.5),
            quantile_ms(&tally.latency_ns, 0.99),
            quantile_ms(&tally.latency_ns, 0.999),
            tally.forged,
            tally.unknown,
            tally.junk,
            dropped
        );
        if tally.shed > 0 {
            println!("  of which {} shed by a full front (the rest lost by the socket)", tally.shed);
        }
        let tampered = sent.tampered.load(Ordering::Relaxed);
        if tally.authentic_failed > 0 || tally.tampered_opened > 0 || tally.engine_failed > 0 {
            println!(
                "  FAILED: {} unaltered frames did not open, {} altered frames opened, {} engine failures",
                tally.authentic_failed, tally.tampered_opened, tally.engine_failed
            );
            ok = false;
        }
        if tally.forged > tampered || tally.unknown > sent.unknown.load(Ordering::Relaxed) {
            println!("  FAILED: more frames refused than were altered or unknown");
            ok = false;
        }
    }
    println!("gateway: {}", if ok { "every unaltered frame opened, no altered frame did" } else { "FAILED" });
    Ok(ok)
}
