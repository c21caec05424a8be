//! Per-key runs on GPUs: ranges cut between key groups, and the histogram
//! of a range's launches, a group that spans launches summed across them.

use super::kernel::KeyHits;
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
    pub(super) fn add(&mut self, start: u64, count: u64, key_hits: &KeyHits) -> Result<(), LabError> {
        let k = self.key_every;
        let (head, tail, between) = match key_hits {
            KeyHits::NotCounted => return Ok(()),
            KeyHits::Each(list) => match list.split_first() {
                None => return Ok(()),
                Some((&head, [])) => (head, None, Between::Each(&[])),
                Some((&head, rest)) => {
                    let (middle, tail) = rest.split_at(rest.len() - 1);
                    (head, Some(tail[0]), Between::Each(middle))
                }
            },
            KeyHits::Summed { first, between, last } => (*first, Some(*last), Between::Summed(between)),
        };
        let first = start / k;
        let end = start + count;
        // The launch's groups, which the counts must cover exactly.
        let groups = if count == 0 { 0 } else { (end - 1) / k - first + 1 };
        let counted = match between {
            Between::Each(middle) => middle.len() as u64,
            Between::Summed(h) => h.iter().map(|&n| u64::from(n)).sum(),
        } + 1
            + u64::from(tail.is_some());
        if counted != groups {
            return Err(LabError::Internal("per-key counts that do not cover the launch's key groups"));
        }
        let too_many = || LabError::Internal("the GPU counted more hits in a key group than it has queries");
        // The first group may continue one the launches before began.
        let h0 = match self.open.take() {
            Some((open, before)) if open == first => before + u64::from(head),
            None if first.saturating_mul(k) >= start => u64::from(head),
            _ => return Err(LabError::Internal("launches that do not continue their key groups")),
        };
        // The last group may go on in the next launch.
        let last = first + groups - 1;
        let last_open = (last + 1).saturating_mul(k) > end;
        let Some(tail) = tail else {
            if last_open {
                self.open = Some((first, h0));
                return Ok(());
            }
            if h0 > k {
                return Err(too_many());
            }
            self.histogram.add_key(h0);
            return Ok(());
        };
        if h0 > k {
            return Err(too_many());
        }
        self.histogram.add_key(h0);
        match between {
            // Whole groups: counted in a dense table when groups are small,
            // so the host keeps up with the GPU; in the histogram's map
            // otherwise.
            Between::Each(middle) if k <= DENSE_MOST => {
                let mut dense = vec![0u64; k as usize + 1];
                for &h in middle {
                    *dense.get_mut(h as usize).ok_or_else(too_many)? += 1;
                }
                for (hits, &keys) in dense.iter().enumerate() {
                    self.histogram.add_keys(hits as u64, keys);
                }
            }
            Between::Each(middle) => {
                for &h in middle {
                    if u64::from(h) > k {
                        return Err(too_many());
                    }
                    self.histogram.add_key(u64::from(h));
                }
            }
            Between::Summed(h) => {
                for (hits, &keys) in h.iter().enumerate() {
                    if keys == 0 {
                        continue;
                    }
                    if hits as u64 > k {
                        return Err(too_many());
                    }
                    self.histogram.add_keys(hits as u64, u64::from(keys));
                }
            }
        }
        let t = u64::from(tail);
        if last_open {
            self.open = Some((last, t));
        } else if t > k {
            return Err(too_many());
        } else {
            self.histogram.add_key(t);
        }
        Ok(())
    }
}

/// The groups of a launch between its first and last.
enum Between<'a> {
    /// Each one's hits.
    Each(&'a [u32]),
    /// Their histogram (see [`KeyHits::Summed`]).
    Summed(&'a [u32]),
}

#[cfg(test)]
mod tests {
    use super::{split_groups, KeyCounts, KeyHits};

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
        k.add(0, 25, &KeyHits::Each(vec![3, 0, 4])).unwrap();
        assert_eq!(k.open, Some((2, 4)));
        k.add(25, 15, &KeyHits::Each(vec![2, 10])).unwrap();
        assert_eq!(k.open, None);
        assert_eq!(k.histogram.pairs(), vec![[0, 1], [3, 1], [6, 1], [10, 1]]);
        // A launch that does not continue the open group is a bug, said so.
        let mut k = KeyCounts::new(10);
        k.add(0, 25, &KeyHits::Each(vec![0, 0, 1])).unwrap();
        assert!(k.add(30, 10, &KeyHits::Each(vec![1])).is_err());
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
            // Each launch's counts as a list of groups, and (with three
            // groups or more) summed as the GPU sums them.
            let mut counts = KeyCounts::new(k);
            let mut summed = KeyCounts::new(k);
            let (mut start, mut step) = (0u64, 1u64);
            while start < total {
                let n = step.min(total - start);
                let first = start / k;
                let last = (start + n - 1) / k;
                let mut key_hits = vec![0u32; (last - first + 1) as usize];
                for q in start..start + n {
                    key_hits[(q / k - first) as usize] += u32::from(hit(q));
                }
                let as_summed = match key_hits.as_slice() {
                    [first, between @ .., last] if !between.is_empty() => {
                        let mut h = vec![0u32; k as usize + 2];
                        for &x in between {
                            h[(x as usize).min(k as usize + 1)] += 1;
                        }
                        KeyHits::Summed { first: *first, between: h, last: *last }
                    }
                    _ => KeyHits::Each(key_hits.clone()),
                };
                counts.add(start, n, &KeyHits::Each(key_hits)).unwrap();
                summed.add(start, n, &as_summed).unwrap();
                start += n;
                step = step * 3 + 1;
            }
            assert_eq!(counts.open, None, "key_every {k}");
            assert_eq!(counts.histogram.pairs(), want.pairs(), "key_every {k}");
            assert_eq!(summed.open, None, "key_every {k}");
            assert_eq!(summed.histogram.pairs(), want.pairs(), "key_every {k}, summed");
        }
    }

    #[test]
    fn summed_counts_must_cover_the_launch_and_stay_within_a_group() {
        // Groups of 2; a launch of 0..10 has 5 groups: 1 + 3 between + 1.
        let mut k = KeyCounts::new(2);
        let ok = KeyHits::Summed { first: 1, between: vec![1, 1, 1, 0], last: 2 };
        k.add(0, 10, &ok).unwrap();
        assert_eq!(k.histogram.pairs(), vec![[0, 1], [1, 2], [2, 2]]);
        // Two groups between where three are: a fault, said so.
        let short = KeyHits::Summed { first: 1, between: vec![1, 1, 0, 0], last: 2 };
        assert!(KeyCounts::new(2).add(0, 10, &short).is_err());
        // A group with more hits than queries (the fault bin).
        let faulty = KeyHits::Summed { first: 1, between: vec![1, 1, 0, 1], last: 2 };
        assert!(KeyCounts::new(2).add(0, 10, &faulty).is_err());
    }
}
