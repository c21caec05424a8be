//! The CUDA backends, adapting skinny-cuda to the Backend/Engine traits:
//! - `gpu`: bitsliced constant-time kernels, every variant; ECB, CTR, CBC and
//!   CFB decryption each one kernel.
//! - `gpu-paper`: the T-table kernel of Xie, Wei and Liu (2021), SKINNY-128 only,
//!   NOT constant time (table look-ups indexed by secret data): the baseline.
//!
//! Both run on a set of GPUs ([`GpuSelection`]: all by default): each call's
//! data is striped over them ([`MultiGpuCipher`], one thread, context, stream
//! set and pinned buffers per GPU). With one GPU it is exactly the one-GPU
//! engine of before.

use super::engine::{shifted_by_one_block, xor_in_place, Backend, BlockEngine, DeviceBench, Workload};
use super::options::{GpuKernel, HostCopies};
use crate::gpu::{HostPath, KernelKind, MultiGpuCipher, Op};
use crate::operation::{Direction, Mode};
use crate::Error;
use skinny::counter::Counter;
use skinny::{Skinny, Variant};
use skinny_cuda::{GpuError, GpuSet, SelectError};
use skinny_exec::GpuSelection;

/// Bytes per call through a GPU engine, per GPU: enough for the transfer
/// pipeline to split into pieces that overlap copies and kernels, while a few
/// buffers in flight stay under 100 MiB of host memory per GPU.
pub const GPU_CHUNK_BYTES: usize = 16 << 20;

/// A GPU backend: one or more GPUs.
pub struct GpuBackend {
    set: GpuSet,
    kind: KernelKind,
    /// How engines copy.
    copies: HostCopies,
}

/// Opens GPU 0 alone with the `kernel` kernels.
///
/// # Errors
/// [`Error::Gpu`]: no driver, no NVRTC, no device, or the kernels fail to
/// compile.
pub fn open(kernel: GpuKernel) -> Result<Box<dyn Backend>, Error> {
    open_set(kernel, &GpuSelection::First(1))
}

/// Opens the GPUs `gpus` with the `kernel` kernels.
///
/// # Errors
/// [`Error::Gpu`]: no driver, no NVRTC, no device, a GPU that fails to open;
/// [`Error::GpuSelection`]: a selection that does not fit this machine.
pub fn open_set(kernel: GpuKernel, gpus: &GpuSelection) -> Result<Box<dyn Backend>, Error> {
    open_set_with(kernel, gpus, HostCopies::Fastest)
}

/// [`open_set`], with engines that copy as `copies` says:
/// [`HostCopies::Pageable`] copies plainly, one piece at a time, as the
/// paper's program did, for benchmarks that compare like with like.
///
/// # Errors
/// As [`open_set`].
pub fn open_set_with(kernel: GpuKernel, gpus: &GpuSelection, copies: HostCopies) -> Result<Box<dyn Backend>, Error> {
    let set = open_gpus(gpus)?;
    let kind = match kernel {
        GpuKernel::PaperTTable => KernelKind::Paper,
        GpuKernel::Bitsliced => KernelKind::Bitsliced,
    };
    Ok(Box::new(GpuBackend { set, kind, copies }))
}

/// The GPUs of `gpus` on this machine, each opened once per process.
///
/// # Errors
/// As [`open_set`].
pub fn open_gpus(gpus: &GpuSelection) -> Result<GpuSet, Error> {
    GpuSet::select(gpus).map_err(|e| match e {
        SelectError::Selection(e) => Error::GpuSelection(e),
        SelectError::Gpu(e) => Error::Gpu(e),
    })
}

impl GpuBackend {
    /// The GPUs in use.
    pub fn gpus(&self) -> &GpuSet {
        &self.set
    }
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
                "{}: the paper's T-table CUDA kernel, SKINNY-128 only, NOT constant time (table look-ups indexed by secret data){}{}",
                self.set.describe(),
                striped(&self.set),
                copies_note(self.copies)
            ),
            KernelKind::Bitsliced => {
                format!(
                    "{}: bitsliced constant-time CUDA kernels, 32 blocks per thread{}{}",
                    self.set.describe(),
                    striped(&self.set),
                    copies_note(self.copies)
                )
            }
        }
    }

    fn constant_time(&self) -> bool {
        self.kind.constant_time()
    }

    fn supports(&self, variant: Variant) -> bool {
        self.kind.supports(variant)
    }

    fn engine_for(&self, cipher: &Skinny, _work: &Workload) -> Result<Box<dyn BlockEngine>, Error> {
        if !self.supports(cipher.variant()) {
            return Err(Error::Unsupported { backend: self.name(), variant: cipher.variant() });
        }
        let mut c = MultiGpuCipher::new(&self.set, self.kind, cipher)?;
        if self.copies == HostCopies::Pageable {
            c.set_host_path(HostPath::Pageable);
        }
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
        let mut c = MultiGpuCipher::new(&self.set, self.kind, cipher)?;
        if !c.has_kernel(op) {
            return Err(GpuError::NoKernel { kernels: self.kind.label(), operation: op.label() }.into());
        }
        if c.len() == 1 {
            return Ok(c
                .cipher_mut(0)
                .ok_or(GpuError::Internal("no GPU in the set"))?
                .time_kernel(op, bytes, warmup, runs)?);
        }
        // Several GPUs: each times its share of `bytes` at once; a run takes as
        // long as the slowest GPU's, so `bytes` over it is the set's rate.
        let n = c.len();
        let share = bytes.div_ceil(n);
        let each: Vec<Result<Vec<f64>, GpuError>> = std::thread::scope(|sc| {
            let handles: Vec<_> = c
                .ciphers_mut()
                .iter_mut()
                .map(|g| {
                    sc.spawn(move || {
                        g.time_kernel(op, share, warmup, runs).map_err(|e| GpuError::on_device(g.gpu().ordinal(), e))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(Err(GpuError::Internal("a GPU thread panicked")))).collect()
        });
        let mut slowest = vec![0.0f64; runs];
        for times in each {
            for (s, t) in slowest.iter_mut().zip(times?) {
                *s = s.max(t);
            }
        }
        Ok(slowest)
    }
}

/// ", striped over N GPUs" for several, nothing for one.
fn striped(set: &GpuSet) -> String {
    if set.len() > 1 {
        format!(", each call striped over {} GPUs", set.len())
    } else {
        String::new()
    }
}

/// ", plain pageable copies" when the engines copy that way, nothing otherwise.
fn copies_note(copies: HostCopies) -> &'static str {
    match copies {
        HostCopies::Pageable => ", plain pageable copies",
        HostCopies::Fastest => "",
    }
}

/// One key on a GPU backend.
struct GpuEngine {
    cipher: MultiGpuCipher,
}

impl BlockEngine for GpuEngine {
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
        GPU_CHUNK_BYTES * self.cipher.len()
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
            let prev = shifted_by_one_block(iv, blocks);
            self.ecb(Direction::Decrypt, blocks)?;
            xor_in_place(blocks, &prev);
            Ok(())
        }
    }

    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        if self.cipher.has_kernel(Op::CfbDecrypt) {
            self.cipher.run(Op::CfbDecrypt, iv, blocks).map_err(Error::from)
        } else {
            let mut prev = shifted_by_one_block(iv, blocks);
            self.ecb(Direction::Encrypt, &mut prev)?;
            xor_in_place(blocks, &prev);
            Ok(())
        }
    }
}
