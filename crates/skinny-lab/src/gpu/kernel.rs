//! One experiment loaded on a GPU and its launches: the lab kernels compiled
//! (or taken from the cache), their tables uploaded, and queries counted in
//! launches of at most [`LAUNCH_QUERIES`].

use super::source::{lab_entry_point, LAB, LAB_MAX_WARPS, LAB_THREADS};
use super::tables::{kernel_constants, shared_bytes, warps_per_block, KernelSetup};
use crate::error::LabError;
use skinny_cuda::cudarc::driver::{sys, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use skinny_cuda::{Gpu, GpuError};
use std::sync::Arc;

/// The most queries in one launch (see [`QueryKernel::launch_queries`]).
pub const LAUNCH_QUERIES: u64 = 1 << 25;

/// The result of one launch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchCounts {
    /// Hits among the queries run.
    pub hits: u64,
    /// Query indices of hits, in no particular order, at most the capacity asked for.
    pub recorded: Vec<u64>,
    /// More hits than the capacity: `recorded` is an arbitrary subset.
    pub overflow: bool,
    /// With [`QueryKernel::run_counting_keys`]: the hits of the key groups
    /// the launch touches.
    pub key_hits: KeyHits,
}

/// The hits of the key groups a launch touches, from the group of its first
/// query on; the first and the last group may continue in the launches
/// before or after.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum KeyHits {
    /// Keys were not counted.
    #[default]
    NotCounted,
    /// Each group's hits, in order.
    Each(Vec<u32>),
    /// The first and last group's hits, and the histogram of the groups
    /// between (all whole in the launch), built on the GPU: `between[h]`
    /// groups had `h` hits, for `h` up to the queries of a group;
    /// `between[key_every + 1]` counts groups with more hits than queries (a
    /// fault). Launches of many small groups (a fresh key every query) come
    /// back this way: a few counts, not one per group.
    Summed {
        /// Hits of the first group.
        first: u32,
        /// The histogram of the groups between the first and the last.
        between: Vec<u32>,
        /// Hits of the last group.
        last: u32,
    },
}

/// One experiment loaded on a GPU: its kernel, constants and result buffers.
pub struct QueryKernel {
    gpu: Arc<Gpu>,
    setup: KernelSetup,
    stream: Arc<CudaStream>,
    // Kept alive for `func`.
    _module: Arc<CudaModule>,
    func: CudaFunction,
    hits: CudaSlice<u64>,
    rec_n: CudaSlice<u32>,
    rec: Option<CudaSlice<u64>>,
    /// Per-key counters, one for each key group a launch can touch (made on
    /// the first launch that counts keys).
    key_hits: Option<CudaSlice<u32>>,
    /// The histogram of whole key groups (`lab_key_histogram`), made with
    /// `key_hits` when groups are small enough for it.
    key_histogram: Option<(CudaFunction, CudaSlice<u32>)>,
    /// A block per thread of a launch (the saved block of its queries).
    scratch: CudaSlice<u32>,
    /// Warps a block ([`warps_per_block`]).
    warps: u32,
}

impl QueryKernel {
    /// Compiles (or loads from the cache) the lab kernels and uploads `setup`'s tables.
    ///
    /// # Errors
    /// Bad parameters ([`kernel_constants`]), compilation, or the device.
    pub fn new(gpu: &Arc<Gpu>, setup: KernelSetup) -> Result<Self, LabError> {
        let symbols = kernel_constants(&setup)?;
        let v = setup.variant;
        let name = lab_entry_point(v.cell_width(), v.tk_count(), setup.query.experiment())
            .ok_or(LabError::Internal("no lab kernel for this variant"))?;
        let module = gpu.load_module(&LAB)?;
        let stream = gpu.new_stream()?;
        let func = module.load_function(name).map_err(GpuError::driver("loading a lab kernel"))?;
        let max_shared = gpu
            .context()
            .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map_err(GpuError::driver("reading the shared memory a block may have"))?;
        let warps = warps_per_block(v, usize::try_from(max_shared).unwrap_or(0));
        let bytes = i32::try_from(shared_bytes(v) * warps as usize)
            .map_err(|_| LabError::Internal("lab shared memory size"))?;
        func.set_attribute(sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes)
            .map_err(GpuError::driver("allowing the lab kernel its shared memory"))?;
        skinny_cuda::upload_constants(&module, &stream, &symbols)?;
        let hits = stream.alloc_zeros::<u64>(1).map_err(GpuError::driver("allocating lab counters"))?;
        let rec_n = stream.alloc_zeros::<u32>(1).map_err(GpuError::driver("allocating lab counters"))?;
        // One saved block per thread of the largest launch: 512 MiB for 128-bit blocks.
        // Plus a block's worth: the last block's threads past the end run too.
        let threads = (LAUNCH_QUERIES / 32) as usize + (LAB_MAX_WARPS * 32) as usize;
        let words = threads * v.block_bytes() * 8;
        let scratch = stream.alloc_zeros::<u32>(words).map_err(GpuError::driver("allocating the lab scratch"))?;
        Ok(Self {
            gpu: gpu.clone(),
            setup,
            stream,
            _module: module,
            func,
            hits,
            rec_n,
            rec: None,
            key_hits: None,
            key_histogram: None,
            scratch,
            warps,
        })
    }

