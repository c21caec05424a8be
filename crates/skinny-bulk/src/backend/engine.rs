//! The two traits every backend implements: a [`Backend`] (a kind of
//! hardware with its code) opens a [`BlockEngine`] (one key on it) that runs
//! the parallel work of the modes over large slices.

use crate::operation::{Direction, Mode};
use crate::Error;
use skinny::counter::Counter;
use skinny::{Skinny, Variant};

/// Bytes per call on the CPU engines at least (the `cpu` backend asks for four
/// of its 64 KiB pieces per worker when that is more): small enough that the
/// few buffers in flight in [`crate::stream::pipe`] stay in the cache between
/// the read, the encryption and the write. On the 2-core dev VM a 512 MiB file
/// went through the CLI in 0.47 s (CTR) with 1 MiB calls, against 0.50 s with
/// 2 or 4 MiB and 0.53 s with 16 MiB (medians of 5 to 9; docs/data-path.md).
pub const CPU_CHUNK_BYTES: usize = 1 << 20;

/// One key opened on one backend: the parallel operations of the modes.
///
/// Slices hold whole blocks, except that `ctr` may end in a partial block. All
/// operations work in place. Chaining values (`counter`, `iv`) are one block.
pub trait BlockEngine: Send {
    /// ECB: each block encrypted or decrypted on its own.
    ///
    /// # Errors
    /// When the backend fails (device error, out of memory).
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error>;

    /// CTR: XORs E(counter), E(counter + 1), ... into `data` (the counter wraps
    /// modulo 2^(block bits); see [`Counter`]).
    ///
    /// # Errors
    /// When the backend fails.
    fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), Error>;

    /// CBC decryption of whole blocks; `iv` is the ciphertext block before the
    /// first (the IV at the start of a message). The default runs on
    /// [`BlockEngine::ecb`].
    ///
    /// # Errors
    /// When the backend fails.
    fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        let prev = shifted_by_one_block(iv, blocks);
        self.ecb(Direction::Decrypt, blocks)?;
        xor_in_place(blocks, &prev);
        Ok(())
    }

    /// Bytes per call that keep this engine at its speed: the stream layers
    /// ([`crate::stream`]) read and hand over this much at a time. The default
    /// suits the CPU engines.
    fn preferred_chunk(&self) -> usize {
        CPU_CHUNK_BYTES
    }

    /// Which engine does the work, for reports (`cpu`, `gpu`, ...).
    fn name(&self) -> &'static str {
        "unnamed engine"
    }

    /// What the engine did, in one line for a user (`auto` says how much went
    /// where and why). The default is [`BlockEngine::name`].
    fn report(&self) -> String {
        self.name().to_string()
    }

    /// Full-block CFB decryption of whole blocks: P_i = C_i ⊕ E(C_{i-1}), C_{-1} = `iv`.
    /// The default runs on [`BlockEngine::ecb`].
    ///
    /// # Errors
    /// When the backend fails.
    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        let mut prev = shifted_by_one_block(iv, blocks);
        self.ecb(Direction::Encrypt, &mut prev)?;
        xor_in_place(blocks, &prev);
        Ok(())
    }
}

/// `iv ‖ blocks` without the last block: the chaining input of each block.
pub(crate) fn shifted_by_one_block(iv: &[u8], blocks: &[u8]) -> Vec<u8> {
    let mut prev = Vec::with_capacity(blocks.len());
    if !blocks.is_empty() {
        prev.extend_from_slice(iv);
        prev.extend_from_slice(&blocks[..blocks.len() - iv.len()]);
    }
    prev
}

/// `dst ^= src`, element by element.
pub fn xor_in_place(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= s;
    }
}

/// A kind of hardware with its SKINNY code.
pub trait Backend: Send + Sync {
    /// The backend's name (`cpu-serial`, `cpu`, `gpu-paper`, `gpu`, `auto`).
    fn name(&self) -> &'static str;

    /// One line about the hardware and the code.
    fn describe(&self) -> String;

    /// Whether the code is constant time (no secret-dependent branch or table index).
    fn constant_time(&self) -> bool;

    /// Whether this backend can run the variant.
    fn supports(&self, variant: Variant) -> bool;

    /// Opens an engine for one key.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a variant it cannot run; a device error when
    /// the hardware fails.
    fn engine(&self, cipher: &Skinny) -> Result<Box<dyn BlockEngine>, Error> {
        self.engine_for(cipher, &Workload::default())
    }

    /// Opens an engine for one key and a workload described in advance (its
    /// total size when known), so that a backend that chooses hardware (`auto`)
    /// can choose well. The default ignores the description.
    ///
    /// # Errors
    /// As [`Backend::engine`].
    fn engine_for(&self, cipher: &Skinny, work: &Workload) -> Result<Box<dyn BlockEngine>, Error>;

    /// Kernel-only timing, for device backends.
    fn device_bench(&self) -> Option<&dyn DeviceBench> {
        None
    }

    /// Why this backend could not use hardware it would have liked to (`auto`
    /// without a usable GPU for work that would have gone to one), if that
    /// happened. For the caller to report or not.
    fn fallback(&self) -> Option<String> {
        None
    }
}

/// What an engine is about to be asked to do, as far as it is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Workload {
    /// Bytes the engine will process in all, when known (a regular file).
    pub total_bytes: Option<u64>,
}

/// Kernel-only timing on a device, for benchmarks: data already resident on the
/// device, transfers and compilation excluded.
pub trait DeviceBench {
    /// Runs the kernel for `mode` (ECB or CTR) in direction `dir` over `bytes`
    /// bytes of random data resident on the device, `warmup` times untimed and then
    /// `runs` times, each timed with device events. Returns the `runs` kernel
    /// times in milliseconds.
    ///
    /// # Errors
    /// Unsupported variant or mode, out of device memory, a kernel error.
    fn time_kernel(
        &self,
        cipher: &Skinny,
        mode: Mode,
        dir: Direction,
        bytes: usize,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error>;
}
