//! `skinny lab`: differential and boomerang experiments on reduced-round SKINNY
//! (the `skinny-lab` crate), their findings, and merging the findings of
//! shards. Arguments become the library's experiment and hardware, one call
//! counts, and the findings are printed as JSON or as a table.

mod args;
mod table;
mod watch;

pub use args::LabArgs;

use args::{CommonArgs, LabCommand};

use crate::args::VERSION;
use crate::error::CliError;
use skinny_lab::{Experiment, Findings, LabError, MergeError, Rig, RigError};
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
    match &args.command {
        LabCommand::Differential(a) => count(&a.common, args::differential(a)?),
        LabCommand::Boomerang(a) => count(&a.common, args::boomerang(a)?),
        LabCommand::Merge(a) => print(&merge(&a.files)?, a.json),
    }
}

/// Counts `exp` on the hardware asked for, watched (progress, interrupts),
/// and prints its findings; an interrupted run ends with the signal's status.
fn count(a: &CommonArgs, exp: Experiment) -> Result<(), CliError> {
    let rig = Rig::open(&args::placement(a), exp.common()).map_err(|e| rig_error(a, e))?;
    let bar = if a.json { Bar::Hidden } else { Bar::WhereSeen };
    let findings = watch::watched(bar, exp.common(), |control| rig.run(&exp, control, VERSION)).map_err(lab_error)?;
    print(&findings, a.json)?;
    watch::interrupted(&findings)
}

/// Hardware that could not be had, in the words of the options that asked.
fn rig_error(a: &CommonArgs, e: RigError) -> CliError {
    match e {
        RigError::NoCuda => CliError::Gpu("--backend gpu: this skinny was built without CUDA support".into()),
        RigError::Selection(e) => CliError::Usage(format!("--gpus {}: {e}", a.gpus)),
        RigError::Gpu(e) => CliError::Gpu(format!("--backend gpu: {e}")),
        e => CliError::Io(e.to_string()),
    }
}

/// A failed run: the GPU's fault, a GPU that counted wrongly, or parameters
/// the library refused.
fn lab_error(e: LabError) -> CliError {
    match e {
        LabError::GpuMismatch { .. } => CliError::Check(e.to_string()),
        LabError::Gpu(e) => CliError::Gpu(format!("GPU: {e}")),
        e => CliError::Usage(e.to_string()),
    }
}

/// Reads the findings and merges them with the library's merge, which checks
/// that they are shards of one experiment.
fn merge(files: &[PathBuf]) -> Result<Findings, CliError> {
    let mut parts = Vec::with_capacity(files.len());
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| CliError::Io(format!("cannot read {}: {}", f.display(), crate::error::reason(&e))))?;
        let part: Findings = serde_json::from_str(&text)
            .map_err(|e| CliError::Usage(format!("{}: not a `skinny lab --json` report ({e})", f.display())))?;
        parts.push(part);
    }
    let name = |part: usize| files.get(part).map_or_else(String::new, |f| f.display().to_string());
    Findings::merge(&parts, VERSION).map_err(|e| {
        CliError::Usage(match e {
            MergeError::OtherExperiment { part } => format!("{}: a different experiment from {}", name(part), name(0)),
            MergeError::OtherVersion { part, version, first } => format!(
                "{}: counted by skinny {version:?}, {} by {first:?}: merge reports of one version",
                name(part),
                name(0)
            ),
            MergeError::Part { part, source } => format!("{}: {source}", name(part)),
            MergeError::UnknownExperiment(other) => format!("{}: unknown experiment {other:?}", name(0)),
            e => e.to_string(),
        })
    })
}

/// The findings on stdout: one JSON object on one line, or the table.
fn print(f: &Findings, json: bool) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    let text = if json {
        let mut s = serde_json::to_string(f).map_err(|e| CliError::Io(format!("cannot write the report: {e}")))?;
        s.push('\n');
        s
    } else {
        table::render(f)
    };
    out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CliError::Output)
}