    /// The GPU.
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// The experiment.
    pub fn setup(&self) -> &KernelSetup {
        &self.setup
    }

    /// Registers per thread and local (spill) bytes per thread of the kernel.
    pub fn kernel_resources(&self) -> Option<(i32, i32)> {
        Some((self.func.num_regs().ok()?, self.func.local_size_bytes().ok()?))
    }

    /// The most queries [`QueryKernel::run`] takes at once: about 4 ms of an
    /// H200's work, so a stop request is seen quickly and the host's per-launch
    /// cost (about 50 us) stays near 1 %.
    pub fn launch_queries(&self) -> u64 {
        LAUNCH_QUERIES
    }

    /// Runs queries `start .. start + count` (`count` at most
    /// [`QueryKernel::launch_queries`]) and waits for them; with `record > 0`
    /// keeps up to that many hits' query indices.
    ///
    /// # Errors
    /// A launch or copy failure; `count` too large.
    pub fn run(&mut self, start: u64, count: u64, record: u32) -> Result<LaunchCounts, LabError> {
        self.launch(start, count, record, false)
    }

    /// [`QueryKernel::run`], counting the hits of every key group too
    /// ([`LaunchCounts::key_hits`]).
    ///
    /// # Errors
    /// As [`QueryKernel::run`].
    pub fn run_counting_keys(&mut self, start: u64, count: u64, record: u32) -> Result<LaunchCounts, LabError> {
        self.launch(start, count, record, true)
    }

