//! Neural-distinguisher data on the GPU ([`PairsKernel`]): the samples of a
//! [`NeuralPairs`] data set, byte for byte the CPU's (the kernels of
//! `pairs.cu` in `skinny-cuda` draw the same generator's words), written
//! straight into device memory.

use super::source::{LAB_MAX_WARPS, LAB_THREADS};
use super::tables::{kernel_constants, shared_bytes, warps_per_block, KernelSetup};
use super::KernelQuery;
use crate::error::LabError;
use crate::pairs::{Negatives, NeuralPairs};
use skinny::CellWidth;
use skinny_cuda::cudarc::driver::{
    sys, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtrMut, LaunchConfig, PushKernelArg,
};
use skinny_cuda::kernels::{KernelSource, PAIRS_TEXT};
use skinny_cuda::{DeviceBytes, DeviceQueue, Gpu, GpuError};
use std::sync::Arc;

/// The pairs kernels (after the lab's text, with its launch bound).
pub(crate) const PAIRS: KernelSource =
    KernelSource { name: "pairs", text: PAIRS_TEXT, defines: &[("SKINNY_LAB_MAX_WARPS", LAB_MAX_WARPS)] };

/// Samples a launch makes at most (as the lab's queries: a few ms of an H200).
pub const LAUNCH_SAMPLES: u64 = 1 << 25;

/// The pairs kernel for blocks of `width` with `tk_count` tweakey arrays and
/// these negatives. A test checks every name against the source.
pub(crate) fn pairs_entry_point(width: CellWidth, tk_count: usize, negatives: Negatives) -> Option<&'static str> {
    const NAMES: [[[&str; 3]; 2]; 2] = [
        [
            ["pairs128_tk1_ciphertexts", "pairs128_tk2_ciphertexts", "pairs128_tk3_ciphertexts"],
            ["pairs128_tk1_plaintexts", "pairs128_tk2_plaintexts", "pairs128_tk3_plaintexts"],
        ],
        [
            ["pairs64_tk1_ciphertexts", "pairs64_tk2_ciphertexts", "pairs64_tk3_ciphertexts"],
            ["pairs64_tk1_plaintexts", "pairs64_tk2_plaintexts", "pairs64_tk3_plaintexts"],
        ],
    ];
    let w = usize::from(width == CellWidth::Nibble);
    let n = usize::from(negatives == Negatives::RandomPlaintexts);
    NAMES[w][n].get(tk_count.checked_sub(1)?).copied()
}

/// The `__constant__` tables of a data set: the lab's for a differential of
/// its plaintext and tweakey differences (the generator, schedule and
/// related-tweakey lists are the lab's).
pub fn pairs_constants(set: &NeuralPairs) -> Result<Vec<skinny_cuda::constants::Symbol>, LabError> {
    let v = set.variant();
    let states = set.stream_states();
    kernel_constants(&KernelSetup {
        variant: v,
        rounds: set.rounds(),
        start_round: 1,
        key_every: 1,
        plain_state: states[0],
        key_state: states[1],
        query: KernelQuery::Differential {
            dp: set.diff().to_vec(),
            dc: vec![0; v.block_bytes()],
            dc_mask: vec![0; v.block_bytes()],
            dk: set.key_diff().to_vec(),
            cells: None,
        },
    })
}

/// A data set's kernel, loaded on one GPU with its tables.
pub struct PairsKernel {
    set: NeuralPairs,
    stream: Arc<CudaStream>,
    ordinal: usize,
    // Kept alive for `func`.
    _module: Arc<CudaModule>,
    func: CudaFunction,
    states: CudaSlice<u64>,
    /// The slab of saved blocks of a launch's threads.
    scratch: CudaSlice<u32>,
    warps: u32,
}

