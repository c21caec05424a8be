//! TODO(issue 2/3): `skinny crypt`.
use crate::{cli::CryptArgs, error::CliError};
use skinny_bulk::mode::Direction;
/// Runs encrypt or decrypt.
pub fn run(_a: &CryptArgs, _dir: Direction) -> Result<(), CliError> {
    Err(CliError::Usage("not implemented yet".into()))
}
