//! What a bench run measures: the request, with a preset's defaults under it,
//! turned into a checked plan (variant, modes, directions, sizes, backends,
//! runs, timings) before anything is timed or written.

use crate::record::Record;
use crate::size::{parse_sizes, SizeError};
use crate::timing::Timing;
use skinny::Variant;
use skinny_bulk::backend::{BackendChoice, GpuSelection};
use skinny_bulk::mode::{Direction, Mode};

/// The paper's smallest and largest sizes: 16 B doubling to 64 MiB (23 sizes).
pub const PAPER_MIN: usize = 16;
/// See [`PAPER_MIN`].
pub const PAPER_MAX: usize = 64 << 20;
/// The paper's runs per size.
pub const PAPER_RUNS: usize = 10;
/// Runs per size of the plain preset.
pub const QUICK_RUNS: usize = 5;
/// Runs kept even when the time budget of a size is spent, so a median exists.
pub const MIN_RUNS_UNDER_BUDGET: usize = 3;

/// The defaults under what a request leaves open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// Every usable backend's fast path: cpu and gpu, end to end and kernel,
    /// 1 KiB to 64 MiB, [`QUICK_RUNS`] runs.
    Quick,
    /// The paper's experiment: SKINNY-128-256, ECB and CTR, 16 B doubling to 64
    /// MiB, [`PAPER_RUNS`] runs, cpu-serial, cpu, gpu-paper and gpu, all four timings.
    Paper,
}

/// Which directions are measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Directions {
    /// Encryption only.
    Encrypt,
    /// Encryption, then decryption.
    Both,
}

/// What was asked: `None` takes the preset's default. Lists keep their first
/// order and drop repeats.
#[derive(Clone, Debug)]
pub struct Request<'a> {
    /// Whose defaults fill the gaps.
    pub preset: Preset,
    /// The cipher.
    pub variant: Variant,
    /// ECB and/or CTR.
    pub modes: Option<Vec<Mode>>,
    /// Named backends (not `auto`).
    pub backends: Option<Vec<BackendChoice>>,
    /// The series of the GPU backends.
    pub timings: Option<Vec<Timing>>,
    /// Timed runs per size.
    pub runs: Option<usize>,
    /// Sizes as written: `MIN..MAX`, one size, or a comma list (see [`parse_sizes`]).
    pub sizes: Option<&'a str>,
    /// Encryption only, or decryption too.
    pub directions: Directions,
    /// Worker threads of `cpu` (None: every core).
    pub threads: Option<usize>,
    /// GPUs of the GPU backends.
    pub gpus: GpuSelection,
    /// Seconds of timed runs after which a size stops (keeping
    /// [`MIN_RUNS_UNDER_BUDGET`] runs).
    pub max_time_per_size: Option<f64>,
    /// The shortest timed run, seconds.
    pub min_run_secs: f64,
}

/// A checked benchmark plan.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The cipher.
    pub variant: Variant,
    /// ECB and/or CTR.
    pub modes: Vec<Mode>,
    /// Encrypt, and decrypt when asked.
    pub directions: Vec<Direction>,
    /// Sizes in bytes, ascending.
    pub sizes: Vec<usize>,
    /// Backends in the order asked.
    pub backends: Vec<BackendChoice>,
    /// Timed runs per size (after warm-up).
    pub runs: usize,
    /// The timings of the GPU backends (CPU backends have end to end only).
    pub timings: Vec<Timing>,
    /// Stop a measurement after this many seconds of timed runs (at least
    /// [`MIN_RUNS_UNDER_BUDGET`] runs): keeps slow backends at huge sizes bounded.
    pub max_time_per_size: Option<f64>,
    /// Each timed run lasts at least this long: tiny operations are repeated
    /// inside one run and the time divided.
    pub min_run_secs: f64,
    /// Worker threads for `cpu`.
    pub threads: Option<usize>,
    /// GPUs of the GPU backends and `auto`.
    pub gpus: GpuSelection,
}

