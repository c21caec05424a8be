//! Key recovery over the last rounds: partial decryption of the last rounds
//! under guessed round-tweakey cells, and a counter of key candidates from the
//! pairs whose partial decryptions show the difference a distinguisher predicts.
//!
//! A distinguisher covers rounds `1 ..= R - d` of an `R`-round cipher and
//! predicts the difference of some cells of the state after round `R - d`.
//! Undoing the last `d` rounds from a ciphertext reaches those cells; each
//! undone round is MixColumns⁻¹ and ShiftRows⁻¹ (keyless), the round tweakey
//! (first two rows only) and constants, then S⁻¹. Only the cells a target
//! depends on are computed, so only the round-tweakey cells of the first two
//! rows on those paths are guessed ([`GuessedCell`]); cells in rows 2 and 3
//! cost nothing.
//!
//! - [`PartialDecryption`]: the target cells' values for a batch of
//!   ciphertexts under a range of guesses.
//! - [`KeyCounter`]: for every guess, how many pairs `(C, C')` partially
//!   decrypt to the predicted differences; [`KeyCounts`] ranks the guesses.
//!
//! Guesses are numbered: guessed cell `j` (in [`KeyCounter::guessed`] order:
//! by round, then cell) holds `(guess >> (w * j)) & (2^w - 1)`, `w` the cell
//! width in bits. The round tweakeys are those of
//! [`skinny::hazmat::RoundTweakeys`] (the XOR of TK1, TK2, TK3's first two
//! rows; constants are added here, not guessed); [`KeyCounter::guess_of`]
//! gives the guess a known tweakey makes, for experiments.
//!
//! How every guess is run at once: the counter never tries the guesses of the
//! last undone round (the deepest, just before the targets) one by one. For a
//! target with difference `δ` and key cell `k`, the pair's difference `Δ`
//! before that round's S-boxes leaves exactly the keys `y ⊕ c ⊕ x` for the
//! `x` with `S⁻¹(x) ⊕ S⁻¹(x ⊕ Δ) = δ`, read from a table built once per target
//! (`2^w` entries in all): the work per pair is the number of surviving keys,
//! not `2^w`. The rounds before it (the outer guesses) run as a loop over
//! guesses with a table inverse S-box, one rayon task per outer guess.
//! Constant time is not a goal: ciphertexts and guesses are public data of an
//! attack.

mod count;
mod decrypt;
mod plan;
#[cfg(test)]
mod tests;

pub use count::{KeyCounter, KeyCounts, Rank};
pub use decrypt::PartialDecryption;

use skinny::Variant;

/// The most guessed bits a counter or partial decryption takes: 2^28 counts
/// of 4 bytes are 1 GiB.
pub const MAX_GUESS_BITS: u32 = 28;

/// The most rounds undone: past 3 every round-tweakey cell of the first two
/// rows is guessed for any target.
pub const MAX_PEELED: usize = 3;

/// The most bytes [`PartialDecryption::decrypt`] returns in one call.
pub const MAX_OUTPUT_BYTES: usize = 1 << 30;

/// One guessed round-tweakey cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GuessedCell {
    /// The round it is added in (from 1).
    pub round: usize,
    /// The cell of the round tweakey (0 to 7: the first two rows).
    pub cell: usize,
}

/// Why a key-recovery call refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum KeyRecoveryError {
    /// The last round is outside the cipher.
    #[error("{variant} has rounds 1 to {}, not a last round of {last_round}", variant.rounds())]
    LastRound {
        /// The variant.
        variant: Variant,
        /// The last round asked for.
        last_round: usize,
    },
    /// Rounds to undo outside `1 ..= min(MAX_PEELED, last_round)`.
    #[error("rounds undone must be 1 to {max}, not {got}")]
    Peeled {
        /// The largest allowed here.
        max: usize,
        /// The count given.
        got: usize,
    },
    /// No target cell.
    #[error("at least one target cell is needed")]
    NoTargets,
    /// A target cell outside 0 to 15.
    #[error("target cell {0} is not a cell from 0 to 15")]
    Cell(usize),
    /// A target cell named twice.
    #[error("target cell {0} is given twice")]
    DuplicateCell(usize),
    /// A predicted difference wider than a cell.
    #[error("the difference {delta:#x} of cell {cell} does not fit in a {bits}-bit cell")]
    Difference {
        /// The cell.
        cell: usize,
        /// The difference given.
        delta: u64,
        /// The cell width.
        bits: u32,
    },
    /// More guessed bits than [`MAX_GUESS_BITS`].
    #[error(
        "the targets need {bits} guessed bits, more than the {max} allowed: choose fewer targets or undo fewer rounds"
    )]
    TooManyGuesses {
        /// The bits the targets need.
        bits: u32,
        /// [`MAX_GUESS_BITS`].
        max: u32,
    },
    /// A byte string whose length is not what the variant needs.
    #[error("{what} must be {expected}, got {got} bytes")]
    Length {
        /// What was given.
        what: &'static str,
        /// What it must be.
        expected: String,
        /// Its length.
        got: usize,
    },
    /// A guess past the last one.
    #[error("guesses run from 0 to {last}, not {got}")]
    Guess {
        /// The last guess.
        last: u64,
        /// The guess given.
        got: u64,
    },
    /// The result would not fit in memory or in [`MAX_OUTPUT_BYTES`].
    #[error("{0}")]
    TooLarge(String),
    /// Stopped through its [`Control`](crate::Control) before the end.
    #[error("stopped before the end")]
    Stopped,
}
