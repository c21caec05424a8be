//! One GPU: opening it (its context and what the driver says of it), its
//! streams and page-locked host memory, and loading kernel modules compiled
//! for it.
//!
//! Kernels are `.cu` sources compiled by NVRTC for the device's compute
//! capability (`sm_XX` machine code, no JIT at load), through the GPU's
//! [`KernelCache`].

use super::cache::{Freshness, KernelCache};
use crate::driver::{device_count, guarded};
use crate::error::GpuError;
use crate::kernels::KernelSource;
use crate::nvrtc::nvrtc_version;
use cudarc::driver::{sys, CudaContext, CudaModule, CudaStream};
use cudarc::nvrtc::Ptx;
use std::sync::Arc;

/// One GPU with its context, ready to load kernels.
pub struct Gpu {
    ordinal: usize,
    ctx: Arc<CudaContext>,
    name: String,
    cc: (i32, i32),
    total_mem: usize,
    sm_count: i32,
    driver_version: i32,
    nvrtc_version: (i32, i32),
    kernels: KernelCache,
}

/// How to open a GPU.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct GpuOptions {
    /// Options added to every NVRTC compilation, for tuning experiments (e.g.
    /// `-DBS_MIN_BLOCKS=2`); part of the kernel cache's key.
    pub extra_nvrtc_options: Vec<String>,
}

impl GpuOptions {
    /// Options with these extra NVRTC options.
    pub fn with_nvrtc_options(extra: Vec<String>) -> Self {
        Self { extra_nvrtc_options: extra }
    }
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Gpu({})", self.describe())
    }
}

fn driver_version() -> Result<i32, GpuError> {
    let mut v = 0;
    // SAFETY: plain out-parameter.
    let r = guarded("cuDriverGetVersion", || unsafe { sys::cuDriverGetVersion(&mut v) })?;
    r.result().map_err(|e| GpuError::driver("cannot read the driver version")(e))?;
    Ok(v)
}

impl Gpu {
    /// Opens GPU `ordinal` ([`Gpu::get`] opens each GPU once per process and
    /// shares it).
    ///
    /// # Errors
    /// As [`Gpu::first`].
    pub fn open(ordinal: usize) -> Result<Gpu, GpuError> {
        Gpu::open_with(ordinal, &GpuOptions::default())
    }

    /// Opens GPU `ordinal` with `options`.
    ///
    /// # Errors
    /// As [`Gpu::first`].
    pub fn open_with(ordinal: usize, options: &GpuOptions) -> Result<Gpu, GpuError> {
        let count = device_count()?;
        if count == 0 {
            return Err(GpuError::NoDevice);
        }
        if ordinal >= count {
            return Err(GpuError::NoSuchDevice { ordinal, count });
        }
        // Past this point every failure is this device's: the error names it.
        let on_device = |e: GpuError| if count > 1 || ordinal > 0 { GpuError::on_device(ordinal, e) } else { e };
        let ctx = guarded("context creation", || CudaContext::new(ordinal))
            .and_then(|r| r.map_err(|e| GpuError::driver("cannot open the GPU")(e)))
            .map_err(on_device)?;
        let describe = || -> Result<_, GpuError> {
            let name = ctx.name().map_err(|e| GpuError::driver("cannot read the GPU name")(e))?;
            let cc = ctx.compute_capability().map_err(|e| GpuError::driver("cannot read the compute capability")(e))?;
            let total_mem = ctx.total_mem().map_err(|e| GpuError::driver("cannot read the GPU memory size")(e))?;
            let sm_count = ctx
                .attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
                .map_err(|e| GpuError::driver("cannot read the multiprocessor count")(e))?;
            Ok((name, cc, total_mem, sm_count))
        };
        let (name, cc, total_mem, sm_count) = describe().map_err(on_device)?;
        let driver_version = driver_version()?;
        let nvrtc_version = nvrtc_version()?;
        Ok(Gpu {
            ordinal,
            ctx,
            name,
            cc,
            total_mem,
            sm_count,
            driver_version,
            nvrtc_version,
            kernels: KernelCache::new(cc, nvrtc_version, &options.extra_nvrtc_options),
        })
    }

