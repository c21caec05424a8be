//! [`Stream`]: the handle: submit, flush, receive in order; dropping it
//! shuts the dispatchers down.

use super::dispatch::{dispatcher, Shared, State};
use super::{Completion, Config, Message, Rejected, Runner, StreamError, Ticket};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A streaming front on a many-message engine (see the [module docs](super)):
/// messages in one at a time, completions out in submission order. `Send` and
/// `Sync`: one thread may submit while another receives.
pub struct Stream {
    shared: Arc<Shared>,
    dispatchers: Vec<JoinHandle<()>>,
}

/// How long a receive waits.
#[derive(Clone, Copy)]
enum Wait {
    No,
    Until(Instant),
    Forever,
}

impl Stream {
    /// A stream on `runner` (a [`cpu::Engine`](crate::cpu::Engine), an
    /// `Arc` of one to share it, or with the feature `cuda` a
    /// `gpu::GpuMany`), its dispatcher threads started.
    ///
    /// # Errors
    /// [`StreamError::Config`] for a zero in `config`,
    /// [`StreamError::Threads`] if a thread would not start.
    pub fn new<R: Runner + 'static>(config: Config, runner: R) -> Result<Self, StreamError> {
        config.check()?;
        let shared = Arc::new(Shared {
            state: Mutex::new(State::new(&config)),
            config,
            runner: Box::new(runner),
            work: Condvar::new(),
            room: Condvar::new(),
            done: Condvar::new(),
        });
        let mut stream = Self { shared, dispatchers: Vec::new() };
        for i in 0..stream.shared.config.dispatchers() {
            let shared = Arc::clone(&stream.shared);
            let spawned =
                std::thread::Builder::new().name(format!("skinny-stream-{i}")).spawn(move || dispatcher(&shared));
            match spawned {
                Ok(handle) => stream.dispatchers.push(handle),
                // Dropping `stream` joins the dispatchers already started.
                Err(e) => return Err(StreamError::Threads(Arc::new(e))),
            }
        }
        Ok(stream)
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.shared.config
    }

    /// Submits `message`, waiting for room under the caps, and returns its
    /// ticket. Some thread must receive completions meanwhile, or a full
    /// stream waits for ever.
    ///
    /// # Errors
    /// [`StreamError::Invalid`] (in [`Rejected`], with the message) for a key
    /// or nonce of the wrong length.
    pub fn submit(&self, message: Message) -> Result<Ticket, Rejected> {
        self.enter(&message, true).map_err(|error| Rejected { error, message })
    }

    /// Submits `message` if it fits under the caps now.
    ///
    /// # Errors
    /// [`StreamError::Full`] (in [`Rejected`], with the message: submit it
    /// again after receiving), or [`StreamError::Invalid`].
    pub fn try_submit(&self, message: Message) -> Result<Ticket, Rejected> {
        self.enter(&message, false).map_err(|error| Rejected { error, message })
    }

    /// Submits every message of `messages` in order (copied), waiting for
    /// room as [`Stream::submit`] does; returns their tickets. Every length
    /// is checked first: on an error none is submitted.
    ///
    /// # Errors
    /// [`StreamError::Invalid`] for the first key or nonce of the wrong length.
    pub fn submit_slice(&self, messages: &[Message]) -> Result<Vec<Ticket>, StreamError> {
        for m in messages {
            self.check(m)?;
        }
        messages.iter().map(|m| self.enter(m, true)).collect()
    }

    /// Cuts every message submitted so far into a batch at once, without
    /// waiting for the target size or the deadline (a dispatcher takes it as
    /// soon as one is free). Does not wait for completion: receive for that.
    pub fn flush(&self) {
        let mut st = self.shared.lock();
        st.flush_through = st.next_ticket;
        let any = !st.pending.is_empty();
        drop(st);
        if any {
            self.shared.work.notify_one();
        }
    }

    /// The next message in submission order, waiting until its batch is done;
    /// `None` at once if no message is in flight.
    pub fn recv(&self) -> Option<Completion> {
        self.take(Wait::Forever)
    }

    /// The next message in submission order if it is done; `None` otherwise.
    pub fn try_recv(&self) -> Option<Completion> {
        self.take(Wait::No)
    }

    /// As [`Stream::recv`], waiting at most `timeout`; `None` when it passes
    /// (or nothing is in flight: see [`Stream::in_flight`]).
    pub fn recv_timeout(&self, timeout: Duration) -> Option<Completion> {
        match Instant::now().checked_add(timeout) {
            Some(until) => self.take(Wait::Until(until)),
            None => self.take(Wait::Forever),
        }
    }

    /// Messages in flight: submitted, not yet received.
    pub fn in_flight(&self) -> usize {
        self.shared.lock().in_flight
    }

    /// AD and data bytes in flight.
    pub fn in_flight_bytes(&self) -> usize {
        self.shared.lock().in_flight_bytes
    }

    /// Refuses a key or nonce of the wrong length for the scheme.
    fn check(&self, m: &Message) -> Result<(), StreamError> {
        let scheme = self.shared.config.scheme();
        let (key, nonce) = (m.key().len(), m.nonce().len());
        if key != scheme.key_len() {
            return Err(StreamError::Invalid(crate::BatchError::KeyLength {
                scheme,
                got: key,
                want: scheme.key_len(),
            }));
        }
        if nonce != scheme.nonce_len() {
            return Err(StreamError::Invalid(crate::BatchError::NonceLength {
                scheme,
                got: nonce,
                want: scheme.nonce_len(),
            }));
        }
        Ok(())
    }

    /// Admits one message into the pending batch, waiting for room if `block`.
    fn enter(&self, m: &Message, block: bool) -> Result<Ticket, StreamError> {
        self.check(m)?;
        let shared = &*self.shared;
        let config = &shared.config;
        let weight = m.weight();
        let mut st = shared.lock();
        while !st.fits(weight, config) {
            let any = !st.pending.is_empty();
            if !block {
                st.full_hit |= any;
                let full = StreamError::Full { messages: st.in_flight, bytes: st.in_flight_bytes };
                drop(st);
                if any {
                    shared.work.notify_one();
                }
                return Err(full);
            }
            st.waiting += 1;
            if any {
                // The pending batch cannot grow: have it cut.
                shared.work.notify_one();
            }
            st = shared.room.wait(st).unwrap_or_else(PoisonError::into_inner);
            st.waiting -= 1;
        }
        st.pending.push(m.key(), m.nonce(), m.ad(), m.data()).map_err(StreamError::Invalid)?;
        let (ticket, wake) = st.admitted(weight, config);
        drop(st);
        if wake {
            shared.work.notify_one();
        }
        Ok(ticket)
    }

    /// The next completion, waiting as `wait` says.
    fn take(&self, wait: Wait) -> Option<Completion> {
        let shared = &*self.shared;
        let mut st = shared.lock();
        loop {
            if let Some(c) = st.pop() {
                let waiting = st.waiting > 0;
                drop(st);
                if waiting {
                    shared.room.notify_all();
                }
                return Some(c);
            }
            if st.in_flight == 0 || st.closing {
                return None;
            }
            st = match wait {
                Wait::No => return None,
                Wait::Forever => shared.done.wait(st).unwrap_or_else(PoisonError::into_inner),
                Wait::Until(until) => {
                    let left = until.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return None;
                    }
                    shared.done.wait_timeout(st, left).unwrap_or_else(PoisonError::into_inner).0
                }
            };
        }
    }
}

impl Drop for Stream {
    /// Discards the messages not yet cut, lets the running batches finish,
    /// and joins the dispatchers.
    fn drop(&mut self) {
        self.shared.lock().close(&self.shared.config);
        self.shared.work.notify_all();
        self.shared.room.notify_all();
        self.shared.done.notify_all();
        for handle in self.dispatchers.drain(..) {
            // A dispatcher catches the engine's panics; nothing else in it panics.
            let _ = handle.join();
        }
    }
}

impl core::fmt::Debug for Stream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let st = self.shared.lock();
        f.debug_struct("Stream")
            .field("config", &self.shared.config)
            .field("in_flight", &st.in_flight)
            .field("in_flight_bytes", &st.in_flight_bytes)
            .finish_non_exhaustive()
    }
}
