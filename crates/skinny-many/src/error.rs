//! [`ManyError`]: why a whole batch failed (one message's failure is a
//! [`MessageError`](crate::MessageError) in the [`Output`](crate::Output)
//! instead).

/// Why `seal` or `open` gave no [`Output`](crate::Output) at all.
#[derive(Debug, thiserror::Error)]
pub enum ManyError {
    /// The operating system would not start the worker threads.
    #[error("could not start the worker threads")]
    Threads(#[source] std::io::Error),
    /// A GPU placement the batch cannot be served on, as the placement's
    /// rule decided.
    #[error("the batch cannot run where it was placed")]
    Placement(#[source] skinny_exec::Unfit),
    /// No GPU engine in this build (feature `cuda`).
    #[error("this build has no GPU many-message engine")]
    NoGpuEngine,
    /// The GPUs asked for do not name one of this machine's.
    #[error("no such GPU")]
    GpuSelection(#[source] skinny_exec::GpuSelectionError),
    /// The GPU engine failed (the driver's code kept in the source).
    #[cfg(feature = "cuda")]
    #[error("the GPU many-message engine failed")]
    Gpu(#[source] Box<crate::gpu::GpuManyError>),
}

impl ManyError {
    /// What the error means to the caller: threads the system would not
    /// start are a failure, a GPU that cannot be had (or serve the batch)
    /// is unavailable, a GPU engine that fails at work a device failure.
    pub fn kind(&self) -> skinny_exec::ErrorKind {
        match self {
            ManyError::Threads(_) => skinny_exec::ErrorKind::Failure,
            #[cfg(feature = "cuda")]
            ManyError::Gpu(e) => e.kind(),
            _ => skinny_exec::ErrorKind::Unavailable,
        }
    }
}
