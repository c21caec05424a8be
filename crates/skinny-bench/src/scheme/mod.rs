//! The scheme series: SKINNY-AEAD M1-M6 and Romulus-N, -M, -T sealing and
//! opening, and Romulus-H, SKINNY-tk3-Hash and SKINNY-tk2-Hash hashing, one
//! message per call on the CPU, by message size, each point beside its floor
//! (block-cipher calls per message x rounds per call).
//!
//! The run goes as the cipher bench's does: a [`SchemeRequest`] becomes a
//! checked [`SchemePlan`]; [`SchemeBench::open`] looks up the machine and
//! [`SchemeBench::measure`] times every point through the same timing loop
//! ([`time_op`](crate::measure::time_op): a warm-up call, a repeat count
//! that makes each run last long enough, the runs, an optional budget); the
//! [`SchemeReport`] gives the header, the tables, CSV, JSON and the chart.
//!
//! [`Route`] names how the messages go through the library: one per call
//! here (`Route::Single`), or many per call through the many-message engine
//! (`Route::Many`, crate `skinny-many`), the series of module [`many`],
//! which times each batch beside the same messages one per call.

mod algorithm;
mod chart;
pub mod many;
mod measure;
mod plan;
mod report;

#[cfg(test)]
mod tests;

pub use algorithm::{Algorithm, Family, Floor, Operation, Route, ROMULUS_ROUNDS};
pub use measure::{measure_schemes, SchemeRecord};
pub use plan::{SchemePlan, SchemePlanError, SchemeRequest, DEFAULT_SIZES};
pub use report::{SchemeReport, SCHEME_FIELDS};

use crate::error::BenchError;
use crate::measure::Observer;
use crate::system::{Build, SystemInfo};

/// A scheme run ready to measure.
pub struct SchemeBench {
    report: SchemeReport,
}

impl SchemeBench {
    /// Looks up the machine for `plan`.
    pub fn open(plan: SchemePlan, build: Build) -> Self {
        Self { report: SchemeReport { info: SystemInfo::gather(build), plan, records: Vec::new() } }
    }

    /// The report's header, before any timing.
    pub fn header(&self) -> String {
        self.report.header()
    }

    /// How many points [`SchemeBench::measure`] will time.
    pub fn points(&self) -> usize {
        self.report.plan.points()
    }

    /// Times every point, telling `obs` as it goes.
    ///
    /// # Errors
    /// [`BenchError::NothingMeasured`] when every measurement failed.
    pub fn measure(mut self, obs: &mut dyn Observer) -> Result<SchemeReport, BenchError> {
        let records = measure_schemes(&self.report.plan, obs);
        if records.is_empty() {
            return Err(BenchError::NothingMeasured);
        }
        self.report.records = records;
        Ok(self.report)
    }
}
