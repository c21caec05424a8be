//! Many messages of one member and key in one launch (feature `cuda`):
//! [`GpuChunks`] seals or opens a batch of chunks, each under its own nonce,
//! giving the same bytes and tags as the CPU types message by message. It
//! knows no file format: the caller gives every chunk's nonce and the AD
//! they share (`skinny-seal` builds its STREAM payloads on it).
//!
//! Per batch: the chunks are gathered into one page-locked staging area
//! (chunk c at c x chunk size, in parallel), each chunk's masks made from its
//! nonce by SKINNY's key schedule on rayon's pool, and one launch runs the
//! whole blocks of every chunk (`AeadChunks`, in `chunks/kernel.rs`). The
//! rest of each chunk (its partial last block, the tag block and the AD: a
//! handful of blocks) is finished on the CPU in parallel by the mode's own
//! code, as [`GpuAead`](super::GpuAead) does for one message. Opening
//! releases a chunk's plaintext into its output buffer only after its tag
//! verified.

use super::device::GpuDevice;
use super::error::GpuAeadError;
use super::finish::{finish_on_cpu, run_tweakey};
use super::inputs::{chunk_key_bits, AeadCounter};
use super::kernels::AeadOp;
use crate::member::Member;
use crate::mode::D_MSG;
use crate::tweakey::{Lfsr, BLOCK};
use kernel::AeadChunks;
pub use kernel::{MAX_CHUNK_LOG2, MIN_CHUNK_LOG2};
use rayon::prelude::*;
use skinny::hazmat::bitsliced::Direction;
use skinny::Skinny;
use std::vec::Vec;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

// The chunk kernels' launches: the one file of this module with `unsafe` code.
#[allow(unsafe_code)]
mod kernel;

/// What the batches need of the chunk kernels: [`AeadChunks`] on a GPU, or
/// (in the unit tests) the specification code, so the host side runs
/// without a GPU too.
trait ChunkKernel {
    /// Key bits a chunk (the variant's rounds).
    fn rounds(&self) -> usize;
    /// The most chunks a launch takes.
    fn max_chunks(&self) -> usize;
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
    fn max_chunks(&self) -> usize {
        AeadChunks::max_chunks(self)
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

/// One SKINNY-AEAD member and key on one GPU, for batches of chunks of
/// `2^chunk_log2` bytes ([`MIN_CHUNK_LOG2`] to [`MAX_CHUNK_LOG2`]): every
/// chunk of a batch but the last holds exactly that many plaintext bytes,
/// the last at most that many. Each chunk is one SKINNY-AEAD message under
/// its own nonce, with the AD the batch gives.
///
/// The key, the chunks' key material, the staging area and the device
/// buffers are wiped when the value is dropped.
pub struct GpuChunks {
    batches: Batches<AeadChunks>,
}

impl core::fmt::Debug for GpuChunks {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("GpuChunks")
            .field("member", &self.batches.member)
            .field("chunk_log2", &self.batches.chunk_log2)
            .finish_non_exhaustive()
    }
}

impl GpuChunks {
    /// `member` under `key` on `device` (compiles or loads its kernels), for
    /// batches of up to `max_chunks` chunks of `2^chunk_log2` bytes.
    ///
    /// # Errors
    /// [`GpuAeadError::ChunkSize`] for chunks under 16 KiB or over 16 MiB;
    /// compilation, loading or allocation failed.
    pub fn new(
        device: &GpuDevice,
        member: Member,
        chunk_log2: u8,
        key: &[u8; 16],
        max_chunks: usize,
    ) -> Result<Self, GpuAeadError> {
        let start = Lfsr::new(member.layout()).value();
        let kernel = AeadChunks::new(device, AeadCounter::of(member), u32::from(chunk_log2), max_chunks, start)?;
        Ok(Self { batches: Batches::new(kernel, member, chunk_log2, key) })
    }

    /// The member.
    pub fn member(&self) -> Member {
        self.batches.member
    }

    /// The plaintext bytes of every chunk of a batch but the last.
    pub fn chunk_size(&self) -> usize {
        self.batches.chunk_size()
    }

