//! Reaching the CUDA driver: the libraries looked for before cudarc touches
//! them, cudarc's panics turned into errors, and the driver started and asked
//! how many GPUs it sees.
//!
//! cudarc loads `libcuda` and `libnvrtc` at run time and panics when one is
//! missing, so the libraries are first looked for with `dlopen` here, and every
//! first cudarc call still runs under `catch_unwind` ([`guarded`]).

use crate::error::GpuError;
use cudarc::driver::CudaContext;
use std::panic::{catch_unwind, AssertUnwindSafe};

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
pub(crate) fn find_library(name: &str) -> Option<String> {
    cudarc::get_lib_name_candidates(name).into_iter().find(|cand| {
        // SAFETY: loading the CUDA driver or NVRTC runs their initialisers, which
        // is what cudarc does next anyway; the handle is closed again at once.
        unsafe { libloading::Library::new(cand) }.is_ok()
    })
}

/// Checks that the CUDA driver library and NVRTC can be loaded, before cudarc
/// is asked to (it panics otherwise).
///
/// # Errors
/// [`GpuError::NoDriver`] or [`GpuError::NoNvrtc`].
pub fn probe_libraries() -> Result<(), GpuError> {
    if find_library("cuda").is_none() {
        return Err(GpuError::NoDriver);
    }
    if find_library("nvrtc").is_none() {
        return Err(GpuError::NoNvrtc);
    }
    Ok(())
}

/// The libraries probed, the driver started (`cuInit`), and the number of GPUs
/// it sees (0 with a driver and no GPU).
///
/// # Errors
/// No driver, no NVRTC, or a driver that cannot start.
pub(crate) fn device_count() -> Result<usize, GpuError> {
    probe_libraries()?;
    let count = guarded("cuInit", CudaContext::device_count)?
        .map_err(|e| GpuError::driver("the NVIDIA driver cannot start")(e))?;
    Ok(usize::try_from(count).unwrap_or(0))
}
