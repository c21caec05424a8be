//! # The many-message engine
//!
//! Seal and open a [`Batch`] of independent messages, each with its own key,
//! nonce, associated data and length (0 bytes to megabytes, mixed), under one
//! [`Scheme`]: Romulus-N, Romulus-M or a SKINNY-AEAD member. The results are
//! byte for byte those of the single-message types (`skinny-romulus`,
//! `skinny-aead`), and a bad tag fails only its own message ([`Output`],
//! [`MessageError`]).
//!
//! Romulus-N and -M are serial inside a message (every block waits for the
//! one before), so one message cannot use a wide machine; many can. The CPU
//! engine runs SKINNY bitsliced across messages, every block with a whole
//! tweakey of its own (key schedule included), on every core; the GPU engine
//! (feature `cuda`) does the same with per-message tweakey schedules on the
//! device.

#![warn(missing_docs)]

mod batch;
#[cfg(feature = "cuda")]
pub mod gpu;
mod output;
mod scheme;

pub use batch::{Batch, BatchError, Flat};
pub use output::{MessageError, Output};
pub use scheme::Scheme;
