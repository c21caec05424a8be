//! Sealed files: a stream of any length encrypted and authenticated in chunks
//! with SKINNY-AEAD or Romulus (the STREAM construction), as `skinny seal` and
//! `skinny open` write and read them. The repository's `docs/sealed-format.md` is
//! the specification, with test vectors.
//!
//! Format v2 (what this crate writes) draws a 32-byte file key for every file,
//! wraps it for each recipient in a stanza of the header (a symmetric key, a
//! passphrase, an X25519 public key), authenticates the header with
//! HMAC-SHA-256 under a key derived from the file key (which commits the file to
//! one file key, hence to one plaintext), and derives the payload key from the
//! file key, a random 128-bit salt, the scheme and the optional context with
//! HKDF-SHA-256, so no key serves two schemes and no two files share a payload
//! key. Version-1 files (`skinny_aead::sealed`) still open.
//!
//! Its modules: `file_key`, `kdf` (every derivation and its label), `scheme` (the
//! payload AEADs by header id), `stanza` (recipients and identities, the wrap).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod file_key;
pub mod kdf;
pub mod keygen;
pub mod recipients;
pub mod scheme;
pub mod stanza;

pub use file_key::{FileKey, FILE_KEY_LEN};
pub use scheme::Scheme;
pub use stanza::{Identity, Recipient, Stanza, StanzaError};
