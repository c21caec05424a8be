//! Backends: who runs the parallel block work.
//!
//! A [`Backend`] is a kind of hardware with its code (`cpu-serial`, `cpu`,
//! `gpu-paper`, `gpu`). For one key it opens an [`Engine`], which holds whatever
//! the key needs on that hardware (expanded round tweakeys, device buffers) and
//! runs ECB, CTR, and CBC/CFB decryption over large slices.
//!
//! The CLI knows backends only through [`open`] and [`BackendChoice`], so a new
//! backend slots in here without touching it.

pub mod auto;
pub mod cpu;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod serial;

use crate::mode::Direction;
use crate::Error;
use skinny::{Skinny, Variant};
use std::fmt;
use std::str::FromStr;

/// A backend failed (message for the user, one line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineError(pub String);

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

impl From<EngineError> for Error {
    fn from(e: EngineError) -> Self {
        Error::Backend(e.0)
    }
}

/// One key opened on one backend: the parallel operations of the modes.
///
/// Slices hold whole blocks, except that `ctr` may end in a partial block. All
/// operations work in place. Chaining values (`counter`, `iv`) are one block.
pub trait Engine: Send {
    /// ECB: each block encrypted or decrypted on its own.
    ///
    /// # Errors
    /// When the backend fails (device error, out of memory).
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), EngineError>;

    /// CTR: XORs E(counter), E(counter + 1), ... into `data`. The counter is one
    /// big-endian integer of a block's width and wraps modulo 2^(block bits).
    ///
    /// # Errors
    /// When the backend fails.
    fn ctr(&mut self, counter: &[u8], data: &mut [u8]) -> Result<(), EngineError>;

    /// CBC decryption of whole blocks; `iv` is the ciphertext block before the
    /// first (the IV at the start of a message). The default runs on [`Engine::ecb`].
    ///
    /// # Errors
    /// When the backend fails.
    fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), EngineError> {
        let prev = shifted_by_one_block(iv, blocks);
        self.ecb(Direction::Decrypt, blocks)?;
        xor_in_place(blocks, &prev);
        Ok(())
    }

    /// Full-block CFB decryption of whole blocks: P_i = C_i ⊕ E(C_{i-1}), C_{-1} = `iv`.
    /// The default runs on [`Engine::ecb`].
    ///
    /// # Errors
    /// When the backend fails.
    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), EngineError> {
        let mut prev = shifted_by_one_block(iv, blocks);
        self.ecb(Direction::Encrypt, &mut prev)?;
        xor_in_place(blocks, &prev);
        Ok(())
    }
}

/// `iv ‖ blocks` without the last block: the chaining input of each block.
fn shifted_by_one_block(iv: &[u8], blocks: &[u8]) -> Vec<u8> {
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
    /// The name used on the command line (`cpu-serial`, `cpu`, `gpu-paper`, `gpu`).
    fn name(&self) -> &'static str;

    /// One line about the hardware and the code, for `skinny info`.
    fn describe(&self) -> String;

    /// Whether the code is constant time (no secret-dependent branch or table index).
    fn constant_time(&self) -> bool;

    /// Whether this backend can run the variant.
    fn supports(&self, variant: Variant) -> bool;

    /// Opens an engine for one key.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a variant it cannot run; [`Error::Backend`] when
    /// the hardware fails.
    fn engine(&self, cipher: &Skinny) -> Result<Box<dyn Engine>, Error>;

    /// Kernel-only timing, for device backends.
    fn device_bench(&self) -> Option<&dyn DeviceBench> {
        None
    }
}

/// A description of the GPUs this build can use (name, memory, compute
/// capability, driver, NVRTC version), one line each, for `skinny info`.
///
/// # Errors
/// One line saying why no GPU can be used (no driver, no device, no NVRTC, or a
/// build without CUDA).
pub fn describe_gpus() -> Result<Vec<String>, String> {
    #[cfg(feature = "cuda")]
    {
        gpu::describe_gpus()
    }
    #[cfg(not(feature = "cuda"))]
    {
        Err("this build of skinny has no CUDA support (built without the `cuda` feature)".into())
    }
}

