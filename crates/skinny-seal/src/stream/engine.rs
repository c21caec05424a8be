//! What a run asks of an engine other than the CPU: a whole window of chunks
//! at a time ([`WindowEngine`]; skinny-aead's `GpuChunks` on a GPU, stand-ins
//! in the tests), and the run's engines as the execution layer's hand-over
//! ([`Engines`]).

use crate::error::EngineError;
use skinny_exec::handover::{Handover, StartError};
use skinny_exec::pipeline::Window;

/// A window's work on an engine other than the CPU.
pub(super) trait WindowEngine: Send + 'static {
    /// Seals the window in place (each input chunk becomes ciphertext ‖ tag).
    fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), EngineError>;
    /// Opens the window into `w.output` (which holds a buffer per chunk); a
    /// chunk that fails gets nothing. Returns whether each chunk verified.
    fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, EngineError>;
}

/// The engines of one run: the CPU and, when one is asked for, a GPU.
pub(super) type Engines<G> = Handover<G, EngineError>;

impl From<StartError> for EngineError {
    fn from(e: StartError) -> Self {
        match e {
            StartError::Thread(e) => EngineError::GpuStart(Box::new(e)),
            StartError::Panicked => EngineError::GpuStart("the GPU start panicked".into()),
        }
    }
}

/// Why the other engine did not start, in the words of what failed.
pub(super) fn reason(e: &EngineError) -> String {
    match e {
        EngineError::GpuStart(why) => why.to_string(),
        e => e.to_string(),
    }
}

/// No other engine (without the `cuda` feature).
#[cfg(not(feature = "cuda"))]
pub(super) enum NoGpu {}

#[cfg(not(feature = "cuda"))]
impl WindowEngine for NoGpu {
    fn seal(&mut self, _: &mut Window, _: &[u8]) -> Result<(), EngineError> {
        match *self {}
    }
    fn open(&mut self, _: &mut Window, _: &[u8]) -> Result<Vec<bool>, EngineError> {
        match *self {}
    }
}
