//! [`StreamError`]: why a stream refused a message or a message has no
//! output; [`Rejected`]: a refused message handed back.

use super::Message;
use crate::{BatchError, ManyError, MessageError};
use std::sync::Arc;

/// Why a [`Stream`](super::Stream) refused a message, could not start, or
/// gives a message no output.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// [`Stream::try_submit`](super::Stream::try_submit): the caps on
    /// messages or bytes in flight are reached; receive completions first.
    #[error("the stream is full ({messages} messages, {bytes} bytes in flight): receive completions first")]
    Full {
        /// Messages in flight.
        messages: usize,
        /// AD and data bytes in flight.
        bytes: usize,
    },
    /// The message's key or nonce has the wrong length for the stream's scheme.
    #[error("the message does not fit the stream's scheme")]
    Invalid(#[source] BatchError),
    /// The message has no output of its own (a wrong tag, or too long for the
    /// scheme); the other messages are unaffected.
    #[error("the message failed")]
    Message(#[source] MessageError),
    /// The engine failed for the whole batch the message was in.
    #[error("the engine failed for the message's batch")]
    Engine(#[source] Arc<ManyError>),
    /// The engine returned a different number of results than the batch had
    /// messages.
    #[error("the engine returned {got} results for a batch of {want} messages")]
    EngineOutput {
        /// Results returned.
        got: usize,
        /// Messages in the batch.
        want: usize,
    },
    /// The engine panicked while running the message's batch.
    #[error("the engine panicked while running the message's batch")]
    EnginePanicked,
    /// The stream's dispatcher threads could not be started.
    #[error("could not start the stream's dispatcher threads")]
    Threads(#[source] Arc<std::io::Error>),
    /// A [`Config`](super::Config) value out of range.
    #[error("invalid stream configuration: {0}")]
    Config(&'static str),
}

impl From<MessageError> for StreamError {
    fn from(e: MessageError) -> Self {
        Self::Message(e)
    }
}

/// A message the stream did not take, handed back with why.
#[derive(Debug, thiserror::Error)]
#[error("message not submitted")]
pub struct Rejected {
    /// Why.
    #[source]
    pub error: StreamError,
    /// The message, unchanged.
    pub message: Message,
}

impl Rejected {
    /// Whether the stream was only full (the message can be submitted again
    /// after receiving completions).
    pub fn is_full(&self) -> bool {
        matches!(self.error, StreamError::Full { .. })
    }

    /// The message back.
    pub fn into_message(self) -> Message {
        self.message
    }
}

impl From<Rejected> for StreamError {
    fn from(r: Rejected) -> Self {
        r.error
    }
}
