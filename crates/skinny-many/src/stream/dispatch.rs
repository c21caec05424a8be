//! The state a stream's handle and its dispatcher threads share, and the
//! dispatchers' loop: wait for the pending batch to be ready, cut it, run
//! it, file the result in ticket order.

use super::{Completion, Config, Runner, StreamError, Ticket};
use crate::{Batch, Output};
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Instant;

/// What the handle and the dispatchers share.
pub(super) struct Shared {
    pub(super) config: Config,
    pub(super) runner: Box<dyn Runner>,
    pub(super) state: Mutex<State>,
    /// Dispatchers wait here for a batch to cut.
    pub(super) work: Condvar,
    /// Submitters wait here for room under the caps.
    pub(super) room: Condvar,
    /// Receivers wait here for the next ticket's batch to finish.
    pub(super) done: Condvar,
}

impl Shared {
    /// The state, locked. Nothing panics while holding the lock, so a
    /// poisoned lock (a panic elsewhere) still holds consistent state.
    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A batch cut and running or done: its tickets `first..first + sizes.len()`.
struct Slot {
    first: u64,
    /// Each message's weight (AD and data bytes), given back to the byte cap
    /// as it is received.
    sizes: Vec<usize>,
    /// The next message to hand out.
    next: usize,
    /// `None` while running.
    result: Option<Result<Arc<Output>, StreamError>>,
}

/// The stream's state under its lock.
pub(super) struct State {
    /// The batch being filled.
    pub(super) pending: Batch,
    pending_sizes: Vec<usize>,
    /// The ticket of `pending`'s first message.
    pending_first: u64,
    /// When `pending`'s first message was submitted (`None`: it is empty).
    oldest: Option<Instant>,
    pub(super) next_ticket: u64,
    /// Tickets below this are cut now ([`Stream::flush`](super::Stream::flush)).
    pub(super) flush_through: u64,
    /// `try_submit` found the stream full while `pending` held messages.
    pub(super) full_hit: bool,
    /// Submitters waiting for room.
    pub(super) waiting: usize,
    slots: VecDeque<Slot>,
    pub(super) in_flight: usize,
    pub(super) in_flight_bytes: usize,
    pub(super) closing: bool,
}

impl State {
    pub(super) fn new(config: &Config) -> Self {
        Self {
            pending: Batch::new(config.scheme()),
            pending_sizes: Vec::new(),
            pending_first: 0,
            oldest: None,
            next_ticket: 0,
            flush_through: 0,
            full_hit: false,
            waiting: 0,
            slots: VecDeque::new(),
            in_flight: 0,
            in_flight_bytes: 0,
            closing: false,
        }
    }

    /// Whether a message of `weight` bytes fits under the caps (anything
    /// fits an empty stream).
    pub(super) fn fits(&self, weight: usize, config: &Config) -> bool {
        self.in_flight == 0
            || (self.in_flight < config.max_messages_in_flight()
                && self.in_flight_bytes.saturating_add(weight) <= config.max_bytes_in_flight())
    }

    /// Files a message already pushed into `pending`; returns its ticket and
    /// whether a dispatcher should look (the batch started or reached its target).
    pub(super) fn admitted(&mut self, weight: usize, config: &Config) -> (Ticket, bool) {
        let ticket = Ticket(self.next_ticket);
        self.next_ticket += 1;
        self.in_flight += 1;
        self.in_flight_bytes += weight;
        self.pending_sizes.push(weight);
        let wake = match self.oldest {
            None => {
                self.oldest = Some(Instant::now());
                true
            }
            Some(_) => self.pending.len() == config.target_messages(),
        };
        (ticket, wake)
    }

    /// Whether `pending` is to be cut now, or else how long until its deadline.
    fn ready(&self, config: &Config) -> Result<(), Option<std::time::Duration>> {
        let Some(oldest) = self.oldest else { return Err(None) };
        let waited = oldest.elapsed();
        if self.pending.len() >= config.target_messages()
            || self.flush_through > self.pending_first
            || self.full_hit
            || self.waiting > 0
            || waited >= config.deadline_duration()
        {
            Ok(())
        } else {
            Err(Some(config.deadline_duration() - waited))
        }
    }

    /// Cuts `pending` into a slot of its own; returns its first ticket and the batch.
    fn cut(&mut self, config: &Config) -> (u64, Batch) {
        let batch = core::mem::replace(&mut self.pending, Batch::new(config.scheme()));
        let sizes = core::mem::take(&mut self.pending_sizes);
        let first = self.pending_first;
        self.pending_first = self.next_ticket;
        self.oldest = None;
        self.full_hit = false;
        self.slots.push_back(Slot { first, sizes, next: 0, result: None });
        (first, batch)
    }

    /// Drops the messages not yet cut (wiped with their batch) and tells the
    /// dispatchers to stop.
    pub(super) fn close(&mut self, config: &Config) {
        self.closing = true;
        self.pending = Batch::new(config.scheme());
        self.pending_sizes.clear();
        self.oldest = None;
    }

    /// The next ticket's completion, if its batch is done.
    pub(super) fn pop(&mut self) -> Option<Completion> {
        let slot = self.slots.front_mut()?;
        let result = slot.result.as_ref()?;
        let i = slot.next;
        let completion = Completion::new(
            Ticket(slot.first + i as u64),
            match result {
                Ok(out) => Ok((Arc::clone(out), i)),
                Err(e) => Err(e.clone()),
            },
        );
        self.in_flight -= 1;
        self.in_flight_bytes -= slot.sizes[i];
        slot.next += 1;
        if slot.next == slot.sizes.len() {
            self.slots.pop_front();
        }
        Some(completion)
    }
}

/// A dispatcher thread: cuts, runs and files batches until the stream closes.
pub(super) fn dispatcher(shared: &Shared) {
    while let Some((first, batch)) = next_batch(shared) {
        let want = batch.len();
        let run = catch_unwind(AssertUnwindSafe(|| shared.runner.run(&batch, shared.config.op())));
        drop(batch);
        let result = match run {
            Ok(Ok(out)) if out.len() == want => Ok(Arc::new(out)),
            Ok(Ok(out)) => Err(StreamError::EngineOutput { got: out.len(), want }),
            Ok(Err(e)) => Err(StreamError::Engine(Arc::new(e))),
            Err(_panic) => Err(StreamError::EnginePanicked),
        };
        let mut st = shared.lock();
        if let Some(slot) = st.slots.iter_mut().find(|s| s.first == first) {
            slot.result = Some(result);
        }
        drop(st);
        shared.done.notify_all();
    }
}

/// Waits until the pending batch is ready and cuts it; `None` once the
/// stream closes.
fn next_batch(shared: &Shared) -> Option<(u64, Batch)> {
    let config = &shared.config;
    let mut st = shared.lock();
    loop {
        if st.closing {
            return None;
        }
        st = match st.ready(config) {
            Ok(()) => return Some(st.cut(config)),
            Err(None) => shared.work.wait(st).unwrap_or_else(PoisonError::into_inner),
            Err(Some(left)) => shared.work.wait_timeout(st, left).unwrap_or_else(PoisonError::into_inner).0,
        };
    }
}
