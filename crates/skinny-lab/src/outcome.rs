//! What a run found: counts, the earliest witnesses, and merging the results
//! of shards.

use crate::common::Common;
use crate::error::LabError;
use crate::shard::Shard;
use crate::stats;

/// Something kept about a hit, ordered by its query.
pub trait Witness: Clone + Send {
    /// The query's index in the whole run.
    fn query(&self) -> u64;
}

/// The result of a run (or of a shard, or of merged shards).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome<W> {
    /// The parameters, as run (the shard is the merged one's first shard after
    /// a merge; see [`Outcome::shards`]).
    pub common: Common,
    /// The shards this result covers, sorted (one unless merged).
    pub shards: Vec<Shard>,
    /// Queries done.
    pub queries: u64,
    /// Hits (right pairs or returning quartets).
    pub hits: u64,
    /// The first `common.show` hits in query order.
    pub right: Vec<W>,
    /// Wall-clock seconds (summed over merged shards: the work, not the span).
    pub seconds: f64,
    /// Stopped early ([`Control::stop`](crate::Control::stop)): the counts
    /// cover the batches that ran, a fair sample but not the shard's queries,
    /// so it cannot be merged.
    pub interrupted: bool,
}

impl<W: Witness> Outcome<W> {
    /// The estimate of the probability with its 95 % interval.
    pub fn estimate(&self) -> stats::Estimate {
        stats::estimate(self.hits, self.queries)
    }

    /// Queries per second of wall-clock time (0 when no time was measured).
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.queries as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Whether every shard of the run is here.
    pub fn is_complete(&self) -> bool {
        let n = self.common.shard.count;
        self.shards.len() as u64 == n && self.shards.iter().enumerate().all(|(i, s)| s.index == i as u64)
    }

    /// Combines two results of the same experiment on different shards: sums the
    /// counts and the seconds and keeps the earliest right pairs. Merging all
    /// the shards of a run gives the unsharded run's counts and pairs.
    ///
    /// # Errors
    /// [`LabError::Merge`] if the parameters differ (apart from the shard index)
    /// or a shard is in both.
    pub fn merge(mut self, other: Self) -> Result<Self, LabError> {
        if self.interrupted || other.interrupted {
            return Err(LabError::Merge("an interrupted run covers part of its shard and cannot be merged".into()));
        }
        let mut a = self.common.clone();
        let mut b = other.common.clone();
        a.shard.index = 0;
        b.shard.index = 0;
        if a != b {
            return Err(LabError::Merge(format!("different experiments: {a:?} and {b:?}")));
        }
        let mut shards = self.shards;
        shards.extend(other.shards);
        shards.sort_by_key(|s| s.index);
        if let Some(w) = shards.windows(2).find(|w| w[0].index == w[1].index) {
            return Err(LabError::Merge(format!("shard {}/{} is in both", w[0].index, w[0].count)));
        }
        let overflow = || LabError::Merge("the counts add up to more than 2^64 - 1".into());
        let queries = self.queries.checked_add(other.queries).ok_or_else(overflow)?;
        let hits = self.hits.checked_add(other.hits).ok_or_else(overflow)?;
        let seconds = self.seconds + other.seconds;
        if !seconds.is_finite() {
            return Err(LabError::Merge("the seconds add up to more than a number holds".into()));
        }
        if let Some(&first) = shards.first() {
            self.common.shard = first;
        }
        (self.shards, self.queries, self.hits, self.seconds) = (shards, queries, hits, seconds);
        self.right = earliest(self.right, other.right, self.common.show);
        Ok(self)
    }
}

/// The first `show` of two lists each already in query order.
fn earliest<W: Witness>(mut a: Vec<W>, b: Vec<W>, show: usize) -> Vec<W> {
    a.extend(b);
    a.sort_by_key(W::query);
    a.truncate(show);
    a
}

/// Counts and the earliest witnesses of one piece of work.
pub(crate) struct Tally<W> {
    pub(crate) queries: u64,
    pub(crate) hits: u64,
    pub(crate) right: Vec<W>,
}

impl<W: Witness> Tally<W> {
    pub(crate) fn empty() -> Self {
        Self { queries: 0, hits: 0, right: Vec::new() }
    }

    pub(crate) fn join(self, other: Self, show: usize) -> Self {
        Self {
            queries: self.queries + other.queries,
            hits: self.hits + other.hits,
            right: earliest(self.right, other.right, show),
        }
    }
}
