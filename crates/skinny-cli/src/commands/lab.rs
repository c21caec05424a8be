//! `skinny lab`: differential and boomerang experiments on reduced-round SKINNY
//! (the `skinny-lab` crate), their reports, and merging the reports of shards.

use crate::cli::{gpus_parser, threads_parser, CipherName, Trimmed};
use crate::error::CliError;
use clap::{Args, Subcommand};
use serde::{Deserialize, Serialize};
use skinny::Variant;
use skinny_lab::{Boomerang, Common, Control, Differential, LabError, Outcome, Pair, Quartet, Shard, Witness};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Examples shown under `skinny lab --help`.
const LAB_EXAMPLES: &str = "\
Examples:
  # 2^24 queries of a 1-round SKINNY-64-64 differential, a key every 4096:
  skinny lab differential --cipher skinny-64-64 --rounds 1 --dp 1000000000000000 \\
      --dc 3000300000003000 --queries 16777216
  # Shard 3 of 8 of a boomerang as JSON, then the merge of all eight:
  skinny lab boomerang --cipher skinny-128-256 --rounds 6 --dp ... --dc ... --queries 1e9 \\
      --shard 3/8 --json > part3.json
  skinny lab merge part*.json";

/// `skinny lab ...`.
#[derive(Debug, Args)]
#[command(after_help = LAB_EXAMPLES)]
pub struct LabArgs {
    /// Which experiment.
    #[command(subcommand)]
    pub command: LabCommand,
}

/// The lab's subcommands.
#[derive(Debug, Subcommand)]
pub enum LabCommand {
    /// Count pairs with (E_K(P) ^ E_{K^dk}(P ^ dp)) & mask == dc & mask.
    Differential(DifferentialArgs),
    /// Count returning related-tweakey boomerang quartets.
    Boomerang(BoomerangArgs),
    /// Combine the JSON reports of shards of one experiment.
    Merge(MergeArgs),
}

/// Options of both experiments.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// The SKINNY variant.
    #[arg(short, long, default_value = "skinny-128-256", value_name = "CIPHER", ignore_case = true,
          value_parser = Trimmed::<CipherName>::new())]
    pub cipher: CipherName,

    /// Rounds, 1 to the cipher's full count.
    #[arg(long, value_name = "R")]
    pub rounds: usize,

    /// The plaintext difference in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub dp: String,

    /// The ciphertext difference in hex, one block.
    #[arg(long, value_name = "HEX")]
    pub dc: String,

    /// Queries in the whole run (all shards together); `1e9` and `2^30` work too.
    #[arg(long, value_name = "N", value_parser = parse_count)]
    pub queries: u64,

    /// A fresh random key every K queries (K = 1: a new tweakey for every
    /// query). On the GPU every K runs at nearly the same speed; on the CPU
    /// small K cost more (each query's tweakey schedule is computed).
    #[arg(long, value_name = "K", default_value = "4096", value_parser = parse_count)]
    pub key_every: u64,

    /// The random generator's seed: same seed, same queries, same counts.
    #[arg(long, value_name = "S", default_value = "0")]
    pub seed: u64,

    /// Run only shard I of N (0-based): a contiguous range of the key groups.
    #[arg(long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<ShardArg>,

    /// Show (and put in the JSON) the first N right pairs or quartets.
    #[arg(long, value_name = "N", default_value = "0")]
    pub show: usize,

    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,

    /// Worker threads of the cpu backend, 1 to 1024 (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// Where the queries run: the bitsliced CPU code, an NVIDIA GPU, or auto
    /// (the GPU when one opens and the shard has at least 2^26 queries). Every
    /// backend counts the same queries: same counts, same right pairs.
    #[arg(short, long, value_enum, default_value = "auto", value_name = "BACKEND")]
    pub backend: LabBackendName,

    /// GPUs of the gpu and auto backends: all, a count N (the first N), or GPU
    /// numbers such as 0,2 (one GPU: 1,). The queries are split into one range
    /// per GPU: same counts, same right pairs, whatever the number of GPUs.
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: skinny_bulk::backend::GpuSelection,
}

/// `--backend` of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LabBackendName {
    /// The GPU for big shards when one opens, else the CPU.
    Auto,
    /// The bitsliced CPU code on every core.
    Cpu,
    /// An NVIDIA GPU (an error if none can be used).
    Gpu,
}

