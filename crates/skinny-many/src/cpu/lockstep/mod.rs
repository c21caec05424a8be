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

/// Where the lane engine could not fill its batches, a group smaller than
/// this fraction of a batch goes to it anyway: a group's step costs a whole
/// batch whatever its size, about as much as an eighth of a batch of
/// single-block calls (what the lane engine falls back to).
const MIN_GROUP_DIVISOR: usize = 8;

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
    // Full groups first; a group under half a batch costs more a call than
    // the lane engine's full batches. When what is left could not fill the
    // lane engine's batches either (which then falls back to single blocks),
    // smaller groups are worth it again.
    let (mut groups, left) = cut(&order, lanes, lanes / 2);
    if left.len() < 2 * lanes {
        let (more, left) = cut(&left, lanes, (lanes / MIN_GROUP_DIVISOR).max(1));
        groups.extend(more);
        rest.extend(left.iter().map(|&(_, i)| i));
    } else {
        rest.extend(left.iter().map(|&(_, i)| i));
    }
    rest.sort_unstable();
    (groups, rest)
}

/// Groups of at least `min` and at most `lanes` messages cut from `order`
/// (sorted by calls), and the messages of smaller ones, still sorted. A group
/// ends when full or when its next message would leave its first lanes idle
/// for more than a quarter of the steps (a few long messages after many
/// short ones do not step a batch of idle lanes to their end).
fn cut(
    order: &[(romulus_n::Calls, usize)],
    lanes: usize,
    min: usize,
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
        if end - start >= min {
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
