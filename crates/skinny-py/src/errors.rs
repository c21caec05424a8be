//! Errors across the boundary: every Rust error becomes one of the Python
//! exceptions of `skinny._errors` (one hierarchy under `SkinnyError`), built
//! as a plain value while the GIL is released and raised once it is held.

use pyo3::prelude::*;
use pyo3::types::PyType;

/// Which Python exception an error becomes (the classes of `skinny._errors`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `InputError` (also a `ValueError`).
    Input,
    /// `AuthenticationError`.
    Authentication,
    /// `PaddingError` (an `InputError`).
    Padding,
    /// `GpuUnavailableError`.
    GpuUnavailable,
    /// `GpuFailureError`.
    GpuFailure,
    /// `UnsupportedError`.
    Unsupported,
    /// `SkinnyError` itself (threads that would not start, internal errors).
    Other,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Input => "InputError",
            Kind::Authentication => "AuthenticationError",
            Kind::Padding => "PaddingError",
            Kind::GpuUnavailable => "GpuUnavailableError",
            Kind::GpuFailure => "GpuFailureError",
            Kind::Unsupported => "UnsupportedError",
            Kind::Other => "SkinnyError",
        }
    }
}

/// An error on its way to Python: its kind and one line for the user.
#[derive(Debug)]
pub struct Error {
    kind: Kind,
    message: String,
}

impl Error {
    /// An error of `kind` saying `message`.
    pub fn new(kind: Kind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }

    /// Bad input.
    pub fn input(message: impl Into<String>) -> Self {
        Self::new(Kind::Input, message)
    }

    /// A combination not offered.
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::new(Kind::Unsupported, message)
    }
}

/// The message of `e` with its sources, joined by ": " (thiserror keeps the
/// cause in `source`, not in the message).
pub fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        let next = c.to_string();
        if !s.contains(&next) {
            s.push_str(": ");
            s.push_str(&next);
        }
        cur = c.source();
    }
    s
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        Python::attach(|py| match class(py, e.kind) {
            Ok(t) => PyErr::from_type(t, e.message),
            Err(lookup) => lookup,
        })
    }
}

fn class(py: Python<'_>, kind: Kind) -> PyResult<Bound<'_, PyType>> {
    let module = py.import("skinny._errors")?;
    Ok(module.getattr(kind.class_name())?.cast_into::<PyType>()?)
}

impl From<skinny_bulk::Error> for Error {
    fn from(e: skinny_bulk::Error) -> Self {
        use skinny_bulk::Error as B;
        let kind = match &e {
            B::BadPadding => Kind::Padding,
            B::NoCudaSupport | B::GpuUnavailable(_) | B::GpuSelection(_) => Kind::GpuUnavailable,
            #[cfg(feature = "cuda")]
            B::Gpu(g) => gpu_kind(g),
            B::ZeroThreads | B::ThreadPool { .. } => Kind::Other,
            B::Unsupported { .. } | B::NotParallel { .. } => Kind::Unsupported,
            _ => Kind::Input,
        };
        Error::new(kind, chain(&e))
    }
}

/// Whether a GPU error means no GPU can be used (no driver, NVRTC or device:
/// `GpuUnavailableError`) or one failed at work (`GpuFailureError`).
#[cfg(feature = "cuda")]
pub fn gpu_kind(e: &skinny_cuda::GpuError) -> Kind {
    use skinny_cuda::GpuError as G;
    match e.without_device() {
        G::NoDriver | G::NoNvrtc | G::NoDevice | G::NoSuchDevice { .. } | G::Loader { .. } | G::EmptySet => {
            Kind::GpuUnavailable
        }
        _ => Kind::GpuFailure,
    }
}

/// A Python result of `T` from a Rust one.
pub type PyResultOf<T> = Result<T, Error>;
