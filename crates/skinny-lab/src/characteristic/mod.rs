//! Round-by-round characteristics of SKINNY-64 and SKINNY-128: a differential
//! one (state differences with a tweakey difference) and a linear one
//! (masks), their exact probability or correlation from the S-box tables,
//! the tweakey schedule's check, and an experiment that counts the pairs
//! following a differential characteristic round by round.
//!
//! # Conventions
//!
//! Every state difference or mask is one block of bytes, the lab's `--dp` /
//! `--dc` form: the 16 cells row by row (cell `i` is row `i / 4`, column
//! `i % 4`), one byte a cell for SKINNY-128, two cells a byte for SKINNY-64
//! with the even cell in the high nibble. Written in hex, a SKINNY-64 block is
//! its 16 cells as 16 hex digits in cell order, which is how hadipourh's tools
//! and Peyrin and Tan's print a 4×4 state read row by row.
//!
//! A characteristic of `r` rounds from round `s` (rounds numbered from 1 as
//! in the specification) has `r + 1` states: `states[i]` is the difference
//! (mask) at the input of round `s + i`, before SubCells, and `states[r]` the
//! one after the last round's MixColumns. The S-box output differences are
//! not given: the rest of a round is linear, so they follow from the next
//! state (MixColumns and ShiftRows undone, the round tweakey difference
//! added); the same model as hadipourh's and Peyrin and Tan's tools.
//!
//! The tweakey difference is TK1 ‖ TK2 ‖ TK3 (the variant's tweakey length,
//! the lab's `--dk`), given at the master tweakey (before round 1) or at the
//! start round's tweakey state ([`TweakeyAt`]). Each round's tweakey
//! difference, the 8 cells of the round tweakey (the first two rows), is
//! derived from it by the tweakey schedule; a characteristic may also list
//! them ([`DifferentialCharacteristic::round_tweakeys`], half a block each,
//! the same cell packing), and they are checked against the schedule.

mod evaluate;
mod exact;
mod experiment;
mod schedule;

#[cfg(test)]
mod tests;

pub use evaluate::{Evaluation, Impossible, RoundStep};
pub use exact::ExactValue;
pub use experiment::{CharacteristicCounts, CharacteristicExperiment, PrefixCount};
pub use schedule::ScheduleMismatch;

use skinny::hazmat::partial::{self, TweakeyAt};
use skinny::hazmat::spec::{pack_cells, unpack_cells, CellWidth};
use skinny::Variant;

/// Why a characteristic was refused before anything was computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CharacteristicError {
    /// Fewer than two states (no round).
    #[error("a characteristic needs at least two states (one round), got {0}")]
    TooFewStates(usize),
    /// More rounds than fit from the start round.
    #[error("{variant} has rounds 1 to {}: {rounds} rounds from round {start} do not fit", variant.rounds())]
    Rounds {
        /// The variant.
        variant: Variant,
        /// The start round (from 1).
        start: usize,
        /// The rounds the states give.
        rounds: usize,
    },
    /// A state, tweakey or round tweakey of the wrong length.
    #[error("{what} must be {expected} bytes for {variant}, got {got}")]
    Length {
        /// Which value (`state 3`, `tweakey`, `round tweakey 2`).
        what: String,
        /// The variant.
        variant: Variant,
        /// The length it needs.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// Round tweakey differences listed for another number of rounds.
    #[error("{got} round tweakey differences listed for {rounds} rounds")]
    RoundTweakeyCount {
        /// The characteristic's rounds.
        rounds: usize,
        /// How many were listed.
        got: usize,
    },
    /// Text that is not hex digits.
    #[error("{what}: not an even number of hex digits")]
    Hex {
        /// Which value.
        what: String,
    },
    /// An experiment with no queries or `key_every` of 0.
    #[error("{0}")]
    Experiment(&'static str),
}

/// A differential characteristic: the state difference before every round
/// and after the last, under a tweakey difference (see the module's
/// conventions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DifferentialCharacteristic {
    /// The variant (its block and tweakey sizes).
    pub variant: Variant,
    /// The first round (from 1).
    pub start_round: usize,
    /// `rounds + 1` block differences: before each round, then after the last.
    pub states: Vec<Vec<u8>>,
    /// The tweakey difference TK1 ‖ TK2 ‖ TK3, given as [`Self::tk_at`] says.
    pub tweakey: Vec<u8>,
    /// Where [`Self::tweakey`] sits: the master tweakey or the start round's state.
    pub tk_at: TweakeyAt,
    /// Optionally each round's tweakey difference (8 cells, half a block of
    /// bytes), checked against the schedule.
    pub round_tweakeys: Option<Vec<Vec<u8>>>,
}

/// A linear characteristic: the mask before every round and after the last.
/// Round tweakeys and constants change only its sign, so it has none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearCharacteristic {
    /// The variant.
    pub variant: Variant,
    /// The first round (from 1).
    pub start_round: usize,
    /// `rounds + 1` block masks: before each round, then after the last.
    pub masks: Vec<Vec<u8>>,
}

/// Bytes from hex digits (whitespace and `_` ignored), or the error naming `what`.
pub fn parse_hex(what: &str, text: &str) -> Result<Vec<u8>, CharacteristicError> {
    let digits: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace() && *c != b'_').collect();
    let bad = || CharacteristicError::Hex { what: what.to_owned() };
    if !digits.len().is_multiple_of(2) {
        return Err(bad());
    }
    digits
        .chunks_exact(2)
        .map(|pair| {
            let hi = (pair[0] as char).to_digit(16).ok_or_else(bad)?;
            let lo = (pair[1] as char).to_digit(16).ok_or_else(bad)?;
            // Two hex digits: at most 0xff.
            Ok((hi * 16 + lo) as u8)
        })
        .collect()
}

