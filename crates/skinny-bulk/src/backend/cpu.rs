//! `cpu`: the fastest constant-time CPU code ([`Skinny::encrypt_blocks`]) on all
//! cores. Work is cut into fixed-size pieces on block boundaries, so the output is
//! the same whatever the thread count.

use super::{Backend, Engine, EngineError};
use crate::mode::Direction;
use crate::Error;
use rayon::prelude::*;
use skinny::counter::{counter_add, fill_counter_blocks};
use skinny::{BitslicedSkinny, Skinny, Variant};

/// Bytes of one piece of work handed to a thread: a whole number of bitsliced
/// batches of either block size (16 AVX2 batches of 16-byte blocks, 32 of 8-byte
/// ones; 64 or 128 portable batches), so no piece but the last pays for padding.
/// About 0.1-0.2 ms of work on one core: small enough to balance many cores,
/// large enough that rayon's hand-off is noise.
const PIECE: usize = 64 * 1024;

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
    /// [`Error::Backend`] when `threads` is 0 or the pool cannot start.
    pub fn new(threads: Option<usize>) -> Result<Self, Error> {
        let threads = match threads {
            Some(0) => return Err(Error::Backend("--threads must be at least 1".into())),
            Some(n) => n,
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("skinny-cpu-{i}"))
            .build()
            .map_err(|e| Error::Backend(format!("cannot start {threads} CPU threads: {e}")))?;
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

    fn engine(&self, cipher: &Skinny) -> Result<Box<dyn Engine>, Error> {
        // The bitsliced masks once per key, not once per piece.
        Ok(Box::new(CpuEngine { cipher: BitslicedSkinny::new(cipher), pool: self.pool.clone() }))
    }
}

/// One key on the multi-core backend.
pub struct CpuEngine {
    cipher: BitslicedSkinny,
    pool: std::sync::Arc<rayon::ThreadPool>,
}

impl Engine for CpuEngine {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), EngineError> {
        let cipher = &self.cipher;
        self.pool.install(|| {
            blocks.par_chunks_mut(PIECE).for_each(|piece| match dir {
                Direction::Encrypt => cipher.encrypt_blocks(piece),
                Direction::Decrypt => cipher.decrypt_blocks(piece),
            });
        });
        Ok(())
    }

    fn ctr(&mut self, counter: &[u8], data: &mut [u8]) -> Result<(), EngineError> {
        let cipher = &self.cipher;
        let bs = cipher.cipher().block_bytes();
        self.pool.install(|| {
            data.par_chunks_mut(PIECE).enumerate().for_each(|(i, piece)| {
                let first = (i * PIECE / bs) as u64;
                let mut start = counter.to_vec();
                counter_add(&mut start, first);
                let mut ks = vec![0u8; piece.len().div_ceil(bs) * bs];
                fill_counter_blocks(&start, &mut ks);
                cipher.encrypt_blocks(&mut ks);
                super::xor_in_place(piece, &ks);
            });
        });
        Ok(())
    }
}
