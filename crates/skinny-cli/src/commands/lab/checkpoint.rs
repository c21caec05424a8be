//! `--checkpoint FILE`: a shard counted in segments of its key groups
//! (the library's `CheckpointedRun`, which Python's `checkpoint=` runs too),
//! the findings so far written to FILE atomically after each, so that a stopped run (Ctrl-C, SIGTERM, a requeued
//! batch job, a lost machine) started again with the same command goes on
//! from its last segment and ends with exactly an uninterrupted run's
//! findings. FILE is removed once the findings are printed.

use super::error::LabCommandError;
use super::watch::{self, Bar};
use crate::args::VERSION;
use clap::Args;
use skinny_lab::{CheckpointFile, CheckpointedRun, Ended, Experiment, Findings, Rig};
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
/// writing FILE after each segment (the library's checkpointed run); on a
/// stop, one line says how to go on.
pub(super) fn count(
    rig: &Rig,
    exp: Experiment,
    bar: Bar,
    path: &Path,
    every: Duration,
) -> Result<Findings, LabCommandError> {
    let shown = || super::text::printable(&path.display().to_string());
    let file = CheckpointFile::new(path).map_err(LabCommandError::from_checkpoint)?;
    let mut run = CheckpointedRun::start(exp, every, file, VERSION).map_err(LabCommandError::from_checkpoint)?;
    if let Some(queries) = run.resumed_queries() {
        // Worth a line in a batch job's log: the run was stopped before.
        eprintln!("skinny: going on from {}: {queries} queries of the shard already counted", shown());
    }
    let rest = run.rest();
    let ended = watch::watched(bar, rest.common(), |control| run.run(rig, control, VERSION))
        .map_err(LabCommandError::from_checkpoint)?;
    match ended {
        Ended::Done(findings) => Ok(findings),
        Ended::Stopped { findings, saved } => {
            if saved > 0 {
                eprintln!(
                    "skinny: {} keeps the first {saved} queries of the shard: the same command goes on from there",
                    shown()
                );
            } else {
                eprintln!(
                    "skinny: stopped before the first segment ended: nothing kept in {}, the same command starts over",
                    shown()
                );
            }
            Ok(findings)
        }
        _ => Err(LabCommandError::Refused(skinny_lab::LabError::Internal("an unknown end of a checkpointed run"))),
    }
}

/// After the findings of a finished run are printed: FILE is no longer needed.
pub(super) fn remove(path: &Path) -> Result<(), LabCommandError> {
    CheckpointFile::new(path).and_then(|file| file.remove()).map_err(LabCommandError::from_checkpoint)
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