impl DifferentialCharacteristic {
    /// A characteristic from round 1 with no round tweakeys listed, the
    /// tweakey difference at the master tweakey; unchecked (every method
    /// checks).
    pub fn new(variant: Variant, states: Vec<Vec<u8>>, tweakey: Vec<u8>) -> Self {
        Self { variant, start_round: 1, states, tweakey, tk_at: TweakeyAt::Master, round_tweakeys: None }
    }

    /// [`Self::new`] from hex strings: the states, and the tweakey
    /// difference (empty for none: all zero).
    ///
    /// # Errors
    /// [`CharacteristicError::Hex`] for text that is not hex, and what
    /// [`Self::check`] refuses.
    pub fn from_hex(variant: Variant, states: &[&str], tweakey: &str) -> Result<Self, CharacteristicError> {
        let states =
            states.iter().enumerate().map(|(i, s)| parse_hex(&format!("state {i}"), s)).collect::<Result<_, _>>()?;
        let tweakey =
            if tweakey.trim().is_empty() { vec![0; variant.tweakey_bytes()] } else { parse_hex("tweakey", tweakey)? };
        let c = Self::new(variant, states, tweakey);
        c.check()?;
        Ok(c)
    }

    /// Its number of rounds (`states.len() - 1`).
    pub fn rounds(&self) -> usize {
        self.states.len().saturating_sub(1)
    }

    /// Checks lengths and rounds.
    ///
    /// # Errors
    /// [`CharacteristicError`] for too few states, rounds past the cipher's
    /// last, or a length.
    pub fn check(&self) -> Result<(), CharacteristicError> {
        check_states(self.variant, self.start_round, &self.states, "state")?;
        check_len(self.variant, "tweakey".into(), &self.tweakey, self.variant.tweakey_bytes())?;
        if let Some(rtk) = &self.round_tweakeys {
            if rtk.len() != self.rounds() {
                return Err(CharacteristicError::RoundTweakeyCount { rounds: self.rounds(), got: rtk.len() });
            }
            for (i, k) in rtk.iter().enumerate() {
                check_len(self.variant, format!("round tweakey {i}"), k, self.variant.block_bytes() / 2)?;
            }
        }
        Ok(())
    }

    /// The tweakey difference as the start round's state difference.
    pub(crate) fn tweakey_at_start(&self) -> Vec<u8> {
        let mut d = self.tweakey.clone();
        if self.tk_at == TweakeyAt::Master {
            // Lengths were checked before.
            partial::advance_tweakey(self.variant, &mut d, self.start_round - 1).expect("checked length");
        }
        d
    }
}

impl LinearCharacteristic {
    /// A linear characteristic from round 1; unchecked.
    pub fn new(variant: Variant, masks: Vec<Vec<u8>>) -> Self {
        Self { variant, start_round: 1, masks }
    }

    /// [`Self::new`] from hex strings.
    ///
    /// # Errors
    /// [`CharacteristicError::Hex`] and what [`Self::check`] refuses.
    pub fn from_hex(variant: Variant, masks: &[&str]) -> Result<Self, CharacteristicError> {
        let masks =
            masks.iter().enumerate().map(|(i, s)| parse_hex(&format!("mask {i}"), s)).collect::<Result<_, _>>()?;
        let c = Self::new(variant, masks);
        c.check()?;
        Ok(c)
    }

    /// Its number of rounds (`masks.len() - 1`).
    pub fn rounds(&self) -> usize {
        self.masks.len().saturating_sub(1)
    }

    /// Checks lengths and rounds.
    ///
    /// # Errors
    /// As [`DifferentialCharacteristic::check`].
    pub fn check(&self) -> Result<(), CharacteristicError> {
        check_states(self.variant, self.start_round, &self.masks, "mask")
    }
}

fn check_states(variant: Variant, start: usize, states: &[Vec<u8>], what: &str) -> Result<(), CharacteristicError> {
    if states.len() < 2 {
        return Err(CharacteristicError::TooFewStates(states.len()));
    }
    let rounds = states.len() - 1;
    if partial::check_rounds(variant, start, rounds).is_err() {
        return Err(CharacteristicError::Rounds { variant, start, rounds });
    }
    for (i, s) in states.iter().enumerate() {
        check_len(variant, format!("{what} {i}"), s, variant.block_bytes())?;
    }
    Ok(())
}

fn check_len(variant: Variant, what: String, v: &[u8], expected: usize) -> Result<(), CharacteristicError> {
    if v.len() != expected {
        return Err(CharacteristicError::Length { what, variant, expected, got: v.len() });
    }
    Ok(())
}

/// A block's 16 cells.
pub(crate) fn cells(width: CellWidth, block: &[u8]) -> [u8; 16] {
    let mut s = [0u8; 16];
    unpack_cells(width, block, &mut s);
    s
}

/// 16 cells as a block's bytes.
pub(crate) fn block(width: CellWidth, cells: &[u8; 16]) -> Vec<u8> {
    let mut b = vec![0u8; width.block_bytes()];
    pack_cells(width, cells, &mut b);
    b
}

/// 8 round-tweakey cells as half a block of bytes (the same packing).
pub(crate) fn half_block(width: CellWidth, cells: &[u8; 8]) -> Vec<u8> {
    let mut full = [0u8; 16];
    full[..8].copy_from_slice(cells);
    let mut b = block(width, &full);
    b.truncate(width.block_bytes() / 2);
    b
}

/// Half a block of bytes as 8 cells.
pub(crate) fn half_cells(width: CellWidth, bytes: &[u8]) -> [u8; 8] {
    let mut b = vec![0u8; width.block_bytes()];
    b[..bytes.len()].copy_from_slice(bytes);
    let c = cells(width, &b);
    core::array::from_fn(|i| c[i])
}
