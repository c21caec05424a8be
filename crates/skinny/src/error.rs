//! Why a cipher could not be set up: a tweakey of the wrong length, or a round
//! count out of range.

use crate::Variant;

/// The tweakey given does not have the variant's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidTweakeyLength {
    /// The variant asked for.
    pub variant: Variant,
    /// The length given, in bytes.
    pub got: usize,
}

impl core::fmt::Display for InvalidTweakeyLength {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} needs a key of {} bytes (the whole tweakey), got {} byte{}",
            self.variant,
            self.variant.tweakey_bytes(),
            self.got,
            if self.got == 1 { "" } else { "s" }
        )
    }
}

impl core::error::Error for InvalidTweakeyLength {}

/// A round count outside 1 ..= the variant's full count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidRounds {
    /// The variant asked for.
    pub variant: Variant,
    /// The count given.
    pub got: usize,
}

impl core::fmt::Display for InvalidRounds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{} has 1 to {} rounds, not {}", self.variant, self.variant.rounds(), self.got)
    }
}

impl core::error::Error for InvalidRounds {}

/// Why [`Skinny::with_rounds`](crate::Skinny::with_rounds) refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupError {
    /// The tweakey's length is not the variant's.
    Tweakey(InvalidTweakeyLength),
    /// The round count is out of range.
    Rounds(InvalidRounds),
}

impl core::fmt::Display for SetupError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SetupError::Tweakey(e) => e.fmt(f),
            SetupError::Rounds(e) => e.fmt(f),
        }
    }
}

impl core::error::Error for SetupError {}
