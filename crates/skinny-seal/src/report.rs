//! What a run did.

use crate::scheme::Scheme;
use skinny_exec::Placed;

/// What [`seal`](crate::seal) or [`open`](crate::open) did: the file's facts,
/// and where its chunks were worked on.
#[derive(Clone, Debug, PartialEq)]
pub struct SealReport {
    /// The file's format version (2, or 1 for an old file opened).
    pub version: u8,
    /// The payload's scheme.
    pub scheme: Scheme,
    /// The chunk size, as a power of two.
    pub chunk_log2: u8,
    /// Chunks written or verified.
    pub chunks: u64,
    /// Plaintext bytes read (seal) or written (open).
    pub plaintext_bytes: u64,
    /// Where the chunks were worked on (units: chunks).
    pub placed: Placed,
}
