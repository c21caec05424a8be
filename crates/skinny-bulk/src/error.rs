//! Errors of the bulk layer: typed, with their sources kept, each shown as one
//! line that names no command-line option (the CLI adds its own hints).

use crate::operation::{Direction, Mode};
use skinny::Variant;
use skinny_exec::handover::StartError;
use skinny_exec::ErrorKind;

/// "1 byte", "2 bytes": the messages read as a person would write them.
fn count_bytes(n: u64) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// What went wrong in a bulk operation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The mode needs an IV and none was given.
    #[error("{mode} mode needs an IV (one block)")]
    IvRequired {
        /// The mode.
        mode: Mode,
    },
    /// An IV was given to ECB, which has none.
    #[error("ECB mode takes no IV")]
    IvNotAllowed,
    /// The IV is not one block long.
    #[error("{variant} needs an IV of one block ({} bytes), got {}", variant.block_bytes(), count_bytes(*got as u64))]
    IvLength {
        /// The variant.
        variant: Variant,
        /// Bytes given.
        got: usize,
    },
    /// The input is not a whole number of blocks where it must be.
    #[error("input is {}, not a whole number of {block}-byte blocks", count_bytes(*len))]
    NotWholeBlocks {
        /// The block size in bytes.
        block: usize,
        /// Total input length in bytes.
        len: u64,
    },
    /// PKCS#7 padding is wrong after decryption (wrong key, IV or data).
    #[error("bad padding after decryption (wrong key or IV, or corrupted or truncated input)")]
    BadPadding,
    /// A padding choice was given to a mode that never pads (CTR, CFB, OFB).
    #[error("{mode} mode never pads; padding applies only to ECB and CBC")]
    PaddingNotApplicable {
        /// The mode.
        mode: Mode,
    },
    /// More input after the stream was ended by a partial block.
    #[error("a partial block can only end the stream")]
    PartialBlockNotLast,
    /// The backend cannot run this variant.
    #[error("backend {backend} does not support {variant}")]
    Unsupported {
        /// The backend's name.
        backend: &'static str,
        /// The variant.
        variant: Variant,
    },
    /// The operation has no parallel kernel (a serial mode direction).
    #[error("{mode} {dir} is serial: no parallel engine runs it")]
    NotParallel {
        /// The mode.
        mode: Mode,
        /// The direction.
        dir: Direction,
    },
    /// A CPU backend was asked for zero threads.
    #[error("a CPU backend needs at least one thread")]
    ZeroThreads,
    /// The CPU thread pool could not start.
    #[error("cannot start {threads} CPU threads")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A GPU backend was asked for in a build without CUDA support.
    #[error("this build has no CUDA support (built without the `cuda` feature)")]
    NoCudaSupport,
    /// A GPU selection that does not fit this machine.
    #[error("{0}")]
    GpuSelection(#[from] skinny_exec::GpuSelectionError),
    /// `auto` could not get a GPU ready (why, in words: the device's, or the
    /// hand-over's when no thread could open it). `auto` goes on on the CPU
    /// and tells it through [`crate::backend::Backend::fallback`]; this is
    /// never a run's error.
    #[error("no usable GPU: {0}")]
    GpuUnavailable(String),
    /// The GPU failed or cannot be used (the driver's code and NVRTC's log kept).
    #[cfg(feature = "cuda")]
    #[error(transparent)]
    Gpu(#[from] skinny_cuda::GpuError),
}

impl Error {
    /// What the error means to the caller: bad input (padding that does
    /// not check included), a combination not offered, GPUs that cannot be
    /// had, a GPU failing at work (the device layer's own answer), threads
    /// the system would not start.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::NoCudaSupport | Error::GpuUnavailable(_) | Error::GpuSelection(_) => ErrorKind::Unavailable,
            #[cfg(feature = "cuda")]
            Error::Gpu(e) => e.kind(),
            Error::ZeroThreads | Error::ThreadPool { .. } => ErrorKind::Failure,
            Error::Unsupported { .. } | Error::NotParallel { .. } => ErrorKind::Unsupported,
            _ => ErrorKind::Input,
        }
    }
}

impl From<StartError> for Error {
    fn from(e: StartError) -> Self {
        Error::GpuUnavailable(e.to_string())
    }
}
