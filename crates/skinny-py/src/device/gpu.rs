//! `skinny.DeviceArray` and the calls that work on device memory.

use super::dlpack::{self, DLDevice, DEVICE_CPU, DEVICE_CUDA, DEVICE_CUDA_HOST};
use crate::errors::{Error, Kind, PyResultOf};
use pyo3::exceptions::PyBufferError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use skinny_bulk::gpu::{GpuCipher, KernelKind, Op};
use skinny_cuda::{DeviceBytes, DeviceQueue, Gpu};
use skinny_lab::gpu::PairsKernel;
use skinny_lab::pairs::NeuralPairs;
use std::sync::{Arc, Mutex};

/// The device pointers the last device-memory call read and wrote.
static LAST_POINTERS: Mutex<(u64, u64)> = Mutex::new((0, 0));

/// GPU `ordinal`, opened once per process and shared with every product.
fn gpu(ordinal: usize) -> PyResultOf<Arc<Gpu>> {
    Ok(Gpu::get(ordinal)?)
}

fn record(read: u64, written: u64) {
    if let Ok(mut p) = LAST_POINTERS.lock() {
        *p = (read, written);
    }
}

/// The device pointers (read, written) of the last call that worked on
/// device memory: a debug hook, for the tests that show no copy was made.
#[pyfunction]
pub fn _gpu_last_pointers() -> (u64, u64) {
    LAST_POINTERS.lock().map(|p| *p).unwrap_or((0, 0))
}

/// A uint8 array in GPU memory, owned by this object: a result of a call
/// with ``device="gpu"`` left on the device.
///
/// CuPy, PyTorch and JAX take it without a copy (``cupy.from_dlpack(a)``,
/// ``torch.from_dlpack(a)``, or ``cupy.asarray(a)`` through
/// ``__cuda_array_interface__``); ``get()`` (or ``numpy()``) copies it to a
/// numpy array. The memory is freed when the last user (this object or a
/// tensor made from it) lets it go.
#[pyclass(name = "DeviceArray", module = "skinny", frozen)]
pub struct DeviceArray {
    bytes: DeviceBytes,
    shape: Vec<usize>,
    ordinal: usize,
}

impl DeviceArray {
    /// `bytes` seen as an array of `shape` (of as many bytes).
    fn of(bytes: DeviceBytes, ordinal: usize, shape: Vec<usize>) -> Self {
        debug_assert_eq!(bytes.len(), shape.iter().product::<usize>());
        Self { bytes, shape, ordinal }
    }

    /// Zeros of `shape` on `queue`'s GPU.
    fn zeroed(queue: &DeviceQueue, shape: Vec<usize>) -> PyResultOf<Self> {
        let len = shape
            .iter()
            .try_fold(1usize, |a, &d| a.checked_mul(d))
            .ok_or_else(|| Error::input(format!("an array of shape {shape:?} is larger than any memory")))?;
        Ok(Self::of(queue.zeroed(len)?, queue.ordinal(), shape))
    }

    fn len(&self) -> usize {
        self.bytes.len()
    }
}

