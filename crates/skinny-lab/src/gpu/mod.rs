//! The experiments on an NVIDIA GPU (feature `cuda`): the same queries as on
//! the CPU (the kernels draw them from the same generator), so the same counts
//! and the same right pairs, whatever runs them.
//!
//! The kernels (`kernels/lab.cu` in `skinny-cuda`; their tables in
//! [`kernel_constants`], a loaded experiment in [`QueryKernel`]) give each
//! query its own tweakey and only count: a launch returns its hits and, while
//! right pairs are still wanted, the query indices of its hits. Each kept hit
//! is then recomputed here with the one-block specification code, which must
//! agree: the pairs shown are the CPU's, and a GPU that counts wrongly is
//! caught on every pair it shows.
//!
//! On several GPUs ([`Differential::run_gpus`], [`Boomerang::run_gpus`]) the
//! shard's query range is cut into contiguous, disjoint ranges, one per GPU
//! ([`split_queries`]), run at once; counts add up and each GPU keeps the first
//! right pairs of its own range, so the pairs kept overall are the first of the
//! whole range in index order: the same outcome as one GPU or the CPU, for
//! any number of GPUs. Per-key runs cut the range at key groups
//! ([`split_groups`]) and count each group's hits in the kernels; a group
//! that spans launches is summed across them before it enters the histogram.

mod kernel;
mod layout;
mod pairs;
mod per_key;
mod query;
pub mod source;
mod tables;

pub use kernel::{KeyHits, LaunchCounts, QueryKernel, LAUNCH_QUERIES};
pub use layout::{LfsrStep, TweakeyLayout};
pub use pairs::{pairs_constants, PairsKernel, LAUNCH_SAMPLES};
pub use per_key::split_groups;
pub use query::KernelQuery;
pub use tables::{kernel_constants, shared_bytes, warps_per_block, KernelSetup};

use crate::boomerang::{Boomerang, Quartet};
use crate::common::Common;
use crate::control::Control;
use crate::differential::{Differential, Pair};
use crate::differential_linear::DifferentialLinear;
use crate::error::LabError;
use crate::linear::{KnownPlaintext, Linear};
use crate::outcome::{Outcome, Witness};
use crate::per_key::KeyHistogram;
use crate::rng::{CounterRng, Stream};
use per_key::KeyCounts;
use skinny_cuda::{Gpu, GpuError, GpuSet};
use std::ops::Range;
use std::sync::Arc;
use std::time::Instant;

/// Hit indices kept per launch while right pairs are wanted; a launch with
/// more hits than this is searched again in parts (see [`first_hits`]).
const RECORD: u32 = 4096;

impl Differential {
    /// The experiment as the GPU kernels take it.
    fn gpu_query(&self) -> KernelQuery {
        KernelQuery::Differential {
            dp: self.dp.clone(),
            dc: self.dc.clone(),
            dc_mask: self.dc_mask.clone(),
            dk: self.common.at_start(&self.dk),
            cells: self.cells,
        }
    }

    /// [`Differential::run_with`] on `gpu`.
    ///
    /// # Errors
    /// See [`Differential::check`]; a GPU failure; a right pair that the CPU
    /// does not confirm ([`LabError::GpuMismatch`]).
    pub fn run_gpu(&self, gpu: &Arc<Gpu>, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let query = self.gpu_query();
        run(&self.common, query, gpu, control, |q| self.pair_at(q))
    }

    /// [`Differential::run_with`] on every GPU of `gpus` at once: the same
    /// outcome as on one GPU.
    ///
    /// # Errors
    /// As [`Differential::run_gpu`], a GPU's error naming it.
    pub fn run_gpus(&self, gpus: &GpuSet, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let query = self.gpu_query();
        run_set(&self.common, &query, gpus, control, &|q| self.pair_at(q))
    }
}

impl Boomerang {
    /// The experiment as the GPU kernels take it.
    fn gpu_query(&self) -> KernelQuery {
        KernelQuery::Boomerang {
            dp: self.dp.clone(),
            dc: self.dc.clone(),
            dk1: self.common.at_start(&self.dk1),
            dk2: self.common.at_start(&self.dk2),
        }
    }

    /// [`Boomerang::run_with`] on `gpu`.
    ///
    /// # Errors
    /// See [`Boomerang::check`]; a GPU failure; a right quartet that the CPU
    /// does not confirm ([`LabError::GpuMismatch`]).
    pub fn run_gpu(&self, gpu: &Arc<Gpu>, control: &Control) -> Result<Outcome<Quartet>, LabError> {
        self.check()?;
        let query = self.gpu_query();
        run(&self.common, query, gpu, control, |q| self.quartet_at(q))
    }

