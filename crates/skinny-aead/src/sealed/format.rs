//! The format's constants, and the options a file is sealed with: the
//! header's fields and their ranges, the chunk sizes, and the smallest chunk
//! the GPU placement takes.

use crate::member::Member;

/// The first bytes of every sealed file.
pub const MAGIC: [u8; 10] = *b"SKINNYSEAL";
/// The format version this module writes and reads.
pub const VERSION: u8 = 1;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 24;
/// The length of the header's nonce prefix field.
pub const PREFIX_FIELD_LEN: usize = 11;
/// The smallest chunk size, as a power of two (16 bytes; for tests and examples).
pub const MIN_CHUNK_LOG2: u8 = 4;
/// The largest chunk size, as a power of two (16 MiB).
pub const MAX_CHUNK_LOG2: u8 = 24;
/// The default chunk size, as a power of two (64 KiB).
pub const DEFAULT_CHUNK_LOG2: u8 = 16;
/// The most chunks a file may have (the counter is 32 bits).
pub const MAX_CHUNKS: u64 = 1 << 32;
/// The smallest chunk size the GPU placement takes, as a power of two (16
/// KiB): the chunk kernels give each warp 1024 blocks (32 lanes of 32), which
/// must lie inside one chunk. Defined with or without the `cuda` feature, so
/// that a caller can tell whether a GPU could serve a file before asking for
/// one.
pub const GPU_MIN_CHUNK_LOG2: u8 = 14;

/// How [`seal`](super::seal) writes a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SealOptions {
    /// The AEAD member (default M1).
    pub member: Member,
    /// The chunk size as a power of two, [`MIN_CHUNK_LOG2`] to [`MAX_CHUNK_LOG2`]
    /// (default [`DEFAULT_CHUNK_LOG2`], 64 KiB).
    pub chunk_log2: u8,
}

impl Default for SealOptions {
    fn default() -> Self {
        Self { member: Member::M1, chunk_log2: DEFAULT_CHUNK_LOG2 }
    }
}
