//! Why an experiment refused to start or failed, and why results refused to
//! merge.

use skinny::Variant;
use skinny_exec::ErrorKind;

/// Everything that can make an experiment refuse to start or results refuse to
/// merge.
#[derive(Debug, thiserror::Error, Clone)]
#[non_exhaustive]
pub enum LabError {
    /// The cipher refused the round count.
    #[error("{variant} has 1 to {max} rounds, not {got}")]
    Rounds {
        /// The variant.
        variant: Variant,
        /// Its full round count.
        max: usize,
        /// What was asked.
        got: usize,
    },
    /// Rounds that run past the cipher's last from the start round asked for.
    #[error("{variant} has rounds 1 to {}: {rounds} rounds from round {start} do not fit", variant.rounds())]
    StartRound {
        /// The variant.
        variant: Variant,
        /// The start round (from 1).
        start: usize,
        /// The rounds asked for.
        rounds: usize,
    },
    /// A difference, mask or key difference of the wrong length.
    #[error("{what} must be {expected} bytes for {variant}, got {got}")]
    Length {
        /// Which value (`dp`, `dc`, `dk`, ...).
        what: &'static str,
        /// The variant.
        variant: Variant,
        /// The length it needs.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// `key_every` was 0.
    #[error("key_every must be at least 1")]
    KeyEvery,
    /// Per-key counts asked for with queries that are not whole key groups.
    #[error("per-key counts need whole key groups: {queries} queries are not a multiple of key_every = {key_every}")]
    PerKeyGroups {
        /// The run's queries.
        queries: u64,
        /// Queries per key group.
        key_every: u64,
    },
    /// A shard with `n == 0` or `i >= n`.
    #[error("shard {index}/{count} is not one of 0/n .. (n-1)/n with n >= 1")]
    Shard {
        /// i
        index: u64,
        /// n
        count: u64,
    },
    /// A segment that is not a range of the shard's key groups.
    #[error("key groups {start}..{end} are not a segment of the shard's groups {first}..{end_of_shard}")]
    Segment {
        /// The segment's first group.
        start: u64,
        /// The group after its last.
        end: u64,
        /// The shard's first group.
        first: u64,
        /// The group after the shard's last.
        end_of_shard: u64,
    },
    /// Segments that do not follow each other in one shard.
    #[error("cannot join segments: {0}")]
    Segments(String),
    /// More right pairs or quartets asked to be kept than a run keeps.
    #[error("at most {most} right pairs or quartets can be kept, not {got}")]
    Show {
        /// The most ([`MAX_SHOW`](crate::MAX_SHOW)).
        most: usize,
        /// What was asked.
        got: usize,
    },
    /// Results of different experiments (or of one shard twice).
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The GPU failed (no driver, no device, compilation, a launch).
    #[error(transparent)]
    Gpu(GpuFailure),
    /// The GPU reported a hit that the specification code does not confirm: a
    /// fault of the GPU or of its kernels, never a property of the cipher.
    #[error("the GPU counted query {query} as a hit, but the CPU's recomputation disagrees")]
    GpuMismatch {
        /// The query.
        query: u64,
    },
    /// More queries handed to one launch of the lab kernels than it takes.
    #[error("{queries} queries for one launch of the lab kernels, which take at most {most}")]
    LaunchTooLarge {
        /// The queries asked for.
        queries: u64,
        /// The most one launch takes.
        most: u64,
    },
    /// A broken invariant of this crate (a bug: please report it).
    #[error("internal error: {0}")]
    Internal(&'static str),
}

impl LabError {
    /// What the error means to the caller: parameters refused are bad
    /// input, a GPU failing at work a device failure, a GPU that counted
    /// differently from the CPU or a broken invariant a failure.
    pub fn kind(&self) -> ErrorKind {
        match self {
            LabError::Gpu(e) => match e.kind() {
                // The GPU was opened (it counted, or compiled the kernels):
                // whatever it says now is its failure.
                ErrorKind::Unavailable => ErrorKind::DeviceFailure,
                kind => kind,
            },
            LabError::GpuMismatch { .. }
            | LabError::LaunchTooLarge { .. }
            | LabError::Segments(_)
            | LabError::Internal(_) => ErrorKind::Failure,
            _ => ErrorKind::Input,
        }
    }
}

/// A failure of the GPU under an experiment: the device layer's error kept
/// whole (the driver's code as its source, NVRTC's log, which GPU of several)
/// and shown as it is. Without the `cuda` feature there is none.
#[derive(Clone, Debug)]
pub struct GpuFailure(Failure);

#[derive(Clone, Debug)]
enum Failure {
    #[cfg(feature = "cuda")]
    Cuda(skinny_cuda::GpuError),
}

impl std::fmt::Display for GpuFailure {
    // Without `cuda` there is no failure to show.
    #[cfg_attr(not(feature = "cuda"), allow(unused_variables))]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            #[cfg(feature = "cuda")]
            Failure::Cuda(ref e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GpuFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.0 {
            // Shown as the device error itself, so its source is the next link.
            #[cfg(feature = "cuda")]
            Failure::Cuda(ref e) => e.source(),
        }
    }
}

impl GpuFailure {
    /// What the failure means to the caller: the device layer's answer (no
    /// GPU to be had, or one failing at work).
    pub fn kind(&self) -> ErrorKind {
        match self.0 {
            #[cfg(feature = "cuda")]
            Failure::Cuda(ref e) => e.kind(),
        }
    }
}

#[cfg(feature = "cuda")]
impl GpuFailure {
    /// The device layer's error.
    pub fn gpu_error(&self) -> &skinny_cuda::GpuError {
        match &self.0 {
            Failure::Cuda(e) => e,
        }
    }
}

#[cfg(feature = "cuda")]
impl From<skinny_cuda::GpuError> for GpuFailure {
    fn from(e: skinny_cuda::GpuError) -> Self {
        GpuFailure(Failure::Cuda(e))
    }
}

#[cfg(feature = "cuda")]
impl From<skinny_cuda::GpuError> for LabError {
    fn from(e: skinny_cuda::GpuError) -> Self {
        LabError::Gpu(e.into())
    }
}
