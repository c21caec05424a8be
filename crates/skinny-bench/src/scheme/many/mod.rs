//! The many-message series: batches of independent messages (each its own
//! random key and nonce, no associated data) sealed and opened through the
//! many-message engine (crate `skinny-many`), by scheme (Romulus-N,
//! Romulus-M, SKINNY-AEAD M1-M6), message size and backend, each point
//! beside the same messages one per call through the single-message types
//! on the same threads (the ratio of the two is issue 26's measure) and
//! beside its floor (block-cipher calls per message x rounds per call, as
//! the scheme series counts them).
//!
//! Backends ([`Backend`]): `cpu`, the CPU engine on the run's thread pool
//! (`skinny_many::cpu::seal_in` / `open_in`, the pool started once); `gpu`
//! and `auto`, the placements of those names given to `skinny_many::seal`
//! and `open`, which open their GPU engine (or start their thread pool) in
//! every call, as a caller with one batch pays. A GPU that this build or
//! machine lacks is reported as skipped ([`ManySkipped`]), never as a figure.
//!
//! The run goes as the scheme series' does: a [`ManyRequest`] becomes a
//! checked [`ManyPlan`]; [`ManyBench::open`] looks up the machine and starts
//! the thread pool; [`ManyBench::measure`] times every point with the same
//! timing loop; the [`ManyReport`] gives the header, tables, CSV and JSON.

mod inputs;
mod measure;
mod plan;
mod report;

#[cfg(test)]
mod tests;

pub use measure::{measure_many, BatchTimes, ManyRecord, ManySkipped, Measured};
pub use plan::{
    many_algorithms, many_scheme, Backend, ManyPlan, ManyPlanError, ManyRequest, BATCH_DATA_BYTES, DEFAULT_MANY_SIZES,
    MESSAGES_PER_THREAD,
};
pub use report::{ManyReport, MANY_FIELDS};

use crate::error::BenchError;
use crate::measure::Observer;
use crate::system::{Build, SystemInfo};

/// A many-message run ready to measure.
pub struct ManyBench {
    report: ManyReport,
    pool: rayon::ThreadPool,
}

impl ManyBench {
    /// Looks up the machine and starts the plan's threads.
    ///
    /// # Errors
    /// [`BenchError::Threads`]: the operating system would not start them.
    pub fn open(plan: ManyPlan, build: Build) -> Result<Self, BenchError> {
        let pool = skinny_exec::worker_pool(plan.threads).map_err(BenchError::Threads)?;
        let info = SystemInfo::gather(build);
        Ok(Self { report: ManyReport { info, plan, records: Vec::new(), skipped: Vec::new() }, pool })
    }

    /// The report's header, before any timing.
    pub fn header(&self) -> String {
        self.report.header()
    }

    /// How many points [`ManyBench::measure`] will time.
    pub fn points(&self) -> usize {
        self.report.plan.points()
    }

    /// Times every point, telling `obs` as it goes.
    ///
    /// # Errors
    /// [`BenchError::NothingMeasured`] when no point has a figure (every
    /// backend asked for skipped, or every measurement failed).
    pub fn measure(mut self, obs: &mut dyn Observer) -> Result<ManyReport, BenchError> {
        let m = measure_many(&self.report.plan, &self.pool, obs);
        if m.records.is_empty() {
            return Err(BenchError::NothingMeasured);
        }
        (self.report.records, self.report.skipped) = (m.records, m.skipped);
        Ok(self.report)
    }
}
