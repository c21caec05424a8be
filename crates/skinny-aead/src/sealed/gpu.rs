//! Sealing and opening a window of chunks on the GPU (feature `cuda`).
//!
//! Per window: the chunks are gathered into one page-locked staging area
//! (chunk c at c x chunk size, in parallel), each chunk's masks made from its
//! nonce by SKINNY's key schedule on rayon's pool, and one launch runs the
//! whole blocks of every chunk (`AeadChunks`, in `gpu/kernel.rs`). The rest of
//! each chunk (its partial last block, the tag block and the 24-byte header as
//! AD: a handful of blocks) is finished on the CPU in parallel by the mode's
//! own code, as `GpuAead` does for one message. Opening releases a chunk's
//! plaintext into its output buffer only after its tag verified.
//!
//! The GPU needs chunks of at least 16 KiB ([`GPU_MIN_CHUNK_LOG2`]: one
//! warp's 1024 blocks inside one chunk); smaller ones are refused with
//! [`SealedError::GpuChunkSize`].

use super::error::SealedError;
use super::format::GPU_MIN_CHUNK_LOG2;
use super::header::Header;
use super::windows::WindowEngine;
use crate::gpu::inputs::{chunk_key_bits, AeadCounter};
use crate::gpu::{finish_on_cpu, run_tweakey, AeadOp, GpuAeadError, GpuDevice};
use crate::member::Member;
use crate::mode::D_MSG;
use crate::tweakey::{Lfsr, BLOCK};
use kernel::AeadChunks;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::Direction;
use skinny::Skinny;
use skinny_exec::pipeline::Window;
use std::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

// The chunk kernels' launches: the one file of the sealed format with
// `unsafe` code.
#[allow(unsafe_code)]
pub(super) mod kernel;

/// Chunks the GPU engine must hold at once for windows of `window` pieces:
/// the last window of an input may hold one more (the piece read ahead to
/// learn whether the input ends stays in it; see `skinny_exec::pipeline`).
pub(super) fn gpu_chunks_per_window(window: usize) -> usize {
    window + 1
}

/// What the engine needs of the chunk kernels: [`AeadChunks`] on a GPU, or
/// (in the unit tests) the specification code, so the host side of this
/// engine runs without a GPU too.
pub(super) trait ChunkKernel {
    /// Key bits a chunk (the variant's rounds).
    fn rounds(&self) -> usize;
    /// The staging area, chunk c at c x chunk size.
    fn staging(&mut self) -> Result<&mut [u8], GpuAeadError>;
    /// Runs the whole blocks of `nchunks` chunks (the last ending at `bytes`)
    /// in place; returns each chunk's sum.
    fn run(
        &mut self,
        op: AeadOp,
        key_bits: &[u64],
        nchunks: usize,
        bytes: usize,
    ) -> Result<Zeroizing<Vec<[u8; 16]>>, GpuAeadError>;
}

impl ChunkKernel for AeadChunks {
    fn rounds(&self) -> usize {
        AeadChunks::rounds(self)
    }
    fn staging(&mut self) -> Result<&mut [u8], GpuAeadError> {
        AeadChunks::staging(self)
    }
    fn run(
        &mut self,
        op: AeadOp,
        key_bits: &[u64],
        nchunks: usize,
        bytes: usize,
    ) -> Result<Zeroizing<Vec<[u8; 16]>>, GpuAeadError> {
        AeadChunks::run(self, op, key_bits, nchunks, bytes)
    }
}

/// The GPU engine of one file: its kernels and buffers, the key, and the
/// chunks' key bits of the current window.
pub(super) struct GpuChunks<K: ChunkKernel = AeadChunks> {
    kernel: K,
    m: Member,
    header: Header,
    key: Zeroizing<[u8; 16]>,
    key_bits: Zeroizing<Vec<u64>>,
}

impl GpuChunks {
    /// The kernels for `header`'s member and chunk size on `gpu`, for windows
    /// of up to `window` chunks.
    pub(super) fn new(gpu: &GpuDevice, header: &Header, key: &[u8; 16], window: usize) -> Result<Self, SealedError> {
        if header.chunk_log2 < GPU_MIN_CHUNK_LOG2 {
            return Err(SealedError::GpuChunkSize { chunk_log2: header.chunk_log2 });
        }
        let m = header.member;
        let start = Lfsr::new(m.layout()).value();
        let kernel = AeadChunks::new(gpu, AeadCounter::of(m), u32::from(header.chunk_log2), window, start)
            .map_err(SealedError::Gpu)?;
        Ok(Self::with_kernel(kernel, header, key))
    }
}

impl<K: ChunkKernel> GpuChunks<K> {
    fn with_kernel(kernel: K, header: &Header, key: &[u8; 16]) -> Self {
        let m = header.member;
        Self { kernel, m, header: *header, key: Zeroizing::new(*key), key_bits: Zeroizing::new(Vec::new()) }
    }

