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

use crate::measure::{compare, Settings, Work};
pub use crate::record::{Limit, Record};
use crate::retry;
use skinny::Variant;

/// Which ratios a [`Runner`] measures, and what it does with them.
pub enum Selection {
    /// Those whose name contains one of these (case-insensitive; all when
    /// empty): checked, retried, printed and recorded.
    Matching(Vec<String>),
    /// Only the one with exactly this name, measured once and printed for the
    /// parent process that asked (`retry`).
    ForParent(String),
}

/// Measures ratios one after the other and keeps their records.
pub struct Runner {
    settings: Settings,
    selection: Selection,
    unit: &'static str,
    pub records: Vec<Record>,
    /// What was not measured here, and why (a path this CPU lacks).
    pub skipped: Vec<String>,
}

impl Runner {
    pub fn new(settings: Settings, selection: Selection) -> Self {
        let selection = match selection {
            Selection::Matching(only) => Selection::Matching(only.into_iter().map(|s| s.to_lowercase()).collect()),
            exact => exact,
        };
        Self { settings, selection, unit: "blocks", records: Vec::new(), skipped: Vec::new() }
    }

    /// The unit the next ratios' rates count (for the record).
    pub fn set_unit(&mut self, unit: &'static str) {
        self.unit = unit;
    }

    /// Measures `a` (the engine) against `b` (its sibling), each with the work
    /// one run does in the ratio's unit, prints the row, and keeps the record.
    pub fn ratio(&mut self, name: String, limit: Limit, a: (&mut dyn FnMut(), f64), b: (&mut dyn FnMut(), f64)) {
        let (run_a, units_a) = a;
        let (run_b, units_b) = b;
        let mut measure = |settings: Settings| {
            compare(settings, Work { run: &mut *run_a, units: units_a }, Work { run: &mut *run_b, units: units_b })
        };
        match &self.selection {
            Selection::ForParent(exact) if *exact == name => {
                retry::print_for_parent(&measure(self.settings));
                return;
            }
            Selection::ForParent(_) => return,
            Selection::Matching(only) => {
                let lower = name.to_lowercase();
                if !only.is_empty() && !only.iter().any(|o| lower.contains(o.as_str())) {
                    return;
                }
            }
        }
        let mut record = Record { name, unit: self.unit, limit, first: measure(self.settings), retries: Vec::new() };
        let again = Settings { pairs: 2 * self.settings.pairs, ..self.settings };
        while !record.passed() && record.retries.len() < retry::FRESH_PROCESSES {
            let retried = match retry::in_fresh_process(&record.name, again) {
                Some(c) => (c, true),
                None => (measure(again), false),
            };
            record.retries.push(retried);
        }
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