/// Below this many queries in the shard, `auto` stays on the CPU: opening a GPU
/// and compiling its kernels (about 0.3 s; more the first time, before the
/// kernel cache holds them) costs more than the CPU's whole run.
const AUTO_GPU_QUERIES: u64 = 1 << 26;

/// The backend a run uses, opened.
enum LabEngine {
    Cpu(usize),
    #[cfg(feature = "cuda")]
    Gpu(skinny_lab::gpu::GpuSet),
}

/// The GPUs of `--gpus`, opened.
#[cfg(feature = "cuda")]
fn open_gpus(sel: &skinny_bulk::backend::GpuSelection) -> Result<skinny_lab::gpu::GpuSet, CliError> {
    use skinny_lab::gpu::{Gpu, GpuSet};
    let count = Gpu::count().map_err(|e| CliError::Gpu(format!("--backend gpu: {e}")))?;
    if count == 0 {
        // GPU 0's own reason (no device), as before.
        Gpu::first().map_err(|e| CliError::Gpu(format!("--backend gpu: {e}")))?;
    }
    let ordinals = sel.resolve(count).map_err(|e| CliError::Usage(format!("--gpus {sel}: {e}")))?;
    GpuSet::open(&ordinals).map_err(|e| CliError::Gpu(format!("--backend gpu: {e}")))
}

impl LabEngine {
    fn open(a: &CommonArgs, common: &Common) -> Result<Self, CliError> {
        let cpu = LabEngine::Cpu(threads_used(a.threads));
        let queries = common.shard_queries();
        match a.backend {
            LabBackendName::Cpu => Ok(cpu),
            #[cfg(feature = "cuda")]
            LabBackendName::Gpu => open_gpus(&a.gpus).map(LabEngine::Gpu),
            #[cfg(not(feature = "cuda"))]
            LabBackendName::Gpu => {
                Err(CliError::Gpu("--backend gpu: this skinny was built without CUDA support".into()))
            }
            #[cfg(feature = "cuda")]
            LabBackendName::Auto if queries.end - queries.start >= AUTO_GPU_QUERIES => match open_gpus(&a.gpus) {
                Ok(set) => Ok(LabEngine::Gpu(set)),
                // A --gpus that does not fit the machine is the user's to fix.
                Err(e @ CliError::Usage(_)) if skinny_lab::gpu::Gpu::count().is_ok_and(|n| n > 0) => Err(e),
                Err(_) => Ok(cpu),
            },
            LabBackendName::Auto => Ok(cpu),
        }
    }

    /// What the report says ran it.
    fn ran(&self) -> Ran {
        match self {
            LabEngine::Cpu(threads) => Ran { backend: "cpu".into(), threads: Some(*threads) },
            #[cfg(feature = "cuda")]
            LabEngine::Gpu(set) if set.len() == 1 => Ran { backend: "gpu".into(), threads: None },
            #[cfg(feature = "cuda")]
            LabEngine::Gpu(set) => Ran { backend: format!("gpu x{}", set.len()), threads: None },
        }
    }
}

/// The backend and the CPU threads of a run, for its report.
struct Ran {
    backend: String,
    threads: Option<usize>,
}

/// `skinny lab differential`.
#[derive(Debug, Args)]
pub struct DifferentialArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The tweakey difference in hex (the whole tweakey; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk: Option<String>,

    /// Which ciphertext bits must match, in hex (default all).
    #[arg(long, value_name = "HEX")]
    pub dc_mask: Option<String>,
}

/// `skinny lab boomerang`.
#[derive(Debug, Args)]
pub struct BoomerangArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    /// The upper trail's tweakey difference (K2 = K1 ^ dk1; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk1: Option<String>,

    /// The lower trail's tweakey difference (K3 = K1 ^ dk2, K4 = K2 ^ dk2; default zero).
    #[arg(long, value_name = "HEX")]
    pub dk2: Option<String>,
}

/// `skinny lab merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// JSON reports written by `--json` (or by an earlier merge).
    #[arg(value_name = "FILES", required = true)]
    pub files: Vec<PathBuf>,

    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// `--shard I/N`.
