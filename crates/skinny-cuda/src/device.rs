//! The GPU: probing for CUDA, the context, and compiled kernel modules.
//!
//! cudarc loads `libcuda` and `libnvrtc` at run time and panics when one is
//! missing, so [`Gpu::open`] first looks for both with `dlopen` itself, and
//! then still runs every first cudarc call under `catch_unwind`.
//!
//! Kernels are `.cu` sources compiled by NVRTC for the device's compute
//! capability (`sm_XX` machine code, no JIT at load). The machine code is cached
//! in memory and on disk (`$XDG_CACHE_HOME/skinny` or `~/.cache/skinny`), keyed
//! by a hash of the source, the options, the compute capability and the NVRTC
//! version, so only the first run on a machine pays for compilation.

pub use crate::kernels::KernelSource;
use crate::nvrtc::compile_cubin;
use crate::GpuError;
use cudarc::driver::{sys, CudaContext, CudaModule, CudaStream};
use cudarc::nvrtc::Ptx;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

/// Runs a cudarc call that may panic (missing library or symbol) and turns the
/// panic into an error.
pub(crate) fn guarded<T>(what: &'static str, f: impl FnOnce() -> T) -> Result<T, GpuError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
        let msg = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("unknown panic");
        GpuError::Loader { what, message: first_line(msg).to_string() }
    })
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

/// Whether one of the candidate names of a shared library can be loaded.
fn find_library(name: &str) -> Option<String> {
    cudarc::get_lib_name_candidates(name).into_iter().find(|cand| {
        // SAFETY: loading the CUDA driver or NVRTC runs their initialisers, which
        // is what cudarc does next anyway; the handle is closed again at once.
        unsafe { libloading::Library::new(cand) }.is_ok()
    })
}

/// Checks that the CUDA driver library and NVRTC can be loaded, before cudarc
/// is asked to (it panics otherwise).
pub fn probe_libraries() -> Result<(), GpuError> {
    if find_library("cuda").is_none() {
        return Err(GpuError::NoDriver);
    }
    if find_library("nvrtc").is_none() {
        return Err(GpuError::NoNvrtc);
    }
    Ok(())
}

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
    /// Compiled machine code by cache key.
    images: Mutex<HashMap<u64, Arc<Vec<u8>>>>,
    extra_nvrtc_options: Vec<String>,
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

fn nvrtc_version() -> Result<(i32, i32), GpuError> {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: plain out-parameters.
    let r = guarded("nvrtcVersion", || unsafe { cudarc::nvrtc::sys::nvrtcVersion(&mut major, &mut minor) })?;
    if r != cudarc::nvrtc::sys::nvrtcResult::NVRTC_SUCCESS {
        return Err(GpuError::Nvrtc { what: "version query", kernels: "(none)", code: r });
    }
    Ok((major, minor))
}

fn driver_version() -> Result<i32, GpuError> {
    let mut v = 0;
    // SAFETY: plain out-parameter.
    let r = guarded("cuDriverGetVersion", || unsafe { sys::cuDriverGetVersion(&mut v) })?;
    r.result().map_err(|e| GpuError::driver("cannot read the driver version")(e))?;
    Ok(v)
}

/// Every GPU opened through [`Gpu::get`], by ordinal: each is opened once per
/// process (one context each), whoever asks first.
static OPENED: OnceLock<Mutex<HashMap<usize, Arc<OpenOnce>>>> = OnceLock::new();

/// One GPU's opening, done once: the GPU or why it cannot be used.
type OpenOnce = OnceLock<Result<Arc<Gpu>, GpuError>>;

impl Gpu {
    /// The first GPU, opened once per process.
    ///
    /// # Errors
    /// One line saying why no GPU can be used: no driver, no NVRTC, no device,
    /// or a device that fails to start.
    pub fn first() -> Result<Arc<Gpu>, GpuError> {
        Gpu::get(0)
    }

    /// GPU `ordinal`, opened once per process (as [`Gpu::first`] for GPU 0):
    /// every caller asking for the same ordinal shares its context and its
    /// cache of compiled kernels.
    ///
    /// # Errors
    /// As [`Gpu::first`]; [`GpuError::NoSuchDevice`] for an ordinal the driver
    /// does not see; a device that fails to start, its error naming the ordinal
    /// ([`GpuError::Device`]).
    pub fn get(ordinal: usize) -> Result<Arc<Gpu>, GpuError> {
        let cell = {
            let mut map = OPENED.get_or_init(|| Mutex::new(HashMap::new())).lock().map_err(|_| GpuError::Poisoned)?;
            map.entry(ordinal).or_default().clone()
        };
        cell.get_or_init(|| Gpu::open(ordinal).map(Arc::new)).clone()
    }

    /// How many GPUs the driver sees (0 with a driver and no GPU).
    ///
    /// # Errors
    /// No driver, no NVRTC, or a driver that cannot start.
    pub fn count() -> Result<usize, GpuError> {
        probe_libraries()?;
        let count = guarded("cuInit", CudaContext::device_count)?
            .map_err(|e| GpuError::driver("the NVIDIA driver cannot start")(e))?;
        Ok(usize::try_from(count).unwrap_or(0))
    }

