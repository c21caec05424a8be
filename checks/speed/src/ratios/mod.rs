//! The ratios the guard checks, one module per family of code, and the
//! [`Runner`] that measures each one, keeps its record and says whether it
//! passed.
//!
//! Every ratio is "faster engine / simpler sibling" in the same unit (blocks,
//! bytes or block-cipher calls per second), so above 1 means the engine is
//! ahead; its [`Limit`] is written beside the code that measures it, with the
//! floor it comes from.

pub mod bitsliced;
pub mod engines;
pub mod schemes;
pub mod single;

use crate::measure::{compare, Comparison, Settings, Work};
use skinny::Variant;

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
    /// Taken with twice the pairs when `first` fell below the threshold: a
    /// ratio fails only when both measurements do, so that one unlucky burst
    /// of load does not fail CI.
    pub second: Option<Comparison>,
}

impl Record {
    /// The figure checked: the second measurement where there is one.
    pub fn value(&self) -> f64 {
        self.second.map_or(self.first.median, |c| c.median)
    }

    pub fn passed(&self) -> bool {
        self.value() >= self.limit.threshold
    }
}

/// Measures ratios one after the other and keeps their records.
pub struct Runner {
    settings: Settings,
    only: Vec<String>,
    unit: &'static str,
    pub records: Vec<Record>,
    /// What was not measured here, and why (a path this CPU lacks).
    pub skipped: Vec<String>,
}

impl Runner {
    /// `only`: measure just the ratios whose name contains one of these
    /// (case-insensitive); all of them when empty.
    pub fn new(settings: Settings, only: Vec<String>) -> Self {
        let only = only.into_iter().map(|s| s.to_lowercase()).collect();
        Self { settings, only, unit: "blocks", records: Vec::new(), skipped: Vec::new() }
    }

    /// The unit the next ratios' rates count (for the record).
    pub fn set_unit(&mut self, unit: &'static str) {
        self.unit = unit;
    }

    /// Measures `a` (the engine) against `b` (its sibling), each with the work
    /// one run does in the ratio's unit, prints the row, and keeps the record.
    pub fn ratio(&mut self, name: String, limit: Limit, a: (&mut dyn FnMut(), f64), b: (&mut dyn FnMut(), f64)) {
        let lower = name.to_lowercase();
        if !self.only.is_empty() && !self.only.iter().any(|o| lower.contains(o.as_str())) {
            return;
        }
        let (run_a, units_a) = a;
        let (run_b, units_b) = b;
        let first = compare(
            self.settings,
            Work { run: &mut *run_a, units: units_a },
            Work { run: &mut *run_b, units: units_b },
        );
        let second = (first.median < limit.threshold).then(|| {
            let again = Settings { pairs: 2 * self.settings.pairs, ..self.settings };
            compare(again, Work { run: run_a, units: units_a }, Work { run: run_b, units: units_b })
        });
        let record = Record { name, unit: self.unit, limit, first, second };
        crate::report::print_row(&record);
        self.records.push(record);
    }

    /// Notes something this machine cannot measure.
    pub fn skip(&mut self, what: String) {
        self.skipped.push(what);
    }
}

/// `SKINNY-128-256`, as the specification writes it.
pub fn variant_name(v: Variant) -> String {
    v.name().to_uppercase()
}

/// Bytes `i · 167 + 13`: data that is neither all zeros nor periodic in a block.
pub fn filled(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i.wrapping_mul(167) + 13) as u8).collect()
}
