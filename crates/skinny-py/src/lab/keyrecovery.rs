//! Key recovery over the last rounds (`skinny.keyrecovery`): the lab's
//! partial decryption under guessed round-tweakey cells and its counter of
//! key candidates, with numpy arrays in and out, the GIL released and Ctrl-C
//! heard. The Python module (`python/skinny/keyrecovery.py`) carries the
//! docstrings users read.

use crate::common;
use crate::errors::Error;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArrayDyn};
use pyo3::prelude::*;
use skinny_lab::keyrecovery::{KeyCounter, KeyRecoveryError, PartialDecryption};
use skinny_lab::Control;

fn input(e: KeyRecoveryError) -> PyErr {
    Error::input(e.to_string()).into()
}

/// The blocks of a C-contiguous uint8 array, copied (the work runs without
/// the GIL, while Python could change the array).
fn blocks(name: &str, array: &PyReadonlyArrayDyn<'_, u8>) -> PyResult<Vec<u8>> {
    array
        .as_slice()
        .map(<[u8]>::to_vec)
        .map_err(|_| Error::input(format!("{name} must be a C-contiguous uint8 array")).into())
}

/// `[(round, cell), ...]` of guessed cells.
fn cells(guessed: &[skinny_lab::keyrecovery::GuessedCell]) -> Vec<(usize, usize)> {
    guessed.iter().map(|g| (g.round, g.cell)).collect()
}

/// A counter of key candidates (see `skinny.keyrecovery.KeyCounter`).
#[pyclass(name = "KeyCounter", module = "skinny._skinny", frozen)]
pub struct PyKeyCounter {
    inner: KeyCounter,
}

#[pymethods]
impl PyKeyCounter {
    #[new]
    #[pyo3(signature = (cipher, last_round, peeled, predicted))]
    fn new(cipher: &str, last_round: usize, peeled: usize, predicted: Vec<(usize, u64)>) -> PyResult<Self> {
        let v = common::variant(cipher)?;
        Ok(Self { inner: KeyCounter::new(v, last_round, peeled, &predicted).map_err(input)? })
    }

    /// `[(round, cell), ...]`: the guessed round-tweakey cells, in the order
    /// their values sit in a guess.
    #[getter]
    fn guessed(&self) -> Vec<(usize, usize)> {
        cells(self.inner.guessed())
    }

    /// The number of guesses.
    #[getter]
    fn guesses(&self) -> u64 {
        self.inner.guesses()
    }

    /// The guess a master tweakey makes.
    fn guess_of(&self, tweakey: common::Bytes) -> PyResult<u64> {
        let tweakey = zeroize::Zeroizing::new(tweakey.to_vec());
        self.inner.guess_of(&tweakey).map_err(input)
    }

    /// The count of every guess (uint32, indexed by guess).
    fn count<'py>(
        &self,
        py: Python<'py>,
        first: PyReadonlyArrayDyn<'py, u8>,
        second: PyReadonlyArrayDyn<'py, u8>,
    ) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let (a, b) = (blocks("first", &first)?, blocks("second", &second)?);
        drop((first, second));
        let control = Control::new();
        let counted = common::interruptible(py, &|| control.stop(), || self.inner.count(&a, &b, &control))?;
        let counts = counted.map_err(input)?;
        Ok(PyArray1::from_slice(py, counts.counts()))
    }
}

/// Partial decryption under guessed cells (see
/// `skinny.keyrecovery.PartialDecryption`).
#[pyclass(name = "PartialDecryption", module = "skinny._skinny", frozen)]
pub struct PyPartialDecryption {
    inner: PartialDecryption,
    block_bytes: usize,
}

#[pymethods]
impl PyPartialDecryption {
    #[new]
    #[pyo3(signature = (cipher, last_round, peeled, targets))]
    fn new(cipher: &str, last_round: usize, peeled: usize, targets: Vec<usize>) -> PyResult<Self> {
        let v = common::variant(cipher)?;
        let inner = PartialDecryption::new(v, last_round, peeled, &targets).map_err(input)?;
        Ok(Self { inner, block_bytes: v.block_bytes() })
    }

    /// `[(round, cell), ...]`: the guessed round-tweakey cells.
    #[getter]
    fn guessed(&self) -> Vec<(usize, usize)> {
        cells(self.inner.guessed())
    }

    /// The number of guesses.
    #[getter]
    fn guesses(&self) -> u64 {
        self.inner.guesses()
    }

    /// The guess a master tweakey makes.
    fn guess_of(&self, tweakey: common::Bytes) -> PyResult<u64> {
        let tweakey = zeroize::Zeroizing::new(tweakey.to_vec());
        self.inner.guess_of(&tweakey).map_err(input)
    }

    /// The target cells under guesses `start .. stop`: uint8, shape
    /// (guesses, ciphertexts, targets).
    #[pyo3(signature = (ciphertexts, start=0, stop=None))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ciphertexts: PyReadonlyArrayDyn<'py, u8>,
        start: u64,
        stop: Option<u64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cts = blocks("ciphertexts", &ciphertexts)?;
        drop(ciphertexts);
        let stop = stop.unwrap_or(self.inner.guesses());
        let control = Control::new();
        let out = common::interruptible(py, &|| control.stop(), || self.inner.decrypt(&cts, start..stop, &control))?
            .map_err(input)?;
        let (targets, n) = (self.inner.targets().len(), cts.len() / self.block_bytes);
        // The library checked start <= stop <= guesses (at most 2^28).
        let guesses = (stop - start) as usize;
        let array = PyArray1::from_vec(py, out);
        Ok(array.reshape([guesses, n, targets])?.into_any())
    }
}
