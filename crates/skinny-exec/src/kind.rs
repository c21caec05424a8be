//! What an error means to whoever called, whatever crate it comes from.

/// What an error means to its caller: each product's errors answer it
/// (their `kind()`), so that a face (the CLI's exit codes, the Python
/// module's exceptions) decides from it alone and never looks into the
/// variants of a crate it does not call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The caller's input or parameters are refused: theirs to fix.
    Input,
    /// A combination that is not offered (a variant a backend does not run,
    /// a serial mode asked to run in parallel).
    Unsupported,
    /// The hardware asked for cannot be had: no driver, NVRTC or GPU, a build
    /// without CUDA support, a GPU selection that does not fit the machine,
    /// work a GPU cannot serve.
    Unavailable,
    /// A GPU that was found failed at work (memory, a compilation, a launch,
    /// a copy).
    DeviceFailure,
    /// Anything else that failed: the operating system (threads, files), a
    /// check of results, a broken invariant (a bug).
    Failure,
}
