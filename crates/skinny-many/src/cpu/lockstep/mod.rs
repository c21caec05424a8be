//! Lockstep groups: messages of one shape (scheme Romulus-N, the same AD
//! length and data length) run a bitsliced batch at a time with their state
//! kept sliced across calls and their nonce ‖ key schedule expanded once
//! (module `romulus_n`, on [`skinny::hazmat::bitsliced::Lockstep`]).
//! [`plan`] picks the groups; everything else goes to the lane engine.

mod romulus_n;
mod sliced;

use super::Operation;
use crate::{Batch, MessageError, Scheme};
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

/// A group smaller than this fraction of a batch goes to the lane engine: a
/// group costs a whole batch whatever its size, and the lane engine's calls
/// cost about three times a lockstep call's per block.
const MIN_GROUP_DIVISOR: usize = 4;

/// The groups (message indices, each a batch of `lanes` at most, one shape)
/// and the messages left for the lane engine, in batch order.
pub(crate) fn plan(batch: &Batch, op: Operation, lanes: usize) -> (Vec<Vec<usize>>, Vec<usize>) {
    let n = batch.len();
    if batch.scheme() != Scheme::RomulusN {
        return (Vec::new(), (0..n).collect());
    }
    let shape = |i: usize| (batch.ad_range(i).len(), batch.data_range(i).len());
    let fits = |(ad, data): (usize, usize)| {
        let input = match op {
            Operation::Seal => data,
            Operation::Open if data >= 16 => data - 16,
            // Shorter than a tag: the lane engine refuses it.
            Operation::Open => return false,
        };
        // As the lane code checks (`romulus::start`).
        lengths_fit(ad, input)
    };
    // (shape, index) keys, sorted: a batch of one shape is already in order,
    // which the sort finds in one pass (this runs before the threads start).
    let mut order: Vec<((usize, usize), usize)> = (0..n).map(|i| (shape(i), i)).collect();
    order.sort_unstable();
    let (mut groups, mut rest) = (Vec::new(), Vec::new());
    let min = (lanes / MIN_GROUP_DIVISOR).max(1);
    for same in order.chunk_by(|a, b| a.0 == b.0) {
        let indices = same.iter().map(|&(_, i)| i);
        if !fits(same[0].0) {
            rest.extend(indices);
            continue;
        }
        for group in same.chunks(lanes) {
            let indices = group.iter().map(|&(_, i)| i);
            if group.len() >= min {
                groups.push(indices.collect());
            } else {
                rest.extend(indices);
            }
        }
    }
    rest.sort_unstable();
    (groups, rest)
}

/// Runs one group of `plan`.
pub(crate) fn run(ls: Lockstep, batch: &Batch, op: Operation, members: &mut [Member<'_>]) {
    romulus_n::run(ls, batch, op, members);
}
