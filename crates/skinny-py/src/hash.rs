//! The hash functions: Romulus-H (the default, as on the command line),
//! SKINNY-tk3-Hash and SKINNY-tk2-Hash, whole (`hash`) or incremental
//! (`Hasher`, hashlib's interface).

use crate::common::Bytes;
use crate::errors::{Error, Kind, PyResultOf};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use skinny_hash::digest::Digest;
use std::sync::{Mutex, MutexGuard};

/// The names `hash` and `Hasher` take, the default first.
pub const HASHES: [&str; 3] = ["romulus-h", "skinny-tk3-hash", "skinny-tk2-hash"];

/// Bytes in every digest.
const DIGEST_BYTES: usize = 32;

/// Inputs shorter than this are hashed with the GIL held: releasing and
/// taking it back costs more than hashing them.
const DETACH_BYTES: usize = 2048;

/// A hash function by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Algorithm {
    RomulusH,
    Tk3,
    Tk2,
}

impl Algorithm {
    /// The function `name` names (any case, `_` for `-`, blanks around).
    fn parse(name: &str) -> PyResultOf<Self> {
        match name.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "romulus-h" => Ok(Algorithm::RomulusH),
            "skinny-tk3-hash" => Ok(Algorithm::Tk3),
            "skinny-tk2-hash" => Ok(Algorithm::Tk2),
            _ => Err(Error::input(format!("unknown hash {name:?} (expected one of {})", HASHES.join(", ")))),
        }
    }

    /// The canonical name (what `Hasher.name` says).
    fn name(self) -> &'static str {
        match self {
            Algorithm::RomulusH => HASHES[0],
            Algorithm::Tk3 => HASHES[1],
            Algorithm::Tk2 => HASHES[2],
        }
    }

    /// The bytes absorbed at a time: Romulus-H's message block (TK2 ‖ TK3 of
    /// its compression function), the members' rates.
    fn block_size(self) -> usize {
        use skinny_hash::digest::common::BlockSizeUser;
        match self {
            Algorithm::RomulusH => 32,
            Algorithm::Tk3 => skinny_hash::SkinnyTk3Hash::block_size(),
            Algorithm::Tk2 => skinny_hash::SkinnyTk2Hash::block_size(),
        }
    }
}

/// A hasher's state: the function's own, which wipes itself when dropped.
#[derive(Clone)]
enum State {
    RomulusH(skinny_romulus::RomulusH),
    Tk3(skinny_hash::SkinnyTk3Hash),
    Tk2(skinny_hash::SkinnyTk2Hash),
}

impl State {
    fn new(algorithm: Algorithm) -> Self {
        match algorithm {
            Algorithm::RomulusH => State::RomulusH(Default::default()),
            Algorithm::Tk3 => State::Tk3(Default::default()),
            Algorithm::Tk2 => State::Tk2(Default::default()),
        }
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            State::RomulusH(h) => Digest::update(h, data),
            State::Tk3(h) => Digest::update(h, data),
            State::Tk2(h) => Digest::update(h, data),
        }
    }

    /// The digest of everything so far; the state goes on.
    fn digest(&self) -> [u8; DIGEST_BYTES] {
        let mut digest = [0u8; DIGEST_BYTES];
        match self.clone() {
            State::RomulusH(h) => digest.copy_from_slice(&h.finalize()),
            State::Tk3(h) => digest.copy_from_slice(&h.finalize()),
            State::Tk2(h) => digest.copy_from_slice(&h.finalize()),
        }
        digest
    }
}

/// The 32-byte digest of ``data`` under ``name``: ``"romulus-h"`` (the default, as
/// ``skinny hash`` on the command line), ``"skinny-tk3-hash"`` or ``"skinny-tk2-hash"``.
/// Raises ``InputError`` for another name. The GIL is released while it hashes.
#[pyfunction]
#[pyo3(signature = (data, name="romulus-h"))]
pub fn hash<'py>(py: Python<'py>, data: Bytes, name: &str) -> PyResult<Bound<'py, PyBytes>> {
    let algorithm = Algorithm::parse(name)?;
    let digest = py.detach(|| {
        let mut state = State::new(algorithm);
        state.update(&data);
        state.digest()
    });
    Ok(PyBytes::new(py, &digest))
}

