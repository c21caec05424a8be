//! Why a GPU seal or open of a batch failed: the device's own errors (with the
//! driver's code) kept whole as the source, and what the engine refuses.

use skinny_cuda::GpuError;

/// Why [`GpuMany`](super::GpuMany) could not seal or open a batch (a bad tag
/// is no such error: it fails its own message, in the
/// [`Output`](crate::Output)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuManyError {
    /// The GPU failed: no driver or device, compilation, memory, a launch
    /// (the driver's code in [`GpuError::driver_error`]).
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// A message or AD longer than the kernels' 32-bit offsets reach in one
    /// chunk (1 GiB).
    #[error("message {index} has {len} bytes of data and AD; the GPU engine takes at most 1 GiB a message")]
    MessageTooLarge {
        /// The message's index in the batch.
        index: usize,
        /// Its data and AD bytes.
        len: usize,
    },
    /// Device or pinned buffers prepared for another batch or pass.
    #[error("the device or page-locked buffers were prepared for another batch or pass")]
    Mismatch,
}

impl GpuManyError {
    /// What the error means to the caller: the device's own answer
    /// ([`GpuError::kind`]: no GPU to be had, or one failing at work); what
    /// the engine refuses is its failure.
    pub fn kind(&self) -> skinny_exec::ErrorKind {
        match self {
            GpuManyError::Gpu(e) => e.kind(),
            _ => skinny_exec::ErrorKind::DeviceFailure,
        }
    }
}
