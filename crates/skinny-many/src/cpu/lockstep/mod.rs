//! Lockstep groups: Romulus-N messages of about the same number of calls run
//! a bitsliced batch at a time, each lane at its own position, with their
//! state kept sliced across calls and their nonce ‖ key schedule expanded once
//! (module `romulus_n`, on [`skinny::hazmat::bitsliced::Lockstep`]).
//! [`plan`] picks the groups; everything else goes to the lane engine.

mod romulus_n;
mod sliced;
pub(crate) mod slots;

use super::Operation;
use crate::{Batch, MessageError, Scheme};
use core::ops::Range;
use skinny::hazmat::bitsliced::{Lockstep, Path};
use skinny::Variant;
use skinny_romulus::hazmat::lengths_fit;

/// A message of a group: its index, output bytes and status.
pub(crate) struct Member<'o> {
    pub(crate) index: usize,
    pub(crate) out: &'o mut [u8],
    pub(crate) status: &'o mut Result<(), MessageError>,
}

/// SKINNY-128-384+ in lockstep on `path`.
pub(crate) fn cipher(path: Path) -> Lockstep {
    let ls = Lockstep::new(Variant::Skinny128_384, super::romulus::ROUNDS)
        .unwrap_or_else(|_| unreachable!("SKINNY-128-384 has lockstep batches at 40 rounds"));
    // A path this CPU lacks: the best one instead.
    ls.on_path(path).unwrap_or(ls)
}

/// How full a group's steps must be (its lanes' calls over its steps times
/// the batch's lanes) to be worth running, as a fraction. A lockstep step
/// costs a whole batch whatever its occupancy: about an eighth of a batch of
/// single-block calls, and a good part of a batch of the lane engine's
/// (whose blocks each carry their own tweakey and whose lanes refill). So a
/// group must be half full while the lane engine can fill its batches with
/// what is left, and an eighth full once it could not (it then drains into
/// single-block calls).
const FULL_AGAINST_LANES: (usize, usize) = (1, 2);
const FULL_AGAINST_SINGLES: (usize, usize) = (1, 8);

/// The groups of the messages in `range` (indices, each a batch of `lanes`
/// at most, sorted by their calls so that a group's lanes end together) and
/// those left for the lane engine, in batch order.
pub(crate) fn plan(batch: &Batch, op: Operation, lanes: usize, range: Range<usize>) -> (Vec<Vec<usize>>, Vec<usize>) {
    if batch.scheme() != Scheme::RomulusN {
        return (Vec::new(), range.collect());
    }
    let mut rest = Vec::new();
    // (calls, index) keys of the messages a group can run.
    let mut order: Vec<(romulus_n::Calls, usize)> = Vec::with_capacity(range.len());
    for i in range {
        let (ad, data) = (batch.ad_range(i).len(), batch.data_range(i).len());
        let input = match op {
            Operation::Seal => data,
            Operation::Open if data >= 16 => data - 16,
            // Shorter than a tag: the lane engine refuses it.
            Operation::Open => {
                rest.push(i);
                continue;
            }
        };
        // As the lane code checks (`romulus::start`).
        if !lengths_fit(ad, input) {
            rest.push(i);
            continue;
        }
        order.push((romulus_n::calls(ad, input), i));
    }
    // Stable for equal calls (a batch of one shape stays in order, which
    // the sort finds in one pass).
    order.sort_by_key(|&(c, _)| c);
    // Full groups first, against the lane engine's full batches. When what
    // is left could not fill the lane engine's batches either (which then
    // falls back to single blocks), emptier groups are worth it again.
    let (mut groups, left) = cut(&order, lanes, FULL_AGAINST_LANES);
    if left.len() < lanes {
        let (more, left) = cut(&left, lanes, FULL_AGAINST_SINGLES);
        groups.extend(more);
        rest.extend(left.iter().map(|&(_, i)| i));
    } else {
        rest.extend(left.iter().map(|&(_, i)| i));
    }
    rest.sort_unstable();
    (groups, rest)
}

