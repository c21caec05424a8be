//! The payload: a stream of any length encrypted and authenticated in chunks
//! by the STREAM construction (Hoang, Reyhanitabar, Rogaway, Vizár:
//! *Online authenticated-encryption and its nonce-reuse misuse-resistance*,
//! CRYPTO 2015), the same for both format versions and every scheme.
//!
//! ```text
//! chunk i = scheme(key, nonce_i, AD, plaintext_i) = ciphertext_i | tag_i
//! nonce_i = prefix | i as 32-bit big-endian | 0x01 for the last chunk, else 0x00
//! ```
//!
//! Every chunk but the last holds exactly `2^chunk_log2` plaintext bytes; the
//! last 0 to that many (0 only for an empty stream, or after full chunks in
//! a version-1 file). Version 2: the key is derived for the file, the prefix
//! is zeros and the AD the header MAC; version 1: the key is the user's, the
//! prefix the header's random one and the AD the 24 header bytes. Because
//! each nonce holds the chunk's position and whether it is the last,
//! reordering, dropping, appending or splicing chunks is detected.
//!
//! Its parts, one concern each: `payload` ([`Stream`]: a file's payload
//! parameters, and its nonces), `chunk` (one chunk sealed or opened on the
//! CPU, a window of them on rayon's pool, and the end-of-stream rules: an
//! empty last chunk, a cut, the verified prefix), `run` (the one seal loop
//! and the one open loop, on the execution layer's pipeline), `placement`
//! (where a run's windows go: [`Job`], [`verdict`]), `engine` (what an
//! engine other than the CPU does with a window; the CPU-then-GPU
//! hand-over) and `gpu` (skinny-aead's `GpuChunks` as such an engine,
//! feature `cuda`).

mod chunk;
mod engine;
#[cfg(feature = "cuda")]
mod gpu;
mod payload;
mod placement;
mod run;

pub(crate) use payload::{Nonces, Stream};
pub(crate) use placement::{check_job, JobError};
pub use placement::{verdict, Job, AUTO_GPU_BYTES, GPU_MIN_CHUNK_LOG2};
pub(crate) use run::{open, seal};

#[cfg(test)]
mod tests;