#[derive(Clone, Copy, Debug)]
pub struct ShardArg(Shard);

fn parse_shard(s: &str) -> Result<ShardArg, String> {
    let (i, n) = s.trim().split_once('/').ok_or("expected I/N, such as 0/8")?;
    let i: u64 = i.trim().parse().map_err(|_| "I in I/N must be a whole number")?;
    let n: u64 = n.trim().parse().map_err(|_| "N in I/N must be a whole number")?;
    Shard::new(i, n).map(ShardArg).map_err(|_| format!("shard {i}/{n}: need N >= 1 and 0 <= I < N"))
}

/// A count: decimal, `1e9`-style or `2^30`-style, at least 1.
fn parse_count(s: &str) -> Result<u64, String> {
    let s = s.trim().replace('_', "");
    let v = if let Some((b, e)) = s.split_once('^') {
        let b: u64 = b.parse().map_err(|_| format!("bad base in {s}"))?;
        let e: u32 = e.parse().map_err(|_| format!("bad exponent in {s}"))?;
        b.checked_pow(e).ok_or_else(|| format!("{s} is too large"))?
    } else if let Some((m, e)) = s.split_once(['e', 'E']) {
        let m: u64 = m.parse().map_err(|_| format!("bad mantissa in {s}"))?;
        let e: u32 = e.parse().map_err(|_| format!("bad exponent in {s}"))?;
        10u64.checked_pow(e).and_then(|p| p.checked_mul(m)).ok_or_else(|| format!("{s} is too large"))?
    } else {
        s.parse().map_err(|_| format!("{s} is not a whole number"))?
    };
    if v == 0 {
        return Err("must be at least 1".into());
    }
    Ok(v)
}

/// The report of a run or a merge: what `--json` prints and `merge` reads.
#[derive(Debug, Serialize, Deserialize)]
pub struct Report {
    /// `differential` or `boomerang`.
    pub experiment: String,
    pub cipher: String,
    pub rounds: usize,
    pub dp: String,
    pub dc: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dk: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc_mask: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dk1: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dk2: Option<String>,
    /// Queries done (this shard, or all merged).
    pub queries: u64,
    /// Queries of the whole run.
    pub queries_total: u64,
    pub key_every: u64,
    pub seed: u64,
    /// The shard run, as "I/N" (the first one after a merge).
    pub shard: String,
    /// The shard indices covered (one unless merged).
    pub shards: Vec<u64>,
    /// Whether every shard of the run is in this report.
    pub complete: bool,
    /// Stopped early (Ctrl-C): the counts cover part of the shard; such a
    /// report is a fair sample but cannot be merged.
    #[serde(default)]
    pub interrupted: bool,
    pub hits: u64,
    /// log2(hits / queries), null when there are no hits.
    pub log2_p: Option<f64>,
    /// The 95 % Clopper-Pearson interval in log2; null for -inf.
    pub ci95: [Option<f64>; 2],
    /// Wall-clock seconds (summed over shards after a merge).
    pub seconds: f64,
    pub rate_per_s: f64,
    pub backend: String,
    /// The `skinny` that ran it (version and commit): shards merge only when
    /// the same code counted them.
    #[serde(default)]
    pub version: String,
    /// Threads used (null after a merge).
    pub threads: Option<usize>,
    pub show: usize,
    /// The first `show` right pairs (differential) or quartets (boomerang).
    pub right: Vec<Right>,
}

/// One right pair or quartet, in hex.
#[derive(Debug, Serialize, Deserialize)]
pub struct Right {
    pub query: u64,
    /// P, P' (differential); P1 .. P4 (boomerang).
    pub p: Vec<String>,
    /// C, C'; C1 .. C4.
    pub c: Vec<String>,
    /// K, K'; K1 .. K4.
    pub k: Vec<String>,
}

