//! What a many-message run measures: the schemes, message sizes, messages
//! per batch, where the batches run and on how many threads, checked before
//! anything is timed.

use crate::plan::QUICK_RUNS;
use crate::scheme::{Algorithm, Operation};
use crate::size::{parse_sizes, SizeError};
use skinny_exec::GpuSelection;
use skinny_many::Scheme;

/// The sizes when none are asked for: short messages, where one message
/// cannot fill a wide machine and many can.
pub const DEFAULT_MANY_SIZES: &str = "16,64,256,1K,4K";

/// Message bytes of a default batch: a few MiB, large enough that a batch's
/// fixed costs (the output's allocation, the pool's start-up of its chunks)
/// are small beside its work, small enough for many runs.
pub const BATCH_DATA_BYTES: usize = 4 << 20;

/// The fewest messages a default batch gives each thread: the engine keeps
/// two bitsliced batches of calls in flight per thread, 512 blocks each on
/// AVX-512 (256 on AVX2), so fewer messages would leave its batches part
/// empty and time the gap rather than the engine.
pub const MESSAGES_PER_THREAD: usize = 1024;

/// Where the batches run, by the execution layer's names (`cpu`, `gpu`,
/// `auto`): `cpu` is the CPU engine on the run's thread pool
/// (`skinny_many::cpu::seal_in`), `gpu` the GPU engine opened by each call
/// (`Placement::Gpu`), `auto` wherever the engine's rule puts the batch
/// (`Placement::Auto`: the CPU below `skinny_many::AUTO_GPU_BYTES`, on the
/// process's shared engine).
pub use skinny_exec::PlacementKind as Backend;

/// The many-message engine's scheme for `algorithm`, if it has one (it has
/// no Romulus-T and no hash).
pub const fn many_scheme(algorithm: Algorithm) -> Option<Scheme> {
    match algorithm {
        Algorithm::RomulusN => Some(Scheme::RomulusN),
        Algorithm::RomulusM => Some(Scheme::RomulusM),
        Algorithm::SkinnyAead(m) => Some(Scheme::SkinnyAead(m)),
        _ => None,
    }
}

/// The algorithms the many-message engine runs, in [`Algorithm::ALL`] order.
pub fn many_algorithms() -> Vec<Algorithm> {
    Algorithm::ALL.into_iter().filter(|&a| many_scheme(a).is_some()).collect()
}

/// What was asked: `None` takes the default. Lists keep their first order
/// and drop repeats.
#[derive(Clone, Debug)]
pub struct ManyRequest<'a> {
    /// The schemes (at least one; each one the engine runs).
    pub algorithms: Vec<Algorithm>,
    /// Sizes as written (see [`parse_sizes`]): bytes per message, from 1;
    /// default [`DEFAULT_MANY_SIZES`].
    pub sizes: Option<&'a str>,
    /// Messages per batch, at every size; default: [`BATCH_DATA_BYTES`] of
    /// message data, at least [`MESSAGES_PER_THREAD`] a thread.
    pub messages: Option<usize>,
    /// Where the batches run (default `cpu`, `gpu`).
    pub backends: Option<Vec<Backend>>,
    /// Threads of the CPU engine and of the single-message path (default:
    /// one per logical CPU).
    pub threads: Option<usize>,
    /// The GPUs of `gpu` and `auto` (the engine takes the first).
    pub gpus: GpuSelection,
    /// Timed runs per point (default [`QUICK_RUNS`]).
    pub runs: Option<usize>,
    /// Seconds of timed runs after which a point stops.
    pub max_time_per_size: Option<f64>,
    /// The shortest timed run, seconds.
    pub min_run_secs: f64,
}

/// A checked many-message plan.
#[derive(Clone, Debug)]
pub struct ManyPlan {
    /// The schemes, in the order asked.
    pub algorithms: Vec<Algorithm>,
    /// Message sizes in bytes, ascending.
    pub sizes: Vec<usize>,
    /// Messages per batch as asked (`None`: sized by [`ManyPlan::messages`]).
    pub messages: Option<usize>,
    /// Where the batches run, in the order asked.
    pub backends: Vec<Backend>,
    /// Threads of the CPU engine and of the single-message path.
    pub threads: usize,
    /// The GPUs of `gpu` and `auto`.
    pub gpus: GpuSelection,
    /// Timed runs per point (after warm-up).
    pub runs: usize,
    /// Stop a point after this many seconds of timed runs.
    pub max_time_per_size: Option<f64>,
    /// Each timed run lasts at least this long.
    pub min_run_secs: f64,
}

/// A many-message request that cannot be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ManyPlanError {
    /// No scheme was asked for.
    #[error("no scheme to measure")]
    NoAlgorithm,
    /// A scheme the many-message engine does not run.
    #[error("the many-message engine has no {0} (it runs romulus-n, romulus-m and skinny-aead-m1 to -m6)")]
    NoEngine(Algorithm),
    /// A message size of zero bytes.
    #[error("message sizes start at 1 byte (0 bytes has no throughput)")]
    ZeroSize,
    /// The sizes cannot be read.
    #[error(transparent)]
    Size(SizeError),
    /// Zero messages per batch, or zero threads.
    #[error("a batch needs at least one message, and the run at least one thread")]
    Empty,
    /// No backend was asked for.
    #[error("no backend to measure on")]
    NoBackend,
}

