//! Stanza kind 1: a symmetric key (the user's key file), 16 or 32 bytes.
//!
//! `K_wrap = HKDF(ikm = user key, salt = stanza salt, LABEL_KEY_WRAP)[..16]`,
//! body = stanza salt (16) | wrapped file key (48). A 16-byte key also opens
//! version-1 files, whose payload key it is.

use crate::file_key::FileKey;
use crate::kdf::{derive, LABEL_KEY_WRAP};
use crate::stanza::{unwrap_file_key, wrap_file_key, Identity, Recipient, Stanza, StanzaError, KIND_KEY, WRAPPED_LEN};
use zeroize::Zeroizing;

/// Length of a key stanza's salt.
pub const KEY_STANZA_SALT_LEN: usize = 16;

/// A symmetric key: a [`Recipient`] (seals to it) and an [`Identity`] (opens
/// what was sealed to it, and version-1 files when it is 16 bytes). Zeroized
/// on drop; `Debug` shows no byte.
#[derive(Clone)]
pub struct SymmetricKey {
    key: Zeroizing<Vec<u8>>,
}

/// A key that is neither 16 nor 32 bytes long.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("a symmetric key must be 16 or 32 bytes, not {0}")]
pub struct KeyLengthError(pub usize);

impl SymmetricKey {
    /// The key of `bytes` (16 or 32 bytes).
    ///
    /// # Errors
    /// [`KeyLengthError`] for any other length.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, KeyLengthError> {
        match bytes.len() {
            16 | 32 => Ok(Self { key: Zeroizing::new(bytes.to_vec()) }),
            n => Err(KeyLengthError(n)),
        }
    }

    /// The key's length in bytes (16 or 32).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.key.len()
    }

    /// The stanza wrapping `file_key` for this key with `salt` (random in
    /// [`Recipient::wrap`]; given for test vectors through `hazmat`).
    pub(crate) fn stanza_with_salt(
        &self,
        file_key: &FileKey,
        header_start: &[u8],
        salt: &[u8; KEY_STANZA_SALT_LEN],
    ) -> Stanza {
        let wk = self.wrap_key(salt);
        let wrapped = wrap_file_key(&wk, file_key, header_start);
        let mut body = Vec::with_capacity(KEY_STANZA_SALT_LEN + WRAPPED_LEN);
        body.extend_from_slice(salt);
        body.extend_from_slice(&wrapped);
        Stanza { kind: KIND_KEY, body }
    }

    fn wrap_key(&self, salt: &[u8]) -> Zeroizing<[u8; 16]> {
        let mut wk = Zeroizing::new([0u8; 16]);
        derive(&self.key, salt, &[LABEL_KEY_WRAP], &mut wk[..]);
        wk
    }
}

impl core::fmt::Debug for SymmetricKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SymmetricKey({} bytes)", self.key.len())
    }
}

impl Recipient for SymmetricKey {
    fn wrap(&self, file_key: &FileKey, header_start: &[u8]) -> Result<Stanza, StanzaError> {
        let mut salt = [0u8; KEY_STANZA_SALT_LEN];
        getrandom::fill(&mut salt)?;
        Ok(self.stanza_with_salt(file_key, header_start, &salt))
    }
}

impl Identity for SymmetricKey {
    fn unwrap(&self, stanza: &Stanza, header_start: &[u8]) -> Result<Option<FileKey>, StanzaError> {
        if stanza.kind != KIND_KEY {
            return Ok(None);
        }
        if stanza.body.len() != KEY_STANZA_SALT_LEN + WRAPPED_LEN {
            return Err(StanzaError::Malformed { kind: "key", why: "body length" });
        }
        let (salt, wrapped) = stanza.body.split_at(KEY_STANZA_SALT_LEN);
        let mut w = [0u8; WRAPPED_LEN];
        w.copy_from_slice(wrapped);
        Ok(unwrap_file_key(&self.wrap_key(salt), &w, header_start))
    }

    fn v1_key(&self) -> Option<Zeroizing<[u8; 16]>> {
        let k: [u8; 16] = self.key.as_slice().try_into().ok()?;
        Some(Zeroizing::new(k))
    }
}
