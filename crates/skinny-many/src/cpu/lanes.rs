//! The lane scheduler: many messages in flight on one thread, each a small
//! state machine ([`Lane`]) that hands over the cipher calls it has ready and
//! takes their results; the scheduler runs everyone's ready calls together
//! ([`Calls`]) and starts a new message whenever the ready calls fall short of
//! a target, so mixed lengths keep the batches full.

use super::calls::Calls;
use crate::MessageError;

/// One message in flight.
pub(crate) trait Lane {
    /// Adds the lane's next calls to `calls` (possibly none, for a step with
    /// nothing to compute); `false` if it is finished (then [`Lane::finish`]
    /// ends it). Every lane finishes after a bounded number of steps.
    fn emit(&mut self, calls: &mut Calls) -> bool;
    /// Takes the results of the calls its last [`Lane::emit`] added.
    fn absorb(&mut self, calls: &Calls);
    /// Ends the message: writes its tag, or checks it and wipes the output
    /// if it is wrong.
    fn finish(self) -> Result<(), MessageError>;
}

/// What starting a message gives.
pub(crate) enum Started<L> {
    /// A lane to run.
    Lane(L),
    /// The message needed no lane (already done, or refused).
    Done(Result<(), MessageError>),
}

/// Runs the messages `order` yields (indices into `status`) to the end:
/// `start(i)` makes message `i`'s lane; its result goes to `status[i]`. New
/// messages start while fewer than `target` calls are ready.
pub(crate) fn run<L: Lane>(
    calls: &mut Calls,
    target: usize,
    order: impl IntoIterator<Item = usize>,
    start: impl FnMut(usize) -> Started<L>,
    status: &mut [Result<(), MessageError>],
) {
    run_from(calls, target, Vec::new(), order, start, status);
}

/// [`run`] with `lanes` (message index, lane) already in flight.
pub(crate) fn run_from<L: Lane>(
    calls: &mut Calls,
    target: usize,
    mut lanes: Vec<(usize, L)>,
    order: impl IntoIterator<Item = usize>,
    mut start: impl FnMut(usize) -> Started<L>,
    status: &mut [Result<(), MessageError>],
) {
    let mut order = order.into_iter();
    loop {
        calls.clear();
        let mut k = 0;
        while k < lanes.len() {
            if lanes[k].1.emit(calls) {
                k += 1;
            } else {
                // The last lane moves to `k` and emits next.
                let (i, lane) = lanes.swap_remove(k);
                status[i] = lane.finish();
            }
        }
        while calls.len() < target {
            let Some(i) = order.next() else { break };
            match start(i) {
                Started::Lane(mut lane) => {
                    if lane.emit(calls) {
                        lanes.push((i, lane));
                    } else {
                        status[i] = lane.finish();
                    }
                }
                Started::Done(result) => status[i] = result,
            }
        }
        // A lane may have a step without calls (SKINNY-AEAD's block stage of
        // an empty message with empty AD); it still takes its turn.
        if lanes.is_empty() {
            return;
        }
        calls.run();
        for (_, lane) in &mut lanes {
            lane.absorb(calls);
        }
    }
}
