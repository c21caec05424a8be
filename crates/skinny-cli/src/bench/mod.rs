//! `skinny bench`: throughput of every backend, and `--paper`, the paper's
//! experiment (Tables 3-4, Figures 6-7) redone.
//!
//! - [`plan`]: the arguments checked and turned into what to measure;
//! - [`measure`]: the timing (end to end through an engine, kernel-only through
//!   a device timer) and the statistics;
//! - [`report`]: header, paper-style tables, CSV and JSON;
//! - [`svg`]: the throughput charts, and the speed-up and efficiency charts;
//! - [`stats`]: means, medians, spreads;
//! - [`side`]: saved results read back, beside the paper's own tables;
//! - [`system`]: what it ran on.

mod files;
mod measure;
mod plan;
mod report;
mod side;
mod stats;
mod svg;
mod system;

use crate::cli::{number_in, threads_parser, BenchBackend, BenchMode, CipherName, Trimmed};
use crate::error::{reason, CliError};
use clap::builder::RangedU64ValueParser;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use measure::{Observer, Subject};
use plan::Plan;
use report::{Report, Setup};
use skinny::{Skinny, Variant};
use skinny_bulk::backend::{self, BackendChoice};
use skinny_bulk::mode::{Direction, Mode};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;
use zeroize::Zeroizing;

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Reproduce the paper's experiment: SKINNY-128-256, ECB and CTR, 16 B doubling
    /// to 64 MiB (23 sizes), 10 runs per size, backends cpu-serial, cpu, gpu-paper
    /// and gpu. Other options override single parts of it.
    #[arg(long)]
    pub paper: bool,

    /// The SKINNY variant.
    #[arg(short, long, default_value = "skinny-128-256", value_name = "CIPHER", ignore_case = true,
          value_parser = Trimmed::<CipherName>::new())]
    pub cipher: CipherName,

    /// Comma list of modes [default: ecb,ctr].
    #[arg(long, value_name = "LIST", value_delimiter = ',', ignore_case = true,
          value_parser = Trimmed::<BenchMode>::new())]
    pub modes: Option<Vec<BenchMode>>,

    /// Comma list of backends [default: cpu,gpu; with --paper all four].
    /// Backends that cannot run here are skipped with a notice.
    #[arg(long, value_name = "LIST", value_delimiter = ',', ignore_case = true,
          value_parser = Trimmed::<BenchBackend>::new())]
    pub backends: Option<Vec<BenchBackend>>,

    /// Series of the GPU backends, a comma list of end-to-end (e2e), kernel,
    /// pageable (end to end through plain pageable copies, as the paper's
    /// program) and cold (every operation opens the key's engine, allocates,
    /// uploads, copies, runs and frees) [default: end-to-end,kernel; with
    /// --paper all four]. CPU backends are end to end only.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = timing_parser)]
    pub timings: Option<Vec<measure::Timing>>,

    /// Timed runs per size, after a warm-up call, 1 to 1000 [default: 5; with
    /// --paper 10].
    #[arg(long, value_name = "N", value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_RUNS))]
    pub runs: Option<usize>,

    /// Sizes: MIN..MAX doubling from MIN (e.g. 16..64M), one size, or a comma list;
    /// binary suffixes K, M, G [default: 1K..64M; with --paper 16..64M].
    #[arg(long, value_name = "MIN..MAX")]
    pub sizes: Option<String>,

    /// Also measure decryption.
    #[arg(long)]
    pub decrypt: bool,

    /// Worker threads for the cpu backend, 1 to 1024 (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// GPUs of the gpu, gpu-paper and auto backends: all, a count N (the first
    /// N), or GPU numbers such as 0,2 (one GPU: 1,).
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = crate::cli::gpus_parser)]
    pub gpus: skinny_bulk::backend::GpuSelection,

    /// Stop timing a size once its runs have taken this many seconds, 0 to 86400
    /// (keeping at least 3 runs): bounds slow backends at the largest sizes.
    #[arg(long, value_name = "SECONDS", value_parser = number_in(0.0, MAX_TIME_PER_SIZE_S))]
    pub max_time_per_size: Option<f64>,

    /// Each timed run lasts at least this long, 0 to 10000 ms: operations on tiny
    /// sizes are repeated inside a run and the time divided.
    #[arg(long, default_value_t = 2.0, value_name = "MS", value_parser = number_in(0.0, MAX_MIN_RUN_MS))]
    pub min_run_ms: f64,

    /// Write one CSV line per variant, mode, direction, backend, timing and size.
    #[arg(long, value_name = "PATH")]
    pub csv: Option<PathBuf>,

    /// Write the results and the header facts as JSON.
    #[arg(long, value_name = "PATH")]
    pub json: Option<PathBuf>,

    /// Draw throughput against size (the paper's Figures 6 and 7) as SVG.
    #[arg(long, value_name = "PATH")]
    pub plot: Option<PathBuf>,

    /// Draw the speed-up E and the efficiency S against cpu-serial, by size,
    /// ECB and CTR together, as SVG (with --paper-tables, the paper's own beside).
    #[arg(long, value_name = "PATH")]
    pub speedup_plot: Option<PathBuf>,

    /// Measure nothing: read the results of earlier runs (the JSON of --json;
    /// a comma list of repeats of one experiment, pooled point by point) and
    /// print or draw them (--paper-tables, --plot, --speedup-plot).
    #[arg(long, value_name = "JSON,...", value_delimiter = ',', conflicts_with_all = ["paper", "files", "csv", "json"])]
    pub from_json: Option<Vec<PathBuf>>,

    /// With --from-json: print, in Markdown, the paper's Tables 3 and 4 (a
    /// transcription: CSV with a certainty per cell, docs/paper-tables.csv)
    /// beside the results, size by size, with means, medians and the spread
    /// between repeats.
    #[arg(long, value_name = "CSV", requires = "from_json")]
    pub paper_tables: Option<PathBuf>,

    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,

    /// Time what a user sees instead: a file to a file in the temporary folder
    /// (set TMPDIR=/dev/shm for files in memory) through the library's
    /// overlapped pipe, by backend (auto included) and size, beside a plain
    /// copy of the file. Prints one table; --csv, --json and --plot do not apply.
    #[arg(long, conflicts_with_all = ["paper", "csv", "json", "plot"])]
    pub files: bool,
}

