//! What stops `skinny bench`, each with its source, in the command line's words.

use crate::error::{reason, CliError};
use skinny_bench::scheme::SchemePlanError;
use skinny_bench::ManyPlanError;
use skinny_bench::{BenchError, FilesError, SavedError, SizeError};
use std::io;
use std::path::PathBuf;

/// What stops `bench`. Turned into a [`CliError`] where it leaves the command:
/// what the user gave (and nothing that can run here) is a usage error (exit
/// 2), a file not written or read and nothing measured exit 1.
#[derive(Debug, thiserror::Error)]
pub enum BenchCommandError {
    /// `--plot` or `--speedup-plot` with a path that is not `.svg`.
    #[error("{option} writes SVG only (no PNG or other formats); give a path ending in .svg, not '{}'", path.display())]
    NotSvg {
        /// The option.
        option: &'static str,
        /// The path given.
        path: PathBuf,
    },
    /// An output path that is a folder.
    #[error("'{}' is a folder, not a file", path.display())]
    IsFolder {
        /// The path given.
        path: PathBuf,
    },
    /// An output path in a folder that does not exist.
    #[error("cannot write '{}': folder '{}' does not exist", path.display(), folder.display())]
    NoFolder {
        /// The path given.
        path: PathBuf,
        /// Its folder.
        folder: PathBuf,
    },
    /// A size the plan refused.
    #[error("{0}")]
    Size(#[source] SizeError),
    /// A scheme run (`--aead`, `--hash`) the plan refused.
    #[error("{0}")]
    SchemePlan(#[source] SchemePlanError),
    /// A many-message run (`--many`) the plan refused.
    #[error("{0}")]
    ManyPlan(#[source] ManyPlanError),
    /// A `--gpus` selection that does not fit this machine.
    #[error("{0}")]
    Gpus(#[source] skinny_bulk::Error),
    /// The measured run failed (nothing can run here, nothing measured).
    #[error("{0}")]
    Run(#[source] BenchError),
    /// `--files`: its scratch folder or files could not be made or used.
    #[error("bench --files: {what}: {}", reason(source))]
    Scratch {
        /// Which: "a temporary folder", "the input file"...
        what: &'static str,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// `--files` failed otherwise (the cipher, the pipe, the table).
    #[error("{0}")]
    Files(#[source] FilesError),
    /// A saved run (`--from-json`) that cannot be read.
    #[error("cannot read '{}': {}", path.display(), reason(source))]
    ReadSaved {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// A saved run that is not what it should be.
    #[error("{0}")]
    Saved(#[source] SavedError),
    /// The JSON report could not be made.
    #[error("cannot write '{}': {source}", path.display())]
    Json {
        /// The file it was for.
        path: PathBuf,
        /// Why.
        #[source]
        source: serde_json::Error,
    },
    /// An output file could not be written.
    #[error("cannot write '{}': {}", path.display(), reason(source))]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// Writing stdout failed (a closed pipe, a full disk).
    #[error("cannot write output")]
    Output(#[source] io::Error),
}

impl From<FilesError> for BenchCommandError {
    fn from(e: FilesError) -> Self {
        match e {
            FilesError::Scratch { what, source } => BenchCommandError::Scratch { what, source },
            e => BenchCommandError::Files(e),
        }
    }
}

impl From<SavedError> for BenchCommandError {
    fn from(e: SavedError) -> Self {
        match e {
            SavedError::Read { path, source } => BenchCommandError::ReadSaved { path, source },
            e => BenchCommandError::Saved(e),
        }
    }
}

impl From<BenchCommandError> for CliError {
    fn from(e: BenchCommandError) -> Self {
        use BenchCommandError as B;
        match e {
            B::NotSvg { .. }
            | B::IsFolder { .. }
            | B::NoFolder { .. }
            | B::Size(_)
            | B::SchemePlan(_)
            | B::ManyPlan(_)
            | B::Saved(_) => CliError::Usage(e.to_string()),
            // In the bulk layer's words, with the exit code it has everywhere.
            B::Gpus(e) => CliError::Bulk(e),
            B::Run(BenchError::NothingMeasured) => CliError::Check(e.to_string()),
            B::Run(BenchError::Threads(ref source)) => CliError::Io(format!("{e}: {}", reason(source))),
            B::Run(_) => CliError::Usage(e.to_string()),
            B::Files(FilesError::Cipher(e)) => CliError::Bulk(e),
            B::Files(FilesError::Stream(e)) => e.into(),
            // The top level words a broken pipe and a full disk its own way.
            B::Files(FilesError::Output(e)) | B::Output(e) => CliError::Output(e),
            B::Files(_) => CliError::Usage(e.to_string()),
            B::Scratch { .. } | B::ReadSaved { .. } | B::Json { .. } | B::Write { .. } => CliError::Io(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_errors_keep_their_words_and_exit_codes() {
        let e = CliError::from(BenchCommandError::NotSvg { option: "--plot", path: "a.png".into() });
        assert_eq!(
            (e.to_string().as_str(), e.exit_code()),
            ("--plot writes SVG only (no PNG or other formats); give a path ending in .svg, not 'a.png'", 2)
        );
        let e = CliError::from(BenchCommandError::Run(BenchError::NothingMeasured));
        assert_eq!((e.to_string().as_str(), e.exit_code()), ("no measurement succeeded", 1));
        let source = io::Error::from(io::ErrorKind::PermissionDenied);
        let e = BenchCommandError::Write { path: "r.csv".into(), source };
        assert!(std::error::Error::source(&e).is_some());
        let e = CliError::from(e);
        assert_eq!((e.to_string().as_str(), e.exit_code()), ("cannot write 'r.csv': permission denied", 1));
    }
}
