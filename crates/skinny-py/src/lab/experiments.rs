//! The lab's experiments for Python, one function each (the arguments as the
//! stubs give them), and the cell pattern (truncated difference) that
//! `differential(cells=...)` takes; `mod.rs` has what they share (the common
//! parameters, the run, the findings).

use super::{bytes_or_hex, common, run, PyFindings};
use crate::errors::{Error, PyResultOf};
use pyo3::prelude::*;
use skinny_lab::{Boomerang, CellPattern, Common, Differential, DifferentialLinear, Experiment, Linear};

/// Counts pairs (P, P ^ dp) under (K, K ^ dk) whose ciphertexts differ by
/// dc in the bits of dc_mask, over ``queries`` queries with a fresh random
/// tweakey every ``key_every``; ``shard=(i, n)`` runs the i-th of n parts.
/// ``start_round=s`` runs rounds s .. s+rounds-1 at their own place (round
/// s's constants and tweakey state); ``tk_at`` says whether keys and tweakey
/// differences are given at the master tweakey or at round s.
/// ``per_key=True`` counts every key's hits too (``Findings.per_key``;
/// ``queries`` must then be a multiple of ``key_every``), for every
/// experiment.
///
/// ``cells`` adds a truncated difference, ANDed with the bits: 16 characters
/// (cell 0 first, spaces allowed) of ``0`` (the cell's difference is zero),
/// ``x`` (non-zero) or ``*`` (free), such as ``"0000 x000 **** 0000"``. With
/// ``cells`` and no ``dc``, no bits are compared (``dc`` and ``dc_mask`` zero
/// unless ``dc_mask`` is given); with ``dc``, ``dc_mask`` defaults to all bits
/// as without a pattern. One of ``dc`` and ``cells`` is needed.
///
/// ``checkpoint=PATH`` counts the shard in segments of about
/// ``checkpoint_every`` seconds and keeps the findings so far in PATH
/// (replaced atomically after each): called again with the same arguments
/// after a death (a lost Ray worker, a killed job), it goes on from PATH, and
/// returns exactly the findings of a run that never stopped; PATH is removed
/// when the shard is done. A PATH of another run or version, or damaged, is
/// refused (InputError) and left as it is. Every experiment takes both.
///
/// ``progress=True`` shows a progress bar (tqdm where installed, else a line
/// on stderr); a callable ``progress(done, total)`` is called about four times
/// a second and at the end (an exception it raises stops the call). Every
/// experiment takes ``progress``.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, dp, dc=None, *, queries, dk=None, dc_mask=None, cells=None, start_round=1,
                    tk_at="master", key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None,
                    per_key=false, checkpoint=None, checkpoint_every=30.0, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn differential(
    py: Python<'_>,
    cipher: &str,
    rounds: usize,
    dp: &Bound<'_, PyAny>,
    dc: Option<&Bound<'_, PyAny>>,
    queries: u64,
    dk: Option<&Bound<'_, PyAny>>,
    dc_mask: Option<&Bound<'_, PyAny>>,
    cells: Option<&str>,
    start_round: usize,
    tk_at: &str,
    key_every: u64,
    seed: u64,
    shard: (u64, u64),
    show: usize,
    device: &str,
    threads: Option<usize>,
    per_key: bool,
    checkpoint: Option<std::path::PathBuf>,
    checkpoint_every: f64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let mut d = differential_of(c, bytes_or_hex("dp", dp)?, dc, cells)?;
    if let Some(dk) = dk {
        d.dk = bytes_or_hex("dk", dk)?;
    }
    if let Some(m) = dc_mask {
        d.dc_mask = bytes_or_hex("dc_mask", m)?;
    }
    run(py, Experiment::Differential(d), device, threads, (checkpoint, checkpoint_every), progress)
}