/// Runs a `skinny lab` subcommand.
pub fn run(args: &LabArgs) -> Result<(), CliError> {
    match &args.command {
        LabCommand::Differential(a) => {
            let exp = differential(a)?;
            let engine = LabEngine::open(&a.common, &exp.common)?;
            let run = |c: &Control| match &engine {
                LabEngine::Cpu(_) => exp.run_with(c),
                #[cfg(feature = "cuda")]
                LabEngine::Gpu(gpus) => exp.run_gpus(gpus, c),
            };
            experiment(&a.common, &exp.common, run, |o| differential_report(&exp, o, engine.ran()))
        }
        LabCommand::Boomerang(a) => {
            let exp = boomerang(a)?;
            let engine = LabEngine::open(&a.common, &exp.common)?;
            let run = |c: &Control| match &engine {
                LabEngine::Cpu(_) => exp.run_with(c),
                #[cfg(feature = "cuda")]
                LabEngine::Gpu(gpus) => exp.run_gpus(gpus, c),
            };
            experiment(&a.common, &exp.common, run, |o| boomerang_report(&exp, o, engine.ran()))
        }
        LabCommand::Merge(a) => {
            let report = merge(&a.files)?;
            print(&report, a.json)
        }
    }
}

/// The signal (SIGINT or SIGTERM) that interrupted an experiment, 0 if none.
static INTERRUPT: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_interrupt(signal: libc::c_int) {
    // Async-signal-safe: one atomic store; the watcher thread does the rest.
    INTERRUPT.store(signal, Ordering::Relaxed);
}

/// Ctrl-C and SIGTERM stop the experiment instead of the process, so that the
/// partial result is printed (signals the parent set to be ignored stay so).
fn catch_interrupts() {
    crate::signals::catch(&[libc::SIGINT, libc::SIGTERM], on_interrupt);
}

