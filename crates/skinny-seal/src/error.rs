//! Why sealing or opening failed: one enum an operation ([`SealError`],
//! [`OpenError`]) and the engine's own ([`EngineError`]: the threads, the
//! GPU) inside either, one clear line a cause, never key material and never
//! a command-line flag.

use crate::scheme::Scheme;
use crate::stanza::StanzaError;
use skinny_exec::GpuSelectionError;
use std::io;

/// Why the engine of a run failed: its threads, or the GPU it was placed on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// The worker threads asked for could not be started.
    #[error("cannot start {count} worker threads: {source}")]
    Threads {
        /// How many were asked for.
        count: usize,
        /// Why not.
        #[source]
        source: io::Error,
    },
    /// A GPU was asked for chunks under 16 KiB
    /// ([`GPU_MIN_CHUNK_LOG2`](crate::GPU_MIN_CHUNK_LOG2); to seal, or in the
    /// file to open); the CPU takes every size.
    #[error(
        "the GPU engine needs chunks of at least 16 KiB, not {} bytes (the CPU engine takes any size)",
        1u64 << chunk_log2
    )]
    GpuChunkSize {
        /// The chunk size, as a power of two.
        chunk_log2: u8,
    },
    /// A GPU was asked for, and this build has no GPU support (without the
    /// `cuda` feature).
    #[error("built without GPU support (the `cuda` feature)")]
    NoCuda,
    /// The GPUs asked for do not fit the GPUs there are.
    #[error("no such GPUs: {0}")]
    GpuSelection(#[source] GpuSelectionError),
    /// The GPU failed (feature `cuda`), with the driver's code in its source.
    #[cfg(feature = "cuda")]
    #[error("GPU failure: {0}")]
    Gpu(#[source] skinny_aead::gpu::GpuAeadError),
    /// The GPU of a [`Job`](crate::Job) could not be had: the driver's error
    /// on counting or opening it, or of loading its kernels. The chunks
    /// sealed or opened on the CPU meanwhile may have been written.
    #[error("the GPU did not start: {0}")]
    GpuStart(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Why sealing failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SealError {
    /// Bad [`SealOptions`](crate::SealOptions).
    #[error("invalid sealing options: {0}")]
    InvalidOptions(&'static str),
    /// No recipient was given.
    #[error("no recipient: a file must be sealed to at least one key, passphrase or public key")]
    NoRecipients,
    /// More than 64 recipients.
    #[error("too many recipients (at most 64)")]
    TooManyRecipients,
    /// A passphrase with other recipients.
    #[error("a passphrase must be the file's only recipient")]
    PassphraseNotAlone,
    /// A recipient could not wrap the file key.
    #[error(transparent)]
    Stanza(#[from] StanzaError),
    /// The operating system's random generator failed.
    #[error("the operating system's random generator failed: {0}")]
    Random(getrandom::Error),
    /// More than 2^32 chunks would be needed.
    #[error("input too long for this chunk size (at most 2^32 chunks); use larger chunks")]
    TooLong,
    /// The input was not as long as [`SealOptions::input_len`](crate::SealOptions::input_len) said.
    #[error("the input's length changed while it was sealed ({expected} bytes expected)")]
    LengthChanged {
        /// The length given.
        expected: u64,
    },
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Read(#[source] io::Error),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
    /// A GPU was asked for a scheme that runs on the CPU only (Romulus).
    #[error("{0} runs on the CPU only")]
    CpuOnly(&'static str),
    /// A GPU selection of more than one GPU: a file runs on one.
    #[error("a sealed file runs on one GPU: select one")]
    OneGpu,
    /// The engine failed (threads, GPU).
    #[error(transparent)]
    Engine(EngineError),
}

/// Why opening failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OpenError {
    /// The input does not start with `SKINNYSEAL`.
    #[error("not a sealed file (it does not start with SKINNYSEAL)")]
    NotSealed,
    /// A version this code does not read.
    #[error("sealed-file format version {0} is not supported (this program reads versions 1 and 2)")]
    UnsupportedVersion(u8),
    /// A header field not in its one canonical form.
    #[error("damaged sealed-file header: {0}")]
    BadHeader(&'static str),
    /// The file ends inside its header.
    #[error("truncated: the file ends inside its header")]
    TruncatedHeader,
    /// A stanza of an identity's kind is malformed, or its derivation cannot run.
    #[error(transparent)]
    Stanza(#[from] StanzaError),
    /// No identity given opens any stanza.
    #[error("no key given opens this file (wrong key, passphrase or identity, or a changed header)")]
    NoMatchingIdentity,
    /// A stanza opened but the header MAC does not verify under its file key.
    #[error("header authentication failed: wrong key or damaged/tampered header")]
    HeaderMac,
    /// A v1 file, and no identity has a raw 16-byte key.
    #[error("a version-1 file opens only with its raw 16-byte key")]
    V1NeedsRawKey,
    /// A scheme with a 64-bit tag that the caller did not name.
    #[error("the file uses {}, which has a 64-bit tag; it opens only when that scheme is named", .0.short_name())]
    ShortTagScheme(Scheme),
    /// The caller expected another scheme ([`OpenOptions::expect_scheme`](crate::OpenOptions::expect_scheme)).
    #[error("the file uses {}, not {}", .found.short_name(), .expected.short_name())]
    OtherScheme {
        /// The scheme expected.
        expected: Scheme,
        /// The file's scheme.
        found: Scheme,
    },
    /// The file is bound to a context and none was given.
    #[error("this file is bound to a context: give the context it was sealed with")]
    ContextRequired,
    /// A context was given and the file is bound to none.
    #[error("this file is bound to no context, but one was given")]
    ContextNotBound,
    /// The file ends inside a chunk.
    #[error("truncated: the file ends inside a chunk")]
    TruncatedInside,
    /// The file ends at a chunk boundary before the last chunk.
    #[error("truncated: the file ends after chunk {chunks}, which is not the last one (chunks are missing)")]
    Truncated {
        /// Chunks present (all verified).
        chunks: u64,
    },
    /// Data after the last chunk.
    #[error("damaged file: unexpected data after the last chunk (chunk {})", chunk + 1)]
    TrailingData {
        /// The index of the real last chunk.
        chunk: u64,
    },
    /// An empty last chunk after full ones (never written by a sealer).
    #[error("damaged file: an empty last chunk after full ones (chunk {})", chunk + 1)]
    EmptyLastChunk {
        /// Its index.
        chunk: u64,
    },
    /// A chunk does not verify.
    #[error("authentication failed: damaged/tampered file, or the wrong context (chunk {})", chunk + 1)]
    Authentication {
        /// The index of the first chunk that failed.
        chunk: u64,
    },
    /// More than 2^32 chunks: no sealer writes that many.
    #[error("input too long for this chunk size (at most 2^32 chunks); use larger chunks")]
    TooLong,
    /// A range or seek past the plaintext's end.
    #[error("range outside the plaintext ({len} bytes)")]
    OutOfRange {
        /// The plaintext's length.
        len: u64,
    },
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Read(#[source] io::Error),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
    /// A GPU was asked for a scheme that runs on the CPU only (Romulus).
    #[error("{0} runs on the CPU only")]
    CpuOnly(&'static str),
    /// A GPU selection of more than one GPU: a file runs on one.
    #[error("a sealed file runs on one GPU: select one")]
    OneGpu,
    /// The engine failed (threads, GPU).
    #[error(transparent)]
    Engine(EngineError),
}

impl From<EngineError> for OpenError {
    fn from(e: EngineError) -> Self {
        OpenError::Engine(e)
    }
}

impl From<EngineError> for SealError {
    fn from(e: EngineError) -> Self {
        SealError::Engine(e)
    }
}

impl From<OpenError> for io::Error {
    fn from(e: OpenError) -> Self {
        match e {
            OpenError::Read(e) | OpenError::Write(e) => e,
            e => io::Error::new(io::ErrorKind::InvalidData, e),
        }
    }
}
