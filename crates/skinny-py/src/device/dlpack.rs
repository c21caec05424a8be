//! The DLPack protocol (the C structs of `dlpack.h`, version 1.x, written
//! out here): tensors handed out in capsules (`__dlpack__` of
//! `skinny.DeviceArray`) and taken from any object's `__dlpack__`, on the GPU
//! or the CPU. A capsule taken is renamed `used_dltensor` (or
//! `used_dltensor_versioned`) and its tensor's deleter called once the
//! memory is no longer used; one handed out and never taken is freed by the
//! capsule's own destructor.

// Without GPU support only the parsing (`_dlpack_info`) is used.
#![cfg_attr(not(feature = "cuda"), allow(dead_code))]

use crate::errors::Error;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::ffi::{c_void, CStr};

/// `kDLCPU`.
pub const DEVICE_CPU: i32 = 1;
/// `kDLCUDA`.
pub const DEVICE_CUDA: i32 = 2;
/// `kDLCUDAHost` (page-locked host memory).
pub const DEVICE_CUDA_HOST: i32 = 3;
/// `kDLUInt`.
const TYPE_UINT: u8 = 1;
/// `DLPACK_FLAG_BITMASK_READ_ONLY`.
const FLAG_READ_ONLY: u64 = 1;

const NAME: &CStr = c"dltensor";
const NAME_VERSIONED: &CStr = c"dltensor_versioned";
const USED: &CStr = c"used_dltensor";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLDevice {
    pub device_type: i32,
    pub device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DLDataType {
    pub code: u8,
    pub bits: u8,
    pub lanes: u16,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct DLTensor {
    pub data: *mut c_void,
    pub device: DLDevice,
    pub ndim: i32,
    pub dtype: DLDataType,
    pub shape: *mut i64,
    pub strides: *mut i64,
    pub byte_offset: u64,
}

#[repr(C)]
pub struct DLManagedTensor {
    pub dl_tensor: DLTensor,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct DLPackVersion {
    pub major: u32,
    pub minor: u32,
}

#[repr(C)]
pub struct DLManagedTensorVersioned {
    pub version: DLPackVersion,
    pub manager_ctx: *mut c_void,
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    pub flags: u64,
    pub dl_tensor: DLTensor,
}

/// A tensor handed out: the managed tensor first (its address is this
/// allocation's), its shape, and the Python object that owns the memory,
/// kept alive until the consumer calls the deleter.
#[repr(C)]
struct Exported {
    managed: DLManagedTensor,
    shape: Vec<i64>,
    _owner: Py<PyAny>,
}

unsafe extern "C" fn delete_exported(m: *mut DLManagedTensor) {
    if m.is_null() {
        return;
    }
    // SAFETY: `m` is the `managed` field at the start of a boxed `Exported`
    // (repr(C)) made by `export`, and DLPack calls the deleter once.
    drop(unsafe { Box::from_raw(m.cast::<Exported>()) });
}

/// The capsule's destructor: frees the tensor unless a consumer took it
/// (renamed the capsule), which then owns the deleter call.
unsafe extern "C" fn capsule_destructor(capsule: *mut ffi::PyObject) {
    // SAFETY: called by Python with the capsule; IsValid sets no error and
    // GetPointer succeeds for the name just checked.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, NAME.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(capsule, NAME.as_ptr()).cast::<DLManagedTensor>();
            if let Some(d) = m.as_ref().and_then(|m| m.deleter) {
                d(m);
            }
        }
    }
}

/// A capsule of a (legacy, unversioned) DLPack tensor of uint8 on `device`,
/// C-contiguous, at `data` with `shape`, owned by `owner`.
pub fn export<'py>(
    py: Python<'py>,
    data: u64,
    shape: &[usize],
    device: DLDevice,
    owner: Py<PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
    let mut exported = Box::new(Exported {
        managed: DLManagedTensor {
            dl_tensor: DLTensor {
                data: data as *mut c_void,
                device,
                ndim: shape.len() as i32,
                dtype: DLDataType { code: TYPE_UINT, bits: 8, lanes: 1 },
                shape: std::ptr::null_mut(),
                // Null strides: C-contiguous.
                strides: std::ptr::null_mut(),
                byte_offset: 0,
            },
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(delete_exported),
        },
        shape,
        _owner: owner,
    });
    exported.managed.dl_tensor.shape = exported.shape.as_mut_ptr();
    let raw = Box::into_raw(exported);
    // SAFETY: `raw` is a live boxed `Exported` whose first field is the
    // managed tensor; the capsule owns it (its destructor or a consumer's
    // deleter call frees it once). On failure nothing took it: freed here.
    unsafe {
        (*raw).managed.manager_ctx = raw.cast();
        let capsule = ffi::PyCapsule_New(raw.cast(), NAME.as_ptr(), Some(capsule_destructor));
        if capsule.is_null() {
            drop(Box::from_raw(raw));
            return Err(PyErr::fetch(py));
        }
        Ok(Bound::from_owned_ptr(py, capsule))
    }
}

/// A tensor taken from an object's `__dlpack__`: what it says of itself,
/// and the capsule's deleter, called when this is dropped.
pub struct Imported {
    managed: *mut c_void,
    versioned: bool,
    /// Where the data starts (the tensor's data plus its byte offset).
    pub data: u64,
    pub device: DLDevice,
    pub shape: Vec<i64>,
    /// The strides in elements, when given (None: C-contiguous).
    pub strides: Option<Vec<i64>>,
    pub dtype: DLDataType,
    pub read_only: bool,
    pub version: Option<(u32, u32)>,
}

// SAFETY: the managed tensor is only touched by Drop (its deleter), which
// DLPack allows from any thread.
unsafe impl Send for Imported {}