/// The most `--runs`: the paper takes 10; more than this only heats the room.
const MAX_RUNS: u64 = 1000;

/// The most `--max-time-per-size`, in seconds: a day.
const MAX_TIME_PER_SIZE_S: f64 = 86_400.0;

/// The most `--min-run-ms`: ten seconds per timed run.
const MAX_MIN_RUN_MS: f64 = 10_000.0;

/// `--timings`: one timing by name.
fn timing_parser(s: &str) -> Result<measure::Timing, String> {
    measure::Timing::from_name(s)
        .ok_or_else(|| format!("unknown timing '{s}' (expected end-to-end, kernel, pageable or cold)"))
}

/// Refuses an SVG output path with another extension.
fn check_svg(p: &Path, option: &str) -> Result<(), CliError> {
    check_output(p)?;
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    if ext != "svg" {
        return Err(CliError::Usage(format!(
            "{option} writes SVG only (no PNG or other formats); give a path ending in .svg, not '{}'",
            p.display()
        )));
    }
    Ok(())
}

/// Runs the benchmark.
///
/// # Errors
/// A message for the user: bad arguments, no usable backend, a file not written.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    if let Some(p) = &args.plot {
        check_svg(p, "--plot")?;
    }
    if let Some(p) = &args.speedup_plot {
        check_svg(p, "--speedup-plot")?;
    }
    if let Some(files) = &args.from_json {
        return side::run(files, args.paper_tables.as_deref(), args.plot.as_deref(), args.speedup_plot.as_deref());
    }
    let plan = make_plan(args).map_err(CliError::Usage)?;
    if plan.backends.iter().any(|b| b.needs_gpu() || *b == BackendChoice::Auto) {
        skinny_bulk::backend::check_gpus(&plan.gpus)?;
    }
    for p in [&args.csv, &args.json].into_iter().flatten() {
        check_output(p)?;
    }

    // A random key, wiped after expansion (the cipher wipes its own copy).
    let key = Zeroizing::new(measure::random_bytes(plan.variant.tweakey_bytes()));
    let cipher = Skinny::new(plan.variant, &key).map_err(|e| CliError::Usage(e.to_string()))?;
    drop(key);
    if args.files {
        let mut out = io::stdout().lock();
        return files::run(&plan, &cipher, &mut out);
    }

    let (mut subjects, skipped) = open_subjects(&plan, &cipher);
    for (name, why) in &skipped {
        // A full or closed stderr must not stop (or panic) the measurement.
        let _ = writeln!(io::stderr(), "skinny: bench: skipping {name}: {why}");
    }
    if subjects.is_empty() {
        let why: Vec<String> = skipped.iter().map(|(n, w)| format!("{n}: {w}")).collect();
        return Err(CliError::Usage(format!("no requested backend can run here ({})", why.join("; "))));
    }

    let info = system::SystemInfo::gather();
    let setups: Vec<Setup> = subjects
        .iter()
        .map(|s| Setup {
            backend: s.name,
            description: s.backend.describe(),
            constant_time: s.backend.constant_time(),
            open_ms: s.open_secs * 1e3,
            engine_ms: s.engine_secs * 1e3,
        })
        .collect();
    let mut report = Report { info: &info, plan: &plan, setups, skipped, records: Vec::new() };
    let mut stdout = Stdout::default();
    stdout.print(&report.header());
    // With stdout gone and no file asked for, nobody would see the results.
    let files_asked = args.csv.is_some() || args.json.is_some() || args.plot.is_some() || args.speedup_plot.is_some();
    if !files_asked {
        stdout.result()?;
    }

    let points: usize = subjects.iter().map(|s| s.timings().len()).sum::<usize>()
        * plan.sizes.len()
        * plan.modes.len()
        * plan.directions.len();
    let mut bar = Bar::new(points as u64, args.quiet);
    report.records = measure::measure_all(&plan, &cipher, &mut subjects, &mut bar);
    bar.finish();
    if report.records.is_empty() {
        return Err(CliError::Check("no measurement succeeded".into()));
    }

    stdout.print(&report.tables());
    // The files are written whether or not stdout still works: they are what a
    // scripted run (`skinny bench --json r.json | head`) is after.
    if let Some(p) = &args.csv {
        write_atomic(p, report.csv().as_bytes())?;
    }
    if let Some(p) = &args.json {
        let json = report.json().map_err(|e| CliError::Io(format!("cannot write '{}': {e}", p.display())))?;
        write_atomic(p, json.as_bytes())?;
    }
    let subtitle = format!(
        "skinny {} ({}), {}, {} CPUs; {}",
        info.version,
        info.commit,
        info.cpu,
        info.cores,
        if info.gpu_found { info.gpus.join("; ") } else { "no GPU".into() }
    );
    if let Some(p) = &args.plot {
        write_atomic(p, svg::render(&plan, &report.records, &subtitle).as_bytes())?;
    }
    if let Some(p) = &args.speedup_plot {
        let series = svg::speedup_series(&report.records, &[]);
        write_atomic(p, svg::render_speedups(&series, &subtitle).as_bytes())?;
    }
    stdout.result()
}