/// Kernel-only timing on a device, for `skinny bench`: data already resident on
/// the device, transfers and compilation excluded.
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
        mode: crate::mode::Mode,
        dir: Direction,
        bytes: usize,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, EngineError>;
}

/// The `--backend` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendChoice {
    /// The GPU when there is one and the input is large enough to gain, else `cpu`.
    Auto,
    /// Portable code on one thread (the paper's CPU side).
    CpuSerial,
    /// The constant-time CPU code on all cores.
    Cpu,
    /// The paper's T-table CUDA kernel (SKINNY-128-256 only; not constant time).
    GpuPaper,
    /// The fast CUDA kernels.
    Gpu,
}

impl BackendChoice {
    /// Every choice, in the order `skinny info` lists them.
    pub const ALL: [BackendChoice; 5] = [
        BackendChoice::Auto,
        BackendChoice::CpuSerial,
        BackendChoice::Cpu,
        BackendChoice::GpuPaper,
        BackendChoice::Gpu,
    ];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            BackendChoice::Auto => "auto",
            BackendChoice::CpuSerial => "cpu-serial",
            BackendChoice::Cpu => "cpu",
            BackendChoice::GpuPaper => "gpu-paper",
            BackendChoice::Gpu => "gpu",
        }
    }
}

impl fmt::Display for BackendChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackendChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BackendChoice::ALL
            .into_iter()
            .find(|c| c.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| format!("unknown backend '{s}' (expected auto, cpu-serial, cpu, gpu-paper or gpu)"))
    }
}

/// Options for opening a backend.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Worker threads for `cpu` (None: all cores).
    pub threads: Option<usize>,
}

/// Opens the chosen backend. `auto` never fails: without a usable GPU it uses the
/// CPU and calls `notice` once with the reason.
///
/// # Errors
/// [`Error::Backend`] with one clear line when a GPU backend is asked for and no
/// GPU can be used (no driver, no device, no NVRTC, or built without CUDA).
pub fn open_with(
    choice: BackendChoice,
    opts: &Options,
    notice: &mut dyn FnMut(&str),
) -> Result<Box<dyn Backend>, Error> {
    match choice {
        BackendChoice::CpuSerial => Ok(Box::new(serial::SerialBackend)),
        BackendChoice::Cpu => Ok(Box::new(cpu::CpuBackend::new(opts.threads)?)),
        BackendChoice::GpuPaper => open_gpu(true),
        BackendChoice::Gpu => open_gpu(false),
        BackendChoice::Auto => {
            let cpu = cpu::CpuBackend::new(opts.threads)?;
            match open_gpu(false) {
                Ok(gpu) => Ok(Box::new(auto::AutoBackend::new(cpu, Some(gpu)))),
                Err(e) => {
                    notice(&format!("no usable GPU ({e}); using the CPU"));
                    Ok(Box::new(auto::AutoBackend::new(cpu, None)))
                }
            }
        }
    }
}

/// [`open_with`] with default options, notices going to stderr.
///
/// # Errors
/// As [`open_with`].
pub fn open(choice: BackendChoice, threads: Option<usize>) -> Result<Box<dyn Backend>, Error> {
    open_with(choice, &Options { threads }, &mut |m| eprintln!("skinny: {m}"))
}

#[cfg(feature = "cuda")]
fn open_gpu(paper: bool) -> Result<Box<dyn Backend>, Error> {
    gpu::open(paper)
}

#[cfg(not(feature = "cuda"))]
fn open_gpu(_paper: bool) -> Result<Box<dyn Backend>, Error> {
    Err(Error::Backend("this build of skinny has no CUDA support (built without the `cuda` feature)".into()))
}
