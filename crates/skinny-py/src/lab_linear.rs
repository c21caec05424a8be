//! The lab's linear experiment for Python, and the cell pattern (truncated
//! difference) that `differential(cells=...)` takes: kept apart from
//! `lab.rs`, which they extend.

use crate::errors::{Error, PyResultOf};
use crate::lab::{bytes_or_hex, common, run, PyFindings};
use pyo3::prelude::*;
use skinny_lab::{CellPattern, Common, Differential, Experiment, Linear};

/// A linear experiment: see `skinny/_skinny.pyi`.
#[pyfunction]
#[pyo3(signature = (cipher, rounds, in_mask, out_mask, *, queries, start_round=1, tk_at="master",
                    key_every=4096, seed=0, shard=(0, 1), show=0, device="cpu", threads=None, per_key=false))]
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
) -> PyResult<PyFindings> {
    let mut c = common(cipher, rounds, (start_round, tk_at), queries, key_every, seed, shard, show)?;
    c.per_key = per_key;
    let l = Linear::new(c, bytes_or_hex("in_mask", in_mask)?, bytes_or_hex("out_mask", out_mask)?);
    run(py, Experiment::Linear(l), device, threads)
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
