//! Per-key distributions: how many of a run's keys saw each number of hits.
//!
//! With [`Common::per_key`](crate::Common::per_key) a run's queries are whole
//! key groups of `key_every` queries each, and every group's hits go into a
//! [`KeyHistogram`]: for each number of hits, how many keys had it. The
//! histograms of shards (and of any two disjoint sets of groups) merge exactly
//! by adding; [`KeyHistogram::distribution`] turns one into the statistics a
//! report shows ([`KeyDistribution`]): the share of keys without a hit, the
//! mean and variance of the hits per key, and a dispersion test against the
//! model in which every key has the key-averaged probability.

mod distribution;

pub use distribution::KeyDistribution;

use std::collections::BTreeMap;

/// The hits of each key group of a run (or shard, or merged shards): for each
/// number of hits, how many keys had it, every key having
/// [`KeyHistogram::queries_per_key`] queries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyHistogram {
    queries_per_key: u64,
    /// hits -> keys with that many, no entry of zero keys.
    keys_by_hits: BTreeMap<u64, u64>,
}

/// Why a histogram read from a record, or two to be added, were refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HistogramError {
    /// An entry with more hits than a key has queries.
    #[error("a key with {hits} hits of {queries_per_key} queries")]
    HitsAboveQueries {
        /// The entry's hits.
        hits: u64,
        /// Queries per key.
        queries_per_key: u64,
    },
    /// Entries not in increasing order of hits, or one hit count twice.
    #[error("histogram entries out of order or repeated")]
    Order,
    /// An entry of zero keys.
    #[error("a histogram entry of zero keys")]
    ZeroKeys,
    /// Keys other than the key groups the counts cover.
    #[error("{} keys in the histogram, where the counts cover {groups} key groups", keys.map_or_else(|| "more than 2^64 - 1".into(), |k| k.to_string()))]
    Keys {
        /// Keys in the histogram (`None`: more than 2^64 - 1).
        keys: Option<u64>,
        /// Key groups covered.
        groups: u64,
    },
    /// Hits other than the counts'.
    #[error("the histogram holds {} hits, the counts {hits}", held.map_or_else(|| "more than 2^64 - 1".into(), |h| h.to_string()))]
    Hits {
        /// Hits in the histogram (`None`: more than 2^64 - 1).
        held: Option<u64>,
        /// Hits of the counts.
        hits: u64,
    },
    /// Histograms of different queries per key.
    #[error("histograms of {0} and {1} queries per key")]
    QueriesPerKey(u64, u64),
    /// Sums past 2^64 - 1.
    #[error("the histograms add up to more than 2^64 - 1 keys")]
    Overflow,
    /// A record's key count that its histogram contradicts.
    #[error("says {claimed} keys, its histogram {}", counted.map_or_else(|| "more than 2^64 - 1".into(), |k| k.to_string()))]
    ClaimedKeys {
        /// Keys the record says.
        claimed: u64,
        /// Keys in its histogram.
        counted: Option<u64>,
    },
}

impl KeyHistogram {
    /// No keys yet, each of `queries_per_key` queries.
    pub fn new(queries_per_key: u64) -> Self {
        Self { queries_per_key, keys_by_hits: BTreeMap::new() }
    }

    /// One key, with a single entry: its hits (at most `queries_per_key`).
    pub(crate) fn one(queries_per_key: u64, hits: u64) -> Self {
        debug_assert!(hits <= queries_per_key, "a key with more hits than queries");
        let mut h = Self::new(queries_per_key);
        h.keys_by_hits.insert(hits, 1);
        h
    }

    /// A histogram from `[hits, keys]` pairs as a record stores them, checked:
    /// in increasing order of hits, each hit count once, no entry of zero keys
    /// or of more hits than `queries_per_key`, and sums within 2^64 - 1.
    ///
    /// # Errors
    /// [`HistogramError`] for any of those.
    pub fn from_pairs(queries_per_key: u64, pairs: &[[u64; 2]]) -> Result<Self, HistogramError> {
        let mut h = Self::new(queries_per_key);
        let mut last: Option<u64> = None;
        for &[hits, keys] in pairs {
            if last.is_some_and(|l| hits <= l) {
                return Err(HistogramError::Order);
            }
            last = Some(hits);
            if keys == 0 {
                return Err(HistogramError::ZeroKeys);
            }
            if hits > queries_per_key {
                return Err(HistogramError::HitsAboveQueries { hits, queries_per_key });
            }
            h.keys_by_hits.insert(hits, keys);
        }
        h.keys().ok_or(HistogramError::Overflow)?;
        Ok(h)
    }

