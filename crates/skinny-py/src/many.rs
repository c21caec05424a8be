//! The many-message engine of `skinny-many`: seal or open a batch of
//! independent messages, each with its own key, nonce and associated data,
//! on the CPU's cores or a GPU. Messages come as a list of bytes or as the
//! rows of a 2-D uint8 array (all one length); keys, nonces and associated
//! data likewise, or one bytes value shared by every message.

use crate::common;
use crate::common::Bytes;
use crate::errors::{Error, PyResultOf};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use skinny_many::{Batch, Output, Scheme};

/// One field of every message: shared, one per message in a list, or the
/// rows of an array.
enum Rows<'py> {
    Shared(Bytes),
    List(Vec<Bytes>),
    Array(PyReadonlyArray2<'py, u8>),
}

impl<'py> Rows<'py> {
    fn read(what: &str, obj: &Bound<'py, PyAny>) -> PyResultOf<Self> {
        if let Ok(a) = obj.cast::<PyArray2<u8>>() {
            let ro = a.try_readonly().map_err(|e| Error::input(e.to_string()))?;
            if !ro.is_c_contiguous() {
                return Err(Error::input(format!("{what}: a C-contiguous array, please")));
            }
            return Ok(Rows::Array(ro));
        }
        // After the array: a 2-D array has the buffer protocol too.
        if let Ok(b) = obj.extract::<Bytes>() {
            return Ok(Rows::Shared(b));
        }
        if let Ok(v) = obj.extract::<Vec<Bytes>>() {
            return Ok(Rows::List(v));
        }
        // Array-likes of byte values (nested lists, integer arrays): rows.
        if let Some(a) = common::u8_array_like(obj.py(), obj, what)? {
            if let Ok(a) = a.cast_into::<PyArray2<u8>>() {
                return Ok(Rows::Array(a.try_readonly().map_err(|e| Error::input(e.to_string()))?));
            }
        }
        Err(Error::input(format!(
            "{what} must be bytes (shared by all messages), a list of bytes, or a 2-D uint8 array (one row a message)"
        )))
    }

    fn count(&self) -> Option<usize> {
        match self {
            Rows::Shared(_) => None,
            Rows::List(v) => Some(v.len()),
            Rows::Array(a) => Some(a.shape()[0]),
        }
    }

    fn get(&self, i: usize) -> &[u8] {
        match self {
            Rows::Shared(b) => b,
            Rows::List(v) => &v[i],
            Rows::Array(a) => {
                let w = a.shape()[1];
                let all = a.as_slice().unwrap_or(&[]);
                &all[i * w..(i + 1) * w]
            }
        }
    }
}

/// Reads a scheme name: any name `skinny_many::Scheme` reads (`romulus-n`,
/// `skinny-aead-m1` or `m1`, any case, `_` for `-`).
pub fn scheme(name: &str) -> PyResultOf<Scheme> {
    name.parse().map_err(|_| {
        let names: Vec<&str> = names();
        Error::input(format!("unknown scheme {name:?} for many messages (expected one of {})", names.join(", ")))
    })
}

/// The schemes' names by their number (M1..M6, Romulus-N, Romulus-M: Python's
/// `MANY_SCHEMES`).
pub fn names() -> Vec<&'static str> {
    (1..=u8::MAX).map_while(Scheme::from_id).map(Scheme::name).collect()
}

/// Messages per segment of a call: Ctrl-C is looked for between segments.
const SEGMENT_MESSAGES: usize = 1 << 16;

/// The outputs of a call's segments, read as one.
struct Segments<'a>(&'a [Output]);

impl Segments<'_> {
    fn message(&self, i: usize) -> Result<&[u8], skinny_many::MessageError> {
        self.0[i / SEGMENT_MESSAGES].message(i % SEGMENT_MESSAGES)
    }
}

