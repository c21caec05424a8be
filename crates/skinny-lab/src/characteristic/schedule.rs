//! The tweakey schedule applied to a tweakey difference: every round's
//! tweakey difference (the schedule is linear: the permutation of cells and
//! the LFSRs on TK2's and TK3's first two rows commute with XOR), and the
//! check of the differences a characteristic lists against it.

use super::{half_block, half_cells, CharacteristicError, DifferentialCharacteristic};
use skinny::hazmat::RoundTweakeys;

/// A round whose listed tweakey difference is not the schedule's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "round {round}: the round tweakey difference listed, {}, is not the schedule's, {}",
    hex::encode(given),
    hex::encode(derived)
)]
pub struct ScheduleMismatch {
    /// The cipher's round (from 1).
    pub round: usize,
    /// The difference listed (half a block).
    pub given: Vec<u8>,
    /// The difference the schedule gives (half a block).
    pub derived: Vec<u8>,
}

impl DifferentialCharacteristic {
    /// The 8 cells of every round's tweakey difference, from the tweakey
    /// difference through the schedule (checked parameters).
    pub(crate) fn round_tweakey_cells(&self) -> Vec<[u8; 8]> {
        let start = self.tweakey_at_start();
        RoundTweakeys::expand_rounds(self.variant, &start, self.rounds()).as_cells().to_vec()
    }

    /// Every round's tweakey difference (8 cells, half a block of bytes in
    /// the module's packing), derived from [`Self::tweakey`] by the
    /// tweakey schedule: the cell permutation of every TKi and the LFSRs on
    /// the first two rows of TK2 and TK3.
    ///
    /// # Errors
    /// What [`Self::check`] refuses.
    pub fn derived_round_tweakeys(&self) -> Result<Vec<Vec<u8>>, CharacteristicError> {
        self.check()?;
        let width = self.variant.cell_width();
        Ok(self.round_tweakey_cells().iter().map(|c| half_block(width, c)).collect())
    }

    /// Whether the listed round tweakey differences ([`Self::round_tweakeys`])
    /// are the schedule's for [`Self::tweakey`]: `Ok(None)` when they are (or
    /// none are listed), `Ok(Some(first mismatch))` when not.
    ///
    /// # Errors
    /// What [`Self::check`] refuses.
    pub fn check_tweakey_schedule(&self) -> Result<Option<ScheduleMismatch>, CharacteristicError> {
        self.check()?;
        Ok(self.first_schedule_mismatch())
    }

    /// The first listed round tweakey difference that is not the schedule's
    /// (checked parameters).
    pub(crate) fn first_schedule_mismatch(&self) -> Option<ScheduleMismatch> {
        let listed = self.round_tweakeys.as_ref()?;
        let width = self.variant.cell_width();
        self.round_tweakey_cells().iter().zip(listed).enumerate().find_map(|(i, (derived, given))| {
            (half_cells(width, given) != *derived).then(|| ScheduleMismatch {
                round: self.start_round + i,
                given: given.clone(),
                derived: half_block(width, derived),
            })
        })
    }
}
