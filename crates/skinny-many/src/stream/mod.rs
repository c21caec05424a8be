//! # The streaming front
//!
//! A [`Stream`] takes messages one at a time (or a slice at a time) as they
//! arrive, gathers them into [`Batch`]es for an engine, and hands the results
//! back **in submission order**: the shape of intel-ipsec-mb's job manager
//! (submit, flush, completed jobs in order), as safe Rust over the
//! many-message engines.
//!
//! ```
//! use skinny_many::stream::{Config, Message, Op, Stream};
//! use skinny_many::{cpu, Scheme};
//! use skinny_exec::Threads;
//! use std::time::Duration;
//!
//! let engine = cpu::Engine::new(Threads::from_count(Some(2)))?;
//! let config = Config::new(Scheme::RomulusN, Op::Seal).deadline(Duration::from_millis(2));
//! let stream = Stream::new(config, engine)?;
//! let first = stream.submit(Message::new(&[1; 16], &[2; 16], *b"header", *b"reading 1"))?;
//! let second = stream.submit(Message::new(&[3; 16], &[4; 16], *b"", *b"reading 2"))?;
//! stream.flush();
//! let done = stream.recv().expect("two in flight");
//! assert_eq!(done.ticket(), first);
//! assert_eq!(done.bytes()?.len(), 9 + 16); // ciphertext ‖ tag
//! assert_eq!(stream.recv().expect("one in flight").ticket(), second);
//! assert!(stream.recv().is_none()); // nothing left in flight
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Design
//!
//! *Tickets and order.* [`Stream::submit`] copies the message into the
//! *pending* batch and returns its [`Ticket`], a sequence number counting
//! from 0. Batches are cut from the pending one in ticket order, so each
//! holds a contiguous run of tickets; their results wait in a queue in the
//! same order, and [`Stream::recv`] hands out the next ticket's
//! [`Completion`] only once its batch is done, whatever order the batches
//! finished in. A message that fails (a wrong tag:
//! [`MessageError::Forged`](crate::MessageError)) fails alone, as in a batch.
//!
//! *Dispatchers.* [`Config::pipeline`] dispatcher threads (two by default)
//! each wait for the pending batch to be ready, cut it (swap in an empty
//! one), run it on the engine, file the result and go back to waiting. So one
//! batch fills while others run, and at most `pipeline` batches run at once.
//! The pending batch is ready when any of these holds:
//! - it holds [`Config::target`] messages;
//! - its oldest message has waited [`Config::deadline`];
//! - [`Stream::flush`] was called after one of its messages was submitted;
//! - a submitter found the stream full (the batch cannot grow any more).
//!
//! *Latency bound.* A message is therefore cut into a batch at most
//! `deadline` after its submission as long as a dispatcher is free (with all
//! of them running, it joins the next batch cut), and completes when that
//! batch's run ends: deadline plus one batch's running time, plus any wait
//! for a free dispatcher. The deadline bounds the wait for company, not the
//! engine.
//!
//! *Caps and back-pressure.* A message is *in flight* from its submission
//! until [`Stream::recv`] (or `try_recv`, `recv_timeout`) hands it out. The
//! messages in flight, and their AD and data bytes, are capped
//! ([`Config::max_messages`], [`Config::max_bytes`]): [`Stream::submit`]
//! waits for room, [`Stream::try_submit`] gives the message back
//! ([`Rejected`], [`StreamError::Full`]). A single message larger than the
//! byte cap is let in when nothing else is in flight. A [`Completion`] keeps
//! its batch's [`Output`] alive (shared, without copying):
//! completions held after they are received are outside the caps.
//!
//! *Engines.* A [`Runner`] runs one batch: [`cpu::Engine`](crate::cpu::Engine)
//! (its pool started once), `gpu::GpuMany` with the feature `cuda`, or an
//! `Arc` of either, so that one engine serves several streams. A batch the
//! engine fails as a whole completes each of its messages with
//! [`StreamError::Engine`] (a panic in the engine with
//! [`StreamError::EnginePanicked`]); the stream goes on.
//!
//! *Shutdown.* Dropping the stream discards the messages not yet cut (their
//! keys and data wiped), lets the batches running finish, and joins the
//! dispatchers: no thread outlives it. Completions not received are dropped
//! (wiped).
//!
//! *Secrets.* Keys and data wait in [`Batch`]es and [`Message`]s, which wipe
//! them when dropped; outputs are wiped with their last [`Completion`];
//! [`Completion::to_vec`] returns a wiping buffer.

mod config;
mod dispatch;
mod error;
mod front;
mod message;

pub use config::Config;
pub use error::{Rejected, StreamError};
pub use front::Stream;
pub use message::{Completion, Message, Ticket};

use crate::{Batch, ManyError, Output};
use std::sync::Arc;

/// What a stream does to every message: seal (plaintext in, ciphertext ‖ tag
/// out) or open (ciphertext ‖ tag in, plaintext out if authentic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Plaintext in, ciphertext ‖ tag out.
    Seal,
    /// Ciphertext ‖ tag in, plaintext out, or
    /// [`MessageError::Forged`](crate::MessageError::Forged).
    Open,
}

/// An engine that runs one whole batch: what a [`Stream`] dispatches to.
/// Called from the stream's dispatcher threads, several at once when
/// [`Config::pipeline`] is above 1.
pub trait Runner: Send + Sync {
    /// Seals or opens every message of `batch`.
    ///
    /// # Errors
    /// The engine failed for the whole batch (a bad tag is no such error: it
    /// fails its message in the [`Output`]).
    fn run(&self, batch: &Batch, op: Op) -> Result<Output, ManyError>;
}

impl Runner for crate::cpu::Engine {
    fn run(&self, batch: &Batch, op: Op) -> Result<Output, ManyError> {
        Ok(match op {
            Op::Seal => self.seal(batch),
            Op::Open => self.open(batch),
        })
    }
}

#[cfg(feature = "cuda")]
impl Runner for crate::gpu::GpuMany {
    fn run(&self, batch: &Batch, op: Op) -> Result<Output, ManyError> {
        match op {
            Op::Seal => self.seal(batch),
            Op::Open => self.open(batch),
        }
        .map_err(|e| ManyError::Gpu(Box::new(e)))
    }
}

impl<R: Runner + ?Sized> Runner for Arc<R> {
    fn run(&self, batch: &Batch, op: Op) -> Result<Output, ManyError> {
        (**self).run(batch, op)
    }
}

impl<R: Runner + ?Sized> Runner for Box<R> {
    fn run(&self, batch: &Batch, op: Op) -> Result<Output, ManyError> {
        (**self).run(batch, op)
    }
}
