//! The native part of the Python package `skinny` (`skinny._skinny`): thin
//! PyO3 bindings over the workspace's crates. Every call checks its input,
//! releases the GIL for the work, and turns every error into an exception of
//! the package's one hierarchy (`skinny.SkinnyError`); nothing panics across
//! the boundary by design (and PyO3 turns a panic into an exception anyway).
//! Keys are copied into memory that is wiped when the call ends.
//!
//! The Python API, its types and docstrings are in `python/skinny/` (the
//! stub `_skinny.pyi`); this crate is `publish = false`: it ships as a wheel.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

mod aead;
mod block;
mod common;
mod device;
mod errors;
mod hash;
mod lab;
mod many;
mod modes;
mod pairs;
mod per_key;
mod sbox;

/// Whether this build has the GPU paths (a GPU is still needed at run time).
#[pyfunction]
fn built_with_cuda() -> bool {
    cfg!(feature = "cuda")
}

/// The usable GPUs, one line each; raises ``GpuUnavailableError`` when there is none.
#[pyfunction]
fn gpus(py: Python<'_>) -> PyResult<Vec<String>> {
    py.detach(skinny_bulk::backend::describe_gpus).map_err(|e| errors::Error::from(e).into())
}

#[pymodule]
fn _skinny(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // The scheme names, from the library's one table (not typed again here).
    m.add("AEAD_SCHEMES", PyTuple::new(m.py(), aead::names())?)?;
    m.add("MANY_SCHEMES", PyTuple::new(m.py(), many::names())?)?;
    m.add("SCHEME_NAMES", PyTuple::new(m.py(), skinny_many::Scheme::accepted_names().collect::<Vec<_>>())?)?;
    m.add_function(wrap_pyfunction!(block::encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(block::decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(modes::mode_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(modes::mode_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(aead::aead_encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(aead::aead_decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(aead::aead_lengths, m)?)?;
    m.add_function(wrap_pyfunction!(hash::hash, m)?)?;
    m.add_class::<hash::PyHasher>()?;
    m.add_function(wrap_pyfunction!(many::many_seal, m)?)?;
    m.add_function(wrap_pyfunction!(many::many_open, m)?)?;
    m.add_function(wrap_pyfunction!(lab::experiments::differential, m)?)?;
    m.add_function(wrap_pyfunction!(lab::experiments::boomerang, m)?)?;
    m.add_function(wrap_pyfunction!(lab::experiments::differential_linear, m)?)?;
    m.add_function(wrap_pyfunction!(lab::experiments::linear, m)?)?;
    m.add_function(wrap_pyfunction!(lab::merge, m)?)?;
    m.add_function(wrap_pyfunction!(lab::characteristic::characteristic, m)?)?;
    m.add_function(wrap_pyfunction!(lab::characteristic::linear_characteristic, m)?)?;
    m.add_function(wrap_pyfunction!(lab::characteristic::tweakey_schedule, m)?)?;
    m.add_function(wrap_pyfunction!(lab::characteristic::characteristic_experiment, m)?)?;
    m.add_class::<lab::PyFindings>()?;
    m.add_class::<per_key::PyKeyDistribution>()?;
    m.add_function(wrap_pyfunction!(pairs::neural_pairs, m)?)?;
    m.add_class::<lab::keyrecovery::PyKeyCounter>()?;
    m.add_class::<lab::keyrecovery::PyPartialDecryption>()?;
    m.add_function(wrap_pyfunction!(sbox::sbox_values, m)?)?;
    m.add_function(wrap_pyfunction!(sbox::sbox_table, m)?)?;
    m.add_function(wrap_pyfunction!(sbox::sbox_export, m)?)?;
    m.add_function(wrap_pyfunction!(device::dlpack::_dlpack_info, m)?)?;
    m.add_function(wrap_pyfunction!(device::to_device, m)?)?;
    m.add_function(wrap_pyfunction!(device::_gpu_last_pointers, m)?)?;
    #[cfg(feature = "cuda")]
    m.add_class::<device::DeviceArray>()?;
    m.add_function(wrap_pyfunction!(built_with_cuda, m)?)?;
    m.add_function(wrap_pyfunction!(gpus, m)?)?;
    Ok(())
}
