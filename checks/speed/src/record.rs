//! What one ratio is held to ([`Limit`]) and what measuring it gave
//! ([`Record`]): below both the ratios that make records and the report that
//! prints them.

use crate::measure::Comparison;

/// The lowest value a ratio may take, and why: `floor` says what the ratio
/// would be from first principles (lanes, operation counts, calls per byte)
/// and what it measured, so a reader can tell how much slack the threshold
/// leaves.
#[derive(Clone, Copy, Debug)]
pub struct Limit {
    pub threshold: f64,
    pub floor: &'static str,
}

/// One measured ratio.
#[derive(Clone, Debug)]
pub struct Record {
    pub name: String,
    /// What both sides' rates count: blocks, messages or block-cipher calls.
    pub unit: &'static str,
    pub limit: Limit,
    pub first: Comparison,
    /// Taken with twice the pairs when every measurement before fell below
    /// the threshold (`retry`), each with whether it ran in a fresh process.
    pub retries: Vec<(Comparison, bool)>,
}

impl Record {
    /// The figure checked: the best median of the measurements, so a ratio
    /// fails only when every measurement is below its threshold.
    pub fn value(&self) -> f64 {
        self.retries.iter().map(|(c, _)| c.median).fold(self.first.median, f64::max)
    }

    pub fn passed(&self) -> bool {
        self.value() >= self.limit.threshold
    }
}
