//! Recipients other than a symmetric key: a passphrase (stanza kind 2, Argon2id)
//! and X25519 public keys (stanza kind 3). Each type implements
//! [`Recipient`](crate::Recipient) (sealing) and/or [`Identity`](crate::Identity)
//! (opening); an identity answers `Ok(None)` for a stanza that is not for it, so
//! an opener can try every identity on every stanza and report "no identity
//! matched" when none answers.

pub mod passphrase;
pub mod x25519;

pub use passphrase::{Passphrase, PassphraseParams};
pub use x25519::{X25519Identity, X25519Recipient};

use crate::stanza::{StanzaError, WRAPPED_LEN};

/// The wrapped file key at the end of a stanza body of exactly `expected` bytes.
pub(crate) fn split_body<'a>(
    kind: &'static str,
    body: &'a [u8],
    expected: usize,
) -> Result<(&'a [u8], [u8; WRAPPED_LEN]), StanzaError> {
    if body.len() != expected {
        return Err(StanzaError::Malformed { kind, why: "wrong body length" });
    }
    let (fields, wrapped) = body.split_at(expected - WRAPPED_LEN);
    let mut w = [0u8; WRAPPED_LEN];
    w.copy_from_slice(wrapped);
    Ok((fields, w))
}
