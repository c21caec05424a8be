//! The differential-linear experiment: pairs (P, P ^ dp) under (K, K ^ dk)
//! whose output difference has even parity under a linear mask, counted on
//! the CPU (the differential's engine) and recomputed one by one.

use crate::common::Common;
use crate::control::Control;
use crate::differential::{pair_at, run_pairs, Pair};
use crate::error::LabError;
use crate::outcome::Outcome;
use crate::stats;

/// The differential-linear experiment: a hit when
/// `parity(mask & (E_K(P) ^ E_{K ^ dk}(P ^ dp))) == 0`. With `h` hits in `n`
/// queries the correlation is estimated as `2 h / n - 1`
/// ([`stats::correlation`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DifferentialLinear {
    /// Variant, rounds, queries, keys, seed, shard, show.
    pub common: Common,
    /// The plaintext difference (one block).
    pub dp: Vec<u8>,
    /// The tweakey difference (the variant's tweakey length; zero by default).
    pub dk: Vec<u8>,
    /// The output linear mask (one block).
    pub mask: Vec<u8>,
}

/// Whether `mask & (a ^ b)` has even parity.
pub(crate) fn even_parity(mask: &[u8], a: &[u8], b: &[u8]) -> bool {
    let ones: u32 = a.iter().zip(b).zip(mask).map(|((a, b), m)| ((a ^ b) & m).count_ones()).sum();
    ones.is_multiple_of(2)
}

impl DifferentialLinear {
    /// An experiment with `dk` zero.
    pub fn new(common: Common, dp: Vec<u8>, mask: Vec<u8>) -> Self {
        let tk = common.variant.tweakey_bytes();
        Self { common, dp, dk: vec![0; tk], mask }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`LabError`] for a round count, a length, `key_every`, a shard out of range
    /// or more pairs to keep than [`MAX_SHOW`](crate::MAX_SHOW).
    pub fn check(&self) -> Result<(), LabError> {
        let c = &self.common;
        c.check()?;
        let block = c.variant.block_bytes();
        c.check_len("dp", &self.dp, block)?;
        c.check_len("mask", &self.mask, block)?;
        c.check_len("dk", &self.dk, c.variant.tweakey_bytes())
    }

    /// Runs this shard on the current rayon pool. The outcome's hits are the
    /// pairs of even parity; its pairs kept are the first of those.
    ///
    /// # Errors
    /// See [`DifferentialLinear::check`].
    pub fn run(&self) -> Result<Outcome<Pair>, LabError> {
        self.run_with(&Control::new())
    }

    /// [`DifferentialLinear::run`], reporting progress to and taking a stop
    /// from `control`.
    ///
    /// # Errors
    /// See [`DifferentialLinear::check`].
    pub fn run_with(&self, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let hit = |a: &[u8], b: &[u8]| even_parity(&self.mask, a, b);
        Ok(run_pairs(&self.common, &self.dp, &self.dk, control, hit))
    }

    /// Query `q` recomputed with the one-block specification code: its pair
    /// if its parity is even, `None` if not.
    pub fn pair_at(&self, q: u64) -> Option<Pair> {
        pair_at(&self.common, &self.dp, &self.dk, q, |a, b| even_parity(&self.mask, a, b))
    }
}

impl Outcome<Pair> {
    /// The correlation `2 hits / queries - 1` with its exact 95 % interval,
    /// for a differential-linear outcome.
    pub fn correlation(&self) -> stats::Correlation {
        stats::correlation(self.hits, self.queries)
    }
}
