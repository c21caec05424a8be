//! One message's runs of blocks on the GPU (`kernels/aead.cu`): the blocks
//! of one domain share everything in their tweakey but the counter, and go in
//! one launch per 2^26 blocks, with the XOR of the run's plaintext (or, to
//! authenticate, of its encrypted blocks) summed on the device. The masks (key,
//! nonce) are secret and wiped from the device when the kernel is dropped; the
//! counter values are public.

use super::error::GpuAeadError;
use super::inputs::{lfsr_advance, power_table, AeadCounter, WARP_BLOCKS};
use super::kernels::{counters_entry_point, entry_point, function, AeadOp};
use skinny::Skinny;
use skinny_cuda::constants::{bitsliced_masks, bitsliced_masks_reversed, Symbol};
use skinny_cuda::cudarc::driver::{
    CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr, DevicePtrMut, PushKernelArg,
};
use skinny_cuda::kernels::{bitsliced_warps, one_thread_per_item, AEAD};
use skinny_cuda::upload_constants;
use skinny_cuda::{Gpu, GpuError};
use std::sync::Arc;
use std::vec::Vec;

/// The most blocks of one launch: 2^16 warps, as far as the kernel's two
/// 256-entry power tables reach (1 GiB).
const LAUNCH_BLOCKS: u64 = 1 << 26;
/// Slots of partial sums (`SUM_SLOTS` in the source).
const SUM_SLOTS: usize = 1024;

/// The GPU side of SKINNY-AEAD for one message at a time: its module (with the
/// masks in `__constant__` memory), stream and scratch buffers.
pub(crate) struct AeadKernel {
    counter: AeadCounter,
    rounds: i32,
    stream: Arc<CudaStream>,
    module: Arc<CudaModule>,
    funcs: Vec<CudaFunction>,
    counters_fn: CudaFunction,
    pow_lo: CudaSlice<u64>,
    pow_hi: CudaSlice<u64>,
    warp_counters: CudaSlice<u64>,
    sums: CudaSlice<u32>,
    masks_loaded: bool,
}

impl AeadKernel {
    /// Loads the kernels for `counter`'s members on `gpu`.
    ///
    /// # Errors
    /// Compilation, loading or allocation failed.
    pub(crate) fn new(gpu: &Gpu, counter: AeadCounter) -> Result<Self, GpuAeadError> {
        let module = gpu.load_module(&AEAD)?;
        let stream = gpu.new_stream()?;
        let funcs =
            AeadOp::ALL.iter().map(|&op| function(&module, &entry_point(counter, op))).collect::<Result<_, _>>()?;
        let counters_fn = function(&module, &counters_entry_point(counter))?;
        let bits = counter.bits();
        // x^(1024 k) and x^(1024 * 256 * k) for k < 256.
        let x1024 = lfsr_advance(bits, 1, WARP_BLOCKS);
        let x262144 = lfsr_advance(bits, 1, WARP_BLOCKS * 256);
        let table = |step: u64| power_table(bits, step);
        let pow_lo = stream.clone_htod(&table(x1024)).map_err(GpuError::driver("uploading the counter tables"))?;
        let pow_hi = stream.clone_htod(&table(x262144)).map_err(GpuError::driver("uploading the counter tables"))?;
        let warp_counters = stream
            .alloc_zeros::<u64>((LAUNCH_BLOCKS / WARP_BLOCKS) as usize)
            .map_err(GpuError::driver("allocating the counter buffer"))?;
        let sums = stream.alloc_zeros::<u32>(SUM_SLOTS * 4).map_err(GpuError::driver("allocating the sums"))?;
        // The decryption kernel pairs the rounds (odd, then even with the
        // counter): both AEAD variants have an even count (56, 48).
        debug_assert!(counter.variant().rounds().is_multiple_of(2), "aead.cu decrypts an even number of rounds");
        Ok(Self {
            counter,
            rounds: counter.variant().rounds() as i32,
            stream,
            module,
            funcs,
            counters_fn,
            pow_lo,
            pow_hi,
            warp_counters,
            sums,
            masks_loaded: false,
        })
    }

    /// The stream the launches run on.
    pub(crate) fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Sets what the next runs share: `tweakey` is a whole tweakey of the
    /// counter's variant (TK1 ‖ TK2 [‖ TK3]) whose counter cells are ignored
    /// (the domain byte, the nonce and the key are taken as they are).
    ///
    /// # Errors
    /// A tweakey of the wrong length; an upload failure.
    pub(crate) fn set_tweakey(&mut self, tweakey: &[u8]) -> Result<(), GpuAeadError> {
        let variant = self.counter.variant();
        let mut tk = zeroize::Zeroizing::new(tweakey.to_vec());
        if tk.len() != variant.tweakey_bytes() {
            return Err(GpuAeadError::TweakeyLength { need: variant.tweakey_bytes(), got: tk.len() });
        }
        tk[..self.counter.counter_bytes()].fill(0);
        let cipher = Skinny::new(variant, &tk)
            .map_err(|_| GpuAeadError::TweakeyLength { need: variant.tweakey_bytes(), got: tweakey.len() })?;
        let fwd = bitsliced_masks(&cipher);
        let rev = bitsliced_masks_reversed(&cipher);
        upload_constants(
            &self.module,
            &self.stream,
            &[Symbol { name: "aead_masks", words: fwd.words }, Symbol { name: "aead_masks_rev", words: rev.words }],
        )?;
        self.masks_loaded = true;
        Ok(())
    }

