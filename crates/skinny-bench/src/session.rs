//! A measured run: the backends opened under a random key, then every point
//! of the plan timed, into a [`Report`].

use crate::error::BenchError;
use crate::measure::{self, open_subjects, random_cipher, Observer, Skipped, Subject};
use crate::plan::Plan;
use crate::report::Report;
use crate::system::{Build, SystemInfo};
use skinny::Skinny;

/// A run whose backends are open, ready to measure.
pub struct Bench {
    cipher: Skinny,
    subjects: Vec<Subject>,
    /// Everything but the records, which [`Bench::measure`] fills.
    report: Report,
}

impl Bench {
    /// Opens every backend of `plan` that can run here, with its engine for a
    /// fresh random key, and looks up the machine.
    ///
    /// # Errors
    /// [`BenchError::NoBackend`] when none can run here.
    pub fn open(plan: Plan, build: Build) -> Result<Self, BenchError> {
        let cipher = random_cipher(plan.variant)?;
        let (subjects, skipped) = open_subjects(&plan, &cipher);
        if subjects.is_empty() {
            return Err(BenchError::NoBackend { skipped });
        }
        let info = SystemInfo::gather(build);
        let setups = subjects.iter().map(Subject::setup).collect();
        let report = Report { info, plan, setups, skipped, records: Vec::new() };
        Ok(Self { cipher, subjects, report })
    }

    /// The backends asked for that cannot run here.
    pub fn skipped(&self) -> &[Skipped] {
        &self.report.skipped
    }

    /// The report's header (machine, plan, setup costs), before any timing.
    pub fn header(&self) -> String {
        self.report.header()
    }

    /// How many points [`Bench::measure`] will time (a progress bar's length).
    pub fn points(&self) -> usize {
        measure::points(&self.report.plan, &self.subjects)
    }

    /// Times every point, telling `obs` as it goes.
    ///
    /// # Errors
    /// [`BenchError::NothingMeasured`] when every measurement failed.
    pub fn measure(mut self, obs: &mut dyn Observer) -> Result<Report, BenchError> {
        let records = measure::measure_all(&self.report.plan, &self.cipher, &mut self.subjects, obs);
        if records.is_empty() {
            return Err(BenchError::NothingMeasured);
        }
        self.report.records = records;
        Ok(self.report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Unobserved;
    use crate::plan::{Directions, Preset, Request};
    use skinny_bulk::backend::{BackendChoice, GpuSelection};
    use skinny_bulk::mode::Mode;

    fn plan(variant: skinny::Variant, backends: Vec<BackendChoice>) -> Plan {
        Plan::new(Request {
            preset: Preset::Quick,
            variant,
            modes: Some(vec![Mode::Ctr]),
            backends: Some(backends),
            timings: None,
            runs: Some(2),
            sizes: Some("64"),
            directions: Directions::Encrypt,
            threads: Some(1),
            gpus: GpuSelection::All,
            max_time_per_size: None,
            min_run_secs: 1e-4,
        })
        .unwrap()
    }

    const BUILD: Build = Build { version: "0.0.0", commit: "test" };

    #[test]
    fn measures_what_can_run_and_says_what_cannot() {
        let bench = Bench::open(plan(skinny::Variant::Skinny128_256, vec![BackendChoice::CpuSerial]), BUILD).unwrap();
        assert!(bench.header().contains("Cipher skinny-128-256; modes ctr"), "{}", bench.header());
        assert_eq!(bench.points(), 1);
        let report = bench.measure(&mut Unobserved).unwrap();
        assert_eq!(report.records.len(), 1);
        assert_eq!(report.records[0].runs(), 2);
        // gpu-paper runs SKINNY-128-256 only: with another variant, nowhere.
        let e = Bench::open(plan(skinny::Variant::Skinny64_128, vec![BackendChoice::GpuPaper]), BUILD)
            .err()
            .expect("no backend");
        let BenchError::NoBackend { skipped } = &e else { panic!("{e}") };
        assert_eq!(skipped[0].backend, "gpu-paper");
        assert!(e.to_string().starts_with("no requested backend can run here (gpu-paper: "), "{e}");
    }
}