/// Stdout for the tables: the first write error is kept, and later writes are
/// skipped, so a closed pipe or a full disk never stops the run before its
/// files are written; [`Stdout::result`] reports it.
#[derive(Default)]
struct Stdout {
    failed: Option<io::Error>,
}

impl Stdout {
    fn print(&mut self, text: &str) {
        if self.failed.is_none() {
            let mut out = io::stdout().lock();
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                self.failed = Some(e);
            }
        }
    }

    fn result(&mut self) -> Result<(), CliError> {
        self.failed.take().map_or(Ok(()), |e| Err(CliError::Output(e)))
    }
}

/// The arguments, with the `--paper` preset or the plain defaults under them.
fn make_plan(a: &BenchArgs) -> Result<Plan, String> {
    let variant: Variant = a.cipher.into();
    let modes: Vec<Mode> = match &a.modes {
        Some(list) => distinct(list.iter().map(|&m| m.into())),
        None => vec![Mode::Ecb, Mode::Ctr],
    };
    let backends: Vec<BackendChoice> = match &a.backends {
        Some(list) => distinct(list.iter().map(|&b| b.into())),
        None if a.paper => {
            vec![BackendChoice::CpuSerial, BackendChoice::Cpu, BackendChoice::GpuPaper, BackendChoice::Gpu]
        }
        None => vec![BackendChoice::Cpu, BackendChoice::Gpu],
    };
    let default_sizes = if a.paper { format!("{}..{}", plan::PAPER_MIN, plan::PAPER_MAX) } else { "1K..64M".into() };
    let sizes = plan::parse_sizes(a.sizes.as_deref().unwrap_or(&default_sizes), variant.block_bytes())?;
    // clap has checked the ranges of the numbers.
    let runs = a.runs.unwrap_or(if a.paper { plan::PAPER_RUNS } else { 5 });
    let timings = match &a.timings {
        Some(list) => distinct(list.iter().copied()),
        None if a.paper => measure::Timing::ALL.to_vec(),
        None => vec![measure::Timing::EndToEnd, measure::Timing::Kernel],
    };
    let mut directions = vec![Direction::Encrypt];
    if a.decrypt {
        directions.push(Direction::Decrypt);
    }
    Ok(Plan {
        variant,
        modes,
        directions,
        sizes,
        backends,
        runs,
        timings,
        max_time_per_size: a.max_time_per_size,
        min_run_secs: a.min_run_ms / 1e3,
        threads: a.threads,
        gpus: a.gpus.clone(),
    })
}

