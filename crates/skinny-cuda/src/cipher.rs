//! One key on the GPU: its module (with the key's `__constant__` data), its
//! stream and device buffers, and the modes run over host slices in
//! device-sized pieces.

use crate::constants::{self, Symbol};
use crate::device::Gpu;
use crate::kernels::{entry_point, launch_config, KernelKind, Op, BITSLICED, FILL_ENTRY, PAPER, WARP_BYTES};
use crate::transfer::{HostPath, Lane, Pipeline};
use crate::GpuError;
use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use skinny::counter::Counter;
use skinny::Skinny;
use std::sync::Arc;
use zeroize::Zeroizing;

/// One key on the GPU.
pub struct GpuCipher {
    pub(crate) gpu: Arc<Gpu>,
    pub(crate) kind: KernelKind,
    pub(crate) block: usize,
    pub(crate) rounds: i32,
    pub(crate) stream: Arc<CudaStream>,
    pub(crate) module: Arc<CudaModule>,
    pub(crate) funcs: Vec<Option<CudaFunction>>,
    pub(crate) fill: CudaFunction,
    pub(crate) symbols: Vec<&'static str>,
    /// Device input and output buffers, grown on demand up to `piece` bytes.
    pub(crate) bufs: Option<(CudaSlice<u8>, CudaSlice<u8>)>,
    pub(crate) piece: usize,
    /// Two slots of pinned staging memory, device buffers and streams, for
    /// inputs of several pieces (allocated on first use).
    pub(crate) pipeline: Option<Pipeline>,
    /// Zeros on the device, as long as a pinned slot: the keystream path's
    /// input (the CTR kernel XORs its input with the keystream); made on
    /// first use.
    pub(crate) zeros: Option<CudaSlice<u8>>,
    /// Streams and device buffers of the registered path (allocated on first use).
    pub(crate) lanes: Vec<Lane>,
    /// How host memory reaches the device.
    pub(crate) host_path: HostPath,
}