    /// One line: name, memory, compute capability, driver and NVRTC versions.
    pub fn describe(&self) -> String {
        format!(
            "{} ({:.1} GiB, compute capability {}.{}, {} SMs, driver CUDA {}.{}, NVRTC {}.{})",
            self.name,
            self.total_mem as f64 / (1u64 << 30) as f64,
            self.cc.0,
            self.cc.1,
            self.sm_count,
            self.driver_version / 1000,
            (self.driver_version % 1000) / 10,
            self.nvrtc_version.0,
            self.nvrtc_version.1
        )
    }

    /// The driver's number for this GPU (as `nvidia-smi` and
    /// `CUDA_VISIBLE_DEVICES` count them).
    pub fn ordinal(&self) -> usize {
        self.ordinal
    }

    /// The device name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Compute capability (major, minor).
    pub fn compute_capability(&self) -> (i32, i32) {
        self.cc
    }

    /// Number of multiprocessors.
    pub fn sm_count(&self) -> i32 {
        self.sm_count
    }

    /// Device memory in bytes.
    pub fn total_mem(&self) -> usize {
        self.total_mem
    }

    /// Free device memory in bytes now.
    ///
    /// # Errors
    /// When the driver fails.
    pub fn free_mem(&self) -> Result<usize, GpuError> {
        self.ctx.mem_get_info().map(|(free, _)| free).map_err(|e| GpuError::driver("cannot read free GPU memory")(e))
    }

    /// `len` bytes of zeroed page-locked host memory on this GPU's context: a
    /// product's copies from and to it (`skinny_bulk::gpu::GpuCipher::run`,
    /// say) go straight to and from the device at the link's speed, with no
    /// staging copy (`as_mut_slice` gives the bytes).
    ///
    /// # Errors
    /// When the driver cannot page-lock that much.
    pub fn alloc_host(&self, len: usize) -> Result<cudarc::driver::PinnedHostSlice<u8>, GpuError> {
        // Portable: page-locked for every context, so that a [`crate::GpuSet`]
        // copies a stripe of it straight to each of its GPUs.
        let flags = sys::CU_MEMHOSTALLOC_WRITECOMBINED | sys::CU_MEMHOSTALLOC_PORTABLE;
        // SAFETY: zeroed below before anyone reads it.
        let mut buf = unsafe { self.ctx.alloc_pinned_with_flags::<u8>(len, flags) }
            .map_err(GpuError::driver("allocating pinned memory"))?;
        buf.as_mut_slice().map_err(GpuError::driver("allocating pinned memory"))?.fill(0);
        Ok(buf)
    }

    /// The CUDA context: device buffers and streams for the products' calls
    /// on data already on the device are made from it (or from
    /// [`Gpu::new_stream`]).
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// A new stream on this GPU.
    ///
    /// # Errors
    /// When the driver fails.
    pub fn new_stream(&self) -> Result<Arc<CudaStream>, GpuError> {
        self.ctx.new_stream().map_err(|e| GpuError::driver("cannot create a CUDA stream")(e))
    }

    /// Whether `source`'s machine code for this GPU is already compiled (in this
    /// process's memory or the disk cache), so that [`Gpu::load_module`] will not
    /// run NVRTC. A program can say so before a compilation that may take many
    /// seconds (on a freshly started machine, NVRTC's first compilation of a
    /// large kernel has taken 25-35 s), and keep it out of what it times.
    pub fn is_compiled(&self, source: &KernelSource) -> bool {
        self.kernels.is_cached(source)
    }

    /// Loads a fresh instance of `source`'s module (its own `__constant__`
    /// memory), compiling it first if neither memory nor disk cache has it.
    ///
    /// # Errors
    /// Compilation or loading failed.
    pub fn load_module(&self, source: &KernelSource) -> Result<Arc<CudaModule>, GpuError> {
        let image = self.kernels.machine_code(source, Freshness::Cached)?;
        match self.ctx.load_module(Ptx::from_binary(image.as_ref().clone())) {
            Ok(m) => Ok(m),
            // A damaged or foreign file in the disk cache: compile afresh once.
            Err(_) => {
                let image = self.kernels.machine_code(source, Freshness::Recompile)?;
                self.ctx
                    .load_module(Ptx::from_binary(image.as_ref().clone()))
                    .map_err(GpuError::driver("loading the kernels"))
            }
        }
    }
}
