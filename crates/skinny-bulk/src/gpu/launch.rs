//! A key's kernels on one GPU ([`Launcher`]): the entry point of each
//! operation (where the kernels have one), the cipher's own stream, the launch
//! geometry, and one launch over device buffers.

use super::kernels::{entry_point, KernelKind, Op, WARP_BYTES};
use skinny::Variant;
use skinny_cuda::cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use skinny_cuda::kernels::{BITSLICED_THREADS, PAPER_THREADS};
use skinny_cuda::Gpu;
use skinny_cuda::GpuError;
use std::sync::Arc;

/// The kernels of one key on one GPU, and how to launch them.
pub(crate) struct Launcher {
    gpu: Arc<Gpu>,
    stream: Arc<CudaStream>,
    kind: KernelKind,
    block: usize,
    rounds: i32,
    /// By [`Op::index`]; `None` where the kernels have no kernel for the op.
    funcs: Vec<Option<CudaFunction>>,
}

impl Launcher {
    /// `module`'s entry points for `kind`'s kernels over `variant`'s blocks,
    /// each launched for `rounds` rounds on `stream` unless told otherwise.
    pub(crate) fn load(
        gpu: &Arc<Gpu>,
        stream: Arc<CudaStream>,
        module: &Arc<CudaModule>,
        kind: KernelKind,
        variant: Variant,
        rounds: i32,
    ) -> Result<Self, GpuError> {
        let mut funcs = Vec::new();
        for op in Op::ALL {
            // The registry says which kernels exist (the paper's: ECB and CTR).
            funcs.push(match entry_point(kind, variant.cell_width(), op) {
                Some(name) => Some(module.load_function(name).map_err(GpuError::driver("loading a kernel"))?),
                None => None,
            });
        }
        Ok(Self { gpu: gpu.clone(), stream, kind, block: variant.block_bytes(), rounds, funcs })
    }

    /// The GPU.
    pub(crate) fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// The cipher's own stream.
    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// The kernels.
    pub(crate) fn kind(&self) -> KernelKind {
        self.kind
    }

    /// Bytes a block.
    pub(crate) fn block(&self) -> usize {
        self.block
    }

    /// `op`'s kernel, if the kernels have one.
    pub(crate) fn get(&self, op: Op) -> Option<&CudaFunction> {
        self.funcs[op.index()].as_ref()
    }

    /// `op`'s kernel.
    ///
    /// # Errors
    /// [`GpuError::NoKernel`].
    pub(crate) fn func(&self, op: Op) -> Result<&CudaFunction, GpuError> {
        self.get(op).ok_or(GpuError::NoKernel { kernels: self.kind.label(), operation: op.label() })
    }

    /// The grid for `nblocks` blocks.
    pub(crate) fn config(&self, nblocks: u64) -> Result<LaunchConfig, GpuError> {
        launch_config(self.kind, nblocks)
    }

    /// Launches `op` over `nblocks` blocks from `input` to `output` on `stream`.
    pub(crate) fn launch(
        &self,
        stream: &CudaStream,
        op: Op,
        input: &CudaSlice<u8>,
        output: &mut CudaSlice<u8>,
        nblocks: u64,
        iv: [u32; 4],
    ) -> Result<(), GpuError> {
        if nblocks == 0 {
            return Ok(());
        }
        let f = self.func(op)?;
        let cfg = self.config(nblocks)?;
        let mut b = stream.launch_builder(f);
        b.arg(input).arg(output).arg(&nblocks).arg(&iv[0]).arg(&iv[1]).arg(&iv[2]).arg(&iv[3]).arg(&self.rounds);
        // SAFETY: the argument list matches the kernels' signature (in, out, n,
        // iv0..iv3, rounds); both buffers hold at least nblocks blocks.
        unsafe { b.launch(cfg) }.map_err(GpuError::driver("kernel launch"))?;
        Ok(())
    }

    /// [`Launcher::launch`] on device addresses.
    ///
    /// # Safety
    /// `input` and `output` address at least `nblocks` blocks of this GPU's
    /// memory, equal or disjoint, allocated until `stream` has run the launch.
    #[allow(unsafe_code)]
    pub(crate) unsafe fn launch_at(
        &self,
        stream: &CudaStream,
        op: Op,
        input: u64,
        output: u64,
        nblocks: u64,
        iv: [u32; 4],
    ) -> Result<(), GpuError> {
        if nblocks == 0 {
            return Ok(());
        }
        let f = self.func(op)?;
        let cfg = self.config(nblocks)?;
        let mut b = stream.launch_builder(f);
        b.arg(&input).arg(&output).arg(&nblocks).arg(&iv[0]).arg(&iv[1]).arg(&iv[2]).arg(&iv[3]).arg(&self.rounds);
        // SAFETY: the argument list matches the kernels' signature (in, out, n,
        // iv0..iv3, rounds); the addresses hold nblocks blocks, as the caller
        // promises. In place (ECB, CTR) each block is read by the one thread
        // that writes it, before it writes it.
        unsafe { b.launch(cfg) }.map_err(GpuError::driver("kernel launch"))?;
        Ok(())
    }

    /// The smallest piece worth a launch of its own. The bitsliced kernels
    /// finish a warp's 16 KiB in microseconds; a thread of the paper's kernel
    /// takes about a millisecond for its one block whatever the launch's size
    /// (measured on the H200: 1 MiB in one launch 1.28 ms, in four 4.05 ms), so
    /// its pieces must fill the whole GPU at once: a wave of 2048 threads on
    /// every multiprocessor, 16 bytes each (4.1 MiB on the H200).
    pub(crate) fn min_piece(&self) -> usize {
        match self.kind {
            KernelKind::Bitsliced => WARP_BYTES,
            KernelKind::Paper => {
                let sms = usize::try_from(self.gpu.sm_count()).unwrap_or(1).max(1);
                (sms * 2048 * 16).div_ceil(WARP_BYTES) * WARP_BYTES
            }
        }
    }
}

/// The grid for `nblocks` blocks: one thread a block (the paper's kernels) or
/// one warp per 1024 blocks (bitsliced, 32 blocks a thread).
pub(crate) fn launch_config(kind: KernelKind, nblocks: u64) -> Result<LaunchConfig, GpuError> {
    let grid = match kind {
        KernelKind::Paper => nblocks.div_ceil(u64::from(PAPER_THREADS)),
        KernelKind::Bitsliced => nblocks.div_ceil(1024).div_ceil(u64::from(BITSLICED_THREADS / 32)),
    };
    let grid = u32::try_from(grid.max(1)).map_err(|_| GpuError::LaunchTooLarge)?;
    let threads = match kind {
        KernelKind::Paper => PAPER_THREADS,
        KernelKind::Bitsliced => BITSLICED_THREADS,
    };
    Ok(LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 })
}
