//! The options of `skinny bench`, and what they ask of the harness.

use crate::args::{gpus_parser, number_in, threads_parser, CipherName, Named, Trimmed};
use clap::builder::RangedU64ValueParser;
use clap::{Args, ValueEnum};
use skinny_bench::scheme::many::{many_algorithms, many_scheme, Backend, ManyRequest};
use skinny_bench::scheme::{Algorithm, Family, SchemeRequest};
use skinny_bench::{Directions, Preset, Request, Timing};
use skinny_bulk::backend::{BackendChoice, GpuSelection};
use skinny_bulk::mode::Mode;
use std::path::PathBuf;

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
          value_parser = Named::new(BENCH_BACKENDS))]
    pub backends: Option<Vec<BackendChoice>>,

    /// Series of the GPU backends, a comma list of end-to-end (e2e), kernel,
    /// pageable (end to end through plain pageable copies, as the paper's
    /// program) and cold (every operation opens the key's engine, allocates,
    /// uploads, copies, runs and frees) [default: end-to-end,kernel; with
    /// --paper all four]. CPU backends are end to end only.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = timing_parser)]
    pub timings: Option<Vec<Timing>>,

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

    /// Worker threads for the cpu backend, and with --many for the CPU engine
    /// and the single-message path beside it, 1 to 1024 (default: all cores).
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// GPUs of the gpu, gpu-paper and auto backends: all, a count N (the first
    /// N), or GPU numbers such as 0,2 (one GPU: 1,).
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: GpuSelection,

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

    /// Time AEAD schemes instead of the cipher: a comma list of
    /// skinny-aead-m1 to skinny-aead-m6, romulus-n, romulus-m, romulus-t, or
    /// all; each seals and opens one message per call, no associated data, on
    /// the CPU [sizes default: 16,64,1K,16K,1M]. With --hash, both.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = aead_parser,
          conflicts_with_all = CIPHER_ONLY)]
    pub aead: Option<Vec<Vec<Algorithm>>>,

    /// Time hash functions instead of the cipher: a comma list of romulus-h,
    /// skinny-tk3-hash, skinny-tk2-hash, or all; one message per call, on the
    /// CPU [sizes default: 16,64,1K,16K,1M]. With --aead, both.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = hash_parser,
          conflicts_with_all = CIPHER_ONLY)]
    pub hash: Option<Vec<Vec<Algorithm>>>,

    /// Time batches of many messages instead: a comma list of romulus-n,
    /// romulus-m, skinny-aead-m1 to skinny-aead-m6, or all; each batch of
    /// independent messages (own random key and nonce, no associated data)
    /// sealed and opened through the many-message engine, beside the same
    /// messages one per call on the same threads [sizes default:
    /// 16,64,256,1K,4K].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = many_parser,
          conflicts_with_all = MANY_REFUSES)]
    pub many: Option<Vec<Vec<Algorithm>>>,

    /// With --many: where the batches run, a comma list of cpu (the CPU
    /// engine on --threads threads), gpu (the GPU engine, opened by each
    /// call; skipped where no GPU can run) and auto (wherever the engine's
    /// rule puts the batch) [default: cpu,gpu].
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = backend_parser, requires = "many")]
    pub backend: Option<Vec<Backend>>,

    /// With --many: messages per batch, at every size, 1 to 16777216 [default:
    /// 4 MiB of message data, at least 1024 messages a thread].
    #[arg(long, value_name = "N", requires = "many",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_MESSAGES))]
    pub messages: Option<usize>,

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

/// The options of the cipher bench that the scheme series (--aead, --hash)
/// have no use for: given with them, they are refused.
const CIPHER_ONLY: [&str; 11] = [
    "paper",
    "cipher",
    "modes",
    "backends",
    "timings",
    "decrypt",
    "threads",
    "gpus",
    "speedup_plot",
    "from_json",
    "files",
];

/// The most `--messages`: a batch of 16 Mi messages already holds keys,
/// nonces and offsets of more than half a GiB.
const MAX_MESSAGES: u64 = 1 << 24;

