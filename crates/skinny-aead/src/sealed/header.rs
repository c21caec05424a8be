//! The header: its 24 bytes, written and parsed (it is also every chunk's
//! associated data).

use super::error::SealedError;
use super::format::{HEADER_LEN, MAGIC, MAX_CHUNK_LOG2, MIN_CHUNK_LOG2, PREFIX_FIELD_LEN, VERSION};
use crate::member::Member;

/// A parsed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// The AEAD member of every chunk.
    pub member: Member,
    /// The chunk size as a power of two.
    pub chunk_log2: u8,
    /// The nonce prefix field: the member's [`Member::prefix_len`] bytes, then zeros.
    pub prefix: [u8; PREFIX_FIELD_LEN],
}

impl Header {
    /// The plaintext bytes of every chunk but the last.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// The 24 header bytes (also each chunk's associated data).
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..10].copy_from_slice(&MAGIC);
        h[10] = VERSION;
        h[11] = self.member.id();
        h[12] = self.chunk_log2;
        h[13..].copy_from_slice(&self.prefix);
        h
    }

    /// Parses and checks a header.
    ///
    /// # Errors
    /// [`SealedError::NotSealed`] (other magic), [`SealedError::UnsupportedVersion`],
    /// [`SealedError::BadHeader`] (unknown member, chunk size out of range,
    /// nonzero bytes after a 7-byte prefix).
    pub fn parse(bytes: &[u8; HEADER_LEN]) -> Result<Self, SealedError> {
        if bytes[..10] != MAGIC {
            return Err(SealedError::NotSealed);
        }
        if bytes[10] != VERSION {
            return Err(SealedError::UnsupportedVersion(bytes[10]));
        }
        let member = Member::from_id(bytes[11]).ok_or(SealedError::BadHeader("unknown AEAD member id"))?;
        let chunk_log2 = bytes[12];
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(SealedError::BadHeader("chunk size out of range"));
        }
        let mut prefix = [0u8; PREFIX_FIELD_LEN];
        prefix.copy_from_slice(&bytes[13..]);
        if prefix[member.prefix_len()..].iter().any(|&b| b != 0) {
            return Err(SealedError::BadHeader("nonzero bytes after the nonce prefix"));
        }
        Ok(Self { member, chunk_log2, prefix })
    }
}