/// Counts boomerang quartets that return with difference dp (related
/// tweakeys dk1 above, dk2 below).
#[pyfunction]
#[pyo3(signature = (cipher, rounds, dp, dc, *, queries, dk1=None, dk2=None, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false,
                    checkpoint=None, checkpoint_every=30.0, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn boomerang(
    py: Python<'_>,
    cipher: &str,
    rounds: usize,
    dp: &Bound<'_, PyAny>,
    dc: &Bound<'_, PyAny>,
    queries: u64,
    dk1: Option<&Bound<'_, PyAny>>,
    dk2: Option<&Bound<'_, PyAny>>,
    start_round: usize,
    tk_at: &str,
    key_every: u64,
    seed: u64,
    shard: (u64, u64),
    show: usize,
    device: &str,
    threads: Option<usize>,
    per_key: bool,
    checkpoint: Option<std::path::PathBuf>,
    checkpoint_every: f64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let mut b = Boomerang::new(c, bytes_or_hex("dp", dp)?, bytes_or_hex("dc", dc)?);
    if let Some(k) = dk1 {
        b.dk1 = bytes_or_hex("dk1", k)?;
    }
    if let Some(k) = dk2 {
        b.dk2 = bytes_or_hex("dk2", k)?;
    }
    run(py, Experiment::Boomerang(b), device, threads, (checkpoint, checkpoint_every), progress)
}

/// Counts pairs (P, P ^ dp) under (K, K ^ dk) whose output difference has
/// even parity under ``mask``: ``correlation`` = 2 hits / queries - 1, with
/// its exact interval ``correlation_ci95``.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, dp, mask, *, queries, dk=None, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false,
                    checkpoint=None, checkpoint_every=30.0, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn differential_linear(
    py: Python<'_>,
    cipher: &str,
    rounds: usize,
    dp: &Bound<'_, PyAny>,
    mask: &Bound<'_, PyAny>,
    queries: u64,
    dk: Option<&Bound<'_, PyAny>>,
    start_round: usize,
    tk_at: &str,
    key_every: u64,
    seed: u64,
    shard: (u64, u64),
    show: usize,
    device: &str,
    threads: Option<usize>,
    per_key: bool,
    checkpoint: Option<std::path::PathBuf>,
    checkpoint_every: f64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let mut d = DifferentialLinear::new(c, bytes_or_hex("dp", dp)?, bytes_or_hex("mask", mask)?);
    if let Some(dk) = dk {
        d.dk = bytes_or_hex("dk", dk)?;
    }
    run(py, Experiment::DifferentialLinear(d), device, threads, (checkpoint, checkpoint_every), progress)
}

/// Counts plaintexts P with parity(in_mask & P) == parity(out_mask & C),
/// C = E_K(P), one encryption a query: ``correlation`` = 2 hits / queries - 1
/// with its exact interval ``correlation_ci95``. ``key_every >= queries``
/// keeps one key (drawn from the seed) for the whole run: that key's
/// correlation; small ``key_every`` averages over fresh keys. Kept hits
/// (``right``) hold one P, C and K each. ``per_key=True`` adds the per-key
/// correlations (``Findings.per_key``: mean c and the mean of c^2 over keys,
/// each key's 1/Q bias removed), what the linear potential averaged over keys
/// needs.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, in_mask, out_mask, *, queries, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false,
                    checkpoint=None, checkpoint_every=30.0, progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn linear(
    py: Python<'_>,
    cipher: &str,
    rounds: usize,
    in_mask: &Bound<'_, PyAny>,
    out_mask: &Bound<'_, PyAny>,
    queries: u64,
    start_round: usize,
    tk_at: &str,
    key_every: u64,
    seed: u64,
    shard: (u64, u64),
    show: usize,
    device: &str,
    threads: Option<usize>,
    per_key: bool,
    checkpoint: Option<std::path::PathBuf>,
    checkpoint_every: f64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let l = Linear::new(c, bytes_or_hex("in_mask", in_mask)?, bytes_or_hex("out_mask", out_mask)?);
    run(py, Experiment::Linear(l), device, threads, (checkpoint, checkpoint_every), progress)
}

/// The differential of `dp` with `dc` and `cells` as given: with a pattern
/// and no `dc`, the bits compared default to none (`dc` and `dc_mask` zero);
/// otherwise as without a pattern (`dc_mask` all ones).
pub(crate) fn differential_of(
    c: Common,
    dp: Vec<u8>,
    dc: Option<&Bound<'_, PyAny>>,
    cells: Option<&str>,
) -> PyResultOf<Differential> {
    let cells = cells.map(|s| s.parse::<CellPattern>().map_err(|e| Error::input(format!("cells: {e}")))).transpose()?;
    let mut d = match (dc, cells) {
        (Some(dc), _) => Differential::new(c, dp, bytes_or_hex("dc", dc)?),
        (None, Some(p)) => Differential::truncated(c, dp, p),
        (None, None) => return Err(Error::input("differential: give dc, cells or both")),
    };
    d.cells = cells;
    Ok(d)
}