/// The options that `--many` has no use for: the cipher's own (it keeps
/// `--threads` and `--gpus`), the other scheme series, and the chart.
const MANY_REFUSES: [&str; 12] = [
    "paper",
    "cipher",
    "modes",
    "backends",
    "timings",
    "decrypt",
    "speedup_plot",
    "from_json",
    "files",
    "aead",
    "hash",
    "plot",
];

/// `--many`: one scheme the many-message engine runs, by name, or `all`.
fn many_parser(s: &str) -> Result<Vec<Algorithm>, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(many_algorithms());
    }
    let names: Vec<&str> = many_algorithms().iter().map(|a| a.name()).collect();
    match Algorithm::from_name(s) {
        Some(a) if many_scheme(a).is_some() => Ok(vec![a]),
        Some(a) => Err(format!("the many-message engine has no {a} (expected {} or all)", names.join(", "))),
        None => Err(format!("unknown AEAD scheme '{}' (expected {} or all)", s.trim(), names.join(", "))),
    }
}

/// `bench --many --backend`: the execution layer's placements, in the
/// order offered.
const MANY_BACKENDS: [Backend; 3] = [Backend::Cpu, Backend::Gpu, Backend::Auto];

/// `--backend`: one placement by the library's name (any case).
fn backend_parser(s: &str) -> Result<Backend, String> {
    MANY_BACKENDS.into_iter().find(|b| b.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
        let names: Vec<&str> = MANY_BACKENDS.iter().map(|b| b.name()).collect();
        let (last, rest) = names.split_last().unwrap_or((&"", &[]));
        format!("unknown backend '{}' (expected {} or {last})", s.trim(), rest.join(", "))
    })
}

/// `--aead`: one scheme by name, or `all`.
fn aead_parser(s: &str) -> Result<Vec<Algorithm>, String> {
    family_parser(s, Family::Aead, "AEAD scheme")
}

/// `--hash`: one hash function by name, or `all`.
fn hash_parser(s: &str) -> Result<Vec<Algorithm>, String> {
    family_parser(s, Family::Hash, "hash function")
}

/// A member of `family` by name, or all of them.
fn family_parser(s: &str, family: Family, what: &str) -> Result<Vec<Algorithm>, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(family.members());
    }
    match Algorithm::from_name(s) {
        Some(a) if a.family() == family => Ok(vec![a]),
        _ => {
            let names: Vec<&str> = family.members().iter().map(|a| a.name()).collect();
            Err(format!("unknown {what} '{}' (expected {} or all)", s.trim(), names.join(", ")))
        }
    }
}

/// `--timings`: one timing by name.
fn timing_parser(s: &str) -> Result<Timing, String> {
    Timing::from_name(s).ok_or_else(|| format!("unknown timing '{s}' (expected end-to-end, kernel, pageable or cold)"))
}

/// `bench --modes`: the parallel modes the paper measures (the others are
/// serial by nature).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchMode {
    /// Electronic codebook.
    Ecb,
    /// Counter mode.
    Ctr,
}

impl From<BenchMode> for Mode {
    fn from(m: BenchMode) -> Self {
        match m {
            BenchMode::Ecb => Mode::Ecb,
            BenchMode::Ctr => Mode::Ctr,
        }
    }
}

/// `bench --backends`: the library's backends ([`BackendChoice`], which
/// names them) but `auto`, which would hide which one ran.
pub const BENCH_BACKENDS: &[(BackendChoice, &str)] = &[
    (BackendChoice::CpuSerial, "Portable code on one thread (the paper's CPU side)"),
    (BackendChoice::Cpu, "Constant-time bitsliced code on all cores"),
    (BackendChoice::GpuPaper, "The paper's T-table CUDA kernel (NOT constant time)"),
    (BackendChoice::Gpu, "The fast CUDA kernels"),
];

