//! The experiments on an NVIDIA GPU (feature `cuda`): the same queries as on
//! the CPU (the kernels draw them from the same generator), so the same counts
//! and the same right pairs, whatever runs them.
//!
//! The kernels (`skinny_cuda::lab`) give each query its own tweakey and only
//! count: a launch returns its hits and, while right pairs are still wanted,
//! the query indices of its hits. Each kept hit is then recomputed here with
//! the one-block specification code, which must agree: the pairs shown are the
//! CPU's, and a GPU that counts wrongly is caught on every pair it shows.

use crate::rng::{CounterRng, Stream};
use crate::{Boomerang, Common, Control, Differential, LabError, Outcome, Pair, Quartet, Witness};
use skinny_cuda::lab::{LabKernel, LabQuery, LabSetup};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

pub use skinny_cuda::{Gpu, GpuError};

/// Hit indices kept per launch while right pairs are wanted; a launch with
/// more hits than this is searched again in parts (see [`first_hits`]).
const RECORD: u32 = 4096;

impl Differential {
    /// [`Differential::run_with`] on `gpu`.
    ///
    /// # Errors
    /// See [`Differential::check`]; a GPU failure; a right pair that the CPU
    /// does not confirm ([`LabError::GpuMismatch`]).
    pub fn run_gpu(&self, gpu: &Arc<Gpu>, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let query = LabQuery::Differential {
            dp: self.dp.clone(),
            dc: self.dc.clone(),
            dc_mask: self.dc_mask.clone(),
            dk: self.dk.clone(),
        };
        run(&self.common, query, gpu, control, |q| self.pair_at(q))
    }
}

impl Boomerang {
    /// [`Boomerang::run_with`] on `gpu`.
    ///
    /// # Errors
    /// See [`Boomerang::check`]; a GPU failure; a right quartet that the CPU
    /// does not confirm ([`LabError::GpuMismatch`]).
    pub fn run_gpu(&self, gpu: &Arc<Gpu>, control: &Control) -> Result<Outcome<Quartet>, LabError> {
        self.check()?;
        let query = LabQuery::Boomerang {
            dp: self.dp.clone(),
            dc: self.dc.clone(),
            dk1: self.dk1.clone(),
            dk2: self.dk2.clone(),
        };
        run(&self.common, query, gpu, control, |q| self.quartet_at(q))
    }
}

/// Runs this shard's queries in launches, checking for a stop between them.
fn run<W: Witness>(
    common: &Common,
    query: LabQuery,
    gpu: &Arc<Gpu>,
    control: &Control,
    witness: impl Fn(u64) -> Option<W>,
) -> Result<Outcome<W>, LabError> {
    let start = Instant::now();
    let rng = CounterRng::new(common.seed);
    let setup = LabSetup {
        variant: common.variant,
        rounds: common.rounds,
        key_every: common.key_every,
        plain_state: rng.stream_state(Stream::Plaintext),
        key_state: rng.stream_state(Stream::Key),
        query,
    };
    let mut kernel = LabKernel::new(gpu, setup)?;
    let range = common.shard_queries();
    let step = kernel.launch_queries();
    let (mut q, mut hits) = (range.start, 0u64);
    let mut right: Vec<W> = Vec::new();
    while q < range.end && !control.stopped() {
        let n = step.min(range.end - q);
        let wanted = common.show - right.len();
        let counts = kernel.run(q, n, if wanted > 0 { RECORD.max(wanted as u32) } else { 0 })?;
        hits += counts.hits;
        if wanted > 0 && counts.hits > 0 {
            let mut found =
                if counts.overflow { first_hits(&mut kernel, q, n, wanted)? } else { counts.recorded.clone() };
            found.sort_unstable();
            for i in found.into_iter().take(wanted) {
                right.push(witness(i).ok_or(LabError::GpuMismatch { query: i })?);
            }
        }
        control.done.fetch_add(n, Ordering::Relaxed);
        q += n;
    }
    Ok(Outcome {
        common: common.clone(),
        shards: vec![common.shard],
        queries: q - range.start,
        hits,
        right,
        seconds: start.elapsed().as_secs_f64(),
        interrupted: q < range.end,
    })
}

/// The first `wanted` hits of queries `start .. start + n`, whose launch had
/// more hits than it could record: the range again in 16 parts, in order,
/// each recorded in full or split again (a part of at most [`RECORD`] queries
/// cannot overflow). Counts of these launches are not added again.
fn first_hits(kernel: &mut LabKernel, start: u64, n: u64, wanted: usize) -> Result<Vec<u64>, LabError> {
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
