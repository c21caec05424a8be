//! The version-1 header: 24 bytes, written and parsed once (it is also
//! every chunk's associated data).
//!
//! ```text
//! "SKINNYSEAL" (10) | version = 1 (1) | member id 1..6 (1)
//! | log2 chunk size 4..24 (1) | nonce prefix field (11)
//! ```
//!
//! The prefix is random for every file: 11 bytes for the members with a
//! 128-bit nonce (M1, M3), 7 bytes for those with a 96-bit nonce (the last
//! 4 bytes of the field are then zero).

use crate::error::OpenError;
use crate::format::MAGIC;
use crate::format::PREFIX_LEN;
use crate::scheme::Scheme;

/// The format version of these headers.
pub(crate) const VERSION: u8 = 1;
/// The header's length in bytes.
pub(crate) const HEADER_LEN: usize = 24;
/// The smallest chunk size, as a power of two (16 bytes).
pub(crate) const MIN_CHUNK_LOG2: u8 = 4;
/// The largest chunk size, as a power of two (16 MiB).
pub(crate) const MAX_CHUNK_LOG2: u8 = 24;

/// A version-1 header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct V1Header {
    /// The SKINNY-AEAD member of every chunk (M1 to M6).
    pub scheme: Scheme,
    /// The chunk size as a power of two.
    pub chunk_log2: u8,
    /// The nonce prefix field: the scheme's nonce length - 5 bytes, then zeros.
    pub prefix: [u8; PREFIX_LEN],
}

impl V1Header {
    /// The header of `scheme` (a SKINNY-AEAD member), `chunk_log2` and
    /// `prefix` (the scheme's nonce length - 5 bytes), checked.
    pub fn new(scheme: Scheme, chunk_log2: u8, prefix: &[u8]) -> Result<Self, &'static str> {
        if scheme.aead_member().is_none() {
            return Err("version 1 holds SKINNY-AEAD members only");
        }
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err("the chunk size must be 2^4 to 2^24 bytes");
        }
        if prefix.len() != scheme.nonce_len() - 5 {
            return Err("the nonce prefix has the wrong length for this member");
        }
        let mut field = [0u8; PREFIX_LEN];
        field[..prefix.len()].copy_from_slice(prefix);
        Ok(Self { scheme, chunk_log2, prefix: field })
    }

    /// The 24 header bytes.
    pub fn to_bytes(self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..10].copy_from_slice(&MAGIC);
        h[10] = VERSION;
        h[11] = self.scheme.id();
        h[12] = self.chunk_log2;
        h[13..].copy_from_slice(&self.prefix);
        h
    }

    /// Parses the fields of a header whose magic and version were read.
    ///
    /// # Errors
    /// [`OpenError::BadHeader`]: an unknown member, a chunk size out of
    /// range, nonzero bytes after a 7-byte prefix.
    pub fn parse(bytes: &[u8; HEADER_LEN]) -> Result<Self, OpenError> {
        let scheme = Scheme::from_id(bytes[11])
            .filter(|s| s.aead_member().is_some())
            .ok_or(OpenError::BadHeader("unknown AEAD member id"))?;
        let chunk_log2 = bytes[12];
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(OpenError::BadHeader("chunk size out of range"));
        }
        let mut prefix = [0u8; PREFIX_LEN];
        prefix.copy_from_slice(&bytes[13..]);
        if prefix[scheme.nonce_len() - 5..].iter().any(|&b| b != 0) {
            return Err(OpenError::BadHeader("nonzero bytes after the nonce prefix"));
        }
        Ok(Self { scheme, chunk_log2, prefix })
    }
}
