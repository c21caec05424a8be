//! Blocks that already lie in GPU memory (a DLPack tensor on a CUDA
//! device): encrypted where they are, with no host copy.

#[cfg(feature = "cuda")]
use super::inputs::{tweakeys, Tweakeys};
use super::Span;
use crate::common::Device;
#[cfg(feature = "cuda")]
use crate::errors::Error;
#[cfg(feature = "cuda")]
use numpy::PyArray2;
use pyo3::prelude::*;
use skinny::Variant;
use skinny_bulk::mode::Direction;

/// A call on a CUDA tensor (any object with `__dlpack__` on a CUDA device,
/// such as a CuPy array, a PyTorch tensor or a `DeviceArray`): run where it
/// lies, into `out` or a new `DeviceArray`, without a host copy. `None` when
/// `blocks` is not one (the host path then runs).
#[cfg(feature = "cuda")]
#[allow(clippy::too_many_arguments)]
pub(super) fn on_device_memory<'py>(
    py: Python<'py>,
    v: Variant,
    span: Span,
    dir: Direction,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    device: Device,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let Some(ordinal) = crate::device::cuda_device_of(blocks, "blocks")? else {
        if let Some(o) = out {
            if crate::device::cuda_device_of(o, "out")?.is_some() {
                return Err(Error::input("out is on the GPU but blocks is not: give blocks on the GPU too").into());
            }
        }
        return Ok(None);
    };
    if device != Device::Gpu {
        return Err(Error::input("blocks is on the GPU: pass device=\"gpu\" (or copy it to the host first)").into());
    }
    if tweakey.cast::<PyArray2<u8>>().is_ok() {
        return Err(Error::unsupported(
            "per-block tweakeys run on the CPU only: the GPU kernels take one tweakey per call",
        )
        .into());
    }
    let tk = match tweakeys(v, 1, tweakey)? {
        Tweakeys::One(tk) => tk,
        Tweakeys::PerBlock(_) => {
            return Err(Error::unsupported(
                "per-block tweakeys run on the CPU only: the GPU kernels take one tweakey per call",
            )
            .into())
        }
    };
    let cipher = span.cipher(v, &tk)?;
    crate::device::crypt_device(py, ordinal, &cipher, matches!(dir, Direction::Decrypt), blocks, out).map(Some)
}

#[cfg(not(feature = "cuda"))]
#[allow(clippy::too_many_arguments)]
pub(super) fn on_device_memory<'py>(
    _: Python<'py>,
    _: Variant,
    _: Span,
    _: Direction,
    _: &Bound<'py, PyAny>,
    _: &Bound<'py, PyAny>,
    _: Device,
    _: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(None)
}
