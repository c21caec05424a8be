//! Recipient stanzas: how a reader gets a sealed file's file key.
//!
//! A v2 header holds one or more stanzas; each wraps the same file key for one
//! recipient: `kind (1 byte) | body length (2 bytes, big-endian) | body`. Every
//! wrap is SKINNY-AEAD-M1 under a 128-bit wrapping key used once (derived from a
//! fresh salt or ephemeral key), nonce zero, with the header's fixed start (magic
//! through payload salt) as associated data, so a stanza cannot be moved to
//! another file: `wrapped = M1(K_wrap, 0^16, header_start, file key)`, 48 bytes.

use crate::file_key::{FileKey, FILE_KEY_LEN};
use aead::{AeadInOut, KeyInit};
use skinny_aead::SkinnyAeadM1;
use zeroize::Zeroizing;

/// Stanza kind: a symmetric key (the user's key file): body = salt (16) | wrapped (48).
pub const KIND_KEY: u8 = 1;
/// Stanza kind: a passphrase (Argon2id): body = parameters, salt, wrapped (48).
pub const KIND_PASSPHRASE: u8 = 2;
/// Stanza kind: an X25519 recipient: body = ephemeral public key (32) | wrapped (48).
pub const KIND_X25519: u8 = 3;

/// Length of a wrapped file key: the key and M1's 16-byte tag.
pub const WRAPPED_LEN: usize = FILE_KEY_LEN + 16;

/// One stanza as it stands in the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stanza {
    /// The kind byte.
    pub kind: u8,
    /// The body (its length is written before it; each kind has a fixed length).
    pub body: Vec<u8>,
}

/// Why a stanza could not be made or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StanzaError {
    /// A stanza of this kind with a body that is not this kind's encoding.
    #[error("damaged header: a {kind} stanza is malformed ({why})")]
    Malformed {
        /// The kind's name.
        kind: &'static str,
        /// What is wrong (never key material).
        why: &'static str,
    },
    /// The operating system's random generator failed.
    #[error("the operating system's random generator failed")]
    Random(#[from] getrandom::Error),
    /// A key derivation could not run (e.g. passphrase parameters out of bounds).
    #[error("{0}")]
    Kdf(String),
    /// A passphrase stanza asks for more Argon2id work than the opener's cap
    /// (refused before any of it is done).
    #[error(
        "the passphrase stanza asks for {work} MiB x passes of Argon2id, above the limit of {cap} \
         (refused before running it; raise the limit only for a file made with a higher cost on purpose)"
    )]
    PassphraseCost {
        /// The stanza's work, MiB times passes.
        work: u64,
        /// The cap.
        cap: u64,
    },
}

/// Someone a file is sealed to: wraps a file key into a stanza.
pub trait Recipient {
    /// The stanza for this recipient. `header_start` is the header's fixed start
    /// (magic through payload salt), to be bound to the wrap.
    fn wrap(&self, file_key: &FileKey, header_start: &[u8]) -> Result<Stanza, StanzaError>;

    /// Whether a file sealed to this recipient may have no other stanza (a
    /// passphrase: whoever knows another recipient's key should not learn that the
    /// file is also under a passphrase, and the opener should not be asked for one
    /// needlessly).
    fn must_be_alone(&self) -> bool {
        false
    }
}

/// Someone who can open a file: unwraps a stanza meant for them.
pub trait Identity {
    /// The file key, if this stanza is for this identity: `Ok(None)` when it is of
    /// another kind or its wrap does not open under this identity; `Err` when it
    /// is of this identity's kind and malformed, or its key derivation cannot run.
    fn unwrap(&self, stanza: &Stanza, header_start: &[u8]) -> Result<Option<FileKey>, StanzaError>;

    /// The raw 16-byte key, for opening version-1 files (which have no stanzas):
    /// only a symmetric key has one.
    fn v1_key(&self) -> Option<Zeroizing<[u8; 16]>> {
        None
    }
}

/// Wraps `file_key` under `wrap_key` (used for this one wrap only).
pub fn wrap_file_key(wrap_key: &[u8; 16], file_key: &FileKey, header_start: &[u8]) -> [u8; WRAPPED_LEN] {
    let cipher = SkinnyAeadM1::new(wrap_key.into());
    let mut out = [0u8; WRAPPED_LEN];
    out[..FILE_KEY_LEN].copy_from_slice(file_key.expose());
    let nonce = [0u8; 16];
    let (body, tag) = out.split_at_mut(FILE_KEY_LEN);
    // M1 fails only for messages over its length limit; 32 bytes are far below it.
    let Ok(t) = cipher.encrypt_inout_detached(&nonce.into(), header_start, body.into()) else {
        unreachable!("a 32-byte message is within SKINNY-AEAD-M1's limits")
    };
    tag.copy_from_slice(&t);
    out
}

/// The file key in `wrapped`, if it opens under `wrap_key` with `header_start`.
pub fn unwrap_file_key(wrap_key: &[u8; 16], wrapped: &[u8; WRAPPED_LEN], header_start: &[u8]) -> Option<FileKey> {
    let cipher = SkinnyAeadM1::new(wrap_key.into());
    let mut key = Zeroizing::new([0u8; FILE_KEY_LEN]);
    key.copy_from_slice(&wrapped[..FILE_KEY_LEN]);
    let tag = aead::Tag::<SkinnyAeadM1>::try_from(&wrapped[FILE_KEY_LEN..]).ok()?;
    let nonce = [0u8; 16];
    cipher.decrypt_inout_detached(&nonce.into(), header_start, key.as_mut_slice().into(), &tag).ok()?;
    Some(FileKey::from_bytes(*key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_round_trip_and_binding() {
        let fk = FileKey::from_bytes([9u8; 32]);
        let wk = [3u8; 16];
        let w = wrap_file_key(&wk, &fk, b"header start");
        assert_eq!(unwrap_file_key(&wk, &w, b"header start").unwrap().expose(), fk.expose());
        assert!(unwrap_file_key(&[4u8; 16], &w, b"header start").is_none());
        assert!(unwrap_file_key(&wk, &w, b"header starT").is_none());
        let mut bad = w;
        bad[0] ^= 1;
        assert!(unwrap_file_key(&wk, &bad, b"header start").is_none());
    }
}
