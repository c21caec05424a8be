//! What stops `skinny lab`, each with its source, in the words of the options
//! that asked.

use super::text::printable;
use crate::error::{count, reason, CliError};
use skinny::Variant;
use skinny_lab::{CheckpointFileError, GpuFailure, LabError, MergeError, RigError};
use std::io;
use std::path::PathBuf;

/// What stops `lab`. Turned into a [`CliError`] where it leaves the command:
/// what the user gave is a usage error (exit 2), an interrupt ends with the
/// signal's status, the rest exit 1.
#[derive(Debug, thiserror::Error)]
pub enum LabCommandError {
    /// A difference or mask option that is not hex.
    #[error("{option}: not hex (0-9, a-f, an even count)")]
    NotHex {
        /// The option (`--dp`, `--dk1`, ...).
        option: &'static str,
    },
    /// A difference or mask option of the wrong length.
    #[error(
        "{option} must be {len} bytes ({} hex digits, {what}) for {variant}, got {}",
        2 * len,
        count(*got as u64, "byte")
    )]
    HexLength {
        /// The option.
        option: &'static str,
        /// The bytes it needs.
        len: usize,
        /// What those bytes are ("one block", "the whole tweakey").
        what: &'static str,
        /// The variant.
        variant: Variant,
        /// The bytes given.
        got: usize,
    },
    /// More right pairs asked for than a run keeps.
    #[error("--show {got}: at most {most} right pairs or quartets are kept")]
    Show {
        /// The most kept ([`skinny_lab::MAX_SHOW`]).
        most: usize,
        /// What was asked.
        got: usize,
    },
    /// A parameter the library refused (rounds, a length, a shard).
    #[error("{0}")]
    Refused(#[source] LabError),
    /// GPUs asked for from a build without CUDA.
    #[error("--backend gpu: this skinny was built without CUDA support")]
    NoCuda,
    /// A `--gpus` selection that does not fit this machine.
    #[error("--gpus {gpus}: {source}")]
    Selection {
        /// The selection as given.
        gpus: String,
        /// Why it does not fit.
        #[source]
        source: skinny_exec::GpuSelectionError,
    },
    /// The GPUs could not be opened.
    #[error("--backend gpu: {0}")]
    GpuOpen(#[source] GpuFailure),
    /// The hardware could not be had otherwise (worker threads).
    #[error("{0}")]
    Rig(#[source] RigError),
    /// A GPU failed during the run.
    #[error("GPU: {0}")]
    GpuRun(#[source] GpuFailure),
    /// A GPU counted differently from the CPU.
    #[error("{0}")]
    Mismatch(#[source] LabError),
    /// A findings file that cannot be read.
    #[error("cannot read {}: {}", path.display(), reason(source))]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A findings file that is not `skinny lab --json`'s.
    #[error("{}: not a `skinny lab --json` report ({source})", path.display())]
    NotAReport {
        /// The file.
        path: PathBuf,
        /// Why it does not read as one.
        #[source]
        source: serde_json::Error,
    },
    /// Findings that are not shards of one experiment.
    #[error("{}", merge_message(part, first, source))]
    Merge {
        /// The file of the part that does not fit (the first file when no
        /// part is named).
        part: String,
        /// The first file, which the others are compared with.
        first: String,
        /// What does not fit.
        #[source]
        source: MergeError,
    },
    /// A `--checkpoint` file that is not a checkpoint (damaged, another file).
    #[error("--checkpoint {}: not a `skinny lab` checkpoint ({source}): refused, left as it is", path.display())]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
        /// Why it does not read as one.
        #[source]
        source: serde_json::Error,
    },
    /// A `--checkpoint` path that is no regular file, or a file too large
    /// to be a checkpoint.
    #[error("--checkpoint {}: {why}: refused, left as it is", path.display())]
    NotACheckpointFile {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        why: &'static str,
    },
    /// A `--checkpoint` file of another run, or edited.
    #[error("--checkpoint {}: {source}: refused, left as it is", path.display())]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// Why this run cannot go on from it.
        #[source]
        source: skinny_lab::ResumeError,
    },
    /// A `--checkpoint` file that cannot be written or removed.
    #[error("--checkpoint {}: cannot {doing} it: {}", path.display(), reason(source))]
    CheckpointFile {
        /// What was being done: write, remove.
        doing: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Any other reason a checkpointed run stopped, in the library's words.
    #[error("{0}")]
    OtherCheckpoint(#[source] CheckpointFileError),
    /// The findings could not be written as JSON.
    #[error("cannot write the report: {0}")]
    Json(#[source] serde_json::Error),
    /// Writing stdout failed (a closed pipe, a full disk).
    #[error("cannot write output")]
    Output(#[source] io::Error),
    /// Stopped by a signal after printing the partial findings.
    #[error("interrupted after {queries} of {total} queries: the result above covers those only")]
    Interrupted {
        /// The queries counted.
        queries: u64,
        /// The queries planned.
        total: u64,
        /// The signal, for the exit status 128 + signal.
        signal: i32,
    },
}

/// A merge refused, naming the files rather than the parts' numbers.
fn merge_message(part: &str, first: &str, e: &MergeError) -> String {
    match e {
        MergeError::OtherExperiment { .. } => format!("{part}: a different experiment from {first}"),
        MergeError::OtherVersion { version, first: first_version, .. } => {
            format!("{part}: counted by skinny {version:?}, {first} by {first_version:?}: merge reports of one version")
        }
        MergeError::Part { source, .. } => format!("{part}: {source}"),
        MergeError::UnknownExperiment(other) => format!("{first}: unknown experiment {other:?}"),
        e => e.to_string(),
    }
}

impl LabCommandError {
    /// Hardware that could not be had, in the words of the options that
    /// asked (`gpus`: `--gpus` as given).
    pub(super) fn from_rig(gpus: &str, e: RigError) -> Self {
        match e {
            RigError::NoCuda => LabCommandError::NoCuda,
            RigError::Selection(source) => LabCommandError::Selection { gpus: gpus.to_string(), source },
            RigError::Gpu(e) => LabCommandError::GpuOpen(e),
            e => LabCommandError::Rig(e),
        }
    }

    /// A failed run: the GPU's fault, a GPU that counted wrongly, or
    /// parameters the library refused.
    pub(super) fn from_run(e: LabError) -> Self {
        match e {
            LabError::GpuMismatch { .. } => LabCommandError::Mismatch(e),
            LabError::Gpu(e) => LabCommandError::GpuRun(e),
            e => LabCommandError::Refused(e),
        }
    }
}

impl LabCommandError {
    /// A checkpointed run that could not start, go on or finish, in the
    /// words of `--checkpoint`.
    pub(super) fn from_checkpoint(e: CheckpointFileError) -> Self {
        use CheckpointFileError as C;
        match e {
            C::NotAFile { path } => LabCommandError::NotACheckpointFile { path, why: "not a regular file" },
            C::TooLarge { path } => LabCommandError::NotACheckpointFile { path, why: "larger than any checkpoint" },
            C::Read { path, source } => LabCommandError::Read { path, source },
            C::NotACheckpoint { path, source } => LabCommandError::NotACheckpoint { path, source },
            C::Refused { path, source } => LabCommandError::Checkpoint { path, source },
            C::Write { path, source } => LabCommandError::CheckpointFile { doing: "write", path, source },
            C::Remove { path, source } => LabCommandError::CheckpointFile { doing: "remove", path, source },
            C::Run(e) => LabCommandError::from_run(e),
            // One this command does not word yet: the library's words.
            e => LabCommandError::OtherCheckpoint(e),
        }
    }
}

impl From<LabCommandError> for CliError {
    /// The message on one line, [`printable`]: file names and what reports
    /// hold are in it.
    fn from(e: LabCommandError) -> Self {
        use LabCommandError as L;
        let message = printable(&e.to_string());
        match e {
            L::NotHex { .. }
            | L::HexLength { .. }
            | L::Show { .. }
            | L::Refused(_)
            | L::Selection { .. }
            | L::NotAReport { .. }
            | L::NotACheckpoint { .. }
            | L::NotACheckpointFile { .. }
            | L::Checkpoint { .. }
            | L::Merge { .. } => CliError::Usage(message),
            L::NoCuda | L::GpuOpen(_) | L::GpuRun(_) => CliError::Gpu(message),
            L::Mismatch(_) => CliError::Check(message),
            L::OtherCheckpoint(e) if e.kind() == skinny_exec::ErrorKind::Input => CliError::Usage(message),
            L::OtherCheckpoint(_) => CliError::Io(message),
            L::Rig(_) | L::Read { .. } | L::CheckpointFile { .. } | L::Json(_) => CliError::Io(message),
            // The top level words a broken pipe and a full disk its own way.
            L::Output(e) => CliError::Output(e),
            L::Interrupted { signal, .. } => CliError::Interrupted { message, signal },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_errors_keep_their_words_and_exit_codes() {
        let e = CliError::from(LabCommandError::HexLength {
            option: "--dp",
            len: 8,
            what: "one block",
            variant: Variant::Skinny64_64,
            got: 1,
        });
        assert_eq!(
            (e.to_string().as_str(), e.exit_code()),
            ("--dp must be 8 bytes (16 hex digits, one block) for skinny-64-64, got 1 byte", 2)
        );
        let e = CliError::from(LabCommandError::Interrupted { queries: 5, total: 9, signal: libc::SIGTERM });
        assert_eq!(
            (e.to_string().as_str(), e.exit_code()),
            ("interrupted after 5 of 9 queries: the result above covers those only", 128 + libc::SIGTERM)
        );
        let source = io::Error::from(io::ErrorKind::NotFound);
        let e = LabCommandError::Read { path: "f.json".into(), source };
        assert!(std::error::Error::source(&e).is_some());
        let e = CliError::from(e);
        assert_eq!((e.to_string().as_str(), e.exit_code()), ("cannot read f.json: entity not found", 1));
        let e = CliError::from(LabCommandError::NoCuda);
        assert_eq!(e.exit_code(), 1);
        let source = io::Error::from(io::ErrorKind::NotFound);
        let e = CliError::from(LabCommandError::Read { path: "a\u{1b}[2J\nb.json".into(), source });
        assert_eq!(e.to_string(), "cannot read a\\u{1b}[2J\\nb.json: entity not found");
    }
}