    /// The most chunks a batch may hold.
    pub fn max_chunks(&self) -> usize {
        self.batches.kernel.max_chunks()
    }

    /// Seals a batch in place: `chunks[i]` (its plaintext) becomes its
    /// ciphertext ‖ tag under `nonces[i]` (the member's nonce length) and
    /// `ad`, as the CPU types seal it.
    ///
    /// # Errors
    /// [`GpuAeadError::Batch`] for an empty batch, one larger than
    /// [`GpuChunks::max_chunks`], a nonce count other than the chunks', or a
    /// chunk of the wrong length; [`GpuAeadError::NonceLength`]; a GPU
    /// failure. The chunks are then unchanged, or (a GPU failure) partly
    /// sealed.
    pub fn seal<N: AsRef<[u8]> + Sync>(
        &mut self,
        chunks: &mut [Zeroizing<Vec<u8>>],
        nonces: &[N],
        ad: &[u8],
    ) -> Result<(), GpuAeadError> {
        self.batches.seal(chunks, nonces, ad)
    }

    /// Opens a batch: `chunks[i]` is a ciphertext ‖ tag under `nonces[i]`
    /// and `ad`; its plaintext goes to `out[i]` only when its tag verifies,
    /// and a chunk that fails gets an empty output. Returns whether each
    /// chunk verified. `out` must hold a buffer for every chunk (more are
    /// left as they are).
    ///
    /// # Errors
    /// As [`GpuChunks::seal`], and for a chunk shorter than a tag or too few
    /// output buffers; nothing unverified is in `out` after an error.
    pub fn open<N: AsRef<[u8]> + Sync>(
        &mut self,
        chunks: &[Zeroizing<Vec<u8>>],
        out: &mut [Zeroizing<Vec<u8>>],
        nonces: &[N],
        ad: &[u8],
    ) -> Result<Vec<bool>, GpuAeadError> {
        self.batches.open(chunks, out, nonces, ad)
    }
}

/// The host side of [`GpuChunks`] over any [`ChunkKernel`]: the member, the
/// key, and the key bits of the current batch.
struct Batches<K> {
    kernel: K,
    member: Member,
    chunk_log2: u8,
    key: Zeroizing<[u8; 16]>,
    key_bits: Zeroizing<Vec<u64>>,
}

impl<K: ChunkKernel> Batches<K> {
    fn new(kernel: K, member: Member, chunk_log2: u8, key: &[u8; 16]) -> Self {
        Self { kernel, member, chunk_log2, key: Zeroizing::new(*key), key_bits: Zeroizing::new(Vec::new()) }
    }

    fn chunk_size(&self) -> usize {
        1 << self.chunk_log2
    }

    /// Checks a batch of `n` chunks with these nonces and bodies
    /// (`body(i)`: chunk i's plaintext length).
    fn check<N: AsRef<[u8]>>(&self, n: usize, nonces: &[N], body: impl Fn(usize) -> usize) -> Result<(), GpuAeadError> {
        let batch = |why| Err(GpuAeadError::Batch { why });
        if n == 0 || n > self.kernel.max_chunks() {
            return batch("a batch holds 1 chunk to the most the kernels were made for");
        }
        if nonces.len() != n {
            return batch("one nonce a chunk");
        }
        let need = self.member.nonce_len();
        if let Some(nonce) = nonces.iter().find(|nonce| nonce.as_ref().len() != need) {
            return Err(GpuAeadError::NonceLength { member: self.member, need, got: nonce.as_ref().len() });
        }
        let cs = self.chunk_size();
        if (0..n - 1).any(|i| body(i) != cs) || body(n - 1) > cs {
            return batch("every chunk but the last a whole chunk, the last at most one");
        }
        Ok(())
    }

