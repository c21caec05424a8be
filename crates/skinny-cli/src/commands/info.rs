//! TODO(issue 2/3): `skinny info`.
use crate::error::CliError;
/// Prints what this machine offers.
pub fn run() -> Result<(), CliError> {
    Err(CliError::Usage("not implemented yet".into()))
}
