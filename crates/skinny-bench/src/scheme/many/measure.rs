//! The many-message series timed: for every scheme, size and operation, the
//! single-message path on the run's threads, then each backend's batch
//! through `skinny-many`, each output checked once outside the timed runs.

use super::inputs::{check, inputs, single, Inputs};
use super::plan::{Backend, ManyPlan};
use crate::measure::{time_op, Observer, RunSettings};
use crate::scheme::{Algorithm, Floor, Operation};
use crate::size::size_label;
use crate::stats;
use skinny_exec::{Placement, Route, Threads};
use skinny_many::{Batch, ManyError, Output};
use std::num::NonZeroUsize;
use std::time::Duration;

/// One timed series of a point: ms per batch.
#[derive(Clone, Debug)]
pub struct BatchTimes {
    /// Batches done inside one timed run.
    pub reps: usize,
    /// Milliseconds per batch, one per timed run.
    pub times_ms: Vec<f64>,
    /// The first (warm-up) call, ms.
    pub warmup_ms: f64,
}

impl BatchTimes {
    /// Median ms per batch.
    pub fn median_ms(&self) -> f64 {
        stats::median(&self.times_ms)
    }
    /// Mean ms per batch.
    pub fn mean_ms(&self) -> f64 {
        stats::mean(&self.times_ms)
    }
    /// Sample standard deviation, ms.
    pub fn sd_ms(&self) -> f64 {
        stats::sample_sd(&self.times_ms)
    }
    /// Fastest run, ms.
    pub fn min_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::INFINITY, f64::min)
    }
    /// Slowest run, ms.
    pub fn max_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }
}

/// One measured point: a scheme, operation, size and backend, beside the
/// single-message path on the same threads.
#[derive(Clone, Debug)]
pub struct ManyRecord {
    /// The scheme.
    pub algorithm: Algorithm,
    /// Seal or open.
    pub operation: Operation,
    /// Bytes of each message (the plaintext; the tag is not counted).
    pub bytes: usize,
    /// Messages per batch.
    pub messages: usize,
    /// Threads of the CPU engine and of the single-message path.
    pub threads: usize,
    /// Where the batch was asked to run.
    pub backend: Backend,
    /// Where the placement's rule sent it: `cpu` or `gpu`.
    pub ran_on: &'static str,
    /// The batch through `skinny-many`.
    pub engine: BatchTimes,
    /// The same messages one per call through the single-message types, on
    /// the same threads.
    pub single: BatchTimes,
    /// The block-cipher calls and rounds one message needs at least.
    pub floor: Floor,
}

impl ManyRecord {
    /// Message bytes in a batch.
    pub fn batch_bytes(&self) -> usize {
        self.messages * self.bytes
    }
    /// Messages per second at the engine's median.
    pub fn messages_per_s(&self) -> f64 {
        per_s(self.messages as f64, &self.engine)
    }
    /// Decimal gigabytes of message per second at the engine's median.
    pub fn gb_s(&self) -> f64 {
        per_s(self.batch_bytes() as f64, &self.engine) / 1e9
    }
    /// Messages per second of the single-message path at its median.
    pub fn single_messages_per_s(&self) -> f64 {
        per_s(self.messages as f64, &self.single)
    }
    /// GB/s of the single-message path.
    pub fn single_gb_s(&self) -> f64 {
        per_s(self.batch_bytes() as f64, &self.single) / 1e9
    }
    /// How many times faster the engine is than the single-message path:
    /// the ratio of the medians.
    pub fn ratio(&self) -> f64 {
        self.single.median_ms() / self.engine.median_ms()
    }
    /// Wall-clock nanoseconds per cipher round of the batch's floor (every
    /// thread together) at the engine's median.
    pub fn ns_per_round(&self) -> f64 {
        self.engine.median_ms() * 1e6 / (self.messages as f64 * self.floor.total_rounds() as f64)
    }
}

