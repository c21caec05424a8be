//! The lab's experiments for Python, one function each (the arguments as the
//! stubs give them), and the cell pattern (truncated difference) that
//! `differential(cells=...)` takes; `lab.rs` has what they share (the common
//! parameters, the run, the findings).

use crate::errors::{Error, PyResultOf};
use crate::lab::{bytes_or_hex, common, run, PyFindings};
use pyo3::prelude::*;
use skinny_lab::{Boomerang, CellPattern, Common, Differential, DifferentialLinear, Experiment, Linear};

/// A differential experiment: see `skinny/_skinny.pyi`.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, dp, dc=None, *, queries, dk=None, dc_mask=None, cells=None, start_round=1,
                    tk_at="master", key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None,
                    per_key=false, checkpoint=None, checkpoint_every=30.0))]
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
    run(py, Experiment::Differential(d), device, threads, (checkpoint, checkpoint_every))
}

/// A boomerang experiment: see `skinny/_skinny.pyi`.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, dp, dc, *, queries, dk1=None, dk2=None, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false,
                    checkpoint=None, checkpoint_every=30.0))]
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
    run(py, Experiment::Boomerang(b), device, threads, (checkpoint, checkpoint_every))
}

/// A differential-linear experiment: see `skinny/_skinny.pyi`.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, dp, mask, *, queries, dk=None, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false,
                    checkpoint=None, checkpoint_every=30.0))]
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
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let mut d = DifferentialLinear::new(c, bytes_or_hex("dp", dp)?, bytes_or_hex("mask", mask)?);
    if let Some(dk) = dk {
        d.dk = bytes_or_hex("dk", dk)?;
    }
    run(py, Experiment::DifferentialLinear(d), device, threads, (checkpoint, checkpoint_every))
}

/// A linear experiment: see `skinny/_skinny.pyi`.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, in_mask, out_mask, *, queries, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false,
                    checkpoint=None, checkpoint_every=30.0))]
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
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let l = Linear::new(c, bytes_or_hex("in_mask", in_mask)?, bytes_or_hex("out_mask", out_mask)?);
    run(py, Experiment::Linear(l), device, threads, (checkpoint, checkpoint_every))
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
