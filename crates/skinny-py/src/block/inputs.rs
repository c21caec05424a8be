//! What a block call takes: its tweakeys (one for all or one per block),
//! its blocks as a 2-D uint8 array (array-likes and bytes-like objects
//! read), and the output array, checked before any work.

use crate::common;
use crate::errors::Error;
use numpy::{PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use skinny::Variant;
use zeroize::Zeroizing;

/// The tweakeys of a call: one for every block, or one per block (row `i`
/// for block `i`), copied into wiped memory.
pub(super) enum Tweakeys {
    One(Zeroizing<Vec<u8>>),
    PerBlock(Zeroizing<Vec<u8>>),
}

/// The tweakeys of a segment of blocks: the one tweakey, or the segment's rows.
#[derive(Clone, Copy)]
pub(super) enum SegmentTweakeys<'a> {
    One(&'a [u8]),
    PerBlock(&'a [u8]),
}

impl Tweakeys {
    /// The tweakeys of `blocks` blocks from block `first`.
    pub(super) fn segment(&self, v: Variant, first: usize, blocks: usize) -> SegmentTweakeys<'_> {
        let tl = v.tweakey_bytes();
        match self {
            Tweakeys::One(tk) => SegmentTweakeys::One(tk),
            Tweakeys::PerBlock(tk) => SegmentTweakeys::PerBlock(&tk[first * tl..(first + blocks) * tl]),
        }
    }
}

/// Blocks per segment of a call: between segments a Ctrl-C is looked for,
/// and each is large enough (16 MiB of 16-byte blocks) that the engine's
/// set-up and a GPU's transfers are a small part of it.
pub(super) const SEGMENT_BLOCKS: usize = 1 << 20;

pub(super) fn tweakeys(v: Variant, n: usize, tk: &Bound<'_, PyAny>) -> PyResult<Tweakeys> {
    let len = v.tweakey_bytes();
    let bad = || {
        Error::input(format!(
            "tweakey must be {len} bytes (bytes or a uint8 array of shape ({len},)) or a uint8 array of shape (n, {len}) for {v}"
        ))
    };
    if let Ok(b) = tk.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        return if bytes.len() == len { Ok(Tweakeys::One(Zeroizing::new(bytes.to_vec()))) } else { Err(bad().into()) };
    }
    if let Ok(a) = tk.cast::<numpy::PyArray1<u8>>() {
        let ro = a.try_readonly().map_err(|e| Error::input(e.to_string()))?;
        let view = ro.as_array();
        return if view.len() == len { Ok(Tweakeys::One(Zeroizing::new(view.to_vec()))) } else { Err(bad().into()) };
    }
    if let Ok(a) = tk.cast::<PyArray2<u8>>() {
        let ro = a.try_readonly().map_err(|e| Error::input(e.to_string()))?;
        let view = ro.as_array();
        if view.shape() != [n, len] {
            return Err(Error::input(format!(
                "per-block tweakeys must have shape ({n}, {len}) for {n} blocks of {v}, not {:?}",
                view.shape()
            ))
            .into());
        }
        let flat: Vec<u8> = view.iter().copied().collect();
        return Ok(Tweakeys::PerBlock(Zeroizing::new(flat)));
    }
    if let Ok(b) = tk.extract::<Vec<u8>>() {
        return if b.len() == len { Ok(Tweakeys::One(Zeroizing::new(b))) } else { Err(bad().into()) };
    }
    // Any other buffer (bytearray, memoryview): its bytes.
    if tk.cast::<numpy::PyUntypedArray>().is_err() {
        if let Ok(b) = tk.extract::<common::Bytes>() {
            return if b.len() == len { Ok(Tweakeys::One(Zeroizing::new(b.to_vec()))) } else { Err(bad().into()) };
        }
    }
    // Array-likes (nested lists, integer arrays of another dtype): through
    // numpy, once.
    if let Some(a) = common::u8_array_like(tk.py(), tk, "tweakey")? {
        if a.cast::<numpy::PyArray1<u8>>().is_ok() || a.cast::<PyArray2<u8>>().is_ok() {
            return tweakeys(v, n, &a);
        }
    }
    Err(bad().into())
}