    /// [`Boomerang::run_with`] on every GPU of `gpus` at once: the same
    /// outcome as on one GPU.
    ///
    /// # Errors
    /// As [`Boomerang::run_gpu`], a GPU's error naming it.
    pub fn run_gpus(&self, gpus: &GpuSet, control: &Control) -> Result<Outcome<Quartet>, LabError> {
        self.check()?;
        let query = self.gpu_query();
        run_set(&self.common, &query, gpus, control, &|q| self.quartet_at(q))
    }
}

impl DifferentialLinear {
    /// The experiment as the GPU kernels take it.
    fn gpu_query(&self) -> KernelQuery {
        KernelQuery::DifferentialLinear {
            dp: self.dp.clone(),
            mask: self.mask.clone(),
            dk: self.common.at_start(&self.dk),
        }
    }

    /// [`DifferentialLinear::run_with`] on `gpu`.
    ///
    /// # Errors
    /// See [`DifferentialLinear::check`]; a GPU failure; a pair that the CPU
    /// does not confirm ([`LabError::GpuMismatch`]).
    pub fn run_gpu(&self, gpu: &Arc<Gpu>, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let query = self.gpu_query();
        run(&self.common, query, gpu, control, |q| self.pair_at(q))
    }

    /// [`DifferentialLinear::run_with`] on every GPU of `gpus` at once: the
    /// same outcome as on one GPU.
    ///
    /// # Errors
    /// As [`DifferentialLinear::run_gpu`], a GPU's error naming it.
    pub fn run_gpus(&self, gpus: &GpuSet, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let query = self.gpu_query();
        run_set(&self.common, &query, gpus, control, &|q| self.pair_at(q))
    }
}

impl Linear {
    /// [`Linear::run_with`] on `gpu`.
    ///
    /// # Errors
    /// See [`Linear::check`]; a GPU failure; a hit that the CPU does not
    /// confirm ([`LabError::GpuMismatch`]).
    pub fn run_gpu(&self, gpu: &Arc<Gpu>, control: &Control) -> Result<Outcome<KnownPlaintext>, LabError> {
        self.check()?;
        let query = KernelQuery::Linear { in_mask: self.in_mask.clone(), out_mask: self.out_mask.clone() };
        run(&self.common, query, gpu, control, |q| self.known_plaintext_at(q))
    }

    /// [`Linear::run_with`] on every GPU of `gpus` at once: the same outcome
    /// as on one GPU.
    ///
    /// # Errors
    /// As [`Linear::run_gpu`], a GPU's error naming it.
    pub fn run_gpus(&self, gpus: &GpuSet, control: &Control) -> Result<Outcome<KnownPlaintext>, LabError> {
        self.check()?;
        let query = KernelQuery::Linear { in_mask: self.in_mask.clone(), out_mask: self.out_mask.clone() };
        run_set(&self.common, &query, gpus, control, &|q| self.known_plaintext_at(q))
    }
}

/// `range` cut into at most `parts` contiguous, disjoint, non-empty ranges of
/// equal length (the first ones one longer), in order.
pub fn split_queries(range: Range<u64>, parts: usize) -> Vec<Range<u64>> {
    let len = range.end.saturating_sub(range.start);
    if len == 0 {
        return Vec::new();
    }
    let k = (parts.max(1) as u64).min(len);
    let (per, extra) = (len / k, len % k);
    let mut out = Vec::with_capacity(k as usize);
    let mut s = range.start;
    for i in 0..k {
        let n = per + u64::from(i < extra);
        out.push(s..s + n);
        s += n;
    }
    out
}

/// What one GPU did with its range.
struct Part<W> {
    queries: u64,
    hits: u64,
    right: Vec<W>,
    /// Per-key runs: the histogram of the range's finished key groups.
    per_key: Option<KeyHistogram>,
    complete: bool,
    /// From the kernel's first launch to the last (compiling and loading the
    /// kernels left out: a first compilation on a machine can take 30 s).
    seconds: f64,
}

