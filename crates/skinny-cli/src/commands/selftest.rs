//! TODO(issue 2/3): `skinny selftest`.
use crate::{cli::SelftestArgs, error::CliError};
/// Runs the self-test.
pub fn run(_a: &SelftestArgs) -> Result<(), CliError> {
    Err(CliError::Usage("not implemented yet".into()))
}
