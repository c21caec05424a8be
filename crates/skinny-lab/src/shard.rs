//! Shards: contiguous ranges of a run's key groups, so that a run can be split
//! over machines and merged back.

use crate::error::LabError;

/// Shard `index` of `count`: the `index`-th of `count` contiguous, nearly equal
/// ranges of key groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 0-based.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Checks `index < count`.
    ///
    /// # Errors
    /// [`LabError::Shard`] otherwise.
    pub fn new(index: u64, count: u64) -> Result<Self, LabError> {
        if count == 0 || index >= count {
            return Err(LabError::Shard { index, count });
        }
        Ok(Self { index, count })
    }

    /// This shard's key groups out of `groups`: [groups*i/n, groups*(i+1)/n).
    /// The ranges of 0..n tile 0..groups exactly, in order.
    pub fn groups(&self, groups: u64) -> core::ops::Range<u64> {
        let at = |i: u64| ((groups as u128 * i as u128) / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl Default for Shard {
    fn default() -> Self {
        Self::WHOLE
    }
}
