//! Why sealing or opening failed: one variant per cause, the I/O and GPU
//! errors kept as sources.

use super::format::VERSION;
use core::fmt;
use std::boxed::Box;
use std::io;

/// Any error, from opening the GPU of a run (feature `cuda`).
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// Why sealing or opening failed. Messages name no command-line option.
#[derive(Debug)]
#[non_exhaustive]
pub enum SealedError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
    /// The operating system gave no random prefix.
    Random(getrandom::Error),
    /// Bad [`SealOptions`](super::SealOptions) or prefix given to [`seal`](super::seal) /
    /// [`seal_with_prefix`](super::hazmat::seal_with_prefix).
    InvalidOptions(&'static str),
    /// More than [`MAX_CHUNKS`](super::MAX_CHUNKS) chunks would be needed.
    TooLong,
    /// The input does not start with [`MAGIC`](super::MAGIC).
    NotSealed,
    /// A format version this code does not know.
    UnsupportedVersion(u8),
    /// A header field out of range.
    BadHeader(&'static str),
    /// The input ends inside the header, right after it, or inside a chunk
    /// (fewer bytes than a tag).
    TruncatedInside,
    /// The input ends at a chunk boundary: chunk `chunks - 1` verified as a
    /// chunk that is not the last, so whole chunks are missing.
    Truncated {
        /// Chunks present (all verified).
        chunks: u64,
    },
    /// Chunk `chunk` verified as the last one, yet more bytes follow it.
    TrailingData {
        /// The index of the real last chunk.
        chunk: u64,
    },
    /// Chunk `chunk`, the last, verified but is empty and follows full chunks:
    /// a sealer never writes that (format v2 refuses it; v1 takes it).
    EmptyLastChunk {
        /// The index of the empty last chunk.
        chunk: u64,
    },
    /// Chunk `chunk` did not verify: a wrong key, or a damaged or changed file.
    Authentication {
        /// The index of the first chunk that failed.
        chunk: u64,
    },
    /// The GPU placement was asked for chunks under 16 KiB
    /// ([`GPU_MIN_CHUNK_LOG2`](super::GPU_MIN_CHUNK_LOG2); to seal, or in the file to open); the CPU takes
    /// every size.
    GpuChunkSize {
        /// The chunk size, as a power of two.
        chunk_log2: u8,
    },
    /// A GPU was asked for, and this build has no GPU support (without the
    /// `cuda` feature).
    NoCuda,
    /// The GPUs asked for do not fit the GPUs there are (feature `cuda`).
    GpuSelection(skinny_exec::GpuSelectionError),
    /// The worker threads asked for could not be started.
    Threads {
        /// How many were asked for.
        count: usize,
        /// Why not.
        source: io::Error,
    },
    /// The GPU failed (feature `cuda`), with the driver's code in its source.
    #[cfg(feature = "cuda")]
    Gpu(crate::gpu::GpuAeadError),
    /// The GPU of a [`Job`](super::Job) could not be had (feature `cuda`):
    /// the driver's error on counting or opening it, or of loading its
    /// kernels. The chunks sealed or opened on the CPU meanwhile may have
    /// been written.
    GpuStart(BoxError),
}

impl fmt::Display for SealedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SealedError::Read(e) => write!(f, "cannot read input: {e}"),
            SealedError::Write(e) => write!(f, "cannot write output: {e}"),
            SealedError::Random(e) => write!(f, "no random nonce prefix from the operating system: {e}"),
            SealedError::InvalidOptions(why) => write!(f, "invalid sealing options: {why}"),
            SealedError::TooLong => {
                write!(f, "input too long for this chunk size (at most 2^32 chunks); use larger chunks")
            }
            SealedError::NotSealed => f.write_str("not a sealed file (it does not start with SKINNYSEAL)"),
            SealedError::UnsupportedVersion(v) => {
                write!(f, "sealed-file format version {v} is not supported (this program reads version {VERSION})")
            }
            SealedError::BadHeader(why) => write!(f, "damaged sealed-file header: {why}"),
            SealedError::TruncatedInside => f.write_str("truncated: the file ends inside its header or a chunk"),
            SealedError::Truncated { chunks } => write!(
                f,
                "truncated: the file ends after chunk {chunks}, which is not the last one (chunks are missing)"
            ),
            SealedError::TrailingData { chunk } => {
                write!(f, "damaged file: unexpected data after the last chunk (chunk {})", chunk + 1)
            }
            SealedError::EmptyLastChunk { chunk } => {
                write!(f, "damaged file: an empty last chunk after full ones (chunk {})", chunk + 1)
            }
            SealedError::Authentication { chunk } => {
                write!(f, "authentication failed: wrong key or damaged/tampered file (chunk {})", chunk + 1)
            }
            SealedError::GpuChunkSize { chunk_log2 } => write!(
                f,
                "the GPU engine needs chunks of at least 16 KiB, not {} bytes (the CPU engine takes any size)",
                1u64 << chunk_log2
            ),
            SealedError::NoCuda => f.write_str("built without GPU support (the `cuda` feature)"),
            SealedError::GpuSelection(e) => write!(f, "no such GPUs: {e}"),
            SealedError::Threads { count, source } => write!(f, "cannot start {count} worker threads: {source}"),
            #[cfg(feature = "cuda")]
            SealedError::Gpu(e) => write!(f, "GPU failure: {e}"),
            SealedError::GpuStart(e) => write!(f, "the GPU did not start: {e}"),
        }
    }
}

impl std::error::Error for SealedError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SealedError::Read(e) | SealedError::Write(e) | SealedError::Threads { source: e, .. } => Some(e),
            SealedError::GpuSelection(e) => Some(e),
            #[cfg(feature = "cuda")]
            SealedError::Gpu(e) => Some(e),
            SealedError::GpuStart(e) => Some(e.as_ref()),
            _ => None,
        }
    }
}
