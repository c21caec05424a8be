//! The headers: version 2's ([`Header`], what this crate writes), written
//! and parsed canonically (one encoding a header; anything else is refused
//! before any key is tried), and version 1's (`v1`, read once when such a
//! file is opened, and written for test vectors).
//!
//! ```text
//! 0   10  "SKINNYSEAL"        10 1 version = 2     11 1 scheme id 1..8
//! 12  1   log2 chunk size 10..24                   13 1 flags (bit 0: context)
//! 14  16  payload salt        30 1 stanza count 1..64
//! 31  ..  stanzas: kind (1) | body length (2, big-endian) | body
//! ..  32  HMAC-SHA-256(K_header, every byte before it)
//! ```

use crate::error::OpenError;
use crate::format::{
    FLAG_CONTEXT, HEADER_START_LEN, MAC_LEN, MAGIC, MAX_CHUNK_LOG2, MAX_STANZAS, MIN_CHUNK_LOG2, SALT_LEN, VERSION,
};
use crate::scheme::Scheme;
use crate::stanza::{Stanza, KIND_KEY, KIND_PASSPHRASE, KIND_X25519};
use std::io::{self, Read};

pub(crate) mod v1;

/// The exact body length of each stanza kind (`None`: unknown kind).
pub fn stanza_body_len(kind: u8) -> Option<usize> {
    match kind {
        KIND_KEY => Some(16 + 48),
        KIND_PASSPHRASE => Some(4 + 4 + 1 + 16 + 48),
        KIND_X25519 => Some(32 + 48),
        _ => None,
    }
}

/// A parsed v2 header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The payload's scheme.
    pub scheme: Scheme,
    /// The chunk size as a power of two.
    pub chunk_log2: u8,
    /// The flags byte (only bit 0 may be set).
    pub flags: u8,
    /// The payload salt.
    pub salt: [u8; SALT_LEN],
    /// The recipient stanzas (1 to 64).
    pub stanzas: Vec<Stanza>,
    /// The header MAC.
    pub mac: [u8; MAC_LEN],
}

/// The header's fixed start for these fields (the AD of every stanza's wrap).
pub fn header_start(scheme: Scheme, chunk_log2: u8, flags: u8, salt: &[u8; SALT_LEN]) -> [u8; HEADER_START_LEN] {
    let mut h = [0u8; HEADER_START_LEN];
    h[..10].copy_from_slice(&MAGIC);
    h[10] = VERSION;
    h[11] = scheme.id();
    h[12] = chunk_log2;
    h[13] = flags;
    h[14..].copy_from_slice(salt);
    h
}

impl Header {
    /// The plaintext bytes of every chunk but the last.
    pub fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// Whether a context is bound.
    pub fn context_bound(&self) -> bool {
        self.flags & FLAG_CONTEXT != 0
    }

    /// The fixed start (magic through payload salt).
    pub fn start(&self) -> [u8; HEADER_START_LEN] {
        header_start(self.scheme, self.chunk_log2, self.flags, &self.salt)
    }

