//! The hand-over's vocabulary: what a failure does, whether the accelerator
//! is kept, which side did a unit, and what became of it.

use std::fmt;

/// What a failure to open the accelerator does to the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OnFailure {
    /// The run goes on (and ends) on the CPU; the failure is reported.
    UseCpu,
    /// The run fails with the opener's error, even if the CPU finished first.
    Fail,
}

/// Whether the accelerator is kept however it performs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// To the end of the run.
    Always,
    /// Only while it proves faster than the CPU (judged once).
    WhileFaster,
}

/// Which engine did a unit of work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The CPU.
    Cpu,
    /// The accelerator.
    Accelerator,
}

/// What can go wrong in the hand-over itself (not in the opener): products
/// turn it into their own error type with `From`.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// No thread could be started to open the accelerator.
    #[error("cannot start a thread to open the GPU: {0}")]
    Thread(#[source] std::io::Error),
    /// The opener panicked.
    #[error("opening the GPU panicked")]
    Panicked,
}

/// The accelerator was slower than the CPU: the two rates of work, in bytes a
/// second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slower {
    /// The accelerator's.
    pub accelerator: f64,
    /// The CPU's.
    pub cpu: f64,
}

impl fmt::Display for Slower {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "slower than the CPU here ({:.2} GB/s of work against the CPU's {:.2})",
            self.accelerator / 1e9,
            self.cpu / 1e9
        )
    }
}

/// Where the accelerator stands, as last seen by the hand-over (for a
/// report while the run is still going; [`Handover::finish`](super::Handover::finish) gives the final
/// word).
#[derive(Debug, PartialEq)]
pub enum Standing<'a, E> {
    /// None was asked for.
    NotAsked,
    /// It is being opened (not ready when last looked at).
    Starting,
    /// It is ready and takes the units given to it.
    Ready,
    /// It could not be had; the run goes on on the CPU.
    Failed(&'a E),
    /// It proved slower than the CPU and was left.
    Left(Slower),
}

/// What became of the accelerator, for the run's report.
#[derive(Debug)]
pub struct Outcome<E> {
    /// Why it did not start, if the run went on without it.
    pub failure: Option<E>,
    /// Why it was left during the run, if it was.
    pub left: Option<Slower>,
}
