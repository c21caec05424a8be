//! The sealed file format: a stream of any length encrypted and authenticated
//! in chunks with SKINNY-AEAD, by the STREAM construction (Hoang, Reyhanitabar,
//! Rogaway, Vizár: *Online authenticated-encryption and its nonce-reuse
//! misuse-resistance*, CRYPTO 2015). Needs the `std` feature.
//!
//! ```text
//! header (24 bytes) | chunk 0 | chunk 1 | ... | chunk n-1 (the last)
//!
//! header = "SKINNYSEAL" (10) | version = 1 (1) | member id 1..6 (1)
//!        | log2 chunk size 4..24 (1) | nonce prefix field (11)
//! chunk i = SKINNY-AEAD(key, nonce_i, AD = the 24 header bytes, plaintext_i)
//!         = ciphertext_i (as long as plaintext_i) | tag_i (16 or 8 bytes)
//! nonce_i = prefix | i as 32-bit big-endian | 0x01 for the last chunk, else 0x00
//! ```
//!
//! Every chunk but the last holds exactly `chunk size` plaintext bytes; the last
//! holds 0 to `chunk size` (an empty input is one empty last chunk). The prefix
//! is drawn from the operating system for every file: 11 bytes for the members
//! with a 128-bit nonce (M1, M3), 7 bytes for those with a 96-bit nonce (the
//! last 4 bytes of the field are then zero). Because every chunk's nonce holds
//! its position and whether it is the last, and every chunk authenticates the
//! whole header, reordering, dropping (also at a chunk boundary), appending or
//! splicing chunks, and changing the header, are all detected, and so is a
//! wrong key. The repository's `docs/sealed-format.md` is the full
//! specification, with a test vector.
//!
//! [`seal`] and [`open`] move a reader to a writer with bounded memory (windows
//! of chunks, sealed or opened in parallel on rayon's pool while one thread
//! reads the next window and another writes the last). [`open`]
//! writes a chunk's plaintext only after its tag verified; on failure, the
//! chunks already written stay written (the writer's owner decides what to do
//! with them, e.g. delete a temporary file).
//!
//! [`seal_on`], [`hazmat::seal_with_prefix_on`] and [`open_on`] do the same as a
//! [`Job`] places them: the execution layer's placement (the CPU with its
//! threads, what [`seal`] and [`open`] use; with the `cuda` feature an NVIDIA
//! GPU, which runs each window's chunks in one kernel launch, chunks of 16 KiB
//! or more, [`GPU_MIN_CHUNK_LOG2`]; or `auto`, by this format's [`verdict`]).
//! Both engines write the same bytes for the same prefix and open each
//! other's files, with the same errors. Because they do so chunk by chunk, a
//! run starts on the CPU while its GPU is being opened, and moves to the GPU
//! once it is ready; the [`SealedReport`] says where the chunks went.
//!
//! Its modules, one concern each: `format` (constants, options), `header`, `nonce` (the
//! STREAM nonces), `chunks` (the CPU's work on a window), `placement` (where
//! windows run), `run` (the entry points and their window loops), `report`,
//! `error`; `windows` (what an engine does with a window) and `gpu` (the
//! GPU's work on a window, feature `cuda`). Reading, working and writing
//! overlapped, and the CPU-then-GPU hand-over, are the execution layer's
//! (`skinny_exec::pipeline`, `skinny_exec::handover`), shared with the raw
//! modes.
//!
//! ```
//! use skinny_aead::sealed::{self, SealOptions};
//! let key = [7u8; 16];
//! let mut file = Vec::new();
//! sealed::seal(&b"attack at dawn"[..], &mut file, &key, &SealOptions::default())?;
//! let mut plain = Vec::new();
//! sealed::open(&file[..], &mut plain, &key)?;
//! assert_eq!(plain, b"attack at dawn");
//! file[30] ^= 1;
//! assert!(sealed::open(&file[..], &mut Vec::new(), &key).is_err());
//! # Ok::<(), sealed::SealedError>(())
//! ```

mod chunks;
mod error;
mod format;
#[cfg(feature = "cuda")]
mod gpu;
mod header;
mod nonce;
mod payload;
mod placement;
mod report;
mod run;
mod windows;

pub use crate::member::Member;
pub use error::{BoxError, SealedError};
pub use format::{
    SealOptions, DEFAULT_CHUNK_LOG2, GPU_MIN_CHUNK_LOG2, HEADER_LEN, MAGIC, MAX_CHUNKS, MAX_CHUNK_LOG2, MIN_CHUNK_LOG2,
    PREFIX_FIELD_LEN, VERSION,
};
pub use header::Header;
pub use placement::{verdict, Job, AUTO_GPU_BYTES};
pub use report::SealedReport;
pub use run::{open, open_on, seal, seal_on};

/// Calls that break the format's guarantees when misused: a nonce prefix
/// given instead of drawn ([`seal_with_prefix`](hazmat::seal_with_prefix), for test vectors),
/// and the bare chunk engine under a caller's key, nonce
/// prefix and associated data, for formats built on this one (v2 in the
/// `skinny-seal` crate).
pub mod hazmat {
    pub use super::payload::{open_chunks_on, seal_chunks_on};
    pub use super::run::{seal_with_prefix, seal_with_prefix_on};
}