/// Groups of at most `lanes` messages cut from `order` (sorted by calls)
/// whose steps are at least `full` (a fraction) full, and the messages of
/// emptier ones, still sorted. A group ends when full or when its next
/// message would leave its first lanes idle for more than a quarter of the
/// steps (a few long messages after many short ones do not step a batch of
/// idle lanes to their end).
fn cut(
    order: &[(romulus_n::Calls, usize)],
    lanes: usize,
    full: (usize, usize),
) -> (Vec<Vec<usize>>, Vec<(romulus_n::Calls, usize)>) {
    let mut groups = Vec::with_capacity(order.len().div_ceil(lanes));
    let mut left = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let first = order[start].0.total;
        let limit = first + first / 4 + 2;
        let mut end = start + 1;
        while end < order.len() && end - start < lanes && order[end].0.total <= limit {
            end += 1;
        }
        // The lanes' calls against the group's steps (its last lane's
        // calls) times a whole batch.
        let calls: usize = order[start..end].iter().map(|(c, _)| c.total).sum();
        let steps = order[end - 1].0.total;
        if calls * full.1 >= steps * lanes * full.0 {
            groups.push(order[start..end].iter().map(|&(_, i)| i).collect());
        } else {
            left.extend_from_slice(&order[start..end]);
        }
        start = end;
    }
    (groups, left)
}

/// Runs groups of `plan`, one after the other on the same buffers.
pub(crate) fn run(ls: Lockstep, batch: &Batch, op: Operation, groups: &mut [Vec<Member<'_>>]) {
    let mut scratch = romulus_n::Scratch::new(ls);
    for g in groups {
        romulus_n::run(&mut scratch, batch, op, g);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Romulus-N batch of messages of these lengths (no AD).
    fn batch(lengths: &[usize]) -> Batch {
        let mut b = Batch::new(Scheme::RomulusN);
        let data = vec![0u8; lengths.iter().copied().max().unwrap_or(0)];
        for &len in lengths {
            b.push(&[0; 16], &[0; 16], &[], &data[..len]).expect("a valid message");
        }
        b
    }

    fn grouped(groups: &[Vec<usize>]) -> usize {
        groups.iter().map(Vec::len).sum()
    }

    #[test]
    fn one_shape_fills_whole_groups() {
        let b = batch(&[64; 100]);
        let (groups, rest) = plan(&b, Operation::Seal, 32, 0..100);
        // Four left, an eighth of a batch: worth a group against single calls.
        assert_eq!(groups.iter().map(Vec::len).collect::<Vec<_>>(), [32, 32, 32, 4]);
        assert!(rest.is_empty());
    }

    #[test]
    fn spread_lengths_a_batch_wide_go_to_the_lane_engine() {
        // A batch's worth of lengths spread evenly over 0-2 KiB: no window of
        // a quarter's spread holds half a batch, and the lane engine can fill
        // its batches with them (the shape that lost to one message per call
        // when it was cut into thin groups).
        let lengths: Vec<usize> = (0..64).map(|i| i * 32).collect();
        let b = batch(&lengths);
        let (groups, rest) = plan(&b, Operation::Seal, 64, 0..64);
        assert!(groups.is_empty(), "{groups:?}");
        assert_eq!(rest, (0..64).collect::<Vec<_>>());
    }

    #[test]
    fn a_short_tail_forms_groups_an_eighth_full() {
        // 40 equal messages then 8 long ones, batch of 32: one full group;
        // the 8 equal ones left and the 8 long are each a quarter of a
        // batch, under what the lane engine could fill: groups.
        let mut lengths = vec![64; 40];
        lengths.extend([1024; 8]);
        let b = batch(&lengths);
        let (groups, rest) = plan(&b, Operation::Seal, 32, 0..48);
        assert_eq!(grouped(&groups), 48, "{groups:?}");
        assert!(rest.is_empty());
    }
}
