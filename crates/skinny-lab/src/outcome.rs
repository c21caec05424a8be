//! What a run found: counts, the earliest witnesses, and merging the results
//! of shards.

use crate::common::Common;
use crate::error::LabError;
use crate::per_key::KeyHistogram;
use crate::shard::Shard;
use crate::stats;
use core::ops::Range;

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
    /// With [`Common::per_key`]: the hits of every complete key group (`None`
    /// without). A stopped run's histogram holds the groups it finished.
    pub per_key: Option<KeyHistogram>,
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

    /// Whether every shard of the run is here (whole: no segment of one).
    pub fn is_complete(&self) -> bool {
        let n = self.common.shard.count;
        self.common.whole_shard()
            && self.shards.len() as u64 == n
            && self.shards.iter().enumerate().all(|(i, s)| s.index == i as u64)
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
        if !(self.common.whole_shard() && other.common.whole_shard()) {
            return Err(LabError::Merge(
                "a segment of a shard (a checkpoint) covers part of it and cannot be merged".into(),
            ));
        }
        let mut a = self.common.clone();
        let mut b = other.common.clone();
        (a.shard.index, a.segment) = (0, None);
        (b.shard.index, b.segment) = (0, None);
        if a != b {
            return Err(LabError::Merge(format!("different experiments: {a:?} and {b:?}")));
        }
        let mut shards = self.shards.clone();
        shards.extend(other.shards.iter().copied());
        shards.sort_by_key(|s| s.index);
        if let Some(w) = shards.windows(2).find(|w| w[0].index == w[1].index) {
            return Err(LabError::Merge(format!("shard {}/{} is in both", w[0].index, w[0].count)));
        }
        self.add(other).map_err(LabError::Merge)?;
        if let Some(&first) = shards.first() {
            self.common.shard = first;
        }
        (self.shards, self.common.segment) = (shards, None);
        Ok(self)
    }

    /// Joins the outcomes of consecutive segments of one shard: `self`, key
    /// groups `a..b` ([`Common::segment`]), then `next`, groups `b..c`, give
    /// groups `a..c` (no segment once that is the whole shard), with counts
    /// summed and the earliest right pairs kept, exactly as one run of
    /// `a..c`. `next` may be interrupted (the result then is); `self` may not.
    ///
    /// # Errors
    /// [`LabError::Segments`] if the experiments differ, `self` was
    /// interrupted or merged, or the groups do not follow on.
    pub fn then(mut self, next: Self) -> Result<Self, LabError> {
        let refuse = |why: &str| Err(LabError::Segments(why.into()));
        if self.interrupted {
            return refuse("the first segment was interrupted: its counts are not those of its groups");
        }
        let mut a = self.common.clone();
        let mut b = next.common.clone();
        (a.segment, b.segment) = (None, None);
        if a != b {
            return refuse("segments of different experiments or shards");
        }
        if self.shards != [self.common.shard] || next.shards != [next.common.shard] {
            return refuse("merged shards are not segments");
        }
        let (first, second) = (self.common.shard_groups(), next.common.shard_groups());
        if first.end != second.start {
            return Err(LabError::Segments(format!(
                "key groups {}..{} do not follow {}..{}",
                second.start, second.end, first.start, first.end
            )));
        }
        self.interrupted = next.interrupted;
        self.add(next).map_err(LabError::Segments)?;
        self.common.segment = Some(first.start..second.end);
        if self.common.whole_shard() {
            self.common.segment = None;
        }
        Ok(self)
    }

    /// Adds `other`'s counts to these: every field that sums over disjoint
    /// parts of a run (the one place both [`Outcome::merge`] and
    /// [`Outcome::then`] combine them), with checked arithmetic.
    fn add(&mut self, other: Self) -> Result<(), String> {
        let overflow = || "the counts add up to more than 2^64 - 1".to_string();
        let queries = self.queries.checked_add(other.queries).ok_or_else(overflow)?;
        let hits = self.hits.checked_add(other.hits).ok_or_else(overflow)?;
        let seconds = self.seconds + other.seconds;
        if !seconds.is_finite() {
            return Err("the seconds add up to more than a number holds".into());
        }
        let per_key = match (self.per_key.take(), other.per_key) {
            (None, None) => None,
            (Some(mut a), Some(b)) => {
                a.add(&b).map_err(|e| e.to_string())?;
                Some(a)
            }
            _ => return Err("one part has per-key counts, the other not".into()),
        };
        (self.queries, self.hits, self.seconds, self.per_key) = (queries, hits, seconds, per_key);
        self.right = earliest(core::mem::take(&mut self.right), other.right, self.common.show);
        Ok(())
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
    /// Per-key runs: the complete key groups' hits (joined by adding).
    pub(crate) per_key: Option<KeyHistogram>,
    /// Per-key runs, in a batch: the hits of each key group it touches.
    groups: Option<GroupHits>,
}

/// The hits of the key groups of a batch of queries, group `first + i` at `i`.
struct GroupHits {
    first: u64,
    key_every: u64,
    hits: Vec<u64>,
}

impl<W: Witness> Tally<W> {
    pub(crate) fn empty() -> Self {
        Self { queries: 0, hits: 0, right: Vec::new(), per_key: None, groups: None }
    }

    /// A batch's tally before its hits: queries `qs` done, none hit yet; in a
    /// per-key run, with a counter for each key group `qs` touches. Batches
    /// count their hits with [`Tally::hit`] (so every engine's batches feed
    /// the per-key counts).
    pub(crate) fn batch(c: &Common, qs: Range<u64>) -> Self {
        let groups = c.per_key.then(|| {
            let first = qs.start / c.key_every;
            let last = qs.end.saturating_sub(1).max(qs.start) / c.key_every;
            GroupHits { first, key_every: c.key_every, hits: vec![0; (last - first + 1) as usize] }
        });
        Self { queries: qs.end - qs.start, hits: 0, right: Vec::new(), per_key: None, groups }
    }

    /// Query `q` of this batch hit.
    pub(crate) fn hit(&mut self, q: u64) {
        self.hits += 1;
        if let Some(g) = self.groups.as_mut() {
            g.hits[(q / g.key_every - g.first) as usize] += 1;
        }
    }

    /// A batch of whole key groups: its groups' hits into the per-key
    /// histogram (runs whose batches cut across groups).
    pub(crate) fn fold_groups(mut self, queries_per_key: u64) -> Self {
        if let Some(g) = self.groups.take() {
            let mut h = KeyHistogram::new(queries_per_key);
            for hits in g.hits {
                h.add_key(hits);
            }
            self.per_key = Some(h);
        }
        self
    }

    /// A key group's whole tally: its hits as one key of the per-key
    /// histogram, when the group was done in full (`queries_per_key` queries;
    /// a stopped run leaves some groups part done, and those out).
    pub(crate) fn fold_group(mut self, per_key: bool, queries_per_key: u64) -> Self {
        self.groups = None;
        if per_key && self.queries == queries_per_key {
            self.per_key = Some(KeyHistogram::one(queries_per_key, self.hits));
        }
        self
    }

    pub(crate) fn join(self, other: Self, show: usize) -> Self {
        let per_key = match (self.per_key, other.per_key) {
            (Some(mut a), Some(b)) => {
                a.absorb(&b);
                Some(a)
            }
            (a, b) => a.or(b),
        };
        Self {
            queries: self.queries + other.queries,
            hits: self.hits + other.hits,
            right: earliest(self.right, other.right, show),
            per_key,
            // Batches' group counters are folded (or dropped) before joining.
            groups: None,
        }
    }
}