#[allow(clippy::too_many_arguments)]
fn run<'py>(
    py: Python<'py>,
    seal: bool,
    scheme_name: &str,
    keys: &Bound<'py, PyAny>,
    nonces: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    ads: Option<&Bound<'py, PyAny>>,
    device: &str,
    (threads, progress): (Option<usize>, Option<&Bound<'py, PyAny>>),
) -> PyResult<Bound<'py, PyAny>> {
    let s = scheme(scheme_name)?;
    let placement = common::placement(common::device(device)?, threads)?;
    let data_rows = Rows::read("data", data)?;
    let Some(n) = data_rows.count() else {
        return Err(Error::input("data must hold many messages: a list of bytes or a 2-D uint8 array").into());
    };
    let empty = PyBytes::new(py, b"").into_any();
    let fields = [
        ("keys", Rows::read("keys", keys)?),
        ("nonces", Rows::read("nonces", nonces)?),
        ("ads", Rows::read("ads", ads.unwrap_or(&empty))?),
    ];
    for (what, rows) in &fields {
        if rows.count().is_some_and(|c| c != n) {
            return Err(Error::input(format!("{what}: {} given for {n} messages", rows.count().unwrap_or(0))).into());
        }
    }
    let [(_, k), (_, nn), (_, a)] = &fields;
    // In segments of messages, so that Ctrl-C stops the call between them.
    let mut batches = Vec::with_capacity(n.div_ceil(SEGMENT_MESSAGES));
    for first in (0..n).step_by(SEGMENT_MESSAGES) {
        let end = (first + SEGMENT_MESSAGES).min(n);
        let total: usize = (first..end).map(|i| data_rows.get(i).len()).sum();
        let mut batch = Batch::with_capacity(s, end - first, total);
        for i in first..end {
            batch
                .push(k.get(i), nn.get(i), a.get(i), data_rows.get(i))
                .map_err(|e| Error::input(format!("message {i}: {e}")))?;
        }
        batches.push(batch);
    }
    let tally = common::Tally::new(py, progress, "messages", if seal { "many_seal" } else { "many_open" }, n as u64)?;
    let outs: Vec<Output> = tally.run(py, || -> PyResultOf<Vec<Output>> {
        let mut outs = Vec::with_capacity(batches.len());
        for batch in &batches {
            if tally.stopped() {
                break;
            }
            let out = if seal { skinny_many::seal(&placement, batch) } else { skinny_many::open(&placement, batch) };
            outs.push(out.map_err(Error::from)?);
            tally.add(batch.len() as u64);
        }
        Ok(outs)
    })??;
    drop(batches);
    let out = Segments(&outs);
    match data_rows {
        Rows::Array(a) => {
            let w = a.shape()[1];
            let ow = if seal { w + s.tag_len() } else { w.saturating_sub(s.tag_len()) };
            let arr = common::zeros::<numpy::Ix2>(py, &[n, ow])?;
            let mut ok = vec![false; n];
            {
                let mut rw = arr.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
                let dst = rw.as_slice_mut().map_err(|e| Error::input(e.to_string()))?;
                for (i, ok) in ok.iter_mut().enumerate() {
                    if let Ok(m) = out.message(i) {
                        dst[i * ow..(i + 1) * ow].copy_from_slice(m);
                        *ok = true;
                    }
                }
            }
            if seal {
                Ok(arr.into_any())
            } else {
                Ok((arr, PyArray1::from_vec(py, ok)).into_pyobject(py)?.into_any())
            }
        }
        _ => {
            let list = PyList::empty(py);
            for i in 0..n {
                match out.message(i) {
                    Ok(m) => list.append(PyBytes::new(py, m))?,
                    Err(_) => list.append(py.None())?,
                }
            }
            Ok(list.into_any())
        }
    }
}

/// Seals many independent messages at once (the many-message engine).
///
/// ``scheme``: one of :data:`SCHEME_NAMES`: ``"romulus-n"``, ``"romulus-m"``,
/// or a SKINNY-AEAD member, ``"skinny-aead-m1"`` to ``"skinny-aead-m6"`` (or
/// short, ``"m1"`` to ``"m6"``). ``data``: a list of messages (any lengths) or a uint8 array with
/// one message per row; keys, nonces and ``ads`` as one shared bytes value, a
/// list, or an array of rows. Returns ciphertext ‖ tag per message: a list,
/// or an array of shape (n, len + tag) for array input. Byte for byte what
/// :func:`aead_encrypt` gives message by message. ``device``: the CPU's
/// threads, the GPU, or ``auto`` (the GPU where it pays).
///
/// ``progress=True`` shows a progress bar (tqdm where installed, else a line
/// on stderr); a callable ``progress(done, total)`` is called about four times
/// a second and at the end (an exception it raises stops the call).
#[pyfunction]
#[pyo3(signature = (scheme, keys, nonces, data, ads=None, *, device="cpu", threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn many_seal<'py>(
    py: Python<'py>,
    scheme: &str,
    keys: &Bound<'py, PyAny>,
    nonces: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    ads: Option<&Bound<'py, PyAny>>,
    device: &str,
    threads: Option<usize>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    run(py, true, scheme, keys, nonces, data, ads, device, (threads, progress))
}

/// Opens many messages: a list with ``None`` where a tag failed, or for
/// array input (plaintexts, ok) with failed rows zeroed. One forged message
/// fails only itself.
///
/// ``progress=True`` shows a progress bar (tqdm where installed, else a line
/// on stderr); a callable ``progress(done, total)`` is called about four times
/// a second and at the end (an exception it raises stops the call).
#[pyfunction]
#[pyo3(signature = (scheme, keys, nonces, data, ads=None, *, device="cpu", threads=None, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn many_open<'py>(
    py: Python<'py>,
    scheme: &str,
    keys: &Bound<'py, PyAny>,
    nonces: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    ads: Option<&Bound<'py, PyAny>>,
    device: &str,
    threads: Option<usize>,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    run(py, false, scheme, keys, nonces, data, ads, device, (threads, progress))
}