/// An incremental hasher with hashlib's interface:
/// ``Hasher(algorithm="romulus-h", data=None)`` (``data``: bytes to start
/// with), then ``update(data)`` as often as needed, and ``digest()`` / ``hexdigest()`` at any time (the
/// hasher goes on). ``copy()`` forks it. ``algorithm`` is ``"romulus-h"``
/// (the default, as ``skinny hash``), ``"skinny-tk3-hash"`` or
/// ``"skinny-tk2-hash"``; ``name``, ``digest_size`` (32) and ``block_size``
/// describe it. Safe to share between threads (calls take turns); updates of
/// 2 KiB or more release the GIL. The state is wiped when the hasher is
/// freed.
#[pyclass(name = "Hasher", module = "skinny", frozen)]
pub struct PyHasher {
    algorithm: Algorithm,
    state: Mutex<State>,
}

impl PyHasher {
    /// The state, for one call. A lock poisoned by a panic elsewhere cannot
    /// be trusted to hold a whole state: an error, not a wrong digest.
    fn state(&self) -> PyResultOf<MutexGuard<'_, State>> {
        self.state.lock().map_err(|_| Error::new(Kind::Other, "this hasher was left broken by an earlier failure"))
    }

    fn absorb(&self, py: Python<'_>, data: &[u8]) -> PyResult<()> {
        if data.len() < DETACH_BYTES {
            self.state()?.update(data);
            return Ok(());
        }
        py.detach(|| self.state().map(|mut s| s.update(data)))?;
        Ok(())
    }
}

#[pymethods]
impl PyHasher {
    #[new]
    #[pyo3(signature = (algorithm="romulus-h", data=None))]
    fn new(py: Python<'_>, algorithm: &str, data: Option<Bytes>) -> PyResult<Self> {
        let algorithm = Algorithm::parse(algorithm)?;
        let hasher = PyHasher { algorithm, state: Mutex::new(State::new(algorithm)) };
        if let Some(data) = data {
            hasher.absorb(py, &data)?;
        }
        Ok(hasher)
    }

    /// Adds ``data`` (bytes or bytearray) to what is hashed.
    fn update(&self, py: Python<'_>, data: Bytes) -> PyResult<()> {
        self.absorb(py, &data)
    }

    /// The 32-byte digest of everything added so far; more may be added after.
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let digest = self.state()?.digest();
        Ok(PyBytes::new(py, &digest))
    }

    /// :meth:`digest` as 64 lower-case hex digits.
    fn hexdigest(&self) -> PyResult<String> {
        Ok(self.state()?.digest().iter().map(|b| format!("{b:02x}")).collect())
    }

    /// An independent hasher with the same state.
    fn copy(&self) -> PyResult<Self> {
        let state = self.state()?.clone();
        Ok(PyHasher { algorithm: self.algorithm, state: Mutex::new(state) })
    }

    /// The function's name: ``"romulus-h"``, ``"skinny-tk3-hash"`` or ``"skinny-tk2-hash"``.
    #[getter]
    fn name(&self) -> &'static str {
        self.algorithm.name()
    }

    /// Bytes in a digest: 32.
    #[getter]
    fn digest_size(&self) -> usize {
        DIGEST_BYTES
    }

    /// Bytes the function absorbs at a time: 32 (Romulus-H), 16
    /// (SKINNY-tk3-Hash) or 4 (SKINNY-tk2-Hash).
    #[getter]
    fn block_size(&self) -> usize {
        self.algorithm.block_size()
    }

    fn __repr__(&self) -> String {
        format!("<skinny.Hasher {}>", self.algorithm.name())
    }
}
