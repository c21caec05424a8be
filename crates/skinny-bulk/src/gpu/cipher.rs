//! One key on the GPU ([`GpuCipher`]): its module (with the key's
//! `__constant__` data), its kernels and stream, and the host paths that run
//! the modes over host slices in device-sized pieces.

use super::kernels::{KernelKind, Op, WARP_BYTES};
use super::launch::Launcher;
use super::transfer::{HostPath, Transfers};
use skinny::Skinny;
use skinny_cuda::constants::{self, upload};
use skinny_cuda::cudarc::driver::{CudaFunction, CudaModule};
use skinny_cuda::kernels::{BITSLICED, FILL_ENTRY, PAPER};
use skinny_cuda::Gpu;
use skinny_cuda::GpuError;
use std::sync::Arc;

/// One key on the GPU.
pub struct GpuCipher {
    pub(crate) launcher: Launcher,
    module: Arc<CudaModule>,
    /// The device-side random fill of the kernel benchmarks.
    pub(crate) fill: CudaFunction,
    /// The `__constant__` symbols holding the key, wiped on drop.
    symbols: Vec<&'static str>,
    /// How host memory reaches the device, and each path's buffers.
    pub(crate) transfers: Transfers,
}

impl GpuCipher {
    /// Loads the kernels for `cipher` and uploads its round tweakeys.
    ///
    /// # Errors
    /// Unsupported variant (paper kernel, 64-bit blocks), compilation or device failure.
    pub fn new(gpu: &Arc<Gpu>, kind: KernelKind, cipher: &Skinny) -> Result<Self, GpuError> {
        let variant = cipher.variant();
        if !kind.supports(variant) {
            return Err(GpuError::Unsupported { kernels: kind.label(), variant });
        }
        let (source, symbols) = match kind {
            KernelKind::Paper => (&PAPER, constants::paper_symbols(cipher)),
            KernelKind::Bitsliced => {
                (&BITSLICED, vec![constants::bitsliced_masks(cipher), constants::bitsliced_masks_reversed(cipher)])
            }
        };
        let module = gpu.load_module(source)?;
        let stream = gpu.new_stream()?;
        // The cipher's own count: reduced-round ciphers run as they are.
        let launcher = Launcher::load(gpu, stream, &module, kind, variant, cipher.rounds() as i32)?;
        let fill = module.load_function(FILL_ENTRY).map_err(GpuError::driver("loading the fill kernel"))?;
        let names = symbols.iter().map(|s| s.name).collect();
        upload(&module, launcher.stream(), &symbols)?;
        // Pieces: 64 MiB (long enough that a launch is far from its overhead,
        // short enough to double-buffer), less if the GPU is nearly full (two
        // slots of input and output buffers), a whole number of warps' work.
        let free = gpu.free_mem()?;
        let piece = (free / 8).clamp(WARP_BYTES * 64, 64 << 20) / WARP_BYTES * WARP_BYTES;
        Ok(Self { launcher, module, fill, symbols: names, transfers: Transfers::new(piece) })
    }

    /// The kernels in use.
    pub fn kind(&self) -> KernelKind {
        self.launcher.kind()
    }

    /// Whether `op` has its own kernel here (the paper's kernels do ECB and CTR).
    pub fn has_kernel(&self, op: Op) -> bool {
        self.launcher.get(op).is_some()
    }

    /// Registers per thread and local (spill) bytes per thread of `op`'s kernel.
    pub fn kernel_resources(&self, op: Op) -> Option<(i32, i32)> {
        let f = self.launcher.get(op)?;
        Some((f.num_regs().ok()?, f.local_size_bytes().ok()?))
    }

    /// Sets the most bytes sent to the device at once (rounded to whole warps'
    /// work); for tests of the piece boundaries.
    pub fn set_piece_bytes(&mut self, bytes: usize) {
        self.transfers.set_piece(bytes);
    }

    /// Chooses how host memory reaches the device (default [`HostPath::Auto`]);
    /// for benchmarks and tests of each path.
    pub fn set_host_path(&mut self, path: HostPath) {
        self.transfers.set_path(path);
    }

    /// The path [`GpuCipher::run`] takes for `op` over `data` now: the one
    /// set, or the one [`HostPath::auto`] picks for the call's size and
    /// memory. Never [`HostPath::Auto`].
    pub fn path_for(&self, op: Op, data: &[u8]) -> HostPath {
        self.transfers.path_for(&self.launcher, op, data)
    }

    /// Runs `op` in place over `data`. `iv` is the counter (CTR), the block before
    /// the first (CBC, CFB) or ignored (ECB). `data` is whole blocks except for CTR,
    /// where the last block may be partial. Any alignment.
    ///
    /// # Errors
    /// Device errors (out of memory, kernel failure), or data not whole blocks.
    pub fn run(&mut self, op: Op, iv: &[u8], data: &mut [u8]) -> Result<(), GpuError> {
        self.transfers.run(&self.launcher, op, iv, data)
    }

    /// The GPU this cipher runs on (its context allocates the buffers that
    /// [`GpuCipher::run_device`] takes).
    pub fn gpu(&self) -> &Arc<Gpu> {
        self.launcher.gpu()
    }
}

impl Drop for GpuCipher {
    fn drop(&mut self) {
        // Wipe the round tweakeys from the device before the module goes.
        let stream = self.launcher.stream();
        for name in &self.symbols {
            if let Ok(mut view) = self.module.get_global(name, stream) {
                let _ = stream.memset_zeros(&mut view);
            }
        }
        let _ = stream.synchronize();
    }
}
