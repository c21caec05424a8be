//! What a scheme run measures: the algorithms, sizes and runs asked for, with
//! the defaults under them, checked before anything is timed.

use super::algorithm::{Algorithm, Operation, Route};
use crate::plan::QUICK_RUNS;
use crate::size::{parse_sizes, SizeError};

/// The sizes when none are asked for: a short message to a long one.
pub const DEFAULT_SIZES: &str = "16,64,1K,16K,1M";

/// What was asked: `None` takes the default. The list keeps its first order
/// and drops repeats.
#[derive(Clone, Debug)]
pub struct SchemeRequest<'a> {
    /// The algorithms (at least one).
    pub algorithms: Vec<Algorithm>,
    /// Sizes as written (see [`parse_sizes`]): any whole number of bytes from 1;
    /// default [`DEFAULT_SIZES`].
    pub sizes: Option<&'a str>,
    /// Timed runs per size (default [`QUICK_RUNS`]).
    pub runs: Option<usize>,
    /// Seconds of timed runs after which a size stops (keeping
    /// [`MIN_RUNS_UNDER_BUDGET`](crate::plan::MIN_RUNS_UNDER_BUDGET) runs).
    pub max_time_per_size: Option<f64>,
    /// The shortest timed run, seconds.
    pub min_run_secs: f64,
}

/// A checked scheme plan.
#[derive(Clone, Debug)]
pub struct SchemePlan {
    /// The algorithms, in the order asked.
    pub algorithms: Vec<Algorithm>,
    /// How the messages go through.
    pub route: Route,
    /// Message sizes in bytes, ascending.
    pub sizes: Vec<usize>,
    /// Timed runs per size (after warm-up).
    pub runs: usize,
    /// Stop a measurement after this many seconds of timed runs.
    pub max_time_per_size: Option<f64>,
    /// Each timed run lasts at least this long.
    pub min_run_secs: f64,
}

/// A scheme request that cannot be measured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SchemePlanError {
    /// No algorithm was asked for.
    #[error("no algorithm to measure")]
    NoAlgorithm,
    /// A message size of zero bytes (no throughput to speak of).
    #[error("message sizes start at 1 byte (0 bytes has no throughput)")]
    ZeroSize,
    /// The sizes cannot be read.
    #[error(transparent)]
    Size(SizeError),
}

impl SchemePlan {
    /// The request with the defaults under it.
    ///
    /// # Errors
    /// No algorithm, or sizes that cannot be read.
    pub fn new(r: SchemeRequest<'_>) -> Result<Self, SchemePlanError> {
        let mut algorithms = Vec::new();
        for a in r.algorithms {
            if !algorithms.contains(&a) {
                algorithms.push(a);
            }
        }
        if algorithms.is_empty() {
            return Err(SchemePlanError::NoAlgorithm);
        }
        // Messages are bytes, not blocks: any positive length.
        let sizes = parse_sizes(r.sizes.unwrap_or(DEFAULT_SIZES), 1).map_err(|e| match e {
            SizeError::NotWholeBlocks { size: 0, .. } => SchemePlanError::ZeroSize,
            e => SchemePlanError::Size(e),
        })?;
        Ok(Self {
            algorithms,
            route: Route::Single,
            sizes,
            runs: r.runs.unwrap_or(QUICK_RUNS),
            max_time_per_size: r.max_time_per_size,
            min_run_secs: r.min_run_secs,
        })
    }

    /// The operations that some algorithm of the plan has, in the order measured.
    pub fn operations(&self) -> Vec<Operation> {
        Operation::ALL.into_iter().filter(|o| self.algorithms.iter().any(|a| a.operations().contains(o))).collect()
    }

    /// How many points the run times (a progress bar's length).
    pub fn points(&self) -> usize {
        self.algorithms.iter().map(|a| a.operations().len()).sum::<usize>() * self.sizes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scheme::algorithm::Family;

    fn request(algorithms: Vec<Algorithm>, sizes: Option<&str>) -> SchemeRequest<'_> {
        SchemeRequest { algorithms, sizes, runs: None, max_time_per_size: None, min_run_secs: 0.002 }
    }

    #[test]
    fn defaults_and_refusals() {
        let p = SchemePlan::new(request(Family::Aead.members(), None)).unwrap();
        assert_eq!(p.sizes, vec![16, 64, 1024, 16 << 10, 1 << 20]);
        assert_eq!(
            (p.runs, p.points(), p.operations()),
            (QUICK_RUNS, 9 * 2 * 5, vec![Operation::Seal, Operation::Open])
        );
        let twice = vec![Algorithm::RomulusH, Algorithm::RomulusN, Algorithm::RomulusH];
        let p = SchemePlan::new(request(twice, Some("5,3"))).unwrap();
        assert_eq!((p.algorithms.len(), p.sizes.clone(), p.points()), (2, vec![3, 5], 6));
        assert_eq!(p.operations(), Operation::ALL.to_vec());
        assert_eq!(SchemePlan::new(request(Vec::new(), None)).unwrap_err(), SchemePlanError::NoAlgorithm);
        let e = SchemePlan::new(request(vec![Algorithm::RomulusN], Some("0"))).unwrap_err();
        assert_eq!(e, SchemePlanError::ZeroSize);
        let e = SchemePlan::new(request(vec![Algorithm::RomulusN], Some("16,1x"))).unwrap_err();
        assert_eq!(e.to_string(), "bad size suffix in '1x' (use B, K, M or G; binary multiples)");
    }
}
