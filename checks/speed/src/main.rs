//! The speed guard: times every CPU path of the cipher family against its
//! simpler sibling in one run on this machine, and fails on a gross
//! regression. Ratios only, never absolute speeds, so a slow or busy machine
//! does not fail it; each ratio's threshold is written beside the floor it
//! comes from (`ratios/`). See docs/speed-guard.md.
//!
//! `speed-guard [--json PATH] [--pairs N] [--sample-ms MS] [--only TEXT]...`
//!
//! Exit status: 0 when every ratio is at or above its threshold; 1 with one
//! line per ratio below it (`speed guard: NAME = VALUE, threshold T`); 2 for
//! bad arguments or a JSON file that could not be written.

mod machine;
mod measure;
mod ratios;
mod record;
mod report;
mod retry;

use measure::{Clock, Settings};
use ratios::{Runner, Selection};
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "usage: speed-guard [--json PATH] [--pairs N] [--sample-ms MS] [--only TEXT]...
  --json PATH     write every ratio, its threshold and floor, and the machine as JSON
  --pairs N       pairs of samples per ratio (default 31)
  --sample-ms MS  length of one sample in milliseconds (default 2)
  --only TEXT     measure only the ratios whose name contains TEXT (repeatable)";

struct Args {
    json: Option<String>,
    settings: Settings,
    only: Vec<String>,
    /// Set in a child started by `retry`: measure this one ratio for the parent.
    remeasure: Option<String>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut out = Args {
        json: None,
        settings: Settings { clock: Clock::best(), pairs: 31, sample: Duration::from_millis(2) },
        only: Vec::new(),
        remeasure: None,
    };
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--json" => out.json = Some(value("--json")?),
            "--pairs" => {
                let v = value("--pairs")?;
                out.settings.pairs = v
                    .parse()
                    .ok()
                    .filter(|&n| (1..=10_000).contains(&n))
                    .ok_or(format!("--pairs {v}: a count from 1 to 10000"))?;
            }
            "--sample-ms" => {
                let v = value("--sample-ms")?;
                let ms: f64 = v
                    .parse()
                    .ok()
                    .filter(|ms: &f64| ms.is_finite() && (0.01..=10_000.0).contains(ms))
                    .ok_or(format!("--sample-ms {v}: milliseconds from 0.01 to 10000"))?;
                out.settings.sample = Duration::from_secs_f64(ms / 1e3);
            }
            "--only" => out.only.push(value("--only")?),
            retry::ARG => out.remeasure = Some(value(retry::ARG)?),
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(out)
}

fn run_all(runner: &mut Runner) {
    ratios::bitsliced::run(runner);
    ratios::single::run(runner);
    ratios::engines::run(runner);
    ratios::schemes::run(runner);
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("speed-guard: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if let Some(name) = args.remeasure {
        // A child of `retry`: the one ratio, one line on stdout, no checks.
        run_all(&mut Runner::new(args.settings, Selection::ForParent(name)));
        return ExitCode::SUCCESS;
    }
    let start = Instant::now();
    let machine = machine::Machine::probe();
    report::print_header(&machine, args.settings);
    let mut runner = Runner::new(args.settings, Selection::Matching(args.only));
    run_all(&mut runner);
    let seconds = start.elapsed().as_secs_f64();
    for what in &runner.skipped {
        println!("skipped: {what}");
    }
    let failed: Vec<_> = runner.records.iter().filter(|r| !r.passed()).collect();
    println!("{} ratios in {seconds:.1} s, {} below threshold", runner.records.len(), failed.len());
    if let Some(path) = &args.json {
        let text = report::json(&machine, args.settings, &runner.records, &runner.skipped, seconds);
        if let Err(e) = std::fs::write(path, text) {
            eprintln!("speed-guard: cannot write {path}: {e}");
            return ExitCode::from(2);
        }
    }
    if runner.records.is_empty() {
        eprintln!("speed guard: no ratio measured (--only matched none)");
        return ExitCode::from(2);
    }
    for r in &failed {
        eprintln!("{}", report::failure_line(r));
    }
    if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
