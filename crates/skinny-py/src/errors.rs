//! Errors across the boundary: every Rust error becomes one of the Python
//! exceptions of `skinny._errors` (one hierarchy under `SkinnyError`), built
//! as a plain value while the GIL is released and raised once it is held.

use pyo3::prelude::*;
use pyo3::types::PyType;
use skinny_exec::ErrorKind;

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

impl Kind {
    /// The exception of an error the library says means `kind`.
    fn of(kind: ErrorKind) -> Kind {
        match kind {
            ErrorKind::Input => Kind::Input,
            ErrorKind::Unsupported => Kind::Unsupported,
            ErrorKind::Unavailable => Kind::GpuUnavailable,
            ErrorKind::DeviceFailure => Kind::GpuFailure,
            // A failure of the system or a bug, and any kind to come.
            _ => Kind::Other,
        }
    }
}

impl Error {
    /// Something failed that is neither the caller's input nor a GPU.
    pub fn failure(message: impl Into<String>) -> Self {
        Self::new(Kind::Other, message)
    }

    /// A library error: the exception its own `kind()` names (no variant of
    /// any crate is looked at here), its message with its sources.
    fn library(kind: ErrorKind, e: &dyn std::error::Error) -> Self {
        Self::new(Kind::of(kind), chain(e))
    }
}

impl From<skinny_bulk::Error> for Error {
    fn from(e: skinny_bulk::Error) -> Self {
        // Padding that does not check is the one input error with an
        // exception of its own (a `PaddingError` is an `InputError`).
        if matches!(e, skinny_bulk::Error::BadPadding) {
            return Error::new(Kind::Padding, chain(&e));
        }
        Error::library(e.kind(), &e)
    }
}

#[cfg(feature = "cuda")]
impl From<skinny_cuda::GpuError> for Error {
    fn from(e: skinny_cuda::GpuError) -> Self {
        Error::library(e.kind(), &e)
    }
}

impl From<skinny_lab::LabError> for Error {
    fn from(e: skinny_lab::LabError) -> Self {
        Error::library(e.kind(), &e)
    }
}

impl From<skinny_lab::RigError> for Error {
    fn from(e: skinny_lab::RigError) -> Self {
        Error::library(e.kind(), &e)
    }
}

impl From<skinny_lab::CheckpointFileError> for Error {
    fn from(e: skinny_lab::CheckpointFileError) -> Self {
        Error::library(e.kind(), &e)
    }
}

impl From<skinny_many::ManyError> for Error {
    fn from(e: skinny_many::ManyError) -> Self {
        Error::library(e.kind(), &e)
    }
}

/// A Python result of `T` from a Rust one.
pub type PyResultOf<T> = Result<T, Error>;