impl PairsKernel {
    /// Compiles (or loads from the cache) the kernels and uploads `set`'s tables.
    ///
    /// # Errors
    /// Compilation or the device.
    pub fn new(gpu: &Arc<Gpu>, set: &NeuralPairs) -> Result<Self, LabError> {
        let v = set.variant();
        let symbols = pairs_constants(set)?;
        let name = pairs_entry_point(v.cell_width(), v.tk_count(), set.negatives())
            .ok_or(LabError::Internal("no pairs kernel for this variant"))?;
        let module = gpu.load_module(&PAIRS)?;
        let stream = gpu.new_stream()?;
        let func = module.load_function(name).map_err(GpuError::driver("loading a pairs kernel"))?;
        let max_shared = gpu
            .context()
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map_err(GpuError::driver("reading the shared memory a block may have"))?;
        let warps = warps_per_block(v, usize::try_from(max_shared).unwrap_or(0));
        let bytes = i32::try_from(shared_bytes(v) * warps as usize)
            .map_err(|_| LabError::Internal("pairs shared memory size"))?;
        func.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes)
            .map_err(GpuError::driver("allowing the pairs kernel its shared memory"))?;
        skinny_cuda::upload_constants(&module, &stream, &symbols)?;
        let states =
            stream.clone_htod(&set.stream_states()).map_err(GpuError::driver("copying the generator's states"))?;
        let threads = (LAUNCH_SAMPLES / 32) as usize + (LAB_MAX_WARPS * 32) as usize;
        let scratch = stream
            .alloc_zeros::<u32>(threads * v.block_bytes() * 8)
            .map_err(GpuError::driver("allocating the pairs scratch"))?;
        Ok(Self { set: set.clone(), stream, ordinal: gpu.ordinal(), _module: module, func, states, scratch, warps })
    }

    /// The stream the kernels run on (device buffers for [`PairsKernel::fill`]
    /// are best made on it).
    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    /// Registers per thread and local (spill) bytes per thread of the kernel.
    pub fn kernel_resources(&self) -> Option<(i32, i32)> {
        Some((self.func.num_regs().ok()?, self.func.local_size_bytes().ok()?))
    }

    /// Samples `first .. first + y.len()` into `x` (a row of
    /// [`NeuralPairs::row_bytes`] each) and `y`, and waits for them.
    ///
    /// # Errors
    /// `x` not `y.len()` rows long ([`LabError::Length`]); a launch failure.
    pub fn fill(&mut self, first: u64, x: &mut CudaSlice<u8>, y: &mut CudaSlice<u8>) -> Result<(), LabError> {
        let n = y.len();
        let row = self.set.row_bytes();
        if x.len() != n * row {
            return Err(LabError::Length { what: "x", variant: self.set.variant(), expected: n * row, got: x.len() });
        }
        let stream = self.stream.clone();
        let (xp, _xg) = x.device_ptr_mut(&stream);
        let (yp, _yg) = y.device_ptr_mut(&stream);
        // SAFETY: both buffers are this GPU's (made from its context), of
        // n rows and n labels, and stay borrowed until the call has waited.
        #[allow(unsafe_code)]
        unsafe {
            self.fill_raw(first, n as u64, xp, yp)
        }
    }

    /// Samples `first .. first + n` into new device memory: `n` rows of
    /// [`NeuralPairs::row_bytes`] and `n` labels, ready when this returns
    /// (for a face that hands them out by address: DLPack, say).
    ///
    /// # Errors
    /// Out of device memory; a launch failure.
    pub fn sample(&mut self, first: u64, n: usize) -> Result<(DeviceBytes, DeviceBytes), LabError> {
        let rows = n.checked_mul(self.set.row_bytes()).ok_or(GpuError::LaunchTooLarge)?;
        let queue = DeviceQueue::of_stream(self.stream.clone(), self.ordinal);
        let (x, y) = (queue.zeroed(rows)?, queue.zeroed(n)?);
        if n > 0 {
            // SAFETY: x and y are fresh allocations of this kernel's GPU, of n
            // rows and n labels, owned here until the call has waited.
            #[allow(unsafe_code)]
            unsafe { self.fill_raw(first, n as u64, x.ptr(), y.ptr()) }?;
        }
        Ok((x, y))
    }

    /// [`PairsKernel::fill`] into memory given by its device addresses (a
    /// DLPack tensor's, say): `n` samples from `first`, rows at `x`, labels at
    /// `y`; waits for them.
    ///
    /// # Errors
    /// `x` not 8-byte aligned; a launch failure.
    ///
    /// # Safety
    /// `x` must address `n` rows and `y` `n` bytes of device memory of this
    /// kernel's GPU (its primary context), writable and used by nothing else
    /// until the call returns.
    #[allow(unsafe_code)]
    pub unsafe fn fill_raw(&mut self, first: u64, n: u64, x: u64, y: u64) -> Result<(), LabError> {
        if !x.is_multiple_of(8) {
            return Err(LabError::Internal("pairs rows must be 8-byte aligned"));
        }
        let row = self.set.row_bytes() as u64;
        let rounds = self.set.rounds() as i32;
        let threads_per_block = LAB_THREADS * self.warps;
        let shared = (shared_bytes(self.set.variant()) * self.warps as usize) as u32;
        let mut done = 0u64;
        while done < n {
            let count = (n - done).min(LAUNCH_SAMPLES);
            let grid = count.div_ceil(32 * u64::from(threads_per_block)) as u32;
            let cfg =
                LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (threads_per_block, 1, 1), shared_mem_bytes: shared };
            let (start, xs, ys) = (first + done, x + done * row, y + done);
            let mut b = self.stream.launch_builder(&self.func);
            b.arg(&start).arg(&count).arg(&self.states).arg(&rounds).arg(&xs).arg(&ys).arg(&mut self.scratch);
            // SAFETY: the arguments match the pairs kernels' signature
            // (first, count, states, rounds, x, y, scratch); the kernel
            // writes rows and labels 0 .. count from xs and ys (within the
            // caller's n, as the caller promises), and its scratch in one
            // slab per warp of the grid (count <= LAUNCH_SAMPLES, within the
            // scratch's length).
            unsafe { b.launch(cfg) }.map_err(GpuError::driver("launching a pairs kernel"))?;
            done += count;
        }
        self.stream.synchronize().map_err(GpuError::driver("waiting for the pairs kernel"))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pairs_entry_point_is_in_the_source() {
        let mut declared: Vec<&str> = PAIRS
            .text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("PAIRS_ENTRY("))
            .filter_map(|r| r.split(',').next().filter(|n| !n.contains(' ')))
            .collect();
        declared.sort_unstable();
        let mut named: Vec<&str> = [CellWidth::Byte, CellWidth::Nibble]
            .into_iter()
            .flat_map(|w| {
                [Negatives::RandomCiphertexts, Negatives::RandomPlaintexts]
                    .into_iter()
                    .flat_map(move |n| (1..=3).map(move |z| pairs_entry_point(w, z, n).expect("1..=3")))
            })
            .collect();
        named.sort_unstable();
        assert_eq!(declared, named);
        assert_eq!(pairs_entry_point(CellWidth::Byte, 4, Negatives::RandomPlaintexts), None);
    }
}