    /// Every header byte before the MAC (what the MAC covers).
    pub fn authenticated_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        out.extend_from_slice(&self.start());
        // At most MAX_STANZAS stanzas (checked where headers are made).
        out.push(self.stanzas.len() as u8);
        for s in &self.stanzas {
            out.push(s.kind);
            out.extend_from_slice(&(s.body.len() as u16).to_be_bytes());
            out.extend_from_slice(&s.body);
        }
        out
    }

    /// The whole header.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = self.authenticated_bytes();
        out.extend_from_slice(&self.mac);
        out
    }

    /// The header's length in bytes.
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        HEADER_START_LEN + 1 + self.stanzas.iter().map(|s| 3 + s.body.len()).sum::<usize>() + MAC_LEN
    }

    /// Parses a whole v2 header from `bytes` (which may go on with the payload):
    /// the header and its length.
    ///
    /// # Errors
    /// As [`Header::read_after_version`], and [`OpenError::NotSealed`] /
    /// [`OpenError::UnsupportedVersion`] for another magic or version.
    pub fn parse(bytes: &[u8]) -> Result<(Self, usize), OpenError> {
        let mut r = bytes;
        let mut first = [0u8; 11];
        read_exact(&mut r, &mut first)?;
        if first[..10] != MAGIC {
            return Err(OpenError::NotSealed);
        }
        if first[10] != VERSION {
            return Err(OpenError::UnsupportedVersion(first[10]));
        }
        let h = Self::read_after_version(&first, &mut r)?;
        let n = h.len();
        Ok((h, n))
    }

    /// Reads the rest of a v2 header whose first 11 bytes (magic, version 2)
    /// were `first`, checking every field as it comes: nothing is allocated
    /// beyond what the checked count and exact lengths allow (about 5 KiB).
    ///
    /// # Errors
    /// [`OpenError::BadHeader`] for any non-canonical field (unknown scheme,
    /// chunk size or flags out of range, stanza count 0 or over 64, an unknown
    /// kind, a body length not its kind's, a passphrase stanza with others, two
    /// identical stanzas); [`OpenError::TruncatedHeader`]; [`OpenError::Read`].
    pub fn read_after_version(first: &[u8; 11], r: &mut impl Read) -> Result<Self, OpenError> {
        if first[..10] != MAGIC {
            return Err(OpenError::NotSealed);
        }
        if first[10] != VERSION {
            return Err(OpenError::UnsupportedVersion(first[10]));
        }
        let mut rest = [0u8; HEADER_START_LEN - 11 + 1];
        read_exact(r, &mut rest)?;
        let scheme = Scheme::from_id(rest[0]).ok_or(OpenError::BadHeader("unknown scheme id"))?;
        let chunk_log2 = rest[1];
        if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
            return Err(OpenError::BadHeader("chunk size out of range"));
        }
        let flags = rest[2];
        if flags & !FLAG_CONTEXT != 0 {
            return Err(OpenError::BadHeader("unknown flag bits set"));
        }
        let mut salt = [0u8; SALT_LEN];
        salt.copy_from_slice(&rest[3..3 + SALT_LEN]);
        let count = usize::from(rest[3 + SALT_LEN]);
        if count == 0 || count > MAX_STANZAS {
            return Err(OpenError::BadHeader("stanza count out of range (1 to 64)"));
        }
        let mut stanzas: Vec<Stanza> = Vec::with_capacity(count);
        for _ in 0..count {
            let mut head = [0u8; 3];
            read_exact(r, &mut head)?;
            let want = stanza_body_len(head[0]).ok_or(OpenError::BadHeader("unknown stanza kind"))?;
            if usize::from(u16::from_be_bytes([head[1], head[2]])) != want {
                return Err(OpenError::BadHeader("stanza body length is not its kind's"));
            }
            let mut body = vec![0u8; want];
            read_exact(r, &mut body)?;
            let s = Stanza { kind: head[0], body };
            if stanzas.contains(&s) {
                return Err(OpenError::BadHeader("the same stanza twice"));
            }
            stanzas.push(s);
        }
        if count > 1 && stanzas.iter().any(|s| s.kind == KIND_PASSPHRASE) {
            return Err(OpenError::BadHeader("a passphrase stanza must be the only one"));
        }
        let mut mac = [0u8; MAC_LEN];
        read_exact(r, &mut mac)?;
        Ok(Self { scheme, chunk_log2, flags, salt, stanzas, mac })
    }
}

/// Fills `buf`, or says the header was cut short.
fn read_exact(r: &mut impl Read, buf: &mut [u8]) -> Result<(), OpenError> {
    match r.read_exact(buf) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(OpenError::TruncatedHeader),
        Err(e) => Err(OpenError::Read(e)),
    }
}