#[pymethods]
impl DeviceArray {
    /// The shape.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.shape)
    }

    /// The element type: numpy's ``uint8``.
    #[getter]
    fn dtype<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("numpy")?.getattr("dtype")?.call1(("uint8",))
    }

    /// The number of bytes.
    #[getter]
    fn nbytes(&self) -> usize {
        self.len()
    }

    /// The CUDA device number.
    #[getter]
    fn device(&self) -> usize {
        self.ordinal
    }

    /// The device address of the first byte.
    #[getter]
    fn ptr(&self) -> u64 {
        self.bytes.ptr()
    }

    fn __len__(&self) -> usize {
        self.shape.first().copied().unwrap_or(0)
    }

    fn __repr__(&self) -> String {
        format!("DeviceArray(shape={:?}, dtype=uint8, device=cuda:{})", self.shape, self.ordinal)
    }

    /// A numpy copy of the array (device to host).
    fn get<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut host = vec![0u8; self.len()];
        py.detach(|| self.bytes.download(&mut host)).map_err(Error::from)?;
        let flat = numpy::PyArray1::from_vec(py, host);
        flat.into_any().call_method1("reshape", (PyTuple::new(py, &self.shape)?,))
    }

    /// The same as ``get()``.
    fn numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.get(py)
    }

    /// numpy's conversion (``numpy.asarray(a)``): a host copy.
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if copy == Some(false) {
            return Err(Error::input("a DeviceArray cannot be seen from the host without a copy").into());
        }
        let a = self.get(py)?;
        match dtype {
            Some(d) => a.call_method1("astype", (d,)),
            None => Ok(a),
        }
    }

    /// A DLPack capsule of the array (zero-copy). The data is ready on
    /// every stream (the call that made it waited for it), so ``stream`` is
    /// accepted and needs no synchronization.
    #[pyo3(signature = (*, stream=None, max_version=None, dl_device=None, copy=None))]
    fn __dlpack__<'py>(
        slf: &Bound<'py, Self>,
        stream: Option<&Bound<'py, PyAny>>,
        max_version: Option<&Bound<'py, PyAny>>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = (stream, max_version);
        let me = slf.get();
        if let Some((t, id)) = dl_device {
            if t != DEVICE_CUDA || id != me.ordinal as i32 {
                return Err(PyBufferError::new_err("a DeviceArray is exported on its own GPU only"));
            }
        }
        if copy == Some(true) {
            return Err(PyBufferError::new_err("a DeviceArray is exported without a copy only"));
        }
        let device = DLDevice { device_type: DEVICE_CUDA, device_id: me.ordinal as i32 };
        dlpack::export(slf.py(), me.bytes.ptr(), &me.shape, device, slf.clone().into_any().unbind())
    }

    /// ``(kDLCUDA, device number)``.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (DEVICE_CUDA, self.ordinal as i32)
    }

    /// The CUDA array interface (version 3), for libraries that read it.
    #[getter]
    fn __cuda_array_interface__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("shape", PyTuple::new(py, &self.shape)?)?;
        d.set_item("typestr", "|u1")?;
        d.set_item("data", (self.bytes.ptr(), false))?;
        d.set_item("strides", py.None())?;
        d.set_item("version", 3)?;
        // Ready on every stream: nothing to wait for.
        d.set_item("stream", py.None())?;
        Ok(d)
    }
}

/// Copies a host uint8 array (C-contiguous; any shape) to GPU ``device``
/// and returns it as a :class:`DeviceArray`.
#[pyfunction]
#[pyo3(signature = (array, *, device=0))]
pub fn to_device(py: Python<'_>, array: &Bound<'_, PyAny>, device: usize) -> PyResult<DeviceArray> {
    let a = array.cast::<numpy::PyUntypedArray>().map_err(|_| Error::input("to_device takes a numpy uint8 array"))?;
    use numpy::PyUntypedArrayMethods;
    let shape = a.shape().to_vec();
    let np = py.import("numpy")?;
    let contiguous = np.call_method1("ascontiguousarray", (a,))?;
    let bytes = contiguous
        .cast::<numpy::PyArrayDyn<u8>>()
        .map_err(|_| Error::input("to_device takes a numpy uint8 array"))?
        .clone();
    use numpy::PyArrayMethods;
    let ro = bytes.try_readonly().map_err(|e| Error::input(e.to_string()))?;
    let host = ro.as_slice().map_err(|e| Error::input(e.to_string()))?;
    let g = gpu(device)?;
    let queue = DeviceQueue::new(&g).map_err(Error::from)?;
    let bytes = queue.upload(host).map_err(Error::from)?;
    Ok(DeviceArray::of(bytes, device, shape))
}

/// `n` samples of `set` from `offset`, made on GPU 0 into two new device arrays.
pub fn pairs_on_device(
    py: Python<'_>,
    set: &NeuralPairs,
    n: usize,
    offset: u64,
) -> PyResultOf<(DeviceArray, DeviceArray)> {
    let g = gpu(0)?;
    let bs = set.variant().block_bytes();
    py.detach(|| {
        let (x, y) = PairsKernel::new(&g, set)?.sample(offset, n)?;
        let (x, y) = (DeviceArray::of(x, 0, vec![n, 2, bs]), DeviceArray::of(y, 0, vec![n]));
        record(0, x.bytes.ptr());
        Ok((x, y))
    })
}

