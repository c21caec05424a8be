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
pub mod cpu;
mod error;
#[cfg(feature = "cuda")]
pub mod gpu;
mod output;
mod scheme;

pub use batch::{Batch, BatchError, Flat};
pub use error::ManyError;
pub use output::{MessageError, Output};
pub use scheme::Scheme;

use skinny_exec::{Placement, Route, Verdict};

/// Seals every message of `batch` where `placement` puts the work (see
/// [`cpu::seal`] for the output).
///
/// # Errors
/// [`ManyError`]: the threads would not start, or a GPU placement this build
/// cannot serve.
pub fn seal(placement: &Placement, batch: &Batch) -> Result<Output, ManyError> {
    match route(placement)? {
        Route::Cpu { .. } => cpu::seal(placement.threads(), batch),
        Route::Accelerator { .. } => Err(ManyError::GpuNotWired),
    }
}

/// Opens every message of `batch` where `placement` puts the work (see
/// [`cpu::open`] for the output).
///
/// # Errors
/// As [`seal`].
pub fn open(placement: &Placement, batch: &Batch) -> Result<Output, ManyError> {
    match route(placement)? {
        Route::Cpu { .. } => cpu::open(placement.threads(), batch),
        Route::Accelerator { .. } => Err(ManyError::GpuNotWired),
    }
}

/// The route of a batch: the GPU engine's rule goes here when it is wired
/// in; until then it is unfit for every batch.
fn route(placement: &Placement) -> Result<Route, ManyError> {
    let verdict = Verdict::Unfit("the GPU many-message engine is not wired into this build".into());
    placement.route(verdict).map_err(ManyError::Placement)
}
