//! `skinny bench --aead LIST --hash LIST`: the scheme series (AEAD seal and
//! open, hashes), one message per call, through the harness's scheme run;
//! the same outputs as a cipher run: header and tables on stdout, the
//! progress bar on stderr, CSV, JSON and the throughput chart as files.

use super::error::BenchCommandError;
use super::out::{check_output, write_atomic, Bar, Stdout};
use super::{BenchArgs, BUILD};
use skinny_bench::{SchemeBench, SchemePlan, SchemeRequest};

/// Measures the schemes `request` names and puts the results where `args` asks.
pub fn run(args: &BenchArgs, request: SchemeRequest<'_>) -> Result<(), BenchCommandError> {
    let plan = SchemePlan::new(request).map_err(BenchCommandError::SchemePlan)?;
    for p in [&args.csv, &args.json].into_iter().flatten() {
        check_output(p)?;
    }
    let bench = SchemeBench::open(plan, BUILD);
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
    if let Some(p) = &args.plot {
        write_atomic(p, report.throughput_svg().as_bytes())?;
    }
    stdout.result()
}
