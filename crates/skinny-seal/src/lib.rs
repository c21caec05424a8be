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
//! key. Version-1 files (a 24-byte header, a raw 16-byte key, SKINNY-AEAD
//! only, written by earlier releases) still open; [`hazmat`] writes them for
//! test vectors.
//!
//! Both versions carry one payload, the STREAM module (`stream`): one seal
//! loop and one open loop for every scheme, one CPU chunk codec, one set of
//! end-of-stream rules, run on the execution layer's pipeline on the CPU's
//! threads or (feature `cuda`, SKINNY-AEAD schemes) a GPU, through
//! skinny-aead's `gpu::GpuChunks`, with the CPU-then-GPU hand-over. A
//! [`Job`] places a run; the [`SealReport`] says where its chunks went.
//!
//! Its modules: `file_key`, `kdf` (every derivation and its label), `scheme` (the
//! payload AEADs by header id), `stanza` (recipients and identities, the wrap),
//! `symmetric` (the key stanza), `format` (constants, options), `header`
//! (canonical parsing; version 1's in `header::v1`), `derive` (the file's keys,
//! the header MAC), `stream` (the payload), `seal` / `open` (whole streams),
//! `writer` / `reader` (the io adapters), `seek` (random access), `error`,
//! `report`, `hazmat`, `armor` (the ASCII armor of `seal --armor`).
//!
//! ```
//! use skinny_seal::{open, seal, OpenOptions, SealOptions, SymmetricKey};
//! let key = SymmetricKey::from_bytes(&[7u8; 32])?;
//! let mut file = Vec::new();
//! seal(&b"attack at dawn"[..], &mut file, &[&key], &SealOptions::default())?;
//! let mut plain = Vec::new();
//! open(&file[..], &mut plain, &[&key], &OpenOptions::default())?;
//! assert_eq!(plain, b"attack at dawn");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod armor;
mod derive;
mod error;
pub mod file_key;
pub mod format;
pub mod hazmat;
pub mod header;
pub mod kdf;
pub mod keygen;
mod open;
mod reader;
pub mod recipients;
mod report;
pub mod scheme;
mod seal;
mod seek;
pub mod stanza;
mod stream;
mod symmetric;
mod writer;

pub use error::{EngineError, OpenError, SealError};
pub use file_key::{FileKey, FILE_KEY_LEN};
pub use format::{OpenOptions, SealOptions};
pub use open::{open, open_on};
pub use reader::OpenReader;
pub use report::SealReport;
pub use scheme::Scheme;
pub use seal::{seal, seal_on};
pub use seek::{open_range, SeekableOpener};
pub use stanza::{Identity, Recipient, Stanza, StanzaError};
pub use stream::{verdict, Job, AUTO_GPU_BYTES, GPU_MIN_CHUNK_LOG2};
pub use symmetric::{KeyLengthError, SymmetricKey};
pub use writer::SealWriter;

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
