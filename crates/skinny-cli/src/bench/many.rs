//! `skinny bench --many LIST`: batches of many messages through the
//! many-message engine beside the same messages one per call, through the
//! harness's many-message run: header and tables on stdout, the progress bar
//! and the skipped backends on stderr, CSV and JSON as files.

use super::error::BenchCommandError;
use super::out::{check_output, write_atomic, Bar, Stdout};
use super::{BenchArgs, BUILD};
use skinny_bench::{ManyBench, ManyPlan, ManyRequest};

/// Measures the batches `request` names and puts the results where `args` asks.
pub fn run(args: &BenchArgs, request: ManyRequest<'_>) -> Result<(), BenchCommandError> {
    let plan = ManyPlan::new(request).map_err(BenchCommandError::ManyPlan)?;
    for p in [&args.csv, &args.json].into_iter().flatten() {
        check_output(p)?;
    }
    let bench = ManyBench::open(plan, BUILD).map_err(BenchCommandError::Run)?;
    let mut stdout = Stdout::default();
    stdout.print(&bench.header());
    if !args.writes_files() {
        stdout.result()?;
    }
    let mut bar = Bar::new(bench.points() as u64, args.quiet);
    let measured = bench.measure(&mut bar);
    bar.finish();
    let report = measured.map_err(BenchCommandError::Run)?;

    stdout.print(&report.tables());
    if let Some(p) = &args.csv {
        write_atomic(p, report.csv().as_bytes())?;
    }
    if let Some(p) = &args.json {
        let json = report.json().map_err(|source| BenchCommandError::Json { path: p.clone(), source })?;
        write_atomic(p, json.as_bytes())?;
    }
    stdout.result()
}
