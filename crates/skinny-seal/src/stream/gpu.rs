//! A run's windows on a GPU (feature `cuda`): each window is one batch of
//! skinny-aead's [`GpuChunks`], its chunks under the stream's nonces. The
//! GPU needs chunks of at least 16 KiB ([`MIN_CHUNK_LOG2`]: one warp's
//! 1024 blocks inside one chunk); smaller ones are refused with
//! [`EngineError::GpuChunkSize`].

use super::engine::WindowEngine;
use super::payload::Nonces;
use crate::error::EngineError;
use skinny_aead::gpu::{GpuChunks, GpuDevice, MIN_CHUNK_LOG2};
use skinny_aead::Member;
use skinny_exec::pipeline::Window;

/// Chunks the GPU engine must hold at once for windows of `window` pieces:
/// the last window of an input may hold one more (the piece read ahead to
/// learn whether the input ends stays in it; see `skinny_exec::pipeline`).
pub(super) fn gpu_chunks_per_window(window: usize) -> usize {
    window + 1
}

/// The GPU engine of one run: the batches and the stream's nonces.
pub(crate) struct GpuWindows {
    chunks: GpuChunks,
    nonces: Nonces,
}

impl GpuWindows {
    /// The kernels for `member` and chunks of `2^chunk_log2` bytes under
    /// `key` on `gpu`, for windows of up to `window` chunks.
    pub(super) fn new(
        gpu: &GpuDevice,
        member: Member,
        chunk_log2: u8,
        key: &[u8; 16],
        nonces: Nonces,
        window: usize,
    ) -> Result<Self, EngineError> {
        if chunk_log2 < MIN_CHUNK_LOG2 {
            return Err(EngineError::GpuChunkSize { chunk_log2 });
        }
        let chunks = GpuChunks::new(gpu, member, chunk_log2, key, window).map_err(EngineError::Gpu)?;
        Ok(Self { chunks, nonces })
    }

    /// The nonces of the window's chunks.
    fn nonces(&self, w: &Window) -> Vec<Nonce> {
        let (first, last, n) = (w.first, w.last, w.input.len());
        let len = self.nonces.nonce_len();
        (0..n).map(|i| Nonce { bytes: self.nonces.at(first + i as u64, last && i + 1 == n), len }).collect()
    }
}

/// A chunk's nonce, as the GPU batches take it.
struct Nonce {
    bytes: [u8; 16],
    len: usize,
}

impl AsRef<[u8]> for Nonce {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl WindowEngine for GpuWindows {
    fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), EngineError> {
        let nonces = self.nonces(w);
        self.chunks.seal(&mut w.input, &nonces, ad).map_err(EngineError::Gpu)
    }

    fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, EngineError> {
        let nonces = self.nonces(w);
        self.chunks.open(&w.input, &mut w.output, &nonces, ad).map_err(EngineError::Gpu)
    }
}
