//! The CUDA backends, adapting skinny-cuda to the Backend/Engine traits:
//! - `gpu`: bitsliced constant-time kernels, every variant; ECB, CTR, CBC and
//!   CFB decryption each one kernel.
//! - `gpu-paper`: the T-table kernel of Xie, Wei and Liu (2021), SKINNY-128 only,
//!   NOT constant time (table look-ups indexed by secret data): the baseline.

use super::{Backend, DeviceBench, Engine, Workload};
use crate::mode::{Direction, Mode};
use crate::Error;
use skinny::counter::Counter;
use skinny::{Skinny, Variant};
use skinny_cuda::{Gpu, GpuCipher, GpuError, KernelKind, Op};

/// Bytes per call through a GPU engine: enough for the transfer pipeline to
/// split into pieces that overlap copies and kernels, while a few buffers in
/// flight stay under 100 MiB of host memory.
pub const GPU_CHUNK_BYTES: usize = 16 << 20;
use std::sync::Arc;

/// A GPU backend.
pub struct GpuBackend {
    gpu: Arc<Gpu>,
    kind: KernelKind,
}

/// Opens the first GPU with the paper's kernel (`paper`) or the bitsliced ones.
///
/// # Errors
/// [`Error::Gpu`]: no driver, no NVRTC, no device, or the kernels fail to
/// compile.
pub fn open(paper: bool) -> Result<Box<dyn Backend>, Error> {
    let gpu = Gpu::first()?;
    let kind = if paper { KernelKind::Paper } else { KernelKind::Bitsliced };
    Ok(Box::new(GpuBackend { gpu, kind }))
}

impl Backend for GpuBackend {
    fn name(&self) -> &'static str {
        match self.kind {
            KernelKind::Paper => "gpu-paper",
            KernelKind::Bitsliced => "gpu",
        }
    }

    fn describe(&self) -> String {
        match self.kind {
            KernelKind::Paper => format!(
                "{}: the paper's T-table CUDA kernel, SKINNY-128 only, NOT constant time (table look-ups indexed by secret data)",
                self.gpu.describe()
            ),
            KernelKind::Bitsliced => {
                format!("{}: bitsliced constant-time CUDA kernels, 32 blocks per thread", self.gpu.describe())
            }
        }
    }

    fn constant_time(&self) -> bool {
        self.kind.constant_time()
    }

    fn supports(&self, variant: Variant) -> bool {
        self.kind.supports(variant)
    }

    fn engine_for(&self, cipher: &Skinny, _work: &Workload) -> Result<Box<dyn Engine>, Error> {
        if !self.supports(cipher.variant()) {
            return Err(Error::Unsupported { backend: self.name(), variant: cipher.variant() });
        }
        let c = GpuCipher::new(&self.gpu, self.kind, cipher)?;
        Ok(Box::new(GpuEngine { cipher: c }))
    }

    fn device_bench(&self) -> Option<&dyn DeviceBench> {
        Some(self)
    }
}

impl DeviceBench for GpuBackend {
    fn time_kernel(
        &self,
        cipher: &Skinny,
        mode: Mode,
        dir: Direction,
        bytes: usize,
        warmup: usize,
        runs: usize,
    ) -> Result<Vec<f64>, Error> {
        let op = match (mode, dir) {
            (Mode::Ecb, Direction::Encrypt) => Op::EcbEncrypt,
            (Mode::Ecb, Direction::Decrypt) => Op::EcbDecrypt,
            (Mode::Ctr, _) => Op::Ctr,
            (Mode::Cbc, Direction::Decrypt) => Op::CbcDecrypt,
            (Mode::Cfb, Direction::Decrypt) => Op::CfbDecrypt,
            _ => return Err(Error::NotParallel { mode, dir }),
        };
        if !self.supports(cipher.variant()) {
            return Err(Error::Unsupported { backend: self.name(), variant: cipher.variant() });
        }
        let mut c = GpuCipher::new(&self.gpu, self.kind, cipher)?;
        if !c.has_kernel(op) {
            return Err(GpuError::NoKernel { kind: self.kind, op }.into());
        }
        Ok(c.time_kernel(op, bytes, warmup, runs)?)
    }
}

/// One key on a GPU backend.
struct GpuEngine {
    cipher: GpuCipher,
}

impl Engine for GpuEngine {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error> {
        let op = match dir {
            Direction::Encrypt => Op::EcbEncrypt,
            Direction::Decrypt => Op::EcbDecrypt,
        };
        self.cipher.run(op, &[], blocks).map_err(Error::from)
    }

    fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), Error> {
        let block = counter.to_block();
        self.cipher.run(Op::Ctr, &block[..counter.width()], data).map_err(Error::from)
    }

    fn preferred_chunk(&self) -> usize {
        GPU_CHUNK_BYTES
    }

    fn name(&self) -> &'static str {
        match self.cipher.kind() {
            KernelKind::Paper => "gpu-paper",
            KernelKind::Bitsliced => "gpu",
        }
    }

    fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        if self.cipher.has_kernel(Op::CbcDecrypt) {
            self.cipher.run(Op::CbcDecrypt, iv, blocks).map_err(Error::from)
        } else {
            // The paper's kernels: ECB decryption on the GPU, the chaining XOR here.
            let prev = super::shifted_by_one_block(iv, blocks);
            self.ecb(Direction::Decrypt, blocks)?;
            super::xor_in_place(blocks, &prev);
            Ok(())
        }
    }

    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        if self.cipher.has_kernel(Op::CfbDecrypt) {
            self.cipher.run(Op::CfbDecrypt, iv, blocks).map_err(Error::from)
        } else {
            let mut prev = super::shifted_by_one_block(iv, blocks);
            self.ecb(Direction::Encrypt, &mut prev)?;
            super::xor_in_place(blocks, &prev);
            Ok(())
        }
    }
}