/// The shard's queries over every GPU of `gpus`, one range and thread each.
fn run_set<W: Witness>(
    common: &Common,
    query: &KernelQuery,
    gpus: &GpuSet,
    control: &Control,
    witness: &(dyn Fn(u64) -> Option<W> + Sync),
) -> Result<Outcome<W>, LabError> {
    if gpus.len() == 1 {
        return run(common, query.clone(), &gpus.gpus()[0], control, witness);
    }
    let range = common.shard_queries();
    // Per-key counts need each group on one GPU.
    let ranges = if common.per_key {
        split_groups(range.clone(), gpus.len(), common.key_every)
    } else {
        split_queries(range.clone(), gpus.len())
    };
    let results: Vec<Result<Part<W>, LabError>> = std::thread::scope(|sc| {
        let handles: Vec<_> = ranges
            .iter()
            .zip(gpus.gpus())
            .map(|(r, gpu)| {
                let r = r.clone();
                sc.spawn(move || {
                    run_range(common, query.clone(), gpu, control, r, witness).map_err(|e| match e {
                        LabError::Gpu(g) => GpuError::on_device(gpu.ordinal(), g.gpu_error().clone()).into(),
                        e => e,
                    })
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(GpuError::Internal("a GPU thread panicked").into())))
            .collect()
    });
    let (mut queries, mut hits, mut right, mut complete) = (0u64, 0u64, Vec::new(), true);
    let mut per_key = common.per_key.then(|| KeyHistogram::new(common.key_every));
    // The GPUs count side by side: the run lasts as long as its slowest part.
    let mut seconds = 0f64;
    for r in results {
        let p = r?;
        seconds = seconds.max(p.seconds);
        queries += p.queries;
        hits += p.hits;
        complete &= p.complete;
        // Ranges in order, each's pairs in order: the first pairs overall.
        right.extend(p.right);
        if let (Some(all), Some(part)) = (per_key.as_mut(), p.per_key.as_ref()) {
            all.absorb(part);
        }
    }
    right.truncate(common.show);
    Ok(Outcome {
        common: common.clone(),
        shards: vec![common.shard],
        queries,
        hits,
        right,
        seconds,
        per_key,
        interrupted: !complete,
    })
}

/// Runs this shard's queries in launches, checking for a stop between them.
fn run<W: Witness>(
    common: &Common,
    query: KernelQuery,
    gpu: &Arc<Gpu>,
    control: &Control,
    witness: impl Fn(u64) -> Option<W>,
) -> Result<Outcome<W>, LabError> {
    let p = run_range(common, query, gpu, control, common.shard_queries(), witness)?;
    Ok(Outcome {
        common: common.clone(),
        shards: vec![common.shard],
        queries: p.queries,
        hits: p.hits,
        right: p.right,
        seconds: p.seconds,
        per_key: p.per_key,
        interrupted: !p.complete,
    })
}

/// Runs queries `range` on `gpu` in launches, checking for a stop between them.
fn run_range<W: Witness>(
    common: &Common,
    query: KernelQuery,
    gpu: &Arc<Gpu>,
    control: &Control,
    range: Range<u64>,
    witness: impl Fn(u64) -> Option<W>,
) -> Result<Part<W>, LabError> {
    let rng = CounterRng::new(common.seed);
    let setup = KernelSetup {
        variant: common.variant,
        rounds: common.rounds,
        start_round: common.start_round,
        key_every: common.key_every,
        plain_state: rng.stream_state(Stream::Plaintext),
        key_state: rng.stream_state(Stream::Key),
        query,
    };
    let mut kernel = QueryKernel::new(gpu, setup)?;
    let started = Instant::now();
    let step = kernel.launch_queries();
    let (mut q, mut hits) = (range.start, 0u64);
    let mut right: Vec<W> = Vec::new();
    let mut keys = common.per_key.then(|| KeyCounts::new(common.key_every));
    while q < range.end && !control.stopped() {
        let n = step.min(range.end - q);
        let wanted = common.show - right.len();
        let record = if wanted > 0 { RECORD.max(wanted as u32) } else { 0 };
        let counts = match keys.as_mut() {
            Some(k) => {
                let c = kernel.run_counting_keys(q, n, record)?;
                k.add(q, n, &c.key_hits)?;
                c
            }
            None => kernel.run(q, n, record)?,
        };
        hits += counts.hits;
        if wanted > 0 && counts.hits > 0 {
            let mut found =
                if counts.overflow { first_hits(&mut kernel, q, n, wanted)? } else { counts.recorded.clone() };
            found.sort_unstable();
            for i in found.into_iter().take(wanted) {
                right.push(witness(i).ok_or(LabError::GpuMismatch { query: i })?);
            }
        }
        control.add_done(n);
        q += n;
    }
    Ok(Part {
        queries: q - range.start,
        hits,
        right,
        // A stopped run's unfinished group is left out, as on the CPU.
        per_key: keys.map(|k| k.histogram),
        complete: q >= range.end,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The first `wanted` hits of queries `start .. start + n`, whose launch had
/// more hits than it could record: the range again in 16 parts, in order,
/// each recorded in full or split again (a part of at most [`RECORD`] queries
/// cannot overflow). Counts of these launches are not added again.
fn first_hits(kernel: &mut QueryKernel, start: u64, n: u64, wanted: usize) -> Result<Vec<u64>, LabError> {
    let cap = RECORD.max(wanted as u32);
    let part = n.div_ceil(16).max(1);
    let mut found = Vec::new();
    let mut s = start;
    while s < start + n && found.len() < wanted {
        let m = part.min(start + n - s);
        let c = kernel.run(s, m, cap)?;
        let mut got = if c.overflow { first_hits(kernel, s, m, wanted - found.len())? } else { c.recorded };
        got.sort_unstable();
        found.extend(got);
        s += m;
    }
    Ok(found)
}

#[cfg(test)]
mod tests;
