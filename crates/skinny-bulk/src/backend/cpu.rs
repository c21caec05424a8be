//! `cpu`: the fastest constant-time CPU code ([`Skinny::encrypt_blocks`]) on all
//! cores. Work is cut into fixed-size pieces on block boundaries, so the output is
//! the same whatever the thread count.

use super::engine::{xor_in_place, Backend, BlockEngine, Workload, CPU_CHUNK_BYTES};
use crate::operation::Direction;
use crate::Error;
use rayon::prelude::*;
use skinny::counter::Counter;
use skinny::{BitslicedSkinny, Skinny, Variant};
use zeroize::Zeroize;

/// Bytes of one piece of work handed to a thread: a whole number of bitsliced
/// batches of either block size (8 AVX-512 batches of 16-byte blocks, 16 of
/// 8-byte ones; twice as many AVX2 batches, 64 or 128 portable ones), so no
/// piece but the last pays for padding.
/// About 0.1-0.2 ms of work on one core: small enough to balance many cores,
/// large enough that rayon's hand-off is noise.
const PIECE: usize = 64 * 1024;

/// CTR keystream bytes made per step: one AVX-512 batch of 16-byte blocks (two
/// of 8-byte ones), a whole number of AVX2 and portable batches too.
const KEYSTREAM_STEP: usize = 8 * 1024;

/// Pieces per worker in one preferred call.
const PIECES_PER_WORKER: usize = 4;

/// The multi-core CPU backend.
#[derive(Debug)]
pub struct CpuBackend {
    pool: std::sync::Arc<rayon::ThreadPool>,
    threads: usize,
}

impl CpuBackend {
    /// A backend with `threads` workers (None: one per core).
    ///
    /// # Errors
    /// [`Error::ZeroThreads`] when `threads` is 0, [`Error::ThreadPool`] when the
    /// pool cannot start.
    pub fn new(threads: Option<usize>) -> Result<Self, Error> {
        let threads = match threads {
            Some(0) => return Err(Error::ZeroThreads),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        // The execution layer's pool, with its stack size
        // (skinny_exec::WORKER_STACK_BYTES: the pieces need at most 64 KiB).
        let pool = skinny_exec::worker_pool(threads).map_err(|source| Error::ThreadPool { threads, source })?;
        Ok(Self { pool: std::sync::Arc::new(pool), threads })
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }
}

impl Backend for CpuBackend {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn describe(&self) -> String {
        format!(
            "constant-time bitsliced CPU code ({} path, {} blocks a batch), {} thread(s)",
            skinny::hazmat::bitsliced::Path::best(),
            skinny::hazmat::bitsliced::Path::best().batch_blocks(),
            self.threads
        )
    }

    fn constant_time(&self) -> bool {
        true
    }

    fn supports(&self, _variant: Variant) -> bool {
        true
    }

    fn engine_for(&self, cipher: &Skinny, _work: &Workload) -> Result<Box<dyn BlockEngine>, Error> {
        // The bitsliced masks once per key, not once per piece.
        Ok(Box::new(CpuEngine { cipher: BitslicedSkinny::new(cipher), pool: self.pool.clone() }))
    }
}

/// One key on the multi-core backend.
pub struct CpuEngine {
    cipher: BitslicedSkinny,
    pool: std::sync::Arc<rayon::ThreadPool>,
}

impl BlockEngine for CpuEngine {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error> {
        let cipher = &self.cipher;
        self.pool.install(|| {
            blocks.par_chunks_mut(PIECE).for_each(|piece| match dir {
                Direction::Encrypt => cipher.encrypt_blocks(piece),
                Direction::Decrypt => cipher.decrypt_blocks(piece),
            });
        });
        Ok(())
    }

    fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), Error> {
        let cipher = &self.cipher;
        let bs = cipher.cipher().block_bytes();
        self.pool.install(|| {
            data.par_chunks_mut(PIECE).enumerate().for_each(|(i, piece)| {
                let mut next = counter.add((i * PIECE / bs) as u64);
                // The keystream in stack-sized steps of whole bitsliced batches:
                // no allocation and no zeroing per piece, and the counter blocks
                // stay in L1 between their writing, encryption and use.
                let mut ks = [0u8; KEYSTREAM_STEP];
                for part in piece.chunks_mut(KEYSTREAM_STEP) {
                    let blocks = part.len().div_ceil(bs);
                    let ks = &mut ks[..blocks * bs];
                    next.fill_blocks(ks);
                    cipher.encrypt_blocks(ks);
                    xor_in_place(part, ks);
                    next.advance(blocks as u64);
                }
                ks.zeroize();
            });
        });
        Ok(())
    }

    fn name(&self) -> &'static str {
        "cpu"
    }

    fn preferred_chunk(&self) -> usize {
        // Four pieces a worker, and no less than the shared minimum: 1 MiB on
        // two cores (the pipe's buffers then stay in cache), 4 MiB on sixteen
        // (the size the H200 machine's CPU figures were measured with).
        (PIECE * PIECES_PER_WORKER * self.pool.current_num_threads()).max(CPU_CHUNK_BYTES)
    }
}

/// The `cpu` backend on all cores, started once per process: what a
/// [`crate::mode::Processor`] uses when given no backend.
pub(crate) fn default_cpu() -> Result<&'static CpuBackend, Error> {
    static CPU: std::sync::OnceLock<CpuBackend> = std::sync::OnceLock::new();
    if let Some(cpu) = CPU.get() {
        return Ok(cpu);
    }
    let cpu = CpuBackend::new(None)?;
    Ok(CPU.get_or_init(|| cpu))
}
