//! Why sealing or opening failed: one enum an operation, one clear line a
//! cause, never key material and never a command-line flag.

use crate::scheme::Scheme;
use crate::stanza::StanzaError;
use skinny_aead::sealed::SealedError;
use std::io;

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
    Engine(SealedError),
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
    #[error("the file uses {}, which has a 64-bit tag; it opens only when that scheme is named", .0.name())]
    ShortTagScheme(Scheme),
    /// The caller expected another scheme ([`OpenOptions::expect_scheme`](crate::OpenOptions::expect_scheme)).
    #[error("the file uses {}, not {}", .found.name(), .expected.name())]
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
    /// The engine failed (threads, GPU), or a v1 file's error without a
    /// variant here.
    #[error(transparent)]
    Engine(SealedError),
}

impl From<SealedError> for OpenError {
    fn from(e: SealedError) -> Self {
        match e {
            SealedError::Read(e) => OpenError::Read(e),
            SealedError::Write(e) => OpenError::Write(e),
            SealedError::NotSealed => OpenError::NotSealed,
            SealedError::UnsupportedVersion(v) => OpenError::UnsupportedVersion(v),
            SealedError::BadHeader(why) => OpenError::BadHeader(why),
            SealedError::TruncatedInside => OpenError::TruncatedInside,
            SealedError::Truncated { chunks } => OpenError::Truncated { chunks },
            SealedError::TrailingData { chunk } => OpenError::TrailingData { chunk },
            SealedError::EmptyLastChunk { chunk } => OpenError::EmptyLastChunk { chunk },
            SealedError::Authentication { chunk } => OpenError::Authentication { chunk },
            e => OpenError::Engine(e),
        }
    }
}

impl From<SealedError> for SealError {
    fn from(e: SealedError) -> Self {
        match e {
            SealedError::Read(e) => SealError::Read(e),
            SealedError::Write(e) => SealError::Write(e),
            SealedError::TooLong => SealError::TooLong,
            SealedError::Random(e) => SealError::Random(e),
            e => SealError::Engine(e),
        }
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
