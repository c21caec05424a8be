//! Either experiment, for code that runs whichever it is given.

use crate::boomerang::Boomerang;
use crate::common::Common;
use crate::differential::Differential;
use crate::error::LabError;

/// One of the lab's experiments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Experiment {
    /// Right pairs of a differential.
    Differential(Differential),
    /// Returning quartets of a related-tweakey boomerang.
    Boomerang(Boomerang),
}

impl Experiment {
    /// The parameters common to both.
    pub fn common(&self) -> &Common {
        match self {
            Experiment::Differential(d) => &d.common,
            Experiment::Boomerang(b) => &b.common,
        }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// As [`Differential::check`] and [`Boomerang::check`].
    pub fn check(&self) -> Result<(), LabError> {
        match self {
            Experiment::Differential(d) => d.check(),
            Experiment::Boomerang(b) => b.check(),
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
