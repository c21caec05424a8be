//! [`Config`]: what a [`Stream`](super::Stream) is built with.

use super::{Op, StreamError};
use crate::Scheme;
use std::time::Duration;

/// A stream's scheme, operation, batch target, deadline, caps and pipeline
/// depth (see the [module docs](super) for what each does). Built from
/// [`Config::new`] and its setters:
///
/// ```
/// use skinny_many::stream::{Config, Op};
/// use skinny_many::Scheme;
/// use std::time::Duration;
///
/// let config = Config::new(Scheme::RomulusN, Op::Open)
///     .target(2048)
///     .deadline(Duration::from_millis(5))
///     .max_messages(16_384)
///     .max_bytes(8 << 20);
/// assert_eq!(config.target_messages(), 2048);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    scheme: Scheme,
    op: Op,
    target: usize,
    deadline: Duration,
    max_messages: usize,
    max_bytes: usize,
    pipeline: usize,
}

impl Config {
    /// Defaults: batches of 1024 messages, a 5 ms deadline, at most 16 384
    /// messages and 64 MiB of AD and data in flight, two dispatchers.
    pub fn new(scheme: Scheme, op: Op) -> Self {
        Self {
            scheme,
            op,
            target: 1024,
            deadline: Duration::from_millis(5),
            max_messages: 16_384,
            max_bytes: 64 << 20,
            pipeline: 2,
        }
    }

    /// The number of messages at which the pending batch is cut without
    /// waiting for its deadline (at least 1).
    #[must_use]
    pub fn target(mut self, messages: usize) -> Self {
        self.target = messages;
        self
    }

    /// The longest a message waits in the pending batch before it is cut
    /// (more than zero).
    #[must_use]
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// The most messages in flight, submitted but not yet received (at least 1).
    #[must_use]
    pub fn max_messages(mut self, messages: usize) -> Self {
        self.max_messages = messages;
        self
    }

    /// The most AD and data bytes in flight (at least 1; one larger message
    /// still goes through alone).
    #[must_use]
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// The number of dispatcher threads: how many batches may run on the
    /// engine at once while the next one fills (at least 1).
    #[must_use]
    pub fn pipeline(mut self, dispatchers: usize) -> Self {
        self.pipeline = dispatchers;
        self
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// Seal or open.
    pub fn op(&self) -> Op {
        self.op
    }

    /// See [`Config::target`].
    pub fn target_messages(&self) -> usize {
        self.target
    }

    /// See [`Config::deadline`].
    pub fn deadline_duration(&self) -> Duration {
        self.deadline
    }

    /// See [`Config::max_messages`].
    pub fn max_messages_in_flight(&self) -> usize {
        self.max_messages
    }

    /// See [`Config::max_bytes`].
    pub fn max_bytes_in_flight(&self) -> usize {
        self.max_bytes
    }

    /// See [`Config::pipeline`].
    pub fn dispatchers(&self) -> usize {
        self.pipeline
    }

    /// Refuses a zero where at least one is needed.
    pub(super) fn check(&self) -> Result<(), StreamError> {
        let zero = [
            (self.target == 0, "the target batch size is 0"),
            (self.deadline.is_zero(), "the deadline is 0"),
            (self.max_messages == 0, "the cap on messages in flight is 0"),
            (self.max_bytes == 0, "the cap on bytes in flight is 0"),
            (self.pipeline == 0, "there are 0 dispatchers"),
        ];
        match zero.into_iter().find(|(bad, _)| *bad) {
            Some((_, why)) => Err(StreamError::Config(why)),
            None => Ok(()),
        }
    }
}