/// Runs `work` with a [`Control`] watched by a thread that draws the progress
/// bar (rate and ETA, on a terminal's stderr only) and turns an interrupt into
/// a stop request.
fn watched<T: Send>(
    a: &CommonArgs,
    common: &Common,
    work: impl FnOnce(&Control) -> Result<T, CliError> + Send,
) -> Result<T, CliError> {
    catch_interrupts();
    let control = Control::new();
    let queries = common.shard_queries();
    let planned = queries.end - queries.start;
    let bar = if !a.json && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(planned);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {wide_bar} {human_pos}/{human_len} queries, {per_sec}, eta {eta}",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let finished = AtomicBool::new(false);
    let result = std::thread::scope(|sc| {
        sc.spawn(|| {
            while !finished.load(Ordering::Relaxed) {
                if INTERRUPT.load(Ordering::Relaxed) != 0 {
                    control.stop();
                }
                bar.set_position(control.done());
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        let r = work(&control);
        finished.store(true, Ordering::Relaxed);
        r
    });
    bar.finish_and_clear();
    result
}

/// After the report of an interrupted run: one line and the conventional
/// status of a run stopped by Ctrl-C.
fn interrupted(r: &Report) -> Result<(), CliError> {
    if r.interrupted {
        let signal = match INTERRUPT.load(Ordering::Relaxed) {
            0 => libc::SIGINT,
            s => s,
        };
        return Err(CliError::Interrupted {
            message: format!(
                "interrupted after {} of {} queries: the result above covers those only",
                r.queries, r.queries_total
            ),
            signal,
        });
    }
    Ok(())
}

/// Runs an experiment on its pool, watched (progress, interrupts), and prints
/// its report; an interrupted run ends with the signal's status.
fn experiment<W: Send>(
    a: &CommonArgs,
    common: &Common,
    run: impl Fn(&Control) -> Result<Outcome<W>, LabError> + Sync,
    report: impl FnOnce(&Outcome<W>) -> Report,
) -> Result<(), CliError> {
    let outcome = watched(a, common, |control| in_pool(a.threads, || run(control)))?.map_err(lab_error)?;
    let report = report(&outcome);
    print(&report, a.json)?;
    interrupted(&report)
}

fn threads_used(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(rayon::current_num_threads)
}

fn in_pool<T: Send>(threads: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Io(format!("cannot start worker threads: {e}")))?;
    Ok(pool.install(f))
}

fn lab_error(e: LabError) -> CliError {
    match e {
        LabError::GpuMismatch { .. } => CliError::Check(e.to_string()),
        #[cfg(feature = "cuda")]
        LabError::Gpu(e) => CliError::Gpu(format!("GPU: {e}")),
        e => CliError::Usage(e.to_string()),
    }
}

/// A hex value of exactly `len` bytes, or a one-line usage error naming the option.
fn hex_of(option: &str, s: &str, len: usize, variant: Variant, what: &str) -> Result<Vec<u8>, CliError> {
    let t = s.trim();
    let t = t.strip_prefix("0x").unwrap_or(t);
    let v = hex::decode(t).map_err(|_| CliError::Usage(format!("{option}: not hex (0-9, a-f, an even count)")))?;
    if v.len() != len {
        return Err(CliError::Usage(format!(
            "{option} must be {len} bytes ({} hex digits, {what}) for {variant}, got {}",
            2 * len,
            crate::error::count(v.len() as u64, "byte")
        )));
    }
    Ok(v)
}

fn common(a: &CommonArgs) -> Result<(Common, Vec<u8>, Vec<u8>), CliError> {
    let variant = Variant::from(a.cipher);
    let block = variant.block_bytes();
    let dp = hex_of("--dp", &a.dp, block, variant, "one block")?;
    let dc = hex_of("--dc", &a.dc, block, variant, "one block")?;
    let mut c = Common::new(variant, a.rounds, a.queries);
    c.key_every = a.key_every;
    c.seed = a.seed;
    c.shard = a.shard.map_or(Shard::WHOLE, |s| s.0);
    c.show = a.show;
    Ok((c, dp, dc))
}

fn differential(a: &DifferentialArgs) -> Result<Differential, CliError> {
    let (c, dp, dc) = common(&a.common)?;
    let variant = c.variant;
    let mut exp = Differential::new(c, dp, dc);
    if let Some(dk) = &a.dk {
        exp.dk = hex_of("--dk", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    if let Some(m) = &a.dc_mask {
        exp.dc_mask = hex_of("--dc-mask", m, variant.block_bytes(), variant, "one block")?;
    }
    exp.check().map_err(lab_error)?;
    Ok(exp)
}

fn boomerang(a: &BoomerangArgs) -> Result<Boomerang, CliError> {
    let (c, dp, dc) = common(&a.common)?;
    let variant = c.variant;
    let mut exp = Boomerang::new(c, dp, dc);
    if let Some(dk) = &a.dk1 {
        exp.dk1 = hex_of("--dk1", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    if let Some(dk) = &a.dk2 {
        exp.dk2 = hex_of("--dk2", dk, variant.tweakey_bytes(), variant, "the whole tweakey")?;
    }
    exp.check().map_err(lab_error)?;
    Ok(exp)
}

/// The fields every report has, from an outcome.
fn base<W: Witness>(experiment: &str, o: &Outcome<W>, dp: &[u8], dc: &[u8], ran: Ran) -> Report {
    let c = &o.common;
    let e = o.estimate();
    Report {
        experiment: experiment.into(),
        cipher: c.variant.name().into(),
        rounds: c.rounds,
        dp: hex::encode(dp),
        dc: hex::encode(dc),
        dk: None,
        dc_mask: None,
        dk1: None,
        dk2: None,
        queries: o.queries,
        queries_total: c.queries,
        key_every: c.key_every,
        seed: c.seed,
        shard: format!("{}/{}", c.shard.index, c.shard.count),
        shards: o.shards.iter().map(|s| s.index).collect(),
        complete: o.is_complete() && !o.interrupted,
        interrupted: o.interrupted,
        hits: o.hits,
        log2_p: e.log2_p,
        ci95: [e.log2_lower, Some(e.log2_upper)],
        seconds: o.seconds,
        rate_per_s: o.rate(),
        backend: ran.backend,
        version: crate::cli::VERSION.into(),
        threads: ran.threads,
        show: c.show,
        right: Vec::new(),
    }
}

fn differential_report(exp: &Differential, o: &Outcome<Pair>, ran: Ran) -> Report {
    let mut r = base("differential", o, &exp.dp, &exp.dc, ran);
    r.dk = Some(hex::encode(&exp.dk));
    r.dc_mask = Some(hex::encode(&exp.dc_mask));
    r.right = o
        .right
        .iter()
        .map(|p| Right {
            query: p.query,
            p: vec![hex::encode(&p.p), hex::encode(&p.p2)],
            c: vec![hex::encode(&p.c), hex::encode(&p.c2)],
            k: vec![hex::encode(&p.k), hex::encode(&p.k2)],
        })
        .collect();
    r
}

fn boomerang_report(exp: &Boomerang, o: &Outcome<Quartet>, ran: Ran) -> Report {
    let mut r = base("boomerang", o, &exp.dp, &exp.dc, ran);
    r.dk1 = Some(hex::encode(&exp.dk1));
    r.dk2 = Some(hex::encode(&exp.dk2));
    let enc = |v: &[Vec<u8>; 4]| v.iter().map(hex::encode).collect::<Vec<_>>();
    r.right = o.right.iter().map(|q| Right { query: q.query, p: enc(&q.p), c: enc(&q.c), k: enc(&q.k) }).collect();
    r
}

/// Reads the reports and merges them with the library's merge, which checks
/// that they are shards of one experiment.
fn merge(files: &[PathBuf]) -> Result<Report, CliError> {
    let mut reports = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| CliError::Io(format!("cannot read {}: {}", f.display(), crate::error::reason(&e))))?;
        let r: Report = serde_json::from_str(&text)
            .map_err(|e| CliError::Usage(format!("{}: not a `skinny lab --json` report ({e})", f.display())))?;
        reports.push((f.display().to_string(), r));
    }
    let first = &reports[0].1;
    let kind = first.experiment.clone();
    for (name, r) in &reports {
        if r.experiment != kind
            || r.dp != first.dp
            || r.dc != first.dc
            || r.dk != first.dk
            || r.dc_mask != first.dc_mask
            || r.dk1 != first.dk1
            || r.dk2 != first.dk2
        {
            return Err(CliError::Usage(format!("{name}: a different experiment from {}", reports[0].0)));
        }
        if r.version != first.version {
            return Err(CliError::Usage(format!(
                "{name}: counted by skinny {:?}, {} by {:?}: merge reports of one version",
                r.version, reports[0].0, first.version
            )));
        }
    }
    let bad = |name: &str, what: String| CliError::Usage(format!("{name}: {what}"));
    // Backends count the same queries, so shards may come from different ones.
    let backend =
        if reports.iter().all(|(_, r)| r.backend == first.backend) { first.backend.clone() } else { "mixed".into() };
    let ran = || Ran { backend: backend.clone(), threads: None };
    match kind.as_str() {
        "differential" => {
            let mut acc: Option<Outcome<Pair>> = None;
            for (name, r) in &reports {
                let o = outcome(r, pair).map_err(|e| bad(name, e))?;
                acc = Some(match acc {
                    None => o,
                    Some(a) => a.merge(o).map_err(|e| bad(name, e.to_string()))?,
                });
            }
            let o = acc.expect("at least one file");
            let mut exp = Differential::new(o.common.clone(), unhex(&first.dp)?, unhex(&first.dc)?);
            exp.dk = unhex(first.dk.as_deref().unwrap_or_default())?;
            exp.dc_mask = unhex(first.dc_mask.as_deref().unwrap_or_default())?;
            Ok(differential_report(&exp, &o, ran()))
        }
        "boomerang" => {
            let mut acc: Option<Outcome<Quartet>> = None;
            for (name, r) in &reports {
                let o = outcome(r, quartet).map_err(|e| bad(name, e))?;
                acc = Some(match acc {
                    None => o,
                    Some(a) => a.merge(o).map_err(|e| bad(name, e.to_string()))?,
                });
            }
            let o = acc.expect("at least one file");
            let mut exp = Boomerang::new(o.common.clone(), unhex(&first.dp)?, unhex(&first.dc)?);
            exp.dk1 = unhex(first.dk1.as_deref().unwrap_or_default())?;
            exp.dk2 = unhex(first.dk2.as_deref().unwrap_or_default())?;
            Ok(boomerang_report(&exp, &o, ran()))
        }
        other => Err(CliError::Usage(format!("{}: unknown experiment {other:?}", reports[0].0))),
    }
}

fn unhex(s: &str) -> Result<Vec<u8>, CliError> {
    hex::decode(s).map_err(|_| CliError::Usage(format!("not hex in a report: {s:?}")))
}

/// A report back into the library's outcome, for merging.
fn outcome<W: Witness>(r: &Report, witness: impl Fn(&Right) -> Result<W, String>) -> Result<Outcome<W>, String> {
    let variant = Variant::ALL
        .into_iter()
        .find(|v| v.name() == r.cipher)
        .ok_or_else(|| format!("unknown cipher {:?}", r.cipher))?;
    let (i, n) = r.shard.split_once('/').ok_or("bad shard")?;
    let count: u64 = n.parse().map_err(|_| "bad shard")?;
    let index: u64 = i.parse().map_err(|_| "bad shard")?;
    let mut shards = Vec::new();
    for &s in &r.shards {
        shards.push(Shard::new(s, count).map_err(|e| e.to_string())?);
    }
    if shards.is_empty() {
        return Err("no shards".into());
    }
    let mut common = Common::new(variant, r.rounds, r.queries_total);
    common.key_every = r.key_every;
    common.seed = r.seed;
    common.shard = Shard::new(index, count).map_err(|e| e.to_string())?;
    common.show = r.show;
    let right = r.right.iter().map(witness).collect::<Result<Vec<W>, String>>()?;
    Ok(Outcome {
        common,
        shards,
        queries: r.queries,
        hits: r.hits,
        right,
        seconds: r.seconds,
        interrupted: r.interrupted,
    })
}

fn bytes(v: &[String], n: usize) -> Result<Vec<Vec<u8>>, String> {
    if v.len() != n {
        return Err(format!("a right pair with {} values, not {n}", v.len()));
    }
    v.iter().map(|s| hex::decode(s).map_err(|_| format!("not hex: {s:?}"))).collect()
}

fn pair(w: &Right) -> Result<Pair, String> {
    let [p, p2]: [Vec<u8>; 2] = bytes(&w.p, 2)?.try_into().expect("two");
    let [c, c2]: [Vec<u8>; 2] = bytes(&w.c, 2)?.try_into().expect("two");
    let [k, k2]: [Vec<u8>; 2] = bytes(&w.k, 2)?.try_into().expect("two");
    Ok(Pair { query: w.query, p, p2, c, c2, k, k2 })
}

fn quartet(w: &Right) -> Result<Quartet, String> {
    let four = |v: &[String]| -> Result<[Vec<u8>; 4], String> { Ok(bytes(v, 4)?.try_into().expect("four")) };
    Ok(Quartet { query: w.query, p: four(&w.p)?, c: four(&w.c)?, k: four(&w.k)? })
}

/// A log2 value for the table: -inf for none.
fn log2_text(v: Option<f64>) -> String {
    v.map_or_else(|| "-inf".into(), |x| format!("{x:.3}"))
}

fn print(r: &Report, json: bool) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let text = if json {
        let mut s = serde_json::to_string(r).map_err(|e| CliError::Io(format!("cannot write the report: {e}")))?;
        s.push('\n');
        s
    } else {
        table(r)
    };
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CliError::Output)
}

fn table(r: &Report) -> String {
    use std::fmt::Write as _;
    let mut s = String::new();
    let shard = if r.complete && r.shards.len() == 1 {
        String::new()
    } else {
        let n = r.shard.split_once('/').map_or("?", |(_, n)| n);
        format!(", shards {:?} of {n}", r.shards)
    };
    let _ = writeln!(
        s,
        "{} {}, {}, seed {}, a key every {}{shard}",
        r.experiment,
        r.cipher,
        crate::error::count(r.rounds as u64, "round"),
        r.seed,
        crate::error::count(r.key_every, "query").replace("querys", "queries")
    );
    let _ = writeln!(s, "queries     {} (of {})", r.queries, r.queries_total);
    let _ = writeln!(s, "hits        {}", r.hits);
    let _ = writeln!(
        s,
        "log2 p      {}   95% CI [{}, {}]",
        log2_text(r.log2_p),
        log2_text(r.ci95[0]),
        log2_text(r.ci95[1])
    );
    let _ = writeln!(s, "seconds     {:.3}", r.seconds);
    let _ = writeln!(s, "rate        {:.0} queries/s ({})", r.rate_per_s, r.backend);
    for w in &r.right {
        let _ = writeln!(s, "right #{}: P {}  C {}  K {}", w.query, w.p.join(" "), w.c.join(" "), w.k.join(" "));
    }
    s
}
