//! The v2 format's constants, and the options a file is sealed and opened with.

use crate::scheme::Scheme;

/// The first bytes of every sealed file (v1 and v2).
pub const MAGIC: [u8; 10] = *b"SKINNYSEAL";
/// The format version this crate writes.
pub const VERSION: u8 = 2;
/// Length of the header's fixed start (magic through payload salt): the AD of
/// every stanza's wrap.
pub const HEADER_START_LEN: usize = 30;
/// Length of the payload salt.
pub const SALT_LEN: usize = 16;
/// Length of the header MAC (HMAC-SHA-256).
pub const MAC_LEN: usize = 32;
/// The smallest chunk size of a v2 file, as a power of two (1 KiB).
pub const MIN_CHUNK_LOG2: u8 = 10;
/// The largest chunk size, as a power of two (16 MiB).
pub const MAX_CHUNK_LOG2: u8 = 24;
/// The default chunk size, as a power of two (64 KiB).
pub const DEFAULT_CHUNK_LOG2: u8 = 16;
/// The most stanzas (recipients) a header holds.
pub const MAX_STANZAS: usize = 64;
/// The most chunks a file may have (the counter in the nonce is 32 bits).
pub const MAX_CHUNKS: u64 = 1 << 32;
/// Flag bit 0: a context is bound (the opener must give it).
pub const FLAG_CONTEXT: u8 = 1;
/// The longest nonce prefix of a payload (version 1's, for 128-bit nonces):
/// a nonce less its 4-byte chunk counter and its flag byte.
pub(crate) const PREFIX_LEN: usize = 11;

/// How a file is sealed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SealOptions {
    /// The payload's AEAD (default [`Scheme::M1`]).
    pub scheme: Scheme,
    /// The chunk size as a power of two, [`MIN_CHUNK_LOG2`] to
    /// [`MAX_CHUNK_LOG2`] (default [`DEFAULT_CHUNK_LOG2`]).
    pub chunk_log2: u8,
    /// Context bound to the file (any bytes, even empty): the opener must give
    /// the same to open it. Its SHA-256 enters the payload key.
    pub context: Option<Vec<u8>>,
    /// The input's length when known: a file that would need more than
    /// [`MAX_CHUNKS`] chunks is refused before anything is written, and the
    /// reader must then give exactly this many bytes.
    pub input_len: Option<u64>,
}

impl Default for SealOptions {
    fn default() -> Self {
        Self { scheme: Scheme::M1, chunk_log2: DEFAULT_CHUNK_LOG2, context: None, input_len: None }
    }
}

/// How a file is opened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// The context the file was sealed with, if any. A file bound to a context
    /// does not open without it; a file bound to none does not open with one.
    pub context: Option<Vec<u8>>,
    /// A scheme with a 64-bit tag (M3, M4, M6) that the caller accepts: such a
    /// file opens only when it names exactly that scheme (so nobody can relabel
    /// a 128-bit-tag file's scheme to face a 64-bit tag).
    pub allow_short_tag_scheme: Option<Scheme>,
    /// The scheme the caller expects, if any: a file of another scheme is
    /// refused from its header, before anything is written.
    pub expect_scheme: Option<Scheme>,
}

/// Chunks a plaintext of `len` bytes takes in chunks of `2^chunk_log2` (an
/// empty plaintext is one empty chunk).
pub fn chunks_for(len: u64, chunk_log2: u8) -> u64 {
    if len == 0 {
        1
    } else {
        (len - 1) / (1u64 << chunk_log2) + 1
    }
}