impl BenchArgs {
    /// What the options ask of the harness (clap has checked the numbers'
    /// ranges; the sizes are read by the harness).
    pub fn request(&self) -> Request<'_> {
        Request {
            preset: if self.paper { Preset::Paper } else { Preset::Quick },
            variant: self.cipher.into(),
            modes: self.modes.as_ref().map(|l| l.iter().map(|&m| m.into()).collect()),
            backends: self.backends.clone(),
            timings: self.timings.clone(),
            runs: self.runs,
            sizes: self.sizes.as_deref(),
            directions: if self.decrypt { Directions::Both } else { Directions::Encrypt },
            threads: self.threads,
            gpus: self.gpus.clone(),
            max_time_per_size: self.max_time_per_size,
            min_run_secs: self.min_run_ms / 1e3,
        }
    }

    /// What `--aead` and `--hash` ask of the scheme series, or None for a
    /// cipher run.
    pub fn scheme_request(&self) -> Option<SchemeRequest<'_>> {
        if self.aead.is_none() && self.hash.is_none() {
            return None;
        }
        let algorithms = [&self.aead, &self.hash].into_iter().flatten().flatten().flatten().copied().collect();
        Some(SchemeRequest {
            algorithms,
            sizes: self.sizes.as_deref(),
            runs: self.runs,
            max_time_per_size: self.max_time_per_size,
            min_run_secs: self.min_run_ms / 1e3,
        })
    }

    /// What `--many` asks of the many-message series, or None.
    pub fn many_request(&self) -> Option<ManyRequest<'_>> {
        let algorithms = self.many.as_ref()?.iter().flatten().copied().collect();
        Some(ManyRequest {
            algorithms,
            sizes: self.sizes.as_deref(),
            messages: self.messages,
            backends: self.backend.clone(),
            threads: self.threads,
            gpus: self.gpus.clone(),
            runs: self.runs,
            max_time_per_size: self.max_time_per_size,
            min_run_secs: self.min_run_ms / 1e3,
        })
    }

    /// Whether any file is asked for: then the run has something to deliver
    /// even without stdout.
    pub fn writes_files(&self) -> bool {
        self.csv.is_some() || self.json.is_some() || self.plot.is_some() || self.speedup_plot.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name clap accepts for `v`.
    fn name<E: ValueEnum>(v: &E) -> String {
        v.to_possible_value().expect("not hidden").get_name().to_string()
    }

    #[test]
    fn names_are_the_libraries_names() {
        for m in BenchMode::value_variants() {
            assert_eq!(name(m), Mode::from(*m).name());
        }
        let offered: Vec<BackendChoice> = BENCH_BACKENDS.iter().map(|&(b, _)| b).collect();
        assert_eq!(offered, BackendChoice::ALL.into_iter().filter(|&b| b != BackendChoice::Auto).collect::<Vec<_>>());
        for t in Timing::ALL {
            assert_eq!(timing_parser(t.name()), Ok(t));
        }
        assert!(timing_parser("lukewarm").unwrap_err().contains("expected end-to-end"));
        assert_eq!(aead_parser(" Romulus-N "), Ok(vec![Algorithm::RomulusN]));
        assert_eq!(aead_parser("all").map(|v| v.len()), Ok(9));
        assert_eq!(hash_parser("ALL").map(|v| v.len()), Ok(3));
        let e = aead_parser("romulus-h").unwrap_err();
        assert!(e.starts_with("unknown AEAD scheme 'romulus-h' (expected skinny-aead-m1, "), "{e}");
        assert!(hash_parser("sha256").unwrap_err().ends_with("skinny-tk2-hash or all)"));
        assert_eq!(many_parser("ALL").map(|v| v.len()), Ok(8));
        assert_eq!(many_parser(" romulus-m"), Ok(vec![Algorithm::RomulusM]));
        assert!(many_parser("romulus-t")
            .unwrap_err()
            .starts_with("the many-message engine has no romulus-t (expected "));
        assert!(many_parser("romulus-x").unwrap_err().starts_with("unknown AEAD scheme 'romulus-x'"));
        assert_eq!(backend_parser(" GPU"), Ok(Backend::Gpu));
        assert_eq!(backend_parser("tpu").unwrap_err(), "unknown backend 'tpu' (expected cpu, gpu or auto)");
    }
}