/// The output array: `out` when given (it may be `blocks` itself: in place),
/// else a new array; `blocks` is copied into it unless they are one array.
/// An `out` that shares memory with `tweakey` is refused: the copy of the
/// blocks would overwrite the tweakeys before they are read.
pub(super) fn output<'py>(
    py: Python<'py>,
    v: Variant,
    blocks: &Bound<'py, PyAny>,
    tweakey: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let bs = v.block_bytes();
    let shape_err = |what: &str| {
        Error::input(format!(
            "{what} must be uint8 blocks of shape (n, {bs}) for {v}: a numpy array, an array-like, or bytes of n x {bs}"
        ))
    };
    let src = &blocks_of(py, blocks, bs)?.ok_or_else(|| shape_err("blocks"))?;
    if src.shape()[1] != bs {
        return Err(shape_err("blocks").into());
    }
    let n = src.shape()[0];
    let dst = match out {
        Some(o) => {
            let d = o.cast::<PyArray2<u8>>().map_err(|_| shape_err("out"))?.clone();
            if d.shape() != [n, bs] {
                return Err(Error::input(format!("out must have the shape of blocks, ({n}, {bs})")).into());
            }
            if !d.is_c_contiguous() {
                return Err(Error::input("out must be C-contiguous").into());
            }
            if !d.is(src) && shares_memory(py, d.as_any(), src.as_any())? {
                return Err(Error::input(
                    "out overlaps blocks without being blocks itself: give blocks, or a separate array",
                )
                .into());
            }
            if tweakey.cast::<numpy::PyUntypedArray>().is_ok() && shares_memory(py, d.as_any(), tweakey)? {
                return Err(Error::input(
                    "out shares memory with tweakey: give a separate array (out may be blocks itself)",
                )
                .into());
            }
            d
        }
        None => common::zeros(py, &[n, bs])?,
    };
    if !dst.is(src) {
        let ro = src.try_readonly().map_err(|e| Error::input(e.to_string()))?;
        let mut rw = dst.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        rw.as_array_mut().assign(&ro.as_array());
    }
    Ok(dst)
}

/// `blocks` as a 2-D uint8 array of rows of `bs` bytes: a uint8 array as it
/// is (so that `out=blocks` works in place); a bytes-like object of a whole
/// number of blocks, or an array-like of byte values, copied into a new one.
pub(super) fn blocks_of<'py>(
    py: Python<'py>,
    blocks: &Bound<'py, PyAny>,
    bs: usize,
) -> PyResult<Option<Bound<'py, PyArray2<u8>>>> {
    if let Ok(a) = blocks.cast::<PyArray2<u8>>() {
        return Ok(Some(a.clone()));
    }
    if blocks.cast::<numpy::PyUntypedArray>().is_err() {
        if let Ok(b) = blocks.extract::<common::Bytes>() {
            if b.len() % bs != 0 {
                return Ok(None);
            }
            let flat = numpy::PyArray1::from_slice(py, &b);
            return Ok(Some(flat.reshape([b.len() / bs, bs])?));
        }
    }
    // A host tensor of another library (DLPack on the CPU): numpy takes it
    // without a copy.
    if blocks.cast::<numpy::PyUntypedArray>().is_err() && blocks.hasattr("__dlpack__")? {
        if let Ok(a) = py.import("numpy")?.call_method1("from_dlpack", (blocks,)) {
            return Ok(a.cast_into::<PyArray2<u8>>().ok());
        }
    }
    match common::u8_array_like(py, blocks, "blocks")? {
        Some(a) => Ok(a.cast_into::<PyArray2<u8>>().ok()),
        None => Ok(None),
    }
}

/// Whether two arrays' memory ranges overlap (numpy's `may_share_memory`:
/// a bounds check, never a slow exact search).
pub(super) fn shares_memory(py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
    py.import("numpy")?.call_method1("may_share_memory", (a, b))?.extract()
}
