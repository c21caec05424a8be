//! Why a measured run stopped.

use crate::measure::Skipped;
use std::fmt;

/// Why [`Bench`](crate::Bench) could not produce a report.
#[derive(Debug)]
#[non_exhaustive]
pub enum BenchError {
    /// The random key was refused (never: it is made the variant's length).
    Key(skinny::InvalidTweakeyLength),
    /// None of the backends asked for can run here; each with its reason.
    NoBackend {
        /// Every backend asked for, and why it cannot run.
        skipped: Vec<Skipped>,
    },
    /// Every measurement failed.
    NothingMeasured,
    /// The operating system would not start the worker threads.
    Threads(std::io::Error),
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Key(e) => write!(f, "{e}"),
            BenchError::NoBackend { skipped } => {
                let why: Vec<String> = skipped.iter().map(|s| format!("{}: {}", s.backend, s.reason)).collect();
                write!(f, "no requested backend can run here ({})", why.join("; "))
            }
            BenchError::NothingMeasured => f.write_str("no measurement succeeded"),
            BenchError::Threads(_) => f.write_str("could not start the worker threads"),
        }
    }
}

impl std::error::Error for BenchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BenchError::Key(e) => Some(e),
            BenchError::Threads(e) => Some(e),
            _ => None,
        }
    }
}

impl From<skinny::InvalidTweakeyLength> for BenchError {
    fn from(e: skinny::InvalidTweakeyLength) -> Self {
        BenchError::Key(e)
    }
}
