//! Where a run's work went and why: the one report every product gives (in
//! its own units: bytes, chunks, queries), and the words a command prints
//! with `--verbose`.

use crate::handover::Slower;
use std::fmt;

/// Where a run's work went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placed {
    /// Units of work done on the CPU.
    pub cpu_units: u64,
    /// Units done on the accelerator.
    pub accelerator_units: u64,
    /// The accelerator, in the device's words, once it was open.
    pub accelerator: Option<String>,
    /// Why the run stayed on the CPU: the product's rule, or an accelerator
    /// that could not be had.
    pub why_cpu: Option<WhyCpu>,
    /// The accelerator was left during the run.
    pub left: Option<Slower>,
}

/// Why a run (or the rest of it) stayed on the CPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyCpu {
    /// The product's rule: the accelerator would not pay or cannot serve.
    Rule(String),
    /// It was asked for and could not be had (the device's words).
    Unavailable(String),
}

impl fmt::Display for WhyCpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WhyCpu::Rule(why) => f.write_str(why),
            WhyCpu::Unavailable(why) => write!(f, "no usable GPU: {why}"),
        }
    }
}

impl Placed {
    /// All units on the accelerator's side and the CPU's.
    pub fn units(&self) -> u64 {
        self.cpu_units + self.accelerator_units
    }
}
