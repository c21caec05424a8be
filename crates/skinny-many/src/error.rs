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
    /// A route to the GPU, whose many-message engine this build does not have
    /// wired in.
    #[error("the GPU many-message engine is not wired into this build")]
    GpuNotWired,
}
