//! `--checkpoint FILE`: a shard counted in segments of its key groups
//! (the library's `SegmentedRun`), the findings so far written to FILE
//! atomically after each, so that a stopped run (Ctrl-C, SIGTERM, a requeued
//! batch job, a lost machine) started again with the same command goes on
//! from its last segment and ends with exactly an uninterrupted run's
//! findings. FILE is removed once the findings are printed.

use super::error::LabCommandError;
use super::watch::{self, Bar};
use crate::args::VERSION;
use clap::Args;
use skinny_lab::{Checkpoint, Experiment, Findings, Rig, SegmentedRun, Step};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// `--checkpoint` and `--checkpoint-every`, on every experiment.
#[derive(Debug, Args)]
pub struct CheckpointArgs {
    /// Count the shard in segments and keep the findings so far in FILE
    /// (replaced atomically after each segment). Started again with FILE
    /// there, the run goes on from it: it must be of the same experiment,
    /// seed, shard, --show and skinny version, or it is refused (and left as
    /// it is). FILE is removed once the findings are printed; the findings
    /// are those of a run that never stopped.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,

    /// About how many seconds of counting each segment holds (each ends
    /// with FILE written; 0: one key group a segment).
    #[arg(long, value_name = "SECONDS", default_value = "30", requires = "checkpoint", value_parser = parse_seconds)]
    pub checkpoint_every: Duration,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let v: f64 = s.trim().parse().map_err(|_| format!("{s} is not a number of seconds"))?;
    Duration::try_from_secs_f64(v).map_err(|_| format!("{s}: need a number of seconds from 0 to about 10^19"))
}

/// Counts `exp` on `rig` from FILE (or from the start where there is none),
/// writing FILE after each segment; on a stop, one line says how to go on.
pub(super) fn count(
    rig: &Rig,
    exp: Experiment,
    bar: Bar,
    path: &Path,
    every: Duration,
) -> Result<Findings, LabCommandError> {
    let mut run = match read(path)? {
        None => SegmentedRun::new(exp, every).map_err(LabCommandError::Refused)?,
        Some(c) => {
            let run = SegmentedRun::resume(exp, every, &c, VERSION)
                .map_err(|source| LabCommandError::Checkpoint { path: path.to_path_buf(), source })?;
            // Worth a line in a batch job's log: the run was stopped before.
            let shown = super::text::printable(&path.display().to_string());
            eprintln!("skinny: going on from {shown}: {} queries of the shard already counted", c.findings.queries);
            run
        }
    };
    let rest = run.rest();
    watch::watched(bar, rest.common(), |control| loop {
        match run.step(rig, control, VERSION).map_err(LabCommandError::from_run)? {
            Step::Saved(c) => write(path, &c)?,
            Step::Stopped { findings, saved } => {
                let shown = super::text::printable(&path.display().to_string());
                if saved > 0 {
                    eprintln!(
                        "skinny: {shown} keeps the first {saved} queries of the shard: the same command goes on from there"
                    );
                } else {
                    eprintln!("skinny: stopped before the first segment ended: nothing kept in {shown}, the same command starts over");
                }
                return Ok(findings);
            }
            Step::Done(findings) => return Ok(findings),
            _ => return Err(LabCommandError::Refused(skinny_lab::LabError::Internal("an unknown step"))),
        }
    })
}

/// After the findings of a finished run are printed: FILE is no longer needed.
pub(super) fn remove(path: &Path) -> Result<(), LabCommandError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            Err(LabCommandError::CheckpointFile { doing: "remove", path: path.to_path_buf(), source: e })
        }
        _ => Ok(()),
    }
}

/// The checkpoint in FILE, `None` where there is no FILE.
fn read(path: &Path) -> Result<Option<Checkpoint>, LabCommandError> {
    let text = match super::read_report(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(LabCommandError::Read { path: path.to_path_buf(), source }),
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| LabCommandError::NotACheckpoint { path: path.to_path_buf(), source })
}

/// FILE replaced by `c` all at once (a stop or a crash leaves the old one).
fn write(path: &Path, c: &Checkpoint) -> Result<(), LabCommandError> {
    let mut text = serde_json::to_string(c).map_err(LabCommandError::Json)?;
    text.push('\n');
    crate::atomic::write_atomically(path, text.as_bytes()).map_err(|source| LabCommandError::CheckpointFile {
        doing: "write",
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_in_every_spelling_and_no_other() {
        assert_eq!(parse_seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_seconds(" 0.25 "), Ok(Duration::from_millis(250)));
        assert_eq!(parse_seconds("0"), Ok(Duration::ZERO));
        for bad in ["-1", "nan", "inf", "1e30", "soon", ""] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
