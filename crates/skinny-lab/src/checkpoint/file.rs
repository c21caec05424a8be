//! A shard's checkpoint kept in a file, the one way every face (the CLI's
//! `--checkpoint`, Python's `checkpoint=`) keeps one: read back bounded and
//! checked, replaced all at once after each segment, removed once the shard
//! is done ([`CheckpointedRun`]).
//!
//! The file is replaced through a temporary file beside it (the same folder,
//! so the rename cannot cross file systems): created exclusively (never
//! following or reusing someone else's file), written, synced, renamed over
//! the checkpoint, the folder synced. A reader sees the old checkpoint or the
//! new one, never half of one; a failure removes the temporary file and
//! leaves the old checkpoint. Only a process killed between creating and
//! renaming it (SIGKILL, a lost machine) leaves the temporary file; its name
//! is fixed (`.NAME.tmp` beside `NAME`), so the next run of the same shard
//! removes it before anything else, and so does [`CheckpointFile::remove`].

use super::{Checkpoint, ResumeError, SegmentedRun, Step};
use crate::control::Control;
use crate::error::LabError;
use crate::experiment::Experiment;
use crate::findings::Findings;
use crate::rig::Rig;
use skinny_exec::ErrorKind;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most a checkpoint file may hold: one with the most right pairs a run
/// keeps is a few hundred KiB; anything far larger (`/dev/zero` behind a
/// link, a wrong file) is refused before it fills the memory.
pub const MAX_CHECKPOINT_BYTES: u64 = 64 << 20;

/// Where a shard's checkpoint is kept: a regular file (or none yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckpointFile {
    path: PathBuf,
    /// The temporary file a new checkpoint is written to before its rename.
    temp: PathBuf,
}

impl CheckpointFile {
    /// The checkpoint at `path`.
    ///
    /// # Errors
    /// [`CheckpointFileError::NotAFile`] for a path that names no file (a
    /// folder such as `/` or `..`).
    pub fn new(path: impl Into<PathBuf>) -> Result<Self, CheckpointFileError> {
        let path = path.into();
        let Some(name) = path.file_name() else {
            return Err(CheckpointFileError::NotAFile { path });
        };
        let mut temp_name = OsString::from(".");
        temp_name.push(name);
        temp_name.push(".tmp");
        let temp = folder_of(&path).join(temp_name);
        Ok(Self { path, temp })
    }

