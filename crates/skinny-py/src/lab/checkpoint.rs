//! `checkpoint=PATH` of the lab's functions: the library's checkpointed run
//! (`skinny_lab::CheckpointedRun`, the CLI's `--checkpoint` too): the shard
//! counted in segments of its key groups, the findings so far written to
//! PATH after each, all at once, so that a task that dies (a lost Ray worker,
//! a killed job) and runs again with the same arguments goes on from its
//! last segment; PATH is removed once the shard is done.

use crate::errors::{Error, PyResultOf};
use skinny_lab::{CheckpointFile, CheckpointedRun, Control, Ended, Experiment, Findings, Rig};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Where and how often: `checkpoint=` and `checkpoint_every=` (seconds).
pub struct Checkpointing {
    pub path: PathBuf,
    pub every: Duration,
}

impl Checkpointing {
    /// From Python's arguments: `None` without a path.
    pub fn of(path: Option<PathBuf>, every: f64) -> PyResultOf<Option<Self>> {
        let every = Duration::try_from_secs_f64(every)
            .map_err(|_| Error::input("checkpoint_every must be a number of seconds, at least 0"))?;
        Ok(path.map(|path| Checkpointing { path, every }))
    }
}

/// Counts `exp` on `rig` from the checkpoint at `c.path` (from the start
/// without one), writing it after each segment and removing it at the end;
/// `control` stops it between batches.
/// `total` becomes the queries left to count (a progress bar's).
pub fn run(
    rig: &Rig,
    exp: Experiment,
    c: &Checkpointing,
    control: &Control,
    version: &str,
    total: &AtomicU64,
) -> PyResultOf<Findings> {
    let file = CheckpointFile::new(&c.path).map_err(Error::from)?;
    let mut run = CheckpointedRun::start(exp, c.every, file, version).map_err(Error::from)?;
    let left = run.rest().common().shard_queries();
    total.store(left.end - left.start, Ordering::Relaxed);
    // Only an interrupt stops a run: the caller raises it, and the file
    // keeps the last checkpoint for the next call to go on from.
    match run.run(rig, control, version).map_err(Error::from)? {
        Ended::Done(f) => {
            run.file().remove().map_err(Error::from)?;
            Ok(f)
        }
        _ => Err(Error::failure("the run was interrupted")),
    }
}