fn per_s(units: f64, t: &BatchTimes) -> f64 {
    units / (t.median_ms() / 1e3)
}

/// A backend, or one of its schemes, that could not run, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManySkipped {
    /// The backend.
    pub backend: Backend,
    /// The scheme, when only it was skipped; `None`: the whole backend.
    pub algorithm: Option<Algorithm>,
    /// Why, in words.
    pub reason: String,
}

/// What a run measured and left out.
pub struct Measured {
    /// The points.
    pub records: Vec<ManyRecord>,
    /// What could not run.
    pub skipped: Vec<ManySkipped>,
}

/// Times every point of `plan` on `pool` (the plan's threads), telling
/// `obs` as it goes. A GPU that fails once is left out from there on.
pub fn measure_many(plan: &ManyPlan, pool: &rayon::ThreadPool, obs: &mut dyn Observer) -> Measured {
    let set = RunSettings {
        runs: plan.runs,
        min_run: Duration::from_secs_f64(plan.min_run_secs),
        budget: plan.max_time_per_size.map(Duration::from_secs_f64),
    };
    let threads = Threads::Exactly(NonZeroUsize::new(plan.threads).unwrap_or(NonZeroUsize::MIN));
    let mut m = Measured { records: Vec::new(), skipped: Vec::new() };
    for &algorithm in &plan.algorithms {
        for &bytes in &plan.sizes {
            let messages = plan.messages(bytes);
            let at = format!("{algorithm} {} x {messages}", size_label(bytes));
            let input = match inputs(algorithm, bytes, messages, pool) {
                Ok(i) => i,
                Err(e) => {
                    obs.notice(&format!("{at}: the inputs could not be made ({e}); left out"));
                    (0..2 * (1 + plan.backends.len())).for_each(|_| obs.done());
                    continue;
                }
            };
            for operation in plan.operations() {
                let point = Point { algorithm, operation, bytes, messages, input: &input, set };
                obs.start(&format!("{at} {} single-message path", operation.name()));
                let one =
                    time_op(|| pool.install(|| single(algorithm, operation, point.batch(), bytes)).map(drop), set);
                obs.done();
                let one = match one {
                    Ok(t) => BatchTimes { reps: t.reps, times_ms: t.times_ms, warmup_ms: t.warmup_ms },
                    Err(e) => {
                        obs.notice(&format!(
                            "{at} {}: the single-message path failed ({e}); left out",
                            operation.name()
                        ));
                        plan.backends.iter().for_each(|_| obs.done());
                        continue;
                    }
                };
                for &backend in &plan.backends {
                    obs.start(&format!("{at} {} {}", operation.name(), backend.name()));
                    let placement = match backend {
                        Backend::Cpu => None,
                        Backend::Gpu => Some(Placement::Gpu { threads, gpus: plan.gpus.clone() }),
                        Backend::Auto => Some(Placement::Auto { threads, gpus: plan.gpus.clone() }),
                    };
                    if let Some(why) = m.gpu_gone(backend, algorithm, placement.as_ref(), point.batch()) {
                        if let Some(line) = why {
                            obs.notice(&line);
                        }
                        obs.done();
                        continue;
                    }
                    match point.time(placement.as_ref(), pool) {
                        Ok((engine, ran_on)) => m.records.push(ManyRecord {
                            algorithm,
                            operation,
                            bytes,
                            messages,
                            threads: plan.threads,
                            backend,
                            ran_on,
                            engine,
                            single: one.clone(),
                            floor: algorithm.floor(bytes),
                        }),
                        Err(Failure::Gpu(reason)) => {
                            obs.notice(&format!("GPU: not available ({reason}); the GPU points are skipped"));
                            m.skipped.push(ManySkipped { backend, algorithm: None, reason });
                        }
                        Err(Failure::Other(e)) => {
                            obs.notice(&format!("{at} {} {}: {e}; left out", operation.name(), backend.name()));
                        }
                    }
                    obs.done();
                }
            }
        }
    }
    m
}

