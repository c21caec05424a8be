//! Either experiment, for code that runs whichever it is given.

use crate::boomerang::Boomerang;
use crate::common::Common;
use crate::differential::Differential;
use crate::differential_linear::DifferentialLinear;
use crate::error::LabError;
use crate::linear::Linear;

/// One of the lab's experiments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Experiment {
    /// Right pairs of a differential.
    Differential(Differential),
    /// Returning quartets of a related-tweakey boomerang.
    Boomerang(Boomerang),
    /// Pairs of even output parity under a linear mask.
    DifferentialLinear(DifferentialLinear),
    /// Known plaintexts whose parities under an input and an output mask agree.
    Linear(Linear),
}

impl Experiment {
    /// The parameters common to all.
    pub fn common(&self) -> &Common {
        match self {
            Experiment::Differential(d) => &d.common,
            Experiment::Boomerang(b) => &b.common,
            Experiment::DifferentialLinear(d) => &d.common,
            Experiment::Linear(l) => &l.common,
        }
    }

    /// The experiment's name, as findings name it (`differential`,
    /// `boomerang`, `differential-linear`, `linear`).
    pub fn name(&self) -> &'static str {
        match self {
            Experiment::Differential(_) => "differential",
            Experiment::Boomerang(_) => "boomerang",
            Experiment::DifferentialLinear(_) => "differential-linear",
            Experiment::Linear(_) => "linear",
        }
    }

    /// The parameters common to all, to change (a segment to run, say).
    pub(crate) fn common_mut(&mut self) -> &mut Common {
        match self {
            Experiment::Differential(d) => &mut d.common,
            Experiment::Boomerang(b) => &mut b.common,
            Experiment::DifferentialLinear(d) => &mut d.common,
            Experiment::Linear(l) => &mut l.common,
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// As [`Differential::check`], [`Boomerang::check`],
    /// [`DifferentialLinear::check`] and [`Linear::check`].
    pub fn check(&self) -> Result<(), LabError> {
        match self {
            Experiment::Differential(d) => d.check(),
            Experiment::Boomerang(b) => b.check(),
            Experiment::DifferentialLinear(d) => d.check(),
            Experiment::Linear(l) => l.check(),
        }
    }
}

impl From<Differential> for Experiment {
    fn from(d: Differential) -> Self {
        Experiment::Differential(d)
    }
}

impl From<Boomerang> for Experiment {
    fn from(b: Boomerang) -> Self {
        Experiment::Boomerang(b)
    }
}

impl From<DifferentialLinear> for Experiment {
    fn from(d: DifferentialLinear) -> Self {
        Experiment::DifferentialLinear(d)
    }
}

impl From<Linear> for Experiment {
    fn from(l: Linear) -> Self {
        Experiment::Linear(l)
    }
}