/// The items in their first order, each once (`--modes ctr,ecb,ctr`).
fn distinct<T: PartialEq>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

/// Opens each asked backend and its engine; those that cannot run here (no GPU,
/// variant not supported) come back as (name, reason) instead.
fn open_subjects(plan: &Plan, cipher: &Skinny) -> (Vec<Subject>, Vec<(String, String)>) {
    let opts = backend::Options::with_threads(plan.threads).gpus(plan.gpus.clone());
    let mut subjects = Vec::new();
    let mut skipped = Vec::new();
    for &choice in &plan.backends {
        let t = Instant::now();
        let opened = backend::open(choice, &opts);
        let open_secs = t.elapsed().as_secs_f64();
        let pageable = choice.needs_gpu()
            && plan.timings.iter().any(|t| matches!(t, measure::Timing::Pageable | measure::Timing::Cold));
        let outcome = opened.and_then(|b| {
            if !b.supports(plan.variant) {
                return Err(skinny_bulk::Error::Unsupported { backend: choice.name(), variant: plan.variant });
            }
            let mut s = Subject::open(b, open_secs, cipher)?;
            s.asked.clone_from(&plan.timings);
            if pageable {
                s = s.with_pageable(backend::open(choice, &opts.clone().pageable_transfers(true))?, cipher)?;
            }
            Ok(s)
        });
        match outcome {
            Ok(s) => subjects.push(s),
            Err(e) => skipped.push((choice.name().to_string(), e.to_string())),
        }
    }
    debug_assert!(subjects.iter().all(|s| s.name != BackendChoice::Auto.name()));
    (subjects, skipped)
}

/// Refuses, before any timing, an output whose folder does not exist or that is a
/// folder itself.
fn check_output(p: &Path) -> Result<(), CliError> {
    if p.is_dir() {
        return Err(CliError::Usage(format!("'{}' is a folder, not a file", p.display())));
    }
    let parent = p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !parent.is_dir() {
        return Err(CliError::Usage(format!(
            "cannot write '{}': folder '{}' does not exist",
            p.display(),
            parent.display()
        )));
    }
    Ok(())
}

/// Writes an output file all at once (see [`crate::atomic`]).
fn write_atomic(p: &Path, bytes: &[u8]) -> Result<(), CliError> {
    crate::atomic::write_atomically(p, bytes)
        .map_err(|e| CliError::Io(format!("cannot write '{}': {}", p.display(), reason(&e))))
}

/// The progress bar on stderr, hidden when stderr is not a terminal or with -q;
/// notices go above it.
struct Bar(ProgressBar);

impl Bar {
    fn new(len: u64, quiet: bool) -> Self {
        let target = if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(len), target);
        if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} [{elapsed_precise}] {msg}") {
            bar.set_style(style);
        }
        Self(bar)
    }
    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

impl Observer for Bar {
    fn start(&mut self, what: &str) {
        self.0.set_message(what.to_string());
    }
    fn done(&mut self) {
        self.0.inc(1);
    }
    fn notice(&mut self, line: &str) {
        // Visible whether or not the bar is drawn.
        self.0.suspend(|| {
            let _ = writeln!(io::stderr(), "skinny: bench: {line}");
        });
    }
}