impl Drop for Imported {
    fn drop(&mut self) {
        // SAFETY: `managed` came from a capsule this struct took (renamed),
        // so its deleter is ours to call, once.
        unsafe {
            if self.versioned {
                let m = self.managed.cast::<DLManagedTensorVersioned>();
                if let Some(d) = (*m).deleter {
                    d(m);
                }
            } else {
                let m = self.managed.cast::<DLManagedTensor>();
                if let Some(d) = (*m).deleter {
                    d(m);
                }
            }
        }
    }
}

impl Imported {
    /// Whether the tensor is uint8 and C-contiguous.
    pub fn is_contiguous_u8(&self) -> bool {
        let dtype_ok = self.dtype.code == TYPE_UINT && self.dtype.bits == 8 && self.dtype.lanes == 1;
        let strides_ok = match &self.strides {
            None => true,
            Some(s) => {
                let mut want = 1i64;
                self.shape.iter().zip(s).rev().all(|(&d, &st)| {
                    let ok = d == 1 || st == want;
                    want *= d;
                    ok
                })
            }
        };
        dtype_ok && strides_ok
    }
}

/// An object's `__dlpack_device__()`: (device type, device id).
pub fn device_of(obj: &Bound<'_, PyAny>) -> PyResult<Option<(i32, i32)>> {
    if !obj.hasattr("__dlpack__")? {
        return Ok(None);
    }
    let d = obj.call_method0("__dlpack_device__").map_err(|_| Error::input("__dlpack_device__ failed"))?;
    let (t, id): (i32, i32) =
        d.extract().map_err(|_| Error::input("__dlpack_device__ must give (device_type, device_id)"))?;
    Ok(Some((t, id)))
}

/// Takes `obj`'s tensor through `obj.__dlpack__(stream=stream, max_version=(1, 0))`
/// (without `max_version` for producers older than DLPack 1.0).
pub fn import(obj: &Bound<'_, PyAny>, stream: Option<isize>) -> PyResult<Imported> {
    let py = obj.py();
    let kwargs = PyDict::new(py);
    kwargs.set_item("stream", stream)?;
    kwargs.set_item("max_version", (1, 0))?;
    let capsule = match obj.call_method("__dlpack__", (), Some(&kwargs)) {
        Ok(c) => c,
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) => {
            let _ = kwargs.del_item("max_version");
            obj.call_method("__dlpack__", (), Some(&kwargs))?
        }
        Err(e) => return Err(e),
    };
    let cap = capsule.as_ptr();
    // SAFETY: `cap` is a live object (held by `capsule`); IsValid sets no
    // error; GetPointer on the name just checked gives the tensor, which the
    // capsule's producer keeps alive until its deleter is called; renaming
    // the capsule hands that call to us (Imported's Drop).
    unsafe {
        let versioned = if ffi::PyCapsule_IsValid(cap, NAME_VERSIONED.as_ptr()) == 1 {
            true
        } else if ffi::PyCapsule_IsValid(cap, NAME.as_ptr()) == 1 {
            false
        } else {
            return Err(Error::input("__dlpack__ gave no unused DLPack capsule").into());
        };
        let name = if versioned { NAME_VERSIONED } else { NAME };
        let managed = ffi::PyCapsule_GetPointer(cap, name.as_ptr());
        if managed.is_null() {
            return Err(PyErr::fetch(py));
        }
        let (t, read_only, version) = if versioned {
            let m = &*managed.cast::<DLManagedTensorVersioned>();
            (m.dl_tensor, m.flags & FLAG_READ_ONLY != 0, Some((m.version.major, m.version.minor)))
        } else {
            (managed.cast::<DLManagedTensor>().read().dl_tensor, false, None)
        };
        let used = if versioned { USED_VERSIONED } else { USED };
        if ffi::PyCapsule_SetName(cap, used.as_ptr()) != 0 {
            return Err(PyErr::fetch(py));
        }
        let imported = Imported {
            managed,
            versioned,
            data: (t.data as u64).wrapping_add(t.byte_offset),
            device: t.device,
            shape: Vec::new(),
            strides: None,
            dtype: t.dtype,
            read_only,
            version,
        };
        // From here on the deleter runs whatever happens (Drop).
        let ndim = usize::try_from(t.ndim).map_err(|_| Error::input("a DLPack tensor of negative rank"))?;
        if ndim > 32 || (ndim > 0 && t.shape.is_null()) {
            return Err(Error::input("a DLPack tensor without a usable shape").into());
        }
        let mut imported = imported;
        imported.shape = if ndim == 0 { Vec::new() } else { std::slice::from_raw_parts(t.shape, ndim).to_vec() };
        if !t.strides.is_null() && ndim > 0 {
            imported.strides = Some(std::slice::from_raw_parts(t.strides, ndim).to_vec());
        }
        if imported.shape.iter().any(|&d| d < 0) {
            return Err(Error::input("a DLPack tensor with a negative dimension").into());
        }
        Ok(imported)
    }
}

/// What an object's DLPack capsule says, parsed as the GPU paths parse it
/// (a debug and test hook: `skinny._dlpack_info`).
#[pyfunction]
pub fn _dlpack_info<'py>(py: Python<'py>, obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    let t = import(obj, None)?;
    let d = PyDict::new(py);
    d.set_item("device_type", t.device.device_type)?;
    d.set_item("device_id", t.device.device_id)?;
    d.set_item("shape", t.shape.clone())?;
    d.set_item("strides", t.strides.clone())?;
    d.set_item("dtype", (t.dtype.code, t.dtype.bits, t.dtype.lanes))?;
    d.set_item("data", t.data)?;
    d.set_item("read_only", t.read_only)?;
    d.set_item("version", t.version)?;
    d.set_item("uint8_c_contiguous", t.is_contiguous_u8())?;
    Ok(d)
}