impl Plan {
    /// The request with its preset's defaults under it.
    ///
    /// # Errors
    /// The sizes cannot be read, or are not whole blocks of the variant.
    pub fn new(r: Request<'_>) -> Result<Self, SizeError> {
        let paper = r.preset == Preset::Paper;
        let modes = r.modes.map_or_else(|| vec![Mode::Ecb, Mode::Ctr], distinct);
        let backends = match r.backends {
            Some(list) => distinct(list),
            None if paper => {
                vec![BackendChoice::CpuSerial, BackendChoice::Cpu, BackendChoice::GpuPaper, BackendChoice::Gpu]
            }
            None => vec![BackendChoice::Cpu, BackendChoice::Gpu],
        };
        let default_sizes = if paper { format!("{PAPER_MIN}..{PAPER_MAX}") } else { "1K..64M".into() };
        let sizes = parse_sizes(r.sizes.unwrap_or(&default_sizes), r.variant.block_bytes())?;
        let timings = match r.timings {
            Some(list) => distinct(list),
            None if paper => Timing::ALL.to_vec(),
            None => vec![Timing::EndToEnd, Timing::Kernel],
        };
        let directions = match r.directions {
            Directions::Encrypt => vec![Direction::Encrypt],
            Directions::Both => vec![Direction::Encrypt, Direction::Decrypt],
        };
        Ok(Plan {
            variant: r.variant,
            modes,
            directions,
            sizes,
            backends,
            runs: r.runs.unwrap_or(if paper { PAPER_RUNS } else { QUICK_RUNS }),
            timings,
            max_time_per_size: r.max_time_per_size,
            min_run_secs: r.min_run_secs,
            threads: r.threads,
            gpus: r.gpus,
        })
    }

    /// A plan that covers saved records (for drawing them again): their
    /// variant, modes, directions and sizes, nothing to measure.
    pub fn covering(records: &[Record]) -> Self {
        let mut sizes: Vec<usize> = records.iter().map(|r| r.bytes).collect();
        sizes.sort_unstable();
        sizes.dedup();
        Plan {
            variant: records.first().and_then(|r| r.variant.parse().ok()).unwrap_or(Variant::Skinny128_256),
            modes: distinct(records.iter().map(|r| r.mode)),
            directions: distinct(records.iter().map(|r| r.direction)),
            sizes,
            backends: Vec::new(),
            runs: 0,
            timings: Vec::new(),
            max_time_per_size: None,
            min_run_secs: 0.0,
            threads: None,
            gpus: GpuSelection::All,
        }
    }

    /// Whether the selected GPUs exist, when a backend of the plan needs one:
    /// a wrong selection is refused before anything is timed.
    ///
    /// # Errors
    /// The selection names GPUs that are not there.
    pub fn check_gpus(&self) -> Result<(), skinny_bulk::Error> {
        if self.backends.iter().any(|b| b.needs_gpu() || *b == BackendChoice::Auto) {
            skinny_bulk::backend::check_gpus(&self.gpus)?;
        }
        Ok(())
    }
}

/// The items in their first order, each once (`ctr,ecb,ctr` is `ctr,ecb`).
fn distinct<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(preset: Preset) -> Request<'static> {
        Request {
            preset,
            variant: Variant::Skinny128_256,
            modes: None,
            backends: None,
            timings: None,
            runs: None,
            sizes: None,
            directions: Directions::Encrypt,
            threads: None,
            gpus: GpuSelection::All,
            max_time_per_size: None,
            min_run_secs: 0.002,
        }
    }

    #[test]
    fn presets_fill_what_is_not_asked() {
        let p = Plan::new(request(Preset::Paper)).unwrap();
        assert_eq!((p.sizes.len(), p.runs, p.timings.len(), p.backends.len()), (23, PAPER_RUNS, 4, 4));
        let q = Plan::new(request(Preset::Quick)).unwrap();
        assert_eq!((q.sizes[0], q.runs, q.backends), (1024, QUICK_RUNS, vec![BackendChoice::Cpu, BackendChoice::Gpu]));
        assert_eq!(q.timings, vec![Timing::EndToEnd, Timing::Kernel]);
        let mut r = request(Preset::Paper);
        r.modes = Some(vec![Mode::Ctr, Mode::Ecb, Mode::Ctr]);
        r.sizes = Some("32");
        r.directions = Directions::Both;
        let p = Plan::new(r).unwrap();
        assert_eq!((p.modes, p.sizes, p.directions.len()), (vec![Mode::Ctr, Mode::Ecb], vec![32], 2));
        let mut r = request(Preset::Quick);
        r.sizes = Some("8");
        assert_eq!(Plan::new(r).unwrap_err(), SizeError::NotWholeBlocks { size: 8, block: 16 });
    }
}