    /// Runs `op` over the first `nblocks` 16-byte blocks of `data` (device
    /// memory of this kernel's GPU) in place, block `g` under the counter
    /// `start · x^g`, and returns the run's sum (see [`AeadOp`]): each block is
    /// read, then written, by the one thread that owns it. Waits for the GPU.
    ///
    /// # Errors
    /// No tweakey set, a buffer too short, a launch or copy failure.
    pub(crate) fn run_device_in_place(
        &mut self,
        op: AeadOp,
        start: u64,
        data: &mut CudaSlice<u8>,
        nblocks: u64,
    ) -> Result<[u8; 16], GpuAeadError> {
        self.check(nblocks, data.len())?;
        let stream = self.stream.clone();
        let (p, _s) = data.device_ptr_mut(&stream);
        self.run_ptrs(op, start, p, p, nblocks)
    }

    fn check(&self, nblocks: u64, len: usize) -> Result<(), GpuAeadError> {
        if !self.masks_loaded {
            return Err(GpuAeadError::NoTweakey);
        }
        let need = nblocks.checked_mul(16).and_then(|b| usize::try_from(b).ok()).ok_or(GpuError::LaunchTooLarge)?;
        if len < need {
            return Err(GpuAeadError::BufferTooShort { need, got: len });
        }
        Ok(())
    }

    fn run_ptrs(
        &mut self,
        op: AeadOp,
        start: u64,
        input: u64,
        output: u64,
        nblocks: u64,
    ) -> Result<[u8; 16], GpuAeadError> {
        let stream = self.stream.clone();
        stream.memset_zeros(&mut self.sums).map_err(GpuError::driver("clearing the sums"))?;
        let bits = self.counter.bits();
        let mut done = 0u64;
        while done < nblocks {
            let n = (nblocks - done).min(LAUNCH_BLOCKS);
            let first = lfsr_advance(bits, start, done);
            let nwarps = n.div_ceil(WARP_BLOCKS);
            let cfg = one_thread_per_item(nwarps)?;
            {
                let (wc, _s1) = self.warp_counters.device_ptr_mut(&stream);
                let (lo, _s2) = self.pow_lo.device_ptr(&stream);
                let (hi, _s3) = self.pow_hi.device_ptr(&stream);
                let mut b = stream.launch_builder(&self.counters_fn);
                b.arg(&wc).arg(&nwarps).arg(&first).arg(&lo).arg(&hi);
                // SAFETY: the arguments match aead_*_counters(counters, nwarps,
                // start, pow_lo, pow_hi); the buffer holds 2^16 >= nwarps words
                // and the tables 256 each.
                unsafe { b.launch(cfg) }.map_err(GpuError::driver("AEAD counter launch"))?;
            }
            let cfg = bitsliced_warps(nwarps)?;
            let (ip, op_ptr) = (input + done * 16, output + done * 16);
            let (wc, _s1) = self.warp_counters.device_ptr(&stream);
            let (sums, _s2) = self.sums.device_ptr_mut(&stream);
            let f = &self.funcs[op.index()];
            let mut b = stream.launch_builder(f);
            b.arg(&ip).arg(&op_ptr).arg(&n).arg(&wc).arg(&sums).arg(&self.rounds);
            // SAFETY: the arguments match aead_*_{enc,dec,auth}(in, out, n,
            // counters, sums, rounds); the caller's buffers hold `nblocks`
            // blocks from `input`/`output` (checked), so blocks done..done+n
            // are in range; the counters of the n.div_ceil(1024) warps were
            // written by the launch before on the same stream.
            unsafe { b.launch(cfg) }.map_err(GpuError::driver("AEAD kernel launch"))?;
            done += n;
        }
        let words = stream.clone_dtoh(&self.sums).map_err(GpuError::driver("reading the sums"))?;
        let mut out = [0u8; 16];
        for slot in words.chunks_exact(4) {
            for (o, w) in out.chunks_exact_mut(4).zip(slot) {
                for (a, b) in o.iter_mut().zip(w.to_le_bytes()) {
                    *a ^= b;
                }
            }
        }
        Ok(out)
    }
}

impl Drop for AeadKernel {
    fn drop(&mut self) {
        // Wipe the masks (key, nonce) from the device before the module goes.
        for name in ["aead_masks", "aead_masks_rev"] {
            if let Ok(mut view) = self.module.get_global(name, &self.stream) {
                let _ = self.stream.memset_zeros(&mut view);
            }
        }
        let _ = self.stream.synchronize();
    }
}
