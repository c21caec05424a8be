//! The hash functions: SKINNY-tk3-Hash, SKINNY-tk2-Hash and Romulus-H.

use crate::errors::{Error, PyResultOf};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use skinny_hash::digest::Digest;

/// The names `hash` takes.
pub const HASHES: [&str; 3] = ["skinny-tk3-hash", "skinny-tk2-hash", "romulus-h"];

fn digest(name: &str, data: &[u8]) -> PyResultOf<Vec<u8>> {
    let n = name.trim().to_ascii_lowercase().replace('_', "-");
    Ok(match n.as_str() {
        "skinny-tk3-hash" => skinny_hash::SkinnyTk3Hash::digest(data).to_vec(),
        "skinny-tk2-hash" => skinny_hash::SkinnyTk2Hash::digest(data).to_vec(),
        "romulus-h" => skinny_romulus::RomulusH::digest(data).to_vec(),
        _ => return Err(Error::input(format!("unknown hash {name:?} (expected one of {})", HASHES.join(", ")))),
    })
}

/// The 32-byte digest of `data`: see `skinny/_skinny.pyi`.
#[pyfunction]
#[pyo3(signature = (data, name="skinny-tk3-hash"))]
pub fn hash<'py>(py: Python<'py>, data: PyBackedBytes, name: &str) -> PyResult<Bound<'py, PyBytes>> {
    let out = py.detach(|| digest(name, &data))?;
    Ok(PyBytes::new(py, &out))
}
