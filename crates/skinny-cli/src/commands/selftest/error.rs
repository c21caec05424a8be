//! What stops `skinny selftest`, each with its source.

use crate::error::CliError;
use std::io;

/// What stops `selftest`; mismatches are listed in its report first. Turned
/// into a [`CliError`] (a failed check or GPU, exit 1) where it leaves the
/// command.
#[derive(Debug, thiserror::Error)]
pub enum SelftestError {
    /// Writing the report failed: nobody would see the rest.
    #[error("cannot write output")]
    Output(#[source] io::Error),
    /// Checks failed; the report lists them.
    #[error("selftest failed: {failures} mismatch(es), listed above")]
    Failed {
        /// How many.
        failures: usize,
    },
    /// A line of the specification's vectors that does not read as one.
    #[error("malformed vector line: {line}")]
    MalformedVector {
        /// The line.
        line: String,
    },
    /// The specification has six vectors, one per variant.
    #[error("expected 6 specification vectors, found {found}")]
    VectorCount {
        /// How many were found.
        found: usize,
    },
    /// The cipher refused a random key or round count of a cross-check.
    #[error("{0}")]
    Setup(#[source] skinny::SetupError),
    /// The portable backend, the reference of every check, would not open.
    #[error("the reference backend: {0}")]
    Reference(#[source] skinny_bulk::Error),
    /// SKINNY-AEAD on the GPU failed (not a mismatch: an error).
    #[cfg(feature = "cuda")]
    #[error("gpu aead: {0}")]
    GpuAead(#[source] skinny_aead::gpu::GpuAeadError),
    /// The sealed format on the GPU failed (not a mismatch: an error).
    #[cfg(feature = "cuda")]
    #[error("gpu sealed: {0}")]
    GpuSealed(#[source] skinny_seal::SealError),
}

impl From<SelftestError> for CliError {
    fn from(e: SelftestError) -> Self {
        match e {
            // The top level words a broken pipe and a full disk its own way.
            SelftestError::Output(e) => CliError::Output(e),
            // In the bulk layer's words, with the exit code it has everywhere.
            SelftestError::Reference(e) => CliError::Bulk(e),
            SelftestError::Failed { .. }
            | SelftestError::MalformedVector { .. }
            | SelftestError::VectorCount { .. }
            | SelftestError::Setup(_) => CliError::Check(e.to_string()),
            #[cfg(feature = "cuda")]
            SelftestError::GpuAead(_) | SelftestError::GpuSealed(_) => CliError::Gpu(e.to_string()),
        }
    }
}
