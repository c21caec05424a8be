//! Why a GPU seal or open failed: the device's own errors (with the driver's
//! code) kept whole as the source, and the AEAD's checks of what the kernels
//! are given.

use crate::member::Member;
use skinny_cuda::GpuError;
use std::format;
use std::string::String;

/// "1 byte", "2 bytes".
fn count_bytes(n: usize) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// Why a GPU seal or open failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuAeadError {
    /// The GPU failed: no driver or device, compilation, memory, a launch
    /// (the driver's code in [`GpuError::driver_error`]).
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A nonce of the wrong length for the member.
    #[error("{member} takes a {need}-byte nonce, got {got}")]
    NonceLength {
        /// The member.
        member: Member,
        /// Its nonce length.
        need: usize,
        /// What was given.
        got: usize,
    },
    /// A message longer than the device buffer, or than the member's counter
    /// allows.
    #[error("message length {len} does not fit (device buffer or the member's counter)")]
    Length {
        /// The length asked for.
        len: usize,
    },
    /// The tag did not verify: wrong key, nonce, AD, tag, or altered data.
    /// The message was overwritten with zeros.
    #[error("the tag does not verify (wrong key, nonce or associated data, or altered data)")]
    Tag,
    /// A tweakey of the wrong length for the kernel's variant.
    #[error("the AEAD kernel takes a {need}-byte tweakey, got {}", count_bytes(*got))]
    TweakeyLength {
        /// The variant's tweakey length.
        need: usize,
        /// What was given.
        got: usize,
    },
    /// A run before any tweakey was set.
    #[error("the AEAD kernel has no tweakey yet")]
    NoTweakey,
    /// Device buffers shorter than the blocks asked for.
    #[error("AEAD device buffers too short: {need} bytes needed, {} given", count_bytes(*got))]
    BufferTooShort {
        /// Bytes of the blocks asked for.
        need: usize,
        /// The shorter buffer's length.
        got: usize,
    },
    /// A batch of chunks [`GpuChunks`](super::GpuChunks) cannot take: empty
    /// or too large, a nonce count other than the chunks', a chunk of the
    /// wrong length, too few output buffers.
    #[error("a batch of chunks the GPU cannot take: {why}")]
    Batch {
        /// What is wrong with it.
        why: &'static str,
    },
    /// A chunk size the chunk kernels cannot take: a warp's 1024 blocks must lie
    /// inside one chunk.
    #[error("the GPU's AEAD chunk kernels take chunks of 16 KiB to 16 MiB (2^14 to 2^24 bytes), not 2^{chunk_log2}")]
    ChunkSize {
        /// The chunk size asked for, as a power of two.
        chunk_log2: u32,
    },
}
