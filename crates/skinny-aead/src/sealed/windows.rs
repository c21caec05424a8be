//! What the sealed format asks of an engine other than the CPU: a whole
//! window of chunks at a time ([`WindowEngine`]; `GpuChunks` on a GPU,
//! stand-ins in the tests), and the run's engines as the execution layer's
//! hand-over ([`Engines`]).

use super::error::SealedError;
use skinny_exec::handover::{Handover, StartError};
use skinny_exec::pipeline::Window;
use std::boxed::Box;
use std::string::{String, ToString};
use std::vec::Vec;

/// A window's work on an engine other than the CPU.
pub(super) trait WindowEngine: Send + 'static {
    /// Seals the window in place (each input chunk becomes ciphertext ‖ tag).
    fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), SealedError>;
    /// Opens the window into `w.output` (which holds a buffer per chunk); a
    /// chunk that fails gets nothing. Returns whether each chunk verified.
    fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, SealedError>;
}

/// The engines of one run: the CPU and, when one is asked for, a GPU.
pub(super) type Engines<G> = Handover<G, SealedError>;

impl From<StartError> for SealedError {
    fn from(e: StartError) -> Self {
        match e {
            StartError::Thread(e) => SealedError::GpuStart(Box::new(e)),
            StartError::Panicked => SealedError::InvalidOptions("the GPU start panicked"),
        }
    }
}

/// Why the other engine did not start, in the words of what failed.
pub(super) fn reason(e: &SealedError) -> String {
    match e {
        SealedError::GpuStart(why) => why.to_string(),
        e => e.to_string(),
    }
}

/// No other engine (without the `cuda` feature).
#[cfg(not(feature = "cuda"))]
pub(super) enum NoGpu {}

#[cfg(not(feature = "cuda"))]
impl WindowEngine for NoGpu {
    fn seal(&mut self, _: &mut Window, _: &[u8]) -> Result<(), SealedError> {
        match *self {}
    }
    fn open(&mut self, _: &mut Window, _: &[u8]) -> Result<Vec<bool>, SealedError> {
        match *self {}
    }
}

#[cfg(test)]
#[path = "windows_tests.rs"]
mod tests;
