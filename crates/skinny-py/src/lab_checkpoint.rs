//! `checkpoint=PATH` of the lab's functions: the shard counted in segments
//! of its key groups (the library's `SegmentedRun`), the findings so far
//! written to PATH after each (a temporary file beside it, synced, then
//! renamed over it), so that a task that dies (a lost Ray worker, a killed
//! job) and runs again with the same arguments goes on from its last
//! segment; PATH is removed once the shard is done.

use crate::errors::{chain, Error, Kind, PyResultOf};
use skinny_lab::{Checkpoint, Control, Experiment, Findings, Rig, SegmentedRun, Step};
use std::io::Write;
use std::path::{Path, PathBuf};
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
/// without one), writing it after each segment and removing it at the end.
pub fn run(rig: &Rig, exp: Experiment, c: &Checkpointing, version: &str) -> PyResultOf<Findings> {
    let shown = c.path.display();
    let refused = |why: String| Error::input(format!("checkpoint {shown}: {why}: refused, left as it is"));
    let mut run = match read(&c.path)? {
        None => SegmentedRun::new(exp, c.every).map_err(|e| Error::input(chain(&e)))?,
        Some(text) => {
            let saved: Checkpoint =
                serde_json::from_str(&text).map_err(|e| refused(format!("not a skinny-lab checkpoint ({e})")))?;
            SegmentedRun::resume(exp, c.every, &saved, version).map_err(|e| refused(chain(&e)))?
        }
    };
    let control = Control::new();
    loop {
        match run.step(rig, &control, version) {
            Ok(Step::Saved(saved)) => write(&c.path, &saved)?,
            Ok(Step::Done(f)) => {
                return match std::fs::remove_file(&c.path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        Err(Error::new(Kind::Other, format!("checkpoint {shown}: cannot remove it: {e}")))
                    }
                    _ => Ok(f),
                };
            }
            // Nothing here stops a run.
            Ok(_) => return Err(Error::new(Kind::Other, "a checkpointed run stopped without being asked to")),
            Err(e) => return Err(crate::lab::lab_error(e)),
        }
    }
}

/// The text at `path`, `None` where there is no file.
fn read(path: &Path) -> PyResultOf<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::new(Kind::Other, format!("checkpoint {}: cannot read it: {e}", path.display()))),
    }
}

/// `path` replaced by `c` all at once: a temporary file beside it, written,
/// synced and renamed over it (a death in between leaves the old one).
fn write(path: &Path, c: &Checkpoint) -> PyResultOf<()> {
    let failed =
        |e: std::io::Error| Error::new(Kind::Other, format!("checkpoint {}: cannot write it: {e}", path.display()));
    let text = serde_json::to_string(c).map_err(|e| Error::new(Kind::Other, e.to_string()))?;
    let folder = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = folder.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        if let Ok(dir) = std::fs::File::open(folder) {
            let _ = dir.sync_all();
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(failed)
}
