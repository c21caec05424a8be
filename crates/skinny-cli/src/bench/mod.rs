//! `skinny bench`: throughput of every backend, and `--paper`, the paper's
//! experiment (Tables 3-4, Figures 6-7) redone.

use clap::Args;

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Reproduce the paper's experiment: SKINNY-128-256, ECB and CTR, 16 B to 64 MiB.
    #[arg(long)]
    pub paper: bool,
}

/// Runs the benchmark.
///
/// # Errors
/// A message for the user.
pub fn run(_args: &BenchArgs) -> Result<(), crate::error::CliError> {
    Err(crate::error::CliError::Usage("skinny bench is not implemented yet".into()))
}