    /// The checkpoint's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The checkpoint in the file, `None` where there is no file.
    ///
    /// # Errors
    /// Not a regular file (a FIFO or a device is refused without being
    /// opened for long: nothing blocks), larger than
    /// [`MAX_CHECKPOINT_BYTES`], unreadable, or not a checkpoint's JSON.
    pub fn read(&self) -> Result<Option<Checkpoint>, CheckpointFileError> {
        let path = || self.path.clone();
        let meta = match fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(CheckpointFileError::Read { path: path(), source }),
        };
        if !meta.is_file() {
            return Err(CheckpointFileError::NotAFile { path: path() });
        }
        let file =
            open_without_blocking(&self.path).map_err(|source| CheckpointFileError::Read { path: path(), source })?;
        // What was opened may differ from what was looked at (replaced meanwhile).
        match file.metadata() {
            Ok(m) if m.is_file() => {}
            Ok(_) => return Err(CheckpointFileError::NotAFile { path: path() }),
            Err(source) => return Err(CheckpointFileError::Read { path: path(), source }),
        }
        let mut bytes = Vec::new();
        file.take(MAX_CHECKPOINT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| CheckpointFileError::Read { path: path(), source })?;
        if bytes.len() as u64 > MAX_CHECKPOINT_BYTES {
            return Err(CheckpointFileError::TooLarge { path: path() });
        }
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|source| CheckpointFileError::NotACheckpoint { path: path(), source })
    }

    /// Replaces the file by `checkpoint`, all at once (see the module's
    /// page); a stale temporary file of a killed run is removed first.
    ///
    /// # Errors
    /// The temporary file cannot be created, written, synced or renamed
    /// (it is then removed, and the old checkpoint is as it was).
    pub fn write(&self, checkpoint: &Checkpoint) -> Result<(), CheckpointFileError> {
        let failed = |source| CheckpointFileError::Write { path: self.path.clone(), source };
        let mut text = serde_json::to_vec(checkpoint).map_err(|e| failed(io::Error::other(e)))?;
        text.push(b'\n');
        let mut file = match create_new(&self.temp) {
            // One writer a checkpoint: a temporary file there is a killed run's.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                remove_if_there(&self.temp).and_then(|()| create_new(&self.temp))
            }
            created => created,
        }
        .map_err(failed)?;
        let written = file.write_all(&text).and_then(|()| file.sync_all()).and_then(|()| {
            drop(file);
            fs::rename(&self.temp, &self.path)
        });
        if let Err(e) = written {
            let _ = fs::remove_file(&self.temp);
            return Err(failed(e));
        }
        // The new name survives a crash once the folder is synced; a folder
        // that cannot be synced (some file systems) leaves it in place anyway.
        if let Ok(dir) = File::open(folder_of(&self.path)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }

    /// Removes the file (the shard is done) and a killed run's temporary
    /// file; neither being there is no error.
    ///
    /// # Errors
    /// One of them cannot be removed.
    pub fn remove(&self) -> Result<(), CheckpointFileError> {
        remove_if_there(&self.temp)
            .and_then(|()| remove_if_there(&self.path))
            .map_err(|source| CheckpointFileError::Remove { path: self.path.clone(), source })
    }

    /// Removes a killed run's temporary file, if there is one.
    fn remove_stale_temp(&self) -> Result<(), CheckpointFileError> {
        remove_if_there(&self.temp).map_err(|source| CheckpointFileError::Write { path: self.path.clone(), source })
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// A new file at `path`, created exclusively: never an existing file, and
/// never through a symbolic link.
fn create_new(path: &Path) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(path)
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Opens `path` for reading without waiting for a writer, should a FIFO
/// have taken the regular file's place since it was looked at.
fn open_without_blocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Why a checkpointed run could not start, go on or finish.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointFileError {
    /// The path names something other than a regular file (a folder, a
    /// FIFO, a device).
    #[error("checkpoint {}: not a regular file: refused, left as it is", path.display())]
    NotAFile {
        /// The checkpoint's path.
        path: PathBuf,
    },
    /// A file larger than any checkpoint.
    #[error("checkpoint {}: larger than 64 MiB, not a checkpoint: refused, left as it is", path.display())]
    TooLarge {
        /// The checkpoint's path.
        path: PathBuf,
    },
    /// The file cannot be read.
    #[error("checkpoint {}: cannot read it", path.display())]
    Read {
        /// The checkpoint's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A file that is not a checkpoint (damaged, another file).
    #[error("checkpoint {}: not a skinny-lab checkpoint ({source}): refused, left as it is", path.display())]
    NotACheckpoint {
        /// The checkpoint's path.
        path: PathBuf,
        /// Why it does not read as one.
        #[source]
        source: serde_json::Error,
    },
    /// A checkpoint of another run, version or format, or edited.
    #[error("checkpoint {}: {source}: refused, left as it is", path.display())]
    Refused {
        /// The checkpoint's path.
        path: PathBuf,
        /// Why this run cannot go on from it.
        #[source]
        source: ResumeError,
    },
    /// A new checkpoint cannot be written.
    #[error("checkpoint {}: cannot write it", path.display())]
    Write {
        /// The checkpoint's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The finished shard's checkpoint cannot be removed.
    #[error("checkpoint {}: cannot remove it", path.display())]
    Remove {
        /// The checkpoint's path.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The run's parameters were refused, or counting failed.
    #[error(transparent)]
    Run(LabError),
}

impl CheckpointFileError {
    /// What the error means to the caller: a checkpoint refused is bad
    /// input, a file that cannot be read or written a failure, a run's error
    /// [`LabError::kind`].
    pub fn kind(&self) -> ErrorKind {
        match self {
            CheckpointFileError::NotAFile { .. }
            | CheckpointFileError::TooLarge { .. }
            | CheckpointFileError::NotACheckpoint { .. } => ErrorKind::Input,
            CheckpointFileError::Refused { source, .. } => source.kind(),
            CheckpointFileError::Read { .. }
            | CheckpointFileError::Write { .. }
            | CheckpointFileError::Remove { .. } => ErrorKind::Failure,
            CheckpointFileError::Run(e) => e.kind(),
        }
    }
}

/// How a [`CheckpointedRun`] ended.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Ended {
    /// The shard is done: its findings, those of a run that never stopped
    /// (seconds aside). The checkpoint file is still there: remove it
    /// ([`CheckpointFile::remove`]) once the findings are safe.
    Done(Findings),
    /// Stopped through the [`Control`]: as [`Step::Stopped`]; the file
    /// keeps the last checkpoint, which the same run goes on from.
    Stopped {
        /// Everything counted, the stopped segment's part included.
        findings: Findings,
        /// Queries of the last checkpoint (0: none was written).
        saved: u64,
    },
}

/// A shard counted in segments from and to a [`CheckpointFile`]: from the
/// checkpoint there (or from the start), the file replaced after each
/// segment, so that a run stopped or killed and started again goes on from
/// its last segment and ends with exactly an uninterrupted run's findings.
#[derive(Debug)]
pub struct CheckpointedRun {
    file: CheckpointFile,
    run: SegmentedRun,
    /// Queries the checkpoint it went on from held.
    resumed: Option<u64>,
}

impl CheckpointedRun {
    /// `exp`'s shard in segments of about `every` (zero: one key group
    /// each), going on from the checkpoint in `file` where there is one
    /// (counted by this program, `version`). A killed run's temporary file
    /// is removed.
    ///
    /// # Errors
    /// The file: not a regular file, too large, unreadable, not a
    /// checkpoint, or one this run cannot go on from ([`ResumeError`]); the
    /// stale temporary file cannot be removed; `exp`'s parameters
    /// ([`CheckpointFileError::Run`]).
    pub fn start(
        exp: Experiment,
        every: Duration,
        file: CheckpointFile,
        version: &str,
    ) -> Result<Self, CheckpointFileError> {
        let saved = file.read()?;
        file.remove_stale_temp()?;
        let (run, resumed) = match saved {
            None => (SegmentedRun::new(exp, every).map_err(CheckpointFileError::Run)?, None),
            Some(c) => {
                let run = SegmentedRun::resume(exp, every, &c, version)
                    .map_err(|source| CheckpointFileError::Refused { path: file.path.clone(), source })?;
                (run, Some(c.findings.queries))
            }
        };
        Ok(Self { file, run, resumed })
    }

    /// The queries of the shard the checkpoint it went on from held, or
    /// `None` when it starts from the beginning.
    pub fn resumed_queries(&self) -> Option<u64> {
        self.resumed
    }

    /// The experiment over the key groups still to count (for a progress
    /// bar), as [`SegmentedRun::rest`].
    pub fn rest(&self) -> Experiment {
        self.run.rest()
    }

    /// The file the checkpoints go to.
    pub fn file(&self) -> &CheckpointFile {
        &self.file
    }

    /// Counts segment after segment on `rig` (progress and a stop through
    /// `control`; `version` stamps the findings), writing the file after
    /// each, until the shard is done or stopped.
    ///
    /// # Errors
    /// Counting failed ([`CheckpointFileError::Run`]), or a checkpoint could
    /// not be written (the file then keeps the one before).
    pub fn run(&mut self, rig: &Rig, control: &Control, version: &str) -> Result<Ended, CheckpointFileError> {
        loop {
            match self.run.step(rig, control, version).map_err(CheckpointFileError::Run)? {
                Step::Saved(c) => self.file.write(&c)?,
                Step::Stopped { findings, saved } => return Ok(Ended::Stopped { findings, saved }),
                Step::Done(findings) => return Ok(Ended::Done(findings)),
            }
        }
    }
}

#[cfg(test)]
mod tests;