    fn launch(&mut self, start: u64, count: u64, record: u32, count_keys: bool) -> Result<LaunchCounts, LabError> {
        if count == 0 {
            return Ok(LaunchCounts::default());
        }
        if count > LAUNCH_QUERIES {
            return Err(LabError::LaunchTooLarge { queries: count, most: LAUNCH_QUERIES });
        }
        if record > 0 && self.rec.as_ref().is_none_or(|r| r.len() < record as usize) {
            self.rec = Some(
                self.stream
                    .alloc_zeros::<u64>(record as usize)
                    .map_err(GpuError::driver("allocating the hit record"))?,
            );
        }
        // A thread per batch of 32 queries, `warps` warps a block.
        let threads_per_block = LAB_THREADS * self.warps;
        let grid = count.div_ceil(32 * u64::from(threads_per_block)) as u32;
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (threads_per_block, 1, 1),
            shared_mem_bytes: (shared_bytes(self.setup.variant) * self.warps as usize) as u32,
        };
        self.stream.memset_zeros(&mut self.hits).map_err(GpuError::driver("clearing lab counters"))?;
        self.stream.memset_zeros(&mut self.rec_n).map_err(GpuError::driver("clearing lab counters"))?;
        let key_every = self.setup.key_every.max(1);
        // The key groups of queries start .. start + count, relative to the first.
        let groups = ((start + count - 1) / key_every - start / key_every + 1) as usize;
        // Summed on the GPU when the histogram (a count per possible number
        // of hits, and one for faults) is shorter than the list of groups.
        let summed = count_keys && groups as u64 > key_every + 4;
        if count_keys {
            if self.key_hits.is_none() {
                // A launch of LAUNCH_QUERIES touches at most this many groups.
                let most = (LAUNCH_QUERIES / key_every + 2) as usize;
                self.key_hits = Some(
                    self.stream.alloc_zeros::<u32>(most).map_err(GpuError::driver("allocating per-key counters"))?,
                );
            }
            if summed && self.key_histogram.is_none() {
                let func = self
                    ._module
                    .load_function("lab_key_histogram")
                    .map_err(GpuError::driver("loading the per-key histogram kernel"))?;
                let bins = key_every as usize + 2;
                let counts =
                    self.stream.alloc_zeros::<u32>(bins).map_err(GpuError::driver("allocating a per-key histogram"))?;
                self.key_histogram = Some((func, counts));
            }
            if let Some(k) = self.key_hits.as_mut() {
                let mut used = k.slice_mut(..groups);
                self.stream.memset_zeros(&mut used).map_err(GpuError::driver("clearing per-key counters"))?;
            }
        }
        let rounds = self.setup.rounds as i32;
        let cap = if record > 0 { record } else { 0 };
        {
            let mut b = self.stream.launch_builder(&self.func);
            b.arg(&start)
                .arg(&count)
                .arg(&self.setup.key_every)
                .arg(&self.setup.plain_state)
                .arg(&self.setup.key_state)
                .arg(&rounds)
                .arg(&mut self.hits)
                .arg(&mut self.rec_n);
            // A null record pointer when nothing is recorded (never written then).
            let null: u64 = 0;
            match self.rec.as_mut() {
                Some(r) => b.arg(r),
                None => b.arg(&null),
            };
            b.arg(&cap).arg(&mut self.scratch);
            // Null unless keys are counted: the kernels then skip the counting.
            match (count_keys, self.key_hits.as_mut()) {
                (true, Some(k)) => b.arg(k),
                _ => b.arg(&null),
            };
            // A kernel launch (one of the two unsafe calls of this crate), whose
            // arguments the compiler cannot check against the CUDA source.
            #[allow(unsafe_code)]
            // SAFETY: the arguments match the lab kernels' signature (start, count,
            // key_every, plain_state, key_state, rounds, hits, rec_n, rec,
            // rec_cap, scratch, key_hits); the kernel writes rec only below
            // rec_cap, the record's length, and scratch in one slab of 32
            // lanes x the block's bits per warp of the grid (count <=
            // LAUNCH_QUERIES, so within the scratch's length); key_hits is null
            // or has LAUNCH_QUERIES / key_every + 2 counters, and the kernel
            // adds only at the groups of queries start .. start + count
            // relative to the first, fewer than that; the dynamic shared
            // memory asked for is the kernel's layout.
            let launched = unsafe { b.launch(cfg) };
            launched.map_err(GpuError::driver("lab kernel launch"))?;
        }
        let hits = self.stream.clone_dtoh(&self.hits).map_err(GpuError::driver("reading lab counts"))?[0];
        let n = self.stream.clone_dtoh(&self.rec_n).map_err(GpuError::driver("reading lab counts"))?[0];
        let mut recorded = Vec::new();
        if let (Some(rec), true) = (self.rec.as_ref(), cap > 0) {
            let kept = n.min(cap) as usize;
            if kept > 0 {
                recorded = self.stream.clone_dtoh(&rec.slice(..kept)).map_err(GpuError::driver("reading lab hits"))?;
            }
        }
        let key_hits = match (count_keys, summed) {
            (false, _) => KeyHits::NotCounted,
            (true, false) => KeyHits::Each(match self.key_hits.as_ref() {
                Some(k) => {
                    self.stream.clone_dtoh(&k.slice(..groups)).map_err(GpuError::driver("reading per-key counts"))?
                }
                None => Vec::new(),
            }),
            (true, true) => self.key_histogram(groups)?,
        };
        Ok(LaunchCounts { hits, recorded, overflow: n > cap, key_hits })
    }

    /// The per-key counts of the launch just run (of `groups` groups, more
    /// than the histogram's bins) summed on the GPU: its first and last
    /// group, and the histogram of the groups between.
    fn key_histogram(&mut self, groups: usize) -> Result<KeyHits, LabError> {
        let (Some(k), Some((func, hist))) = (self.key_hits.as_ref(), self.key_histogram.as_mut()) else {
            return Err(LabError::Internal("per-key counters missing"));
        };
        let bins = u32::try_from(self.setup.key_every.max(1) + 1).map_err(|_| LabError::Internal("histogram bins"))?;
        let to = u32::try_from(groups - 1).map_err(|_| LabError::Internal("key groups of a launch"))?;
        self.stream.memset_zeros(hist).map_err(GpuError::driver("clearing a per-key histogram"))?;
        // Enough blocks to fill the GPU; each thread then steps through a
        // few hundred groups at most.
        let threads = 256u32;
        let grid = (groups as u32).div_ceil(threads).clamp(1, 1024);
        let cfg = LaunchConfig { grid_dim: (grid, 1, 1), block_dim: (threads, 1, 1), shared_mem_bytes: 0 };
        let from = 1u32;
        {
            let mut b = self.stream.launch_builder(func);
            b.arg(k).arg(&from).arg(&to).arg(&bins).arg(&mut *hist);
            #[allow(unsafe_code)]
            // SAFETY: the arguments match `lab_key_histogram(const u32*
            // key_hits, u32 from, u32 to, u32 bins, u32* hist)`; it reads
            // key_hits[from .. to) (to < groups, the launch's groups, within
            // the counters' length) and adds to hist[0 ..= bins], whose length
            // is key_every + 2 = bins + 1.
            let launched = unsafe { b.launch(cfg) };
            launched.map_err(GpuError::driver("per-key histogram launch"))?;
        }
        let between = self.stream.clone_dtoh(hist).map_err(GpuError::driver("reading a per-key histogram"))?;
        let first = self.stream.clone_dtoh(&k.slice(..1)).map_err(GpuError::driver("reading per-key counts"))?[0];
        let last =
            self.stream.clone_dtoh(&k.slice(groups - 1..groups)).map_err(GpuError::driver("reading per-key counts"))?
                [0];
        Ok(KeyHits::Summed { first, between, last })
    }
}