/// A DLPack tensor on a CUDA device that a call reads or writes: checked
/// to be uint8 blocks of `bs` bytes, C-contiguous.
fn take_blocks(obj: &Bound<'_, PyAny>, what: &str, bs: usize, queue: &DeviceQueue) -> PyResult<dlpack::Imported> {
    let t = dlpack::import(obj, Some(queue.handle()))?;
    let shape_ok = t.shape.len() == 2 && t.shape[1] == bs as i64;
    if !t.is_contiguous_u8() || !shape_ok {
        return Err(Error::input(format!(
            "{what} on the GPU must be C-contiguous uint8 blocks of shape (n, {bs}), not shape {:?} of DLPack type {:?}",
            t.shape, t.dtype
        ))
        .into());
    }
    Ok(t)
}

/// Whether `obj` is a DLPack tensor on a CUDA device (its device id then),
/// refusing host tensors on the GPU path with one clear line.
pub fn cuda_device_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Option<usize>> {
    if obj.cast::<numpy::PyUntypedArray>().is_ok() {
        return Ok(None);
    }
    match dlpack::device_of(obj)? {
        Some((DEVICE_CUDA, id)) => Ok(Some(usize::try_from(id).map_err(|_| Error::input("a negative CUDA device"))?)),
        Some((DEVICE_CPU | DEVICE_CUDA_HOST, _)) | None => Ok(None),
        Some((t, _)) => Err(Error::input(format!(
            "{what} is on DLPack device type {t}: device=\"gpu\" takes CUDA tensors (type 2) or host arrays"
        ))
        .into()),
    }
}

/// ECB over a CUDA tensor `blocks` under one tweakey, into `out` (another
/// CUDA tensor, or `blocks` itself: in place) or a new [`DeviceArray`],
/// without a host copy. Returns what was written.
pub fn crypt_device<'py>(
    py: Python<'py>,
    ordinal: usize,
    cipher: &skinny::Skinny,
    decrypt: bool,
    blocks: &Bound<'py, PyAny>,
    out: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let bs = cipher.variant().block_bytes();
    let g = gpu(ordinal)?;
    let queue = DeviceQueue::new(&g).map_err(Error::from)?;
    let input = take_blocks(blocks, "blocks", bs, &queue)?;
    let n = input.shape[0] as usize;
    let in_place = out.is_some_and(|o| o.is(blocks));
    let (output, fresh): (Option<dlpack::Imported>, Option<DeviceArray>) = match out {
        Some(_) if in_place => {
            if input.read_only {
                return Err(Error::input("blocks is read-only: it cannot be out").into());
            }
            (None, None)
        }
        Some(o) => {
            if cuda_device_of(o, "out")? != Some(ordinal) {
                return Err(Error::input("out must be a CUDA tensor on the GPU of blocks").into());
            }
            let t = take_blocks(o, "out", bs, &queue)?;
            if t.shape[0] as usize != n || t.read_only {
                return Err(Error::input(format!("out must be writable, of the shape of blocks ({n}, {bs})")).into());
            }
            let (a, b) = (input.data, t.data);
            let len = (n * bs) as u64;
            if a < b + len && b < a + len {
                return Err(Error::input("out overlaps blocks without being blocks itself").into());
            }
            (Some(t), None)
        }
        None => (None, Some(DeviceArray::zeroed(&queue, vec![n, bs])?)),
    };
    let op = if decrypt { Op::EcbDecrypt } else { Op::EcbEncrypt };
    let src = input.data;
    let dst = match (&output, &fresh) {
        (Some(t), _) => t.data,
        (_, Some(f)) => f.bytes.ptr(),
        _ => src,
    };
    py.detach(|| -> PyResultOf<()> {
        if n == 0 {
            return Ok(());
        }
        let engine = GpuCipher::new(&g, KernelKind::Bitsliced, cipher)?;
        // SAFETY: src and dst address n blocks of this GPU's memory (the
        // tensors' shapes were checked; dst equal to src or disjoint from it),
        // kept alive by the taken capsules (or the fresh array) until after
        // the queue has been waited for.
        #[allow(unsafe_code)]
        let queued = unsafe { engine.run_at(op, &[], src, dst, n as u64, &queue) };
        // Waited for even when the launch failed: nothing may be in flight
        // when the capsules are let go.
        let waited = queue.synchronize();
        queued?;
        waited?;
        record(src, dst);
        Ok(())
    })?;
    drop(input);
    drop(output);
    Ok(match (fresh, out) {
        (Some(f), _) => Bound::new(py, f)?.into_any(),
        (None, Some(o)) => o.clone(),
        (None, None) => return Err(Error::new(Kind::Other, "internal error: no output").into()),
    })
}