fn dedup<T: PartialEq + Copy>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out = Vec::new();
    for x in items {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    out
}

impl ManyPlan {
    /// The request with the defaults under it.
    ///
    /// # Errors
    /// No scheme, one the engine lacks, no backend, bad sizes, no message.
    pub fn new(r: ManyRequest<'_>) -> Result<Self, ManyPlanError> {
        let algorithms = dedup(r.algorithms);
        if algorithms.is_empty() {
            return Err(ManyPlanError::NoAlgorithm);
        }
        if let Some(&a) = algorithms.iter().find(|&&a| many_scheme(a).is_none()) {
            return Err(ManyPlanError::NoEngine(a));
        }
        let backends = dedup(r.backends.unwrap_or_else(|| vec![Backend::Cpu, Backend::Gpu]));
        if backends.is_empty() {
            return Err(ManyPlanError::NoBackend);
        }
        let sizes = parse_sizes(r.sizes.unwrap_or(DEFAULT_MANY_SIZES), 1).map_err(|e| match e {
            SizeError::NotWholeBlocks { size: 0, .. } => ManyPlanError::ZeroSize,
            e => ManyPlanError::Size(e),
        })?;
        let threads = r.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if r.messages == Some(0) || threads == 0 {
            return Err(ManyPlanError::Empty);
        }
        Ok(Self {
            algorithms,
            sizes,
            messages: r.messages,
            backends,
            threads,
            gpus: r.gpus,
            runs: r.runs.unwrap_or(QUICK_RUNS),
            max_time_per_size: r.max_time_per_size,
            min_run_secs: r.min_run_secs,
        })
    }

    /// Messages per batch of `bytes`-byte messages: as asked, or
    /// [`BATCH_DATA_BYTES`] of data and at least [`MESSAGES_PER_THREAD`] a thread.
    pub fn messages(&self, bytes: usize) -> usize {
        self.messages.unwrap_or_else(|| BATCH_DATA_BYTES.div_ceil(bytes.max(1)).max(MESSAGES_PER_THREAD * self.threads))
    }

    /// Seal, then open.
    pub fn operations(&self) -> [Operation; 2] {
        [Operation::Seal, Operation::Open]
    }

    /// How many points the run times (a progress bar's length): the
    /// single-message path and each backend, per scheme, operation and size.
    pub fn points(&self) -> usize {
        self.algorithms.len() * 2 * self.sizes.len() * (1 + self.backends.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(algorithms: Vec<Algorithm>) -> ManyRequest<'static> {
        ManyRequest {
            algorithms,
            sizes: None,
            messages: None,
            backends: None,
            threads: Some(2),
            gpus: GpuSelection::All,
            runs: None,
            max_time_per_size: None,
            min_run_secs: 0.002,
        }
    }

    #[test]
    fn defaults_and_refusals() {
        let p = ManyPlan::new(request(many_algorithms())).unwrap();
        assert_eq!(p.algorithms.len(), 8);
        assert_eq!(p.sizes, vec![16, 64, 256, 1024, 4096]);
        assert_eq!(p.backends, vec![Backend::Cpu, Backend::Gpu]);
        // 4 MiB of 16-byte messages; 4 KiB messages: 1024 make 4 MiB, 2048 fill two threads.
        assert_eq!((p.messages(16), p.messages(4096)), (262_144, 2048));
        assert_eq!(p.points(), 8 * 2 * 5 * 3);
        let e = ManyPlan::new(request(vec![Algorithm::RomulusN, Algorithm::RomulusT])).unwrap_err();
        assert_eq!(e, ManyPlanError::NoEngine(Algorithm::RomulusT));
        assert!(e.to_string().starts_with("the many-message engine has no romulus-t"), "{e}");
        assert_eq!(ManyPlan::new(request(Vec::new())).unwrap_err(), ManyPlanError::NoAlgorithm);
        let mut r = request(vec![Algorithm::RomulusM]);
        r.messages = Some(0);
        assert_eq!(ManyPlan::new(r).unwrap_err(), ManyPlanError::Empty);
        let mut r = request(vec![Algorithm::RomulusM]);
        (r.sizes, r.messages, r.backends) = (Some("0"), Some(5), Some(vec![Backend::Auto, Backend::Auto]));
        assert_eq!(ManyPlan::new(r.clone()).unwrap_err(), ManyPlanError::ZeroSize);
        r.sizes = Some("8");
        let p = ManyPlan::new(r).unwrap();
        assert_eq!((p.messages(8), p.backends.clone()), (5, vec![Backend::Auto]));
        for b in Backend::ALL {
            assert_eq!(format!(" {} ", b.name().to_uppercase()).parse(), Ok(b));
        }
    }
}