    /// Opens GPU `ordinal`.
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
        probe_libraries()?;
        let count = guarded("cuInit", CudaContext::device_count)?
            .map_err(|e| GpuError::driver("the NVIDIA driver cannot start")(e))?;
        if count <= 0 {
            return Err(GpuError::NoDevice);
        }
        if ordinal >= count as usize {
            return Err(GpuError::NoSuchDevice { ordinal, count: count as usize });
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
            images: Mutex::new(HashMap::new()),
            extra_nvrtc_options: options.extra_nvrtc_options.clone(),
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

    /// `len` bytes of zeroed page-locked host memory on this GPU's context:
    /// [`crate::GpuCipher::run`] on it copies straight to and from the device at
    /// the link's speed, with no staging copy (`as_mut_slice` gives the bytes).
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

    /// The CUDA context: device buffers and streams for [`crate::GpuCipher::run_device`]
    /// are made from it (or from [`Gpu::new_stream`]).
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

    /// Loads a fresh instance of `source`'s module (its own `__constant__`
    /// memory), compiling it first if neither memory nor disk cache has it.
    ///
    /// # Errors
    /// Compilation or loading failed.
    pub fn load_module(&self, source: &KernelSource) -> Result<Arc<CudaModule>, GpuError> {
        let image = self.machine_code(source, false)?;
        match self.ctx.load_module(Ptx::from_binary(image.as_ref().clone())) {
            Ok(m) => Ok(m),
            // A damaged or foreign file in the disk cache: compile afresh once.
            Err(_) => {
                let image = self.machine_code(source, true)?;
                self.ctx
                    .load_module(Ptx::from_binary(image.as_ref().clone()))
                    .map_err(GpuError::driver("loading the kernels"))
            }
        }
    }

    fn options(&self) -> Vec<String> {
        nvrtc_options(self.cc, &self.extra_nvrtc_options)
    }

    fn cache_key(&self, source: &KernelSource) -> u64 {
        let mut h = Fnv64::new();
        h.write(source.text.as_bytes());
        for o in self.options() {
            h.write(o.as_bytes());
            h.write(&[0]);
        }
        h.write(&self.cc.0.to_le_bytes());
        h.write(&self.cc.1.to_le_bytes());
        h.write(&self.nvrtc_version.0.to_le_bytes());
        h.write(&self.nvrtc_version.1.to_le_bytes());
        h.finish()
    }

    /// The machine code of `source`: from memory, the disk cache, or NVRTC
    /// (`fresh`: NVRTC, replacing both caches).
    fn machine_code(&self, source: &KernelSource, fresh: bool) -> Result<Arc<Vec<u8>>, GpuError> {
        let key = self.cache_key(source);
        if !fresh {
            if let Some(img) = self.images.lock().map_err(|_| GpuError::Poisoned)?.get(&key) {
                return Ok(img.clone());
            }
        }
        let path = cache_dir().map(|d| d.join(format!("{}-{key:016x}.cubin", source.name)));
        let cached = if fresh { None } else { path.as_ref().and_then(|p| std::fs::read(p).ok()) };
        let image = match cached {
            Some(img) if !img.is_empty() => img,
            _ => {
                let img = compile_cubin(source, &self.options())?;
                if let Some(p) = &path {
                    store_atomically(p, &img);
                }
                img
            }
        };
        let image = Arc::new(image);
        self.images.lock().map_err(|_| GpuError::Poisoned)?.insert(key, image.clone());
        Ok(image)
    }
}

/// The NVRTC options for compute capability `cc`: machine code for that chip,
/// the constants shared with the Rust side, then `extra` (part of the cache key).
fn nvrtc_options(cc: (i32, i32), extra: &[String]) -> Vec<String> {
    let mut o = vec![format!("--gpu-architecture=sm_{}{}", cc.0, cc.1), "--std=c++17".into(), "-default-device".into()];
    o.extend(crate::kernels::nvrtc_defines());
    o.extend(extra.iter().cloned());
    o
}

/// Compiles `source` to machine code for compute capability `cc` without a GPU
/// (NVRTC only), as [`Gpu::load_module`] would: for reading the machine code
/// (registers, spills, instruction mix) on a machine without a GPU.
///
/// # Errors
/// NVRTC missing or compilation failed.
pub fn compile_offline(source: &KernelSource, cc: (i32, i32)) -> Result<Vec<u8>, GpuError> {
    if find_library("nvrtc").is_none() {
        return Err(GpuError::NoNvrtc);
    }
    compile_cubin(source, &nvrtc_options(cc, &[]))
}

/// Where compiled kernels are cached on disk, if anywhere.
fn cache_dir() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("skinny"))
}

/// Writes the file through a temporary name so a reader never sees half of it.
/// A cache that cannot be written is no error: the next run compiles again.
fn store_atomically(path: &std::path::Path, data: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&tmp, data).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// FNV-1a, 64 bits: a cache key, not a security measure.
struct Fnv64(u64);

impl Fnv64 {
    fn new() -> Self {
        Fnv64(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// One line per GPU the driver sees, or why none can be used; a GPU that
/// fails to open gets its line saying why.
///
/// # Errors
/// One line: no driver, no NVRTC, no device.
pub fn describe_gpus() -> Result<Vec<String>, GpuError> {
    let count = Gpu::count()?;
    if count == 0 {
        return Err(GpuError::NoDevice);
    }
    // GPU 0 first: when it cannot open, the reason is the whole answer (as before).
    let first = Gpu::first()?;
    let mut out = vec![format!("GPU 0: {}", first.describe())];
    for i in 1..count {
        match Gpu::get(i) {
            Ok(g) => out.push(format!("GPU {i}: {}", g.describe())),
            Err(e) => out.push(format!("GPU {i}: unusable: {e}")),
        }
    }
    Ok(out)
}
