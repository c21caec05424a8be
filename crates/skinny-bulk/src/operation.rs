//! What an operation is: the [`Mode`], its [`Direction`] and the [`Padding`]
//! of the block modes. Plain names that the modes, the backends and the errors
//! all use (public as [`crate::mode`]'s), so that this file depends on
//! nothing of the crate.

use std::fmt;
use std::str::FromStr;

/// A mode of operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Electronic codebook: each block on its own. Parallel both ways.
    Ecb,
    /// Counter mode. Parallel both ways.
    Ctr,
    /// Cipher block chaining. Serial encryption, parallel decryption.
    Cbc,
    /// Full-block cipher feedback. Serial encryption, parallel decryption.
    Cfb,
    /// Output feedback. Serial both ways.
    Ofb,
}

impl Mode {
    /// All five.
    pub const ALL: [Mode; 5] = [Mode::Ecb, Mode::Ctr, Mode::Cbc, Mode::Cfb, Mode::Ofb];

    /// The short name (`ecb`, `ctr`, ...), as reports and commands write it.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Ecb => "ecb",
            Mode::Ctr => "ctr",
            Mode::Cbc => "cbc",
            Mode::Cfb => "cfb",
            Mode::Ofb => "ofb",
        }
    }

    /// Whether the mode takes an IV.
    pub const fn needs_iv(self) -> bool {
        !matches!(self, Mode::Ecb)
    }

    /// Whether the mode pads (by default) and needs whole blocks.
    pub const fn is_block_mode(self) -> bool {
        matches!(self, Mode::Ecb | Mode::Cbc)
    }

    /// Whether the backend's engine does the work in this direction (the rest is
    /// serial by nature and runs on the CPU).
    pub const fn is_parallel(self, dir: Direction) -> bool {
        match self {
            Mode::Ecb | Mode::Ctr => true,
            Mode::Cbc | Mode::Cfb => matches!(dir, Direction::Decrypt),
            Mode::Ofb => false,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A mode name that is none of [`Mode::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown mode (expected ecb, ctr, cbc, cfb or ofb)")]
pub struct UnknownMode;

impl FromStr for Mode {
    type Err = UnknownMode;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Mode::ALL.into_iter().find(|m| m.name().eq_ignore_ascii_case(s.trim())).ok_or(UnknownMode)
    }
}

/// Encrypt or decrypt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Plaintext to ciphertext.
    Encrypt,
    /// Ciphertext to plaintext.
    Decrypt,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Encrypt => "encryption",
            Direction::Decrypt => "decryption",
        })
    }
}

/// Padding of the block modes (ECB and CBC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Padding {
    /// PKCS#7, as `openssl enc` pads: 1 to a block's worth of bytes, each holding
    /// the count. The default of ECB and CBC.
    Pkcs7,
    /// None: the input must be whole blocks.
    None,
}
