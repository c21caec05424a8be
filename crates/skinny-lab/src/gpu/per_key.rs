//! Per-key runs on GPUs: ranges cut between key groups, and the histogram
//! of a range's launches, a group that spans launches summed across them.

use super::split_queries;
use crate::error::LabError;
use crate::per_key::KeyHistogram;
use std::ops::Range;

/// `range` (whole key groups of `key_every` queries from its start; the last
/// may be short) cut into at most `parts` contiguous, disjoint, non-empty
/// ranges of whole groups, as evenly as groups allow, in order.
pub fn split_groups(range: Range<u64>, parts: usize, key_every: u64) -> Vec<Range<u64>> {
    let k = key_every.max(1);
    let groups = range.end.saturating_sub(range.start).div_ceil(k);
    let at = |g: u64| range.start.saturating_add(g.saturating_mul(k)).min(range.end);
    split_queries(0..groups, parts).into_iter().map(|g| at(g.start)..at(g.end)).collect()
}

/// The per-key histogram of launches in order: each launch's group counts
/// added to the group they continue, a group entering the histogram once its
/// last query has run.
pub(super) struct KeyCounts {
    key_every: u64,
    pub(super) histogram: KeyHistogram,
    /// A group begun but not finished by the launches so far, and its hits.
    open: Option<(u64, u64)>,
}

impl KeyCounts {
    pub(super) fn new(key_every: u64) -> Self {
        Self { key_every, histogram: KeyHistogram::new(key_every), open: None }
    }

    /// The counts of a launch of queries `start .. start + count`.
    pub(super) fn add(&mut self, start: u64, count: u64, key_hits: &[u32]) -> Result<(), LabError> {
        let first = start / self.key_every;
        let end = start + count;
        for (i, &h) in key_hits.iter().enumerate() {
            let g = first + i as u64;
            let hits = match self.open.take() {
                Some((open, before)) if open == g => before + u64::from(h),
                None if g.saturating_mul(self.key_every) >= start => u64::from(h),
                _ => return Err(LabError::Internal("launches that do not continue their key groups")),
            };
            if (g + 1).saturating_mul(self.key_every) <= end {
                if hits > self.key_every {
                    return Err(LabError::Internal("the GPU counted more hits in a key group than it has queries"));
                }
                self.histogram.add_key(hits);
            } else {
                self.open = Some((g, hits));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{split_groups, KeyCounts};

    #[test]
    fn group_ranges_cut_only_between_groups() {
        for &(s, e, n, k) in &[(0u64, 10u64, 3usize, 3u64), (300, 3300, 4, 300), (7, 7, 2, 1), (0, 100, 8, 1000)] {
            let parts = split_groups(s..e, n, k);
            assert!(parts.len() <= n);
            let mut at = s;
            for p in &parts {
                assert_eq!(p.start, at);
                assert!(!p.is_empty());
                assert!((p.start - s).is_multiple_of(k), "{p:?} cuts a group");
                at = p.end;
            }
            assert_eq!(at, e.max(s));
        }
    }

    #[test]
    fn key_groups_spanning_launches_are_summed() {
        // Groups of 10; launches of 0..25 and 25..40: group 2 spans both.
        let mut k = KeyCounts::new(10);
        k.add(0, 25, &[3, 0, 4]).unwrap();
        assert_eq!(k.open, Some((2, 4)));
        k.add(25, 15, &[2, 10]).unwrap();
        assert_eq!(k.open, None);
        assert_eq!(k.histogram.pairs(), vec![[0, 1], [3, 1], [6, 1], [10, 1]]);
        // A launch that does not continue the open group is a bug, said so.
        let mut k = KeyCounts::new(10);
        k.add(0, 25, &[0, 0, 1]).unwrap();
        assert!(k.add(30, 10, &[1]).is_err());
    }
}
