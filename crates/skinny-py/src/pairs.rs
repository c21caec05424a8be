//! Training data for neural distinguishers (Gohr, CRYPTO 2019): labelled
//! ciphertext pairs, real (plaintexts with a chosen difference, encrypted
//! under a fresh random tweakey each) and random, seeded and reproducible.
//!
//! Sample `i` depends on (seed, i) only, through the lab's counter-based
//! generator, so any slice of a data set can be made alone (in shards) and
//! equals the same rows of a larger one. CPU only: the GPU's lab kernels
//! count pairs but do not hand ciphertexts back.

use crate::common;
use crate::errors::Error;
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::PerBlockTweakeys;
use skinny::Variant;
use skinny_lab::rng::{mix64, CounterRng, Stream};

/// Samples per piece of work.
const CHUNK: usize = 4096;

/// Domains of the generators beyond the lab's own streams (labels, random
/// samples): the seed is mixed with these before use.
const LABEL_DOMAIN: u64 = 0x9e37_79b9_7f4a_7c15;
const RANDOM_DOMAIN: u64 = 0x6a09_e667_f3bc_c909;

/// What a sample labelled 0 is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Negatives {
    /// Uniformly random ciphertext pairs.
    RandomCiphertexts,
    /// Gohr's: a random plaintext pair encrypted under the sample's tweakey.
    RandomPlaintexts,
}

struct Spec {
    variant: Variant,
    pbt: PerBlockTweakeys,
    diff: Vec<u8>,
    key_diff: Vec<u8>,
    seed: u64,
    negatives: Negatives,
}

impl Spec {
    fn label(&self, i: u64) -> u8 {
        (CounterRng::new(mix64(self.seed ^ LABEL_DOMAIN)).word(Stream::Plaintext, i, 0) & 1) as u8
    }

    /// Fills `x` (samples `first ..`, two blocks each) and `y`.
    fn fill(&self, first: u64, x: &mut [u8], y: &mut [u8]) {
        let (bs, tl) = (self.variant.block_bytes(), self.variant.tweakey_bytes());
        let n = y.len();
        let rng = CounterRng::new(self.seed);
        let random = CounterRng::new(mix64(self.seed ^ RANDOM_DOMAIN));
        let mut p0 = vec![0u8; n * bs];
        let mut p1 = vec![0u8; n * bs];
        let mut k0 = zeroize::Zeroizing::new(vec![0u8; n * tl]);
        let mut k1 = zeroize::Zeroizing::new(vec![0u8; n * tl]);
        for j in 0..n {
            let i = first + j as u64;
            y[j] = self.label(i);
            let (a, b) = (&mut p0[j * bs..(j + 1) * bs], &mut p1[j * bs..(j + 1) * bs]);
            rng.fill(Stream::Plaintext, i, a);
            if y[j] == 1 || self.negatives == Negatives::RandomCiphertexts {
                for ((b, a), d) in b.iter_mut().zip(a.iter()).zip(&self.diff) {
                    *b = a ^ d;
                }
            } else {
                random.fill(Stream::Plaintext, i, b);
            }
            let (ka, kb) = (&mut k0[j * tl..(j + 1) * tl], &mut k1[j * tl..(j + 1) * tl]);
            rng.fill(Stream::Key, i, ka);
            for ((kb, ka), d) in kb.iter_mut().zip(ka.iter()).zip(&self.key_diff) {
                *kb = ka ^ d;
            }
        }
        self.pbt.encrypt(&mut p0, &k0);
        self.pbt.encrypt(&mut p1, &k1);
        let mut pair = vec![0u8; 2 * bs];
        for j in 0..n {
            let row = &mut x[j * 2 * bs..(j + 1) * 2 * bs];
            if y[j] == 0 && self.negatives == Negatives::RandomCiphertexts {
                random.fill(Stream::Key, first + j as u64, &mut pair);
                row.copy_from_slice(&pair);
            } else {
                row[..bs].copy_from_slice(&p0[j * bs..(j + 1) * bs]);
                row[bs..].copy_from_slice(&p1[j * bs..(j + 1) * bs]);
            }
        }
    }
}

/// `(X, y)`: the ciphertext pairs, shape (n, 2, block), and the labels, shape (n,).
type Samples<'py> = (Bound<'py, PyArray3<u8>>, Bound<'py, PyArray1<u8>>);

/// Labelled ciphertext pairs for a neural distinguisher (Gohr, CRYPTO 2019).
///
/// Returns ``(X, y)``: ``X`` of shape (n, 2, block) uint8 and ``y`` of shape
/// (n,) uint8. A sample labelled 1 is (E_K(P), E_K'(P ^ diff)) with K a fresh
/// random tweakey per sample and K' = K ^ key_diff (zero by default); one
/// labelled 0 is a random ciphertext pair, or with
/// ``negatives="random-plaintexts"`` Gohr's encryption of a random plaintext
/// pair under K. Labels are fair coins. Sample i depends on (seed, i) only:
/// ``offset=s`` gives rows s .. s+n of the same data set (build it in pieces).
/// CPU only (bitsliced, a tweakey per block, every core).
///
/// ``progress=True`` shows a progress bar (tqdm where installed, else a line
/// on stderr); a callable ``progress(done, total)`` is called about four times
/// a second and at the end (an exception it raises stops the call).
#[pyfunction]
#[pyo3(signature = (cipher, rounds, diff, n, *, seed=0, key_diff=None, offset=0, negatives="random-ciphertexts", progress=None))]
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
    if diff.len() != bs {
        return Err(Error::input(format!("diff must be {bs} bytes for {v}, not {}", diff.len())).into());
    }
    let key_diff = key_diff.map_or_else(|| vec![0u8; tl], <[u8]>::to_vec);
    if key_diff.len() != tl {
        return Err(Error::input(format!("key_diff must be {tl} bytes for {v}, not {}", key_diff.len())).into());
    }
    let pbt = PerBlockTweakeys::new(v, rounds).map_err(|e| Error::input(e.to_string()))?;
    let spec = Spec { variant: v, pbt, diff: diff.to_vec(), key_diff, seed, negatives };
    let x = common::zeros::<numpy::Ix3>(py, &[n, 2, bs])?;
    let y = common::zeros::<numpy::Ix1>(py, &[n])?;
    {
        let mut xw = x.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        let mut yw = y.try_readwrite().map_err(|e| Error::input(e.to_string()))?;
        let xs = xw.as_slice_mut().map_err(|e| Error::input(e.to_string()))?;
        let ys = yw.as_slice_mut().map_err(|e| Error::input(e.to_string()))?;
        // Ctrl-C: chunks not yet started are skipped, and the call raises.
        use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
        let stop = AtomicBool::new(false);
        let progress = common::Progress::of(py, progress, "pairs", "neural_pairs")?;
        let done = AtomicU64::new(0);
        let count = || (done.load(Ordering::Relaxed), n as u64);
        common::interruptible_with(
            py,
            &|| stop.store(true, Ordering::Relaxed),
            progress.as_ref().map(|p| (p, &count as common::Counter<'_>)),
            || {
                xs.par_chunks_mut(CHUNK * 2 * bs).zip(ys.par_chunks_mut(CHUNK)).enumerate().for_each(
                    |(c, (xc, yc))| {
                        if !stop.load(Ordering::Relaxed) {
                            spec.fill(offset + (c * CHUNK) as u64, xc, yc);
                            done.fetch_add(yc.len() as u64, Ordering::Relaxed);
                        }
                    },
                );
            },
        )?;
    }
    Ok((x, y))
}