    /// The key bits of chunks `first..first + n` (the last of them the file's
    /// last when `last`), in parallel: SKINNY's key schedule of each chunk's
    /// message tweakey.
    fn make_key_bits(&mut self, first: u64, n: usize, last: bool) {
        let rounds = self.kernel.rounds();
        self.key_bits.resize(n * rounds, 0);
        let (m, header, key) = (self.m, &self.header, &*self.key);
        self.key_bits.par_chunks_mut(rounds).enumerate().for_each(|(i, out)| {
            let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
            let tk = run_tweakey(m, key, &nonce[..len], D_MSG);
            // Cannot fail: the tweakey has the variant's length.
            if let Ok(cipher) = Skinny::new(m.layout().variant(), &tk) {
                chunk_key_bits(&cipher, out);
            }
        });
    }

    /// Seals the window in place: each input chunk becomes ciphertext ‖ tag.
    pub(super) fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), SealedError> {
        let n = w.input.len();
        let (first, last) = (w.first, w.last);
        let cs = self.header.chunk_size();
        self.make_key_bits(first, n, last);
        let staging = self.kernel.staging().map_err(SealedError::Gpu)?;
        staging.par_chunks_mut(cs).zip(w.input.par_iter()).for_each(|(dst, src)| dst[..src.len()].copy_from_slice(src));
        let bytes = (n - 1) * cs + w.input[n - 1].len();
        let sums = self.kernel.run(AeadOp::Encrypt, &self.key_bits, n, bytes).map_err(SealedError::Gpu)?;
        let staging = self.kernel.staging().map_err(SealedError::Gpu)?;
        let (m, header, key) = (self.m, &self.header, &*self.key);
        w.input.par_iter_mut().zip(staging.par_chunks(cs)).zip(sums.par_iter()).enumerate().for_each(
            |(i, ((buf, result), sum))| {
                let full = buf.len() - buf.len() % BLOCK;
                buf[..full].copy_from_slice(&result[..full]);
                let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
                let tag = finish_on_cpu(
                    m,
                    key,
                    &nonce[..len],
                    ad,
                    ((full / BLOCK) as u64, sum),
                    &mut buf[full..],
                    Direction::Encrypt,
                );
                buf.extend_from_slice(&tag[..m.tag_len()]);
            },
        );
        Ok(())
    }

    /// Opens the window: `w.input[i]` is chunk i (ciphertext ‖ tag, at least a
    /// tag long); its plaintext goes to `w.output[i]` (which must exist) only
    /// when its tag verifies; a chunk that fails gets an empty output. Returns
    /// whether each chunk verified.
    pub(super) fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, SealedError> {
        let n = w.input.len();
        let (first, last) = (w.first, w.last);
        let cs = self.header.chunk_size();
        let tag_len = self.m.tag_len();
        self.make_key_bits(first, n, last);
        let staging = self.kernel.staging().map_err(SealedError::Gpu)?;
        staging.par_chunks_mut(cs).zip(w.input.par_iter()).for_each(|(dst, src)| {
            let body = src.len() - tag_len;
            dst[..body].copy_from_slice(&src[..body]);
        });
        let bytes = (n - 1) * cs + w.input[n - 1].len() - tag_len;
        let sums = self.kernel.run(AeadOp::Decrypt, &self.key_bits, n, bytes).map_err(SealedError::Gpu)?;
        let staging = self.kernel.staging().map_err(SealedError::Gpu)?;
        let (m, header, key) = (self.m, &self.header, &*self.key);
        let verified = w
            .input
            .par_iter()
            .zip(w.output[..n].par_iter_mut())
            .zip(staging.par_chunks(cs))
            .zip(sums.par_iter())
            .enumerate()
            .map(|(i, (((chunk, out), result), sum))| {
                let body = chunk.len() - tag_len;
                let full = body - body % BLOCK;
                out.clear();
                out.extend_from_slice(&result[..full]);
                out.extend_from_slice(&chunk[full..body]);
                let (nonce, len) = header.nonce(first + i as u64, last && i + 1 == n);
                let expected = finish_on_cpu(
                    m,
                    key,
                    &nonce[..len],
                    ad,
                    ((full / BLOCK) as u64, sum),
                    &mut out[full..],
                    Direction::Decrypt,
                );
                let ok = bool::from(expected[..tag_len].ct_eq(&chunk[body..]));
                if !ok {
                    // Nothing unverified stays in the output.
                    out.zeroize();
                }
                ok
            })
            .collect();
        Ok(verified)
    }
}

impl WindowEngine for GpuChunks {
    fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), SealedError> {
        GpuChunks::seal(self, w, ad)
    }
    fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, SealedError> {
        GpuChunks::open(self, w, ad)
    }
}

#[cfg(test)]
mod tests;