impl Measured {
    /// Whether `backend` cannot take this point: `Some(None)` when that was
    /// said before, `Some(Some(line))` the first time. A GPU placement that
    /// the engine's rule calls unfit (no GPU engine in this build, a scheme
    /// without kernels) is skipped for that scheme.
    fn gpu_gone(
        &mut self,
        backend: Backend,
        algorithm: Algorithm,
        placement: Option<&Placement>,
        batch: &Batch,
    ) -> Option<Option<String>> {
        let said = |s: &ManySkipped| s.backend == backend && s.algorithm.is_none_or(|a| a == algorithm);
        if self.skipped.iter().any(said) {
            return Some(None);
        }
        if backend != Backend::Gpu {
            return None;
        }
        let Err(unfit) = placement?.route(skinny_many::verdict(batch)) else {
            return None;
        };
        let reason = unfit.to_string();
        let line = format!("GPU: not available for {algorithm} ({reason}); skipped");
        self.skipped.push(ManySkipped { backend, algorithm: Some(algorithm), reason });
        Some(Some(line))
    }
}

/// Why a backend's point has no figure.
enum Failure {
    /// The GPU could not be had or failed: no GPU point from here on.
    Gpu(String),
    /// Anything else (an output that differs): this point only.
    Other(String),
}

/// One scheme, operation and size, its inputs made.
struct Point<'a> {
    algorithm: Algorithm,
    operation: Operation,
    bytes: usize,
    messages: usize,
    input: &'a Inputs,
    set: RunSettings,
}

impl Point<'_> {
    /// The batch the operation takes.
    fn batch(&self) -> &Batch {
        match self.operation {
            Operation::Open => &self.input.sealed,
            _ => &self.input.plain,
        }
    }

    /// What every output must be: the sealed messages, or the plaintexts.
    fn want(&self) -> &[u8] {
        match self.operation {
            Operation::Open => self.input.plain.flat().data,
            _ => &self.input.sealed_bytes,
        }
    }

    /// The batch timed on `placement` (`None`: the CPU engine on `pool`),
    /// and where it ran; the last output checked after the timed runs.
    fn time(
        &self,
        placement: Option<&Placement>,
        pool: &rayon::ThreadPool,
    ) -> Result<(BatchTimes, &'static str), Failure> {
        let (batch, open) = (self.batch(), self.operation == Operation::Open);
        let ran_on = match placement.map(|p| p.route(skinny_many::verdict(batch))) {
            Some(Ok(Route::Accelerator { .. })) => "gpu",
            _ => "cpu",
        };
        let mut last: Option<Output> = None;
        let timed = time_op(
            || {
                last = Some(match placement {
                    None if open => skinny_many::cpu::open_in(pool, batch),
                    None => skinny_many::cpu::seal_in(pool, batch),
                    Some(p) if open => skinny_many::open(p, batch)?,
                    Some(p) => skinny_many::seal(p, batch)?,
                });
                Ok::<(), ManyError>(())
            },
            self.set,
        )
        .map_err(|e| match e {
            ManyError::Threads(_) => Failure::Other(chain(&e)),
            e => Failure::Gpu(chain(&e)),
        })?;
        let out = last.ok_or_else(|| Failure::Other("no output".into()))?;
        check(&out, self.want(), self.messages).map_err(|e| {
            Failure::Other(format!("{} {} {}: {e}", self.algorithm, self.operation.name(), size_label(self.bytes)))
        })?;
        Ok((BatchTimes { reps: timed.reps, times_ms: timed.times_ms, warmup_ms: timed.warmup_ms }, ran_on))
    }
}

/// An error and its sources, `: `-joined.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut at = e.source();
    while let Some(c) = at {
        s.push_str(": ");
        s.push_str(&c.to_string());
        at = c.source();
    }
    s
}
