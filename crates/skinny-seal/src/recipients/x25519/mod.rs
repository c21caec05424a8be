//! X25519 recipients (stanza kind 3), as age's: the sealer draws an ephemeral key
//! pair for every stanza and wraps the file key under a key derived from the
//! Diffie-Hellman shared secret.
//!
//! Body (80 bytes): `ephemeral public key (32) | wrapped (48)`;
//! `shared = X25519(ephemeral secret, recipient public)`, refused when all zero
//! (a low-order point: it would make the wrap key public);
//! `K_wrap = HKDF-SHA-256(ikm = shared, salt = ephemeral public | recipient public,
//! info = LABEL_X25519_WRAP)[..16]`.

use crate::file_key::FileKey;
use crate::kdf::{derive, LABEL_X25519_WRAP};
use crate::stanza::{
    unwrap_file_key, wrap_file_key, Identity, Recipient, Stanza, StanzaError, KIND_X25519, WRAPPED_LEN,
};
use subtle::ConstantTimeEq;
use x25519_dalek::{PublicKey, StaticSecret};
use zeroize::Zeroizing;

/// Length of an X25519 stanza's body.
pub const BODY_LEN: usize = 32 + WRAPPED_LEN;
const NAME: &str = "x25519";

/// An X25519 public key that files are sealed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct X25519Recipient(PublicKey);

impl X25519Recipient {
    /// The recipient with this public key (its 32 bytes, RFC 7748 encoding).
    pub fn from_bytes(public: [u8; 32]) -> Self {
        Self(PublicKey::from(public))
    }

    /// The public key's 32 bytes.
    pub fn to_bytes(&self) -> [u8; 32] {
        self.0.to_bytes()
    }

    /// Whether this is a point of low order (u = 0, 1, and the few others of
    /// order 2, 4 or 8): its shared secret with every clamped scalar is zero,
    /// so a file key wrapped to it would be public. Such a recipient is a bad
    /// argument; sealing to it fails too.
    pub fn is_low_order(&self) -> bool {
        // A clamped scalar is a multiple of the cofactor 8, which kills every
        // low-order component: any fixed scalar tells (the key is public).
        let probe = StaticSecret::from([0x5a; 32]);
        !probe.diffie_hellman(&self.0).was_contributory()
    }
}

/// An X25519 secret key that opens files sealed to its public key (zeroized on
/// drop; `Debug` shows no bytes).
#[derive(Clone)]
pub struct X25519Identity(StaticSecret);

impl X25519Identity {
    /// A fresh identity from the operating system's generator.
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = Zeroizing::new([0u8; 32]);
        getrandom::fill(bytes.as_mut_slice())?;
        Ok(Self(StaticSecret::from(*bytes)))
    }

    /// The identity with this secret key (32 bytes, clamped by X25519 as usual).
    pub fn from_bytes(secret: [u8; 32]) -> Self {
        Self(StaticSecret::from(secret))
    }

    /// The secret key's bytes (for writing the identity file).
    pub fn secret_bytes(&self) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.0.to_bytes())
    }

    /// `X25519(secret, public)` (RFC 7748), the raw shared secret.
    pub(crate) fn shared_secret(&self, public: &[u8; 32]) -> Zeroizing<[u8; 32]> {
        Zeroizing::new(self.0.diffie_hellman(&PublicKey::from(*public)).to_bytes())
    }

    /// The public key files are sealed to.
    pub fn recipient(&self) -> X25519Recipient {
        X25519Recipient(PublicKey::from(&self.0))
    }
}

impl core::fmt::Debug for X25519Identity {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("X25519Identity(..)")
    }
}

/// The wrapping key from a shared secret, refusing the all-zero one.
fn wrap_key(shared: &[u8; 32], ephemeral: &[u8; 32], recipient: &[u8; 32]) -> Result<Zeroizing<[u8; 16]>, StanzaError> {
    // The verdict is public (the stanza is refused); the comparison runs in
    // constant time over the whole secret.
    if skinny::hazmat::ct::declassify(bool::from(shared.ct_eq(&[0u8; 32]))) {
        return Err(StanzaError::Malformed { kind: NAME, why: "a low-order key gives an all-zero shared secret" });
    }
    let mut salt = [0u8; 64];
    salt[..32].copy_from_slice(ephemeral);
    salt[32..].copy_from_slice(recipient);
    let mut key = Zeroizing::new([0u8; 16]);
    derive(shared, &salt, &[LABEL_X25519_WRAP], key.as_mut_slice());
    Ok(key)
}

impl Recipient for X25519Recipient {
    fn wrap(&self, file_key: &FileKey, header_start: &[u8]) -> Result<Stanza, StanzaError> {
        let ephemeral = X25519Identity::generate()?;
        let eph_public = ephemeral.recipient().to_bytes();
        let shared = Zeroizing::new(ephemeral.0.diffie_hellman(&self.0).to_bytes());
        let key = wrap_key(&shared, &eph_public, self.0.as_bytes())?;
        let mut body = Vec::with_capacity(BODY_LEN);
        body.extend_from_slice(&eph_public);
        body.extend_from_slice(&wrap_file_key(&key, file_key, header_start));
        Ok(Stanza { kind: KIND_X25519, body })
    }
}

impl Identity for X25519Identity {
    fn unwrap(&self, stanza: &Stanza, header_start: &[u8]) -> Result<Option<FileKey>, StanzaError> {
        if stanza.kind != KIND_X25519 {
            return Ok(None);
        }
        let (fields, wrapped) = super::split_body(NAME, &stanza.body, BODY_LEN)?;
        let mut eph_public = [0u8; 32];
        eph_public.copy_from_slice(fields);
        let shared = self.shared_secret(&eph_public);
        let key = wrap_key(&shared, &eph_public, &self.recipient().to_bytes())?;
        Ok(unwrap_file_key(&key, &wrapped, header_start))
    }
}

#[cfg(test)]
mod tests;
