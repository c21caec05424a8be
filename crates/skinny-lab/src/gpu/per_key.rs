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

/// Groups of at most this many queries are tallied in a dense table (of
/// `key_every + 1` counts) before they enter the histogram.
const DENSE_MOST: u64 = 1 << 16;

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
        let too_many = || LabError::Internal("the GPU counted more hits in a key group than it has queries");
        let Some((&head, rest)) = key_hits.split_first() else { return Ok(()) };
        // The first group may continue one the launches before began.
        let mut h0 = match self.open.take() {
            Some((open, before)) if open == first => before + u64::from(head),
            None if first.saturating_mul(self.key_every) >= start => u64::from(head),
            _ => return Err(LabError::Internal("launches that do not continue their key groups")),
        };
        // The last group may go on in the next launch.
        let last = first + key_hits.len() as u64 - 1;
        let last_open = (last + 1).saturating_mul(self.key_every) > end;
        if key_hits.len() == 1 {
            if last_open {
                self.open = Some((first, h0));
                return Ok(());
            }
            if h0 > self.key_every {
                return Err(too_many());
            }
            self.histogram.add_key(h0);
            return Ok(());
        }
        let (middle, tail) = rest.split_at(rest.len() - 1);
        if h0 > self.key_every {
            return Err(too_many());
        }
        self.histogram.add_key(core::mem::take(&mut h0));
        // Whole groups: counted in a dense table when groups are small (up to
        // 2^25 of them a launch with a fresh key every query), so the host
        // keeps up with the GPU; in the histogram's map otherwise.
        if self.key_every <= DENSE_MOST {
            let mut dense = vec![0u64; self.key_every as usize + 1];
            for &h in middle {
                *dense.get_mut(h as usize).ok_or_else(too_many)? += 1;
            }
            for (hits, &keys) in dense.iter().enumerate() {
                self.histogram.add_keys(hits as u64, keys);
            }
        } else {
            for &h in middle {
                if u64::from(h) > self.key_every {
                    return Err(too_many());
                }
                self.histogram.add_key(u64::from(h));
            }
        }
        let t = u64::from(tail[0]);
        if last_open {
            self.open = Some((last, t));
        } else if t > self.key_every {
            return Err(too_many());
        } else {
            self.histogram.add_key(t);
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

    #[test]
    fn launches_of_any_size_give_the_groups_histogram() {
        // Hits per query from a fixed pattern; groups of 1, 3, 7 and 70000
        // (dense table and map); launches of uneven sizes cutting groups.
        let hit = |q: u64| (q * 2_654_435_761 % 7) < 3;
        for &k in &[1u64, 3, 7, 70_000] {
            let total = 9 * k + 2 * k.min(5);
            let total = total - total % k;
            let mut want = crate::per_key::KeyHistogram::new(k);
            for g in 0..total / k {
                want.add_key((g * k..(g + 1) * k).filter(|&q| hit(q)).count() as u64);
            }
            let mut counts = KeyCounts::new(k);
            let (mut start, mut step) = (0u64, 1u64);
            while start < total {
                let n = step.min(total - start);
                let first = start / k;
                let last = (start + n - 1) / k;
                let mut key_hits = vec![0u32; (last - first + 1) as usize];
                for q in start..start + n {
                    key_hits[(q / k - first) as usize] += u32::from(hit(q));
                }
                counts.add(start, n, &key_hits).unwrap();
                start += n;
                step = step * 3 + 1;
            }
            assert_eq!(counts.open, None, "key_every {k}");
            assert_eq!(counts.histogram.pairs(), want.pairs(), "key_every {k}");
        }
    }
}
