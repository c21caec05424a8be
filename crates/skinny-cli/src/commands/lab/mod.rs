//! `skinny lab`: differential (with cell patterns), boomerang,
//! differential-linear and linear experiments on reduced-round SKINNY
//! (the `skinny-lab` crate), their findings, and merging the findings of
//! shards. Arguments become the library's experiment and hardware, one call
//! counts, and the findings are printed as JSON or as a table.

mod args;
mod checkpoint;
mod count_args;
mod error;
mod per_key;
mod table;
mod text;
mod watch;

pub use args::LabArgs;
pub use error::LabCommandError;

use args::{CommonArgs, LabCommand};

use crate::args::VERSION;
use crate::error::CliError;
use skinny_lab::{Experiment, Findings, MergeError, Rig};
use std::io::Write;
use std::path::PathBuf;
use watch::Bar;

/// Runs a `skinny lab` subcommand.
///
/// # Errors
/// One line for the user: bad arguments (exit 2), GPUs that cannot be had,
/// a failed run, unreadable or unmergeable findings, an interrupt (after the
/// partial findings, the signal's status).
pub fn run(args: &LabArgs) -> Result<(), CliError> {
    let done = match &args.command {
        LabCommand::Differential(a) => args::differential(a).and_then(|exp| count(&a.common, exp)),
        LabCommand::Boomerang(a) => args::boomerang(a).and_then(|exp| count(&a.common, exp)),
        LabCommand::DifferentialLinear(a) => args::differential_linear(a).and_then(|exp| count(&a.common, exp)),
        LabCommand::Linear(a) => args::linear(a).and_then(|exp| count(&a.common, exp)),
        LabCommand::Merge(a) => merge(&a.files).and_then(|f| print(&f, a.json)),
    };
    Ok(done?)
}

/// A notice on stderr. A notice that cannot be written (a full disk under
/// the log, a closed stderr) is dropped: it must not stop a run whose
/// findings are fine (`eprintln!` would panic).
pub(super) fn notice_line(notice: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skinny: {notice}");
}

/// Counts `exp` on the hardware asked for, watched (progress, interrupts),
/// and prints its findings; an interrupted run ends with the signal's status.
fn count(a: &CommonArgs, exp: Experiment) -> Result<(), LabCommandError> {
    if let (_, Some(notice)) = crate::args::capped_threads(a.threads) {
        notice_line(&notice);
    }
    let rig =
        Rig::open(&args::placement(a), exp.common()).map_err(|e| LabCommandError::from_rig(&a.gpus.to_string(), e))?;
    if !rig.kernels_compiled() {
        // The first compilation on a machine has taken 25-35 s: say why nothing
        // seems to happen. It is not part of the run's time or rate.
        notice_line("compiling the lab's GPU kernels (once per machine and version; kept in the kernel cache)");
    }
    rig.prepare().map_err(LabCommandError::from_run)?;
    let bar = if a.json { Bar::Hidden } else { Bar::WhereSeen };
    let findings = match &a.checkpoint.checkpoint {
        Some(path) => checkpoint::count(&rig, exp, bar, path, a.checkpoint.checkpoint_every)?,
        None => watch::watched(bar, exp.common(), |control| rig.run(&exp, control, VERSION))
            .map_err(LabCommandError::from_run)?,
    };
    print(&findings, a.json)?;
    if let (Some(path), false) = (&a.checkpoint.checkpoint, findings.interrupted) {
        checkpoint::remove(path)?;
    }
    watch::interrupted(&findings)
}

/// Reads the findings and merges them with the library's merge, which checks
/// that they are shards of one experiment.
fn merge(files: &[PathBuf]) -> Result<Findings, LabCommandError> {
    let mut parts = Vec::with_capacity(files.len());
    for f in files {
        let text = read_report(f).map_err(|source| LabCommandError::Read { path: f.clone(), source })?;
        let part: Findings =
            serde_json::from_str(&text).map_err(|source| LabCommandError::NotAReport { path: f.clone(), source })?;
        parts.push(part);
    }
    let name = |part: usize| files.get(part).map_or_else(String::new, |f| f.display().to_string());
    Findings::merge(&parts, VERSION).map_err(|source| {
        let part = match &source {
            MergeError::OtherExperiment { part }
            | MergeError::OtherVersion { part, .. }
            | MergeError::Part { part, .. } => *part,
            _ => 0,
        };
        LabCommandError::Merge { part: name(part), first: name(0), source }
    })
}

/// The most a report file may hold: a report with the most right pairs
/// `--show` allows is a few hundred KiB; anything far larger (`/dev/zero`, a
/// wrong file) is refused before it fills the memory.
const MAX_REPORT_BYTES: u64 = 64 << 20;

/// A report's text, at most [`MAX_REPORT_BYTES`].
fn read_report(path: &std::path::Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)?.take(MAX_REPORT_BYTES + 1).read_to_string(&mut text)?;
    if text.len() as u64 > MAX_REPORT_BYTES {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "larger than 64 MiB: not a lab report"));
    }
    Ok(text)
}

/// The findings on stdout: one JSON object on one line, or the table.
fn print(f: &Findings, json: bool) -> Result<(), LabCommandError> {
    let mut out = std::io::stdout().lock();
    let text = if json {
        let mut s = serde_json::to_string(f).map_err(LabCommandError::Json)?;
        s.push('\n');
        s
    } else {
        table::render(f)
    };
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(LabCommandError::Output)
}