    /// Queries each key had.
    pub fn queries_per_key(&self) -> u64 {
        self.queries_per_key
    }

    /// `(hits, keys)` entries in increasing order of hits.
    pub fn entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.keys_by_hits.iter().map(|(&h, &k)| (h, k))
    }

    /// The entries as `[hits, keys]` pairs, as a record stores them.
    pub fn pairs(&self) -> Vec<[u64; 2]> {
        self.entries().map(|(h, k)| [h, k]).collect()
    }

    /// Keys counted (`None` past 2^64 - 1: never for a histogram built by a
    /// run or read with [`KeyHistogram::from_pairs`]).
    pub fn keys(&self) -> Option<u64> {
        self.keys_by_hits.values().try_fold(0u64, |s, &k| s.checked_add(k))
    }

    /// Hits over all keys (`None` past 2^64 - 1).
    pub fn hits(&self) -> Option<u64> {
        self.entries().try_fold(0u64, |s, (h, k)| s.checked_add(h.checked_mul(k)?))
    }

    /// Adds `other`'s keys to these (disjoint key groups of one run).
    ///
    /// # Errors
    /// [`HistogramError::QueriesPerKey`] when the keys had different queries,
    /// [`HistogramError::Overflow`] past 2^64 - 1 keys.
    pub fn add(&mut self, other: &KeyHistogram) -> Result<(), HistogramError> {
        if self.queries_per_key != other.queries_per_key {
            return Err(HistogramError::QueriesPerKey(self.queries_per_key, other.queries_per_key));
        }
        let mut sum = self.clone();
        for (h, k) in other.entries() {
            let e = sum.keys_by_hits.entry(h).or_insert(0);
            *e = e.checked_add(k).ok_or(HistogramError::Overflow)?;
        }
        sum.keys().ok_or(HistogramError::Overflow)?;
        *self = sum;
        Ok(())
    }

    /// [`KeyHistogram::add`] within a run, whose keys all have the same
    /// queries and number at most 2^64 - 1 (the run's key groups): it cannot
    /// fail there.
    pub(crate) fn absorb(&mut self, other: &KeyHistogram) {
        debug_assert_eq!(self.queries_per_key, other.queries_per_key);
        for (h, k) in other.entries() {
            let e = self.keys_by_hits.entry(h).or_insert(0);
            *e = e.saturating_add(k);
        }
    }

    /// One more key with `hits` hits.
    pub(crate) fn add_key(&mut self, hits: u64) {
        self.add_keys(hits, 1);
    }

    /// `keys` more keys with `hits` hits each.
    pub(crate) fn add_keys(&mut self, hits: u64, keys: u64) {
        debug_assert!(hits <= self.queries_per_key, "a key with more hits than queries");
        if keys != 0 {
            let e = self.keys_by_hits.entry(hits).or_insert(0);
            *e = e.saturating_add(keys);
        }
    }

    /// Checks the histogram against counts it claims to split: `groups` keys
    /// (the key groups covered), `hits` hits in all.
    ///
    /// # Errors
    /// [`HistogramError::Keys`] or [`HistogramError::Hits`] when they differ.
    pub fn check_against(&self, groups: u64, hits: u64) -> Result<(), HistogramError> {
        let keys = self.keys();
        if keys != Some(groups) {
            return Err(HistogramError::Keys { keys, groups });
        }
        let held = self.hits();
        if held != Some(hits) {
            return Err(HistogramError::Hits { held, hits });
        }
        Ok(())
    }

    /// A record's per-key findings back as a histogram, trusting nothing in
    /// them: the histogram's entries checked ([`KeyHistogram::from_pairs`]),
    /// its queries per key `key_every`, its keys those the record says and
    /// its counts the record's: `queries / key_every` keys holding `hits`
    /// hits (the queries being whole groups), or for a stopped run
    /// (`interrupted`) at most that many keys and hits. The statistics in the
    /// record are not read: they are recomputed from the histogram.
    ///
    /// # Errors
    /// [`HistogramError`] for the first thing that does not fit.
    pub fn read_back(
        d: &KeyDistribution,
        key_every: u64,
        queries: u64,
        hits: u64,
        interrupted: bool,
    ) -> Result<KeyHistogram, HistogramError> {
        if d.queries_per_key != key_every {
            return Err(HistogramError::QueriesPerKey(d.queries_per_key, key_every));
        }
        let h = KeyHistogram::from_pairs(key_every, &d.histogram)?;
        let counted = h.keys();
        if counted != Some(d.keys) {
            return Err(HistogramError::ClaimedKeys { claimed: d.keys, counted });
        }
        let groups = queries / key_every.max(1);
        if !interrupted {
            h.check_against(groups, hits)?;
        } else if d.keys > groups {
            return Err(HistogramError::Keys { keys: counted, groups });
        } else if h.hits().is_none_or(|held| held > hits) {
            return Err(HistogramError::Hits { held: h.hits(), hits });
        }
        Ok(h)
    }

    /// The statistics of these keys ([`KeyDistribution`]); `correlation`: the
    /// hits are pairs of even parity, and the per-key correlations are given
    /// too.
    pub fn distribution(&self, correlation: bool) -> KeyDistribution {
        KeyDistribution::of(self, correlation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_and_reads_back() {
        let mut a = KeyHistogram::new(10);
        for h in [0, 3, 3, 10, 0, 0] {
            a.add_key(h);
        }
        assert_eq!(a.pairs(), vec![[0, 3], [3, 2], [10, 1]]);
        assert_eq!((a.keys(), a.hits()), (Some(6), Some(16)));
        let b = KeyHistogram::from_pairs(10, &[[1, 4], [3, 1]]).expect("good");
        a.add(&b).expect("same queries");
        assert_eq!(a.pairs(), vec![[0, 3], [1, 4], [3, 3], [10, 1]]);
        assert!(a.check_against(11, 23).is_ok());
        assert!(matches!(a.check_against(12, 23), Err(HistogramError::Keys { .. })));
        assert!(matches!(a.check_against(11, 22), Err(HistogramError::Hits { .. })));
        assert_eq!(KeyHistogram::from_pairs(10, &a.pairs()), Ok(a));
    }

    #[test]
    fn refuses_bad_records() {
        assert_eq!(KeyHistogram::from_pairs(5, &[[2, 1], [1, 1]]), Err(HistogramError::Order));
        assert_eq!(KeyHistogram::from_pairs(5, &[[2, 1], [2, 1]]), Err(HistogramError::Order));
        assert_eq!(KeyHistogram::from_pairs(5, &[[2, 0]]), Err(HistogramError::ZeroKeys));
        assert!(matches!(KeyHistogram::from_pairs(5, &[[6, 1]]), Err(HistogramError::HitsAboveQueries { .. })));
        assert_eq!(KeyHistogram::from_pairs(5, &[[0, u64::MAX], [1, 1]]), Err(HistogramError::Overflow));
        // Hits past 2^64 - 1: read, but never equal to a record's counts.
        let h = KeyHistogram::from_pairs(u64::MAX, &[[u64::MAX, 2]]).expect("entries fine");
        assert!(matches!(h.check_against(2, 0), Err(HistogramError::Hits { held: None, .. })));
        let mut a = KeyHistogram::new(5);
        assert!(matches!(a.add(&KeyHistogram::new(6)), Err(HistogramError::QueriesPerKey(5, 6))));
        let mut big = KeyHistogram::from_pairs(5, &[[0, u64::MAX]]).expect("fits");
        assert_eq!(big.add(&KeyHistogram::one(5, 1)), Err(HistogramError::Overflow));
        assert_eq!(big.pairs(), vec![[0, u64::MAX]], "unchanged by a refused add");
    }
}