/// Little-endian words of a block (8 or 16 bytes), zero-padded to four.
pub(crate) fn block_words(b: &[u8]) -> [u32; 4] {
    let mut w = [0u32; 4];
    for (i, c) in b.chunks_exact(4).enumerate().take(4) {
        w[i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    }
    w
}

/// The counter block `n` blocks after `ctr` (8 or 16 bytes, checked by the caller).
pub(crate) fn counter_plus(ctr: &[u8], n: u64) -> Vec<u8> {
    let next = Counter::from_block(ctr).map_or_else(|_| [0; 16], |c| c.add(n).to_block());
    next[..ctr.len()].to_vec()
}

impl GpuCipher {
    /// Loads the kernels for `cipher` and uploads its round tweakeys.
    ///
    /// # Errors
    /// Unsupported variant (paper kernel, 64-bit blocks), compilation or device failure.
    pub fn new(gpu: &Arc<Gpu>, kind: KernelKind, cipher: &Skinny) -> Result<Self, GpuError> {
        let variant = cipher.variant();
        if !kind.supports(variant) {
            return Err(GpuError::Unsupported { kind, variant });
        }
        let (source, symbols) = match kind {
            KernelKind::Paper => (&PAPER, constants::paper_symbols(cipher)),
            KernelKind::Bitsliced => {
                (&BITSLICED, vec![constants::bitsliced_masks(cipher), constants::bitsliced_masks_reversed(cipher)])
            }
        };
        let module = gpu.load_module(source)?;
        let stream = gpu.new_stream()?;
        let mut funcs = Vec::new();
        for op in Op::ALL {
            // The registry says which kernels exist (the paper's: ECB and CTR).
            funcs.push(match entry_point(kind, variant.cell_width(), op) {
                Some(name) => Some(module.load_function(name).map_err(GpuError::driver("loading a kernel"))?),
                None => None,
            });
        }
        let fill = module.load_function(FILL_ENTRY).map_err(GpuError::driver("loading the fill kernel"))?;
        let names = symbols.iter().map(|s| s.name).collect();
        upload(&module, &stream, &symbols)?;
        // Pieces: 64 MiB (long enough that a launch is far from its overhead,
        // short enough to double-buffer), less if the GPU is nearly full (two
        // slots of input and output buffers), a whole number of warps' work.
        let free = gpu.free_mem()?;
        let piece = (free / 8).clamp(WARP_BYTES * 64, 64 << 20) / WARP_BYTES * WARP_BYTES;
        Ok(Self {
            gpu: gpu.clone(),
            kind,
            block: variant.block_bytes(),
            // The cipher's own count: reduced-round ciphers run as they are.
            rounds: cipher.rounds() as i32,
            stream,
            module,
            funcs,
            fill,
            symbols: names,
            bufs: None,
            piece,
            pipeline: None,
            zeros: None,
            lanes: Vec::new(),
            host_path: HostPath::Auto,
        })
    }

    /// The kernels in use.
    pub fn kind(&self) -> KernelKind {
        self.kind
    }

    /// Whether `op` has its own kernel here (the paper's kernels do ECB and CTR).
    pub fn has_kernel(&self, op: Op) -> bool {
        self.funcs[op.index()].is_some()
    }

    /// Registers per thread and local (spill) bytes per thread of `op`'s kernel.
    pub fn kernel_resources(&self, op: Op) -> Option<(i32, i32)> {
        let f = self.funcs[op.index()].as_ref()?;
        Some((f.num_regs().ok()?, f.local_size_bytes().ok()?))
    }

    /// Sets the most bytes sent to the device at once (rounded to whole warps'
    /// work); for tests of the piece boundaries.
    pub fn set_piece_bytes(&mut self, bytes: usize) {
        self.piece = bytes.max(WARP_BYTES) / WARP_BYTES * WARP_BYTES;
        self.bufs = None;
        self.pipeline = None;
    }

    pub(crate) fn func(&self, op: Op) -> Result<&CudaFunction, GpuError> {
        self.funcs[op.index()].as_ref().ok_or(GpuError::NoKernel { kind: self.kind, op })
    }

    pub(crate) fn launch_config(&self, nblocks: u64) -> Result<LaunchConfig, GpuError> {
        launch_config(self.kind, nblocks)
    }

    /// Launches `op` over `nblocks` blocks from `input` to `output`.
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
        let cfg = self.launch_config(nblocks)?;
        let mut b = stream.launch_builder(f);
        b.arg(input).arg(output).arg(&nblocks).arg(&iv[0]).arg(&iv[1]).arg(&iv[2]).arg(&iv[3]).arg(&self.rounds);
        // SAFETY: the argument list matches the kernels' signature (in, out, n,
        // iv0..iv3, rounds); both buffers hold at least nblocks blocks.
        unsafe { b.launch(cfg) }.map_err(GpuError::driver("kernel launch"))?;
        Ok(())
    }

    /// The GPU this cipher runs on (its context allocates the buffers that
    /// [`GpuCipher::run_device`] takes).
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }
}

/// Writes each symbol into the module's `__constant__` memory.
pub(crate) fn upload(module: &Arc<CudaModule>, stream: &Arc<CudaStream>, symbols: &[Symbol]) -> Result<(), GpuError> {
    for s in symbols {
        let bytes: Zeroizing<Vec<u8>> = Zeroizing::new(s.words.iter().flat_map(|w| w.to_le_bytes()).collect());
        let mut view = module.get_global(s.name, stream).map_err(GpuError::driver("finding a kernel constant"))?;
        if view.len() < bytes.len() {
            return Err(GpuError::ConstantSize { name: s.name, have: view.len(), need: bytes.len() });
        }
        stream.memcpy_htod(&bytes[..], &mut view).map_err(GpuError::driver("uploading kernel constants"))?;
    }
    stream.synchronize().map_err(GpuError::driver("uploading kernel constants"))
}

impl Drop for GpuCipher {
    fn drop(&mut self) {
        // Wipe the round tweakeys from the device before the module goes.
        for name in &self.symbols {
            if let Ok(mut view) = self.module.get_global(name, &self.stream) {
                let _ = self.stream.memset_zeros(&mut view);
            }
        }
        let _ = self.stream.synchronize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_words_are_little_endian() {
        assert_eq!(block_words(&[1, 2, 3, 4, 5, 6, 7, 8]), [0x0403_0201, 0x0807_0605, 0, 0]);
    }
}
