//! Errors of the bulk layer, each with a message fit to show a user on one line.

use skinny::Variant;
use std::fmt;

/// What went wrong in a bulk operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The mode needs an IV and none was given.
    IvRequired {
        /// The mode's name.
        mode: &'static str,
    },
    /// An IV was given to ECB, which has none.
    IvNotAllowed,
    /// The IV is not one block long.
    IvLength {
        /// The variant.
        variant: Variant,
        /// Bytes given.
        got: usize,
    },
    /// The input is not a whole number of blocks where it must be.
    NotWholeBlocks {
        /// The block size in bytes.
        block: usize,
        /// Total input length in bytes.
        len: u64,
    },
    /// PKCS#7 padding is wrong after decryption (wrong key, IV or data).
    BadPadding,
    /// `--no-pad` makes no sense for this mode.
    PaddingNotApplicable,
    /// A backend could not do the work (no device, out of memory, kernel error...).
    Backend(String),
    /// The backend cannot run this variant.
    Unsupported {
        /// The backend's name.
        backend: &'static str,
        /// The variant.
        variant: Variant,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::IvRequired { mode } => write!(f, "{mode} mode needs an IV (--iv HEX, one block)"),
            Error::IvNotAllowed => f.write_str("ECB mode takes no IV; remove --iv"),
            Error::IvLength { variant, got } => {
                write!(f, "{variant} needs a {}-byte IV (one block), got {got} bytes", variant.block_bytes())
            }
            Error::NotWholeBlocks { block, len } => {
                write!(f, "input is {len} bytes, not a whole number of {block}-byte blocks")
            }
            Error::BadPadding => {
                f.write_str("bad padding after decryption (wrong key or IV, or corrupted or truncated input)")
            }
            Error::PaddingNotApplicable => f.write_str("--no-pad applies only to ecb and cbc"),
            Error::Backend(msg) => f.write_str(msg),
            Error::Unsupported { backend, variant } => {
                write!(f, "backend {backend} does not support {variant}")
            }
        }
    }
}

impl std::error::Error for Error {}
