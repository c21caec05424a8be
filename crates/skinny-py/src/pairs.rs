//! Training data for neural distinguishers (Gohr, CRYPTO 2019): labelled
//! ciphertext pairs, real (plaintexts with a chosen difference, encrypted
//! under a fresh random tweakey each) and random, seeded and reproducible.
//!
//! Sample `i` depends on (seed, i) only, through the lab's counter-based
//! generator, so any slice of a data set can be made alone (in shards) and
//! equals the same rows of a larger one. The definition and the GPU kernel
//! are skinny-lab's (`pairs`, `gpu::PairsKernel`): the GPU makes the CPU's
//! samples byte for byte.

use crate::common;
use crate::errors::Error;
use numpy::PyArrayMethods;
use pyo3::prelude::*;
use rayon::prelude::*;
use skinny_lab::pairs::{Negatives, NeuralPairs};

/// Samples per piece of work.
const CHUNK: usize = 4096;

/// `(X, y)`: the ciphertext pairs, shape (n, 2, block), and the labels,
/// shape (n,): numpy arrays, or `skinny.DeviceArray`s with `out="device"`.
type Samples<'py> = (Bound<'py, PyAny>, Bound<'py, PyAny>);

/// Labelled ciphertext pairs for a neural distinguisher (Gohr, CRYPTO 2019).
///
/// Returns ``(X, y)``: ``X`` of shape (n, 2, block) uint8 and ``y`` of shape
/// (n,) uint8. A sample labelled 1 is (E_K(P), E_K'(P ^ diff)) with K a fresh
/// random tweakey per sample and K' = K ^ key_diff (zero by default); one
/// labelled 0 is a random ciphertext pair, or with
/// ``negatives="random-plaintexts"`` Gohr's encryption of a random plaintext
/// pair under K. Labels are fair coins. Sample i depends on (seed, i) only:
/// ``offset=s`` gives rows s .. s+n of the same data set (build it in pieces).
/// Bitsliced, a tweakey per block, on every core (``device="cpu"``) or on
/// the GPU (``device="gpu"``: the same samples, byte for byte). With
/// ``out="device"`` (GPU only) ``X`` and ``y`` stay in GPU memory as
/// :class:`DeviceArray` (DLPack and ``__cuda_array_interface__``: CuPy,
/// PyTorch and JAX take them without a copy); the default ``out="numpy"``
/// gives numpy arrays.
///
/// ``progress=True`` shows a progress bar (tqdm where installed, else a line
/// on stderr); a callable ``progress(done, total)`` is called about four times
/// a second and at the end (an exception it raises stops the call); the GPU
/// path, a few milliseconds a billion samples, does not report.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, diff, n, *, seed=0, key_diff=None, offset=0, negatives="random-ciphertexts", device="cpu", out="numpy", progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn neural_pairs<'py>(
    py: Python<'py>,
    cipher: &str,
    rounds: usize,
    diff: &[u8],
    n: usize,
    seed: u64,
    key_diff: Option<&[u8]>,
    offset: u64,
    negatives: &str,
    device: &str,
    out: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Samples<'py>> {
    let v = common::variant(cipher)?;
    let rounds = common::rounds(v, Some(rounds))?;
    let negatives = match negatives {
        "random-ciphertexts" => Negatives::RandomCiphertexts,
        "random-plaintexts" => Negatives::RandomPlaintexts,
        _ => return Err(Error::input("negatives must be \"random-ciphertexts\" or \"random-plaintexts\"").into()),
    };
    let (bs, tl) = (v.block_bytes(), v.tweakey_bytes());
    let key_diff = key_diff.map_or_else(|| vec![0u8; tl], <[u8]>::to_vec);
    let set = NeuralPairs::new(v, rounds, diff, &key_diff, seed, negatives).map_err(Error::from)?;
    let on_device = match out {
        "numpy" => false,
        "device" => true,
        _ => return Err(Error::input("out must be \"numpy\" or \"device\"").into()),
    };
    match common::device(device)? {
        common::Device::Cpu if on_device => {
            return Err(Error::input("out=\"device\" needs device=\"gpu\"").into());
        }
        common::Device::Cpu => {}
        common::Device::Gpu => return on_gpu(py, &set, n, offset, on_device),
        common::Device::Auto => {
            return Err(Error::unsupported("device \"auto\" is not offered here: use \"cpu\" or \"gpu\"").into())
        }
    }
    let x = common::zeros::<numpy::Ix3>(py, &[n, 2, bs])?;
    let y = common::zeros::<numpy::Ix1>(py, &[n])?;
    {
        let mut xw = x.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        let mut yw = y.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        let xs = xw.as_slice_mut().map_err(|e| Error::input(e.to_string()))?;
        let ys = yw.as_slice_mut().map_err(|e| Error::input(e.to_string()))?;
        // Ctrl-C: chunks not yet started are skipped, and the call raises.
        let tally = common::Tally::new(py, progress, "pairs", "neural_pairs", n as u64)?;
        tally.run(py, || {
            xs.par_chunks_mut(CHUNK * 2 * bs).zip(ys.par_chunks_mut(CHUNK)).enumerate().for_each(|(c, (xc, yc))| {
                if !tally.stopped() {
                    set.fill(offset + (c * CHUNK) as u64, xc, yc);
                    tally.add(yc.len() as u64);
                }
            });
        })?;
    }
    Ok((x.into_any(), y.into_any()))
}

/// The samples made on the GPU: left there, or copied to numpy arrays.
#[cfg(feature = "cuda")]
fn on_gpu<'py>(py: Python<'py>, set: &NeuralPairs, n: usize, offset: u64, on_device: bool) -> PyResult<Samples<'py>> {
    let (x, y) = crate::device::pairs_on_device(py, set, n, offset)?;
    if on_device {
        return Ok((Bound::new(py, x)?.into_any(), Bound::new(py, y)?.into_any()));
    }
    let (x, y) = (Bound::new(py, x)?, Bound::new(py, y)?);
    Ok((x.call_method0("get")?, y.call_method0("get")?))
}

#[cfg(not(feature = "cuda"))]
fn on_gpu<'py>(_: Python<'py>, _: &NeuralPairs, _: usize, _: u64, _: bool) -> PyResult<Samples<'py>> {
    Err(Error::new(crate::errors::Kind::GpuUnavailable, "this build of skinny has no GPU support").into())
}
