//! Each GPU opened once per process: whoever asks first for an ordinal opens
//! it, everyone after shares its context and its cache of compiled kernels.

use super::gpu::Gpu;
use crate::driver::device_count;
use crate::error::GpuError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Every GPU opened through [`Gpu::get`], by ordinal.
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

    /// How many GPUs the driver sees (0 with a driver and no GPU);
    /// [`GpuSet::probe`](crate::GpuSet::probe) is the same with no GPU an error.
    ///
    /// # Errors
    /// No driver, no NVRTC, or a driver that cannot start.
    pub fn count() -> Result<usize, GpuError> {
        device_count()
    }
}

/// One line per GPU the driver sees, or why none can be used; a GPU that
/// fails to open gets its line saying why.
///
/// # Errors
/// One line: no driver, no NVRTC, no device.
pub fn describe_gpus() -> Result<Vec<String>, GpuError> {
    let count = device_count()?;
    if count == 0 {
        return Err(GpuError::NoDevice);
    }
    // GPU 0 first: when it cannot open, the reason is the whole answer.
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
