//! Why a GPU could not be used or failed: typed, with the driver's error code
//! and NVRTC's log kept, each shown as one line.

use cudarc::driver::DriverError;
use cudarc::nvrtc::sys::nvrtcResult;
use skinny_exec::ErrorKind;

/// "1 byte", "2 bytes".
fn count_bytes(n: usize) -> String {
    if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// A GPU failure.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// The CUDA driver library cannot be loaded.
    #[error("no NVIDIA driver found (libcuda.so.1 cannot be loaded)")]
    NoDriver,
    /// NVRTC (the run-time compiler) cannot be loaded.
    #[error(
        "the NVIDIA driver is there but NVRTC is not (libnvrtc.so.13 cannot be loaded; install the CUDA 13 \
         runtime compiler or add its folder to LD_LIBRARY_PATH)"
    )]
    NoNvrtc,
    /// The driver sees no GPU.
    #[error("the NVIDIA driver sees no GPU")]
    NoDevice,
    /// A GPU number beyond those the driver sees.
    #[error("no GPU number {ordinal} (the driver sees {count})")]
    NoSuchDevice {
        /// The number asked for.
        ordinal: usize,
        /// How many the driver sees.
        count: usize,
    },
    /// The CUDA loader panicked (a missing symbol in an old driver, say).
    #[error("{what} failed inside the CUDA loader: {message}")]
    Loader {
        /// The call.
        what: &'static str,
        /// The loader's first line.
        message: String,
    },
    /// The device ran out of memory.
    #[error("GPU out of memory ({what})")]
    OutOfMemory {
        /// What was being allocated.
        what: &'static str,
        /// The driver's code.
        #[source]
        source: DriverError,
    },
    /// Any other driver error, with its code.
    #[error("GPU error ({what}): {source}")]
    Driver {
        /// The step that failed.
        what: &'static str,
        /// The driver's code.
        #[source]
        source: DriverError,
    },
    /// An NVRTC call other than the compilation failed.
    #[error("NVRTC {what} failed for the {kernels} kernels: {code:?}")]
    Nvrtc {
        /// The step.
        what: &'static str,
        /// The kernel source's name.
        kernels: &'static str,
        /// NVRTC's code.
        code: nvrtcResult,
    },
    /// NVRTC refused the kernel source; `log` is its compilation log.
    #[error("NVRTC could not compile the {kernels} kernels ({code:?}): {log}")]
    Compile {
        /// The kernel source's name.
        kernels: &'static str,
        /// NVRTC's code.
        code: nvrtcResult,
        /// The compiler's log.
        log: String,
    },
    /// A kernel source or compiler option that cannot be passed to NVRTC.
    #[error("invalid kernel source or NVRTC option ({0})")]
    BadSource(&'static str),
    /// The kernels do not implement this variant.
    #[error("the {kernels} kernels do not run {variant}")]
    Unsupported {
        /// The kernels, as their product names them.
        kernels: &'static str,
        /// The variant.
        variant: skinny::Variant,
    },
    /// The kernels have no kernel for this operation.
    #[error("the {kernels} kernels have no {operation} kernel")]
    NoKernel {
        /// The kernels, as their product names them.
        kernels: &'static str,
        /// The operation, as their product names it.
        operation: &'static str,
    },
    /// Data that must be whole blocks is not.
    #[error("{operation} needs whole {block}-byte blocks, got {}", count_bytes(*len))]
    NotWholeBlocks {
        /// The operation, as its product names it.
        operation: &'static str,
        /// Block bytes.
        block: usize,
        /// Bytes given.
        len: usize,
    },
    /// An IV or counter that is not one block.
    #[error("{operation} needs an IV or counter of {block} bytes, got {}", count_bytes(*got))]
    IvLength {
        /// The operation, as its product names it.
        operation: &'static str,
        /// Block bytes.
        block: usize,
        /// Bytes given.
        got: usize,
    },
    /// More blocks than one launch's grid can cover.
    #[error("too many blocks for one kernel launch")]
    LaunchTooLarge,
    /// A kernel's `__constant__` symbol is smaller than the data for it.
    #[error("kernel constant {name} is {have} bytes, needs {need}")]
    ConstantSize {
        /// The symbol.
        name: &'static str,
        /// Its size.
        have: usize,
        /// The data's size.
        need: usize,
    },
    /// A failure on one GPU of several: the error says which.
    #[error("GPU {ordinal}: {source}")]
    Device {
        /// The driver's number for the GPU.
        ordinal: usize,
        /// What failed there.
        #[source]
        source: Box<GpuError>,
    },
    /// A set of GPUs that lists none.
    #[error("no GPU chosen")]
    EmptySet,
    /// A broken invariant of this crate (a bug: please report it).
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// A thread panicked while holding the kernel cache.
    #[error("the kernel cache lock is poisoned")]
    Poisoned,
}

impl GpuError {
    /// A driver error during `what`, out-of-memory told apart: for
    /// `map_err` on cudarc calls (here and in crates that use this one's
    /// buffers and streams).
    pub fn driver(what: &'static str) -> impl Fn(DriverError) -> GpuError {
        move |source| {
            if source.0 == cudarc::driver::sys::CUresult::CUDA_ERROR_OUT_OF_MEMORY {
                GpuError::OutOfMemory { what, source }
            } else {
                GpuError::Driver { what, source }
            }
        }
    }

    /// The driver's code, when the driver reported the error.
    pub fn driver_error(&self) -> Option<DriverError> {
        match self {
            GpuError::OutOfMemory { source, .. } | GpuError::Driver { source, .. } => Some(*source),
            GpuError::Device { source, .. } => source.driver_error(),
            _ => None,
        }
    }

    /// `e`, which happened on GPU `ordinal`, saying so (once).
    pub fn on_device(ordinal: usize, e: GpuError) -> GpuError {
        match e {
            GpuError::Device { .. } => e,
            e => GpuError::Device { ordinal, source: Box::new(e) },
        }
    }

    /// What the error means to the caller: no GPU to be had (no driver,
    /// NVRTC or device, a GPU number the driver does not see, none chosen)
    /// is [`ErrorKind::Unavailable`]; data the kernels do not take is input;
    /// everything else is a GPU failing at work.
    pub fn kind(&self) -> ErrorKind {
        match self.without_device() {
            GpuError::NoDriver
            | GpuError::NoNvrtc
            | GpuError::NoDevice
            | GpuError::NoSuchDevice { .. }
            | GpuError::Loader { .. }
            | GpuError::EmptySet => ErrorKind::Unavailable,
            GpuError::NotWholeBlocks { .. } | GpuError::IvLength { .. } => ErrorKind::Input,
            GpuError::Unsupported { .. } | GpuError::NoKernel { .. } => ErrorKind::Unsupported,
            _ => ErrorKind::DeviceFailure,
        }
    }

    /// The error itself, without the GPU it happened on.
    pub fn without_device(&self) -> &GpuError {
        match self {
            GpuError::Device { source, .. } => source.without_device(),
            e => e,
        }
    }
}