    /// The key bits of the batch's chunks, in parallel: SKINNY's key
    /// schedule of each chunk's message tweakey.
    fn make_key_bits<N: AsRef<[u8]> + Sync>(&mut self, nonces: &[N]) {
        let rounds = self.kernel.rounds();
        self.key_bits.resize(nonces.len() * rounds, 0);
        let (m, key) = (self.member, &*self.key);
        self.key_bits.par_chunks_mut(rounds).zip(nonces.par_iter()).for_each(|(out, nonce)| {
            let tk = run_tweakey(m, key, nonce.as_ref(), D_MSG);
            // Cannot fail: the tweakey has the variant's length.
            if let Ok(cipher) = Skinny::new(m.layout().variant(), &tk) {
                chunk_key_bits(&cipher, out);
            }
        });
    }

    /// As [`GpuChunks::seal`].
    fn seal<N: AsRef<[u8]> + Sync>(
        &mut self,
        chunks: &mut [Zeroizing<Vec<u8>>],
        nonces: &[N],
        ad: &[u8],
    ) -> Result<(), GpuAeadError> {
        let n = chunks.len();
        self.check(n, nonces, |i| chunks[i].len())?;
        let cs = self.chunk_size();
        self.make_key_bits(nonces);
        let staging = self.kernel.staging()?;
        staging.par_chunks_mut(cs).zip(chunks.par_iter()).for_each(|(dst, src)| dst[..src.len()].copy_from_slice(src));
        let bytes = (n - 1) * cs + chunks[n - 1].len();
        let sums = self.kernel.run(AeadOp::Encrypt, &self.key_bits, n, bytes)?;
        let staging = self.kernel.staging()?;
        let (m, key) = (self.member, &*self.key);
        chunks.par_iter_mut().zip(staging.par_chunks(cs)).zip(sums.par_iter()).zip(nonces.par_iter()).for_each(
            |(((buf, result), sum), nonce)| {
                let full = buf.len() - buf.len() % BLOCK;
                buf[..full].copy_from_slice(&result[..full]);
                let gpu_part = ((full / BLOCK) as u64, sum);
                let tag = finish_on_cpu(m, key, nonce.as_ref(), ad, gpu_part, &mut buf[full..], Direction::Encrypt);
                buf.extend_from_slice(&tag[..m.tag_len()]);
            },
        );
        Ok(())
    }

    /// As [`GpuChunks::open`].
    fn open<N: AsRef<[u8]> + Sync>(
        &mut self,
        chunks: &[Zeroizing<Vec<u8>>],
        out: &mut [Zeroizing<Vec<u8>>],
        nonces: &[N],
        ad: &[u8],
    ) -> Result<Vec<bool>, GpuAeadError> {
        let n = chunks.len();
        let tag_len = self.member.tag_len();
        if chunks.iter().any(|c| c.len() < tag_len) {
            return Err(GpuAeadError::Batch { why: "a chunk shorter than a tag" });
        }
        if out.len() < n {
            return Err(GpuAeadError::Batch { why: "an output buffer a chunk" });
        }
        self.check(n, nonces, |i| chunks[i].len() - tag_len)?;
        let cs = self.chunk_size();
        self.make_key_bits(nonces);
        let staging = self.kernel.staging()?;
        staging.par_chunks_mut(cs).zip(chunks.par_iter()).for_each(|(dst, src)| {
            let body = src.len() - tag_len;
            dst[..body].copy_from_slice(&src[..body]);
        });
        let bytes = (n - 1) * cs + chunks[n - 1].len() - tag_len;
        let sums = self.kernel.run(AeadOp::Decrypt, &self.key_bits, n, bytes)?;
        let staging = self.kernel.staging()?;
        let (m, key) = (self.member, &*self.key);
        let verified = chunks
            .par_iter()
            .zip(out[..n].par_iter_mut())
            .zip(staging.par_chunks(cs))
            .zip(sums.par_iter())
            .zip(nonces.par_iter())
            .map(|((((chunk, out), result), sum), nonce)| {
                let body = chunk.len() - tag_len;
                let full = body - body % BLOCK;
                out.clear();
                out.extend_from_slice(&result[..full]);
                out.extend_from_slice(&chunk[full..body]);
                let gpu_part = ((full / BLOCK) as u64, sum);
                let expected =
                    finish_on_cpu(m, key, nonce.as_ref(), ad, gpu_part, &mut out[full..], Direction::Decrypt);
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

#[cfg(test)]
mod tests;
