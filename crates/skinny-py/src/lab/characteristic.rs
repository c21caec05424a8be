//! Characteristics in Python (`skinny.lab.characteristic`,
//! `linear_characteristic`, `tweakey_schedule`, `characteristic_experiment`):
//! `skinny_lab::characteristic` with its results as plain dicts of hex
//! strings and numbers. The experiment runs with the GIL released.

use crate::common;
use crate::errors::{Error, PyResultOf};
use crate::lab::bytes_or_hex;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use skinny_lab::characteristic::{
    CharacteristicExperiment, DifferentialCharacteristic, Evaluation, LinearCharacteristic,
};
use skinny_lab::{Control, TweakeyAt};

/// Bytes as lower-case hex digits.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn tk_at(name: &str) -> PyResultOf<TweakeyAt> {
    match name {
        "master" => Ok(TweakeyAt::Master),
        "start" => Ok(TweakeyAt::Start),
        other => Err(Error::input(format!("tk_at must be \"master\" or \"start\", not {other:?}"))),
    }
}

fn blocks(what: &str, list: &Bound<'_, PyAny>) -> PyResultOf<Vec<Vec<u8>>> {
    let items: Vec<Bound<'_, PyAny>> =
        list.extract().map_err(|_| Error::input(format!("{what} must be a list of bytes or hex strings")))?;
    items.iter().enumerate().map(|(i, x)| bytes_or_hex(&format!("{what}[{i}]"), x)).collect()
}

fn input<E: std::error::Error>(e: E) -> Error {
    Error::input(e.to_string())
}

/// The differential characteristic Python describes.
fn differential(
    cipher: &str,
    states: &Bound<'_, PyAny>,
    tweakey: Option<&Bound<'_, PyAny>>,
    start_round: usize,
    at: &str,
    round_tweakeys: Option<&Bound<'_, PyAny>>,
) -> PyResultOf<DifferentialCharacteristic> {
    let v = common::variant(cipher)?;
    let tweakey = match tweakey {
        Some(t) => bytes_or_hex("tweakey", t)?,
        None => vec![0; v.tweakey_bytes()],
    };
    let mut ch = DifferentialCharacteristic::new(v, blocks("states", states)?, tweakey);
    ch.start_round = start_round;
    ch.tk_at = tk_at(at)?;
    ch.round_tweakeys = round_tweakeys.map(|r| blocks("round_tweakeys", r)).transpose()?;
    ch.check().map_err(input)?;
    Ok(ch)
}

fn evaluation<'py>(py: Python<'py>, e: &Evaluation, key: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("log2", e.log2)?;
    d.set_item("exact", e.exact.as_ref().map(ToString::to_string))?;
    d.set_item(key, e.exact.as_ref().map_or(0.0, |x| x.to_f64()))?;
    let impossible = match &e.impossible {
        Some(i) => {
            let x = PyDict::new(py);
            x.set_item("round", i.round)?;
            x.set_item("cell", i.cell)?;
            x.set_item("reason", &i.reason)?;
            Some(x)
        }
        None => None,
    };
    d.set_item("impossible", impossible)?;
    let rounds = PyList::empty(py);
    for s in &e.steps {
        let r = PyDict::new(py);
        r.set_item("round", s.round)?;
        r.set_item("sbox_input", hex(&s.sbox_input))?;
        r.set_item("sbox_output", hex(&s.sbox_output))?;
        r.set_item("round_tweakey", hex(&s.round_tweakey))?;
        r.set_item("active", s.active)?;
        r.set_item("log2", s.log2)?;
        r.set_item("exact", s.exact.to_string())?;
        rounds.append(r)?;
    }
    d.set_item("rounds", rounds)?;
    Ok(d)
}

/// The exact probability of a differential characteristic from the DDT.
///
/// ``states`` are the r + 1 state differences (one block each, hex or
/// bytes, cells row by row, two cells a byte with the even one high for
/// SKINNY-64): before each of rounds start_round .. start_round + r - 1 and
/// after the last. ``tweakey`` is the TK1 || TK2 || TK3 difference (zero by
/// default) at the master tweakey or at the start round (``tk_at``); each
/// round's tweakey difference is derived by the schedule, and
/// ``round_tweakeys`` (half a block each), when given, are checked against
/// it. Returns a dict: ``log2`` (``None`` when impossible), ``exact`` (e.g.
/// ``"1/2^12"``), ``probability``, ``impossible`` (``None`` or ``{"round",
/// "cell", "reason"}``: the first round that cannot happen) and ``rounds``
/// (per round: ``sbox_input``, ``sbox_output``, ``round_tweakey`` in hex,
/// ``active``, ``log2``, ``exact``). Raises :class:`skinny.InputError` for
/// lengths or rounds out of range.
#[pyfunction]
#[pyo3(signature = (cipher, states, tweakey=None, *, start_round=1, tk_at="master", round_tweakeys=None))]
pub fn characteristic<'py>(
    py: Python<'py>,
    cipher: &str,
    states: &Bound<'py, PyAny>,
    tweakey: Option<&Bound<'py, PyAny>>,
    start_round: usize,
    tk_at: &str,
    round_tweakeys: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let ch = differential(cipher, states, tweakey, start_round, tk_at, round_tweakeys)?;
    let e = ch.evaluate().map_err(input)?;
    evaluation(py, &e, "probability")
}

/// The correlation of a linear characteristic from the LAT: ``masks``
/// are the r + 1 masks (before each round, after the last). Returns the
/// dict of :func:`characteristic` with ``correlation`` in place of
/// ``probability``: the product of the LAT entries, whose sign the key and
/// constant bits under the masks flip per key; ``log2`` is log2 |c|.
#[pyfunction]
#[pyo3(signature = (cipher, masks, *, start_round=1))]
pub fn linear_characteristic<'py>(
    py: Python<'py>,
    cipher: &str,
    masks: &Bound<'py, PyAny>,
    start_round: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let mut ch = LinearCharacteristic::new(common::variant(cipher)?, blocks("masks", masks)?);
    ch.start_round = start_round;
    let e = ch.evaluate().map_err(input)?;
    evaluation(py, &e, "correlation")
}

/// Every round's tweakey difference (the 8 cells of the first two rows,
/// half a block in hex) for rounds start_round .. start_round + rounds - 1,
/// from the tweakey difference ``tweakey`` through the tweakey schedule
/// (the cell permutation, the LFSRs on TK2 and TK3).
#[pyfunction]
#[pyo3(signature = (cipher, tweakey, rounds, *, start_round=1, tk_at="master"))]
pub fn tweakey_schedule(
    cipher: &str,
    tweakey: &Bound<'_, PyAny>,
    rounds: usize,
    start_round: usize,
    tk_at: &str,
) -> PyResult<Vec<String>> {
    let v = common::variant(cipher)?;
    if !(1..=v.rounds()).contains(&rounds) {
        return Err(Error::input(format!("rounds must be 1 to {} for {cipher}, not {rounds}", v.rounds())).into());
    }
    let states = vec![vec![0u8; v.block_bytes()]; rounds + 1];
    let mut ch = DifferentialCharacteristic::new(v, states, bytes_or_hex("tweakey", tweakey)?);
    ch.start_round = start_round;
    ch.tk_at = self::tk_at(tk_at)?;
    let derived = ch.derived_round_tweakeys().map_err(input)?;
    Ok(derived.iter().map(|d| hex(d)).collect())
}

/// Encrypts ``queries`` random pairs with the characteristic's input
/// difference under random keys (a fresh one every ``key_every`` pairs)
/// related by ``tweakey``, one round at a time on the CPU, and counts the
/// pairs that follow the characteristic through every round prefix.
/// Returns ``queries``, ``keys``, ``seconds`` and ``prefixes``: per prefix
/// ``rounds``, ``last_round``, ``pairs``, ``log2_p``, ``ci95`` (the exact
/// 95 % interval in log2, its lower end ``None`` without a pair),
/// ``predicted_log2`` (from the DDT; ``None`` from an impossible round on)
/// and ``agrees`` (the prediction inside the 1 - 10^-6 interval).
///
/// Ctrl-C stops the run at its next batch and raises ``KeyboardInterrupt``.
/// ``progress``: ``True`` for a tqdm bar, or a callable ``progress(done,
/// total)`` called a few times a second (its exception stops the run).
#[pyfunction]
#[pyo3(signature = (cipher, states, tweakey=None, *, queries, key_every=1, seed=0, start_round=1, tk_at="master", progress=None))]
#[allow(clippy::too_many_arguments)]
pub fn characteristic_experiment<'py>(
    py: Python<'py>,
    cipher: &str,
    states: &Bound<'py, PyAny>,
    tweakey: Option<&Bound<'py, PyAny>>,
    queries: u64,
    key_every: u64,
    seed: u64,
    start_round: usize,
    tk_at: &str,
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let characteristic = differential(cipher, states, tweakey, start_round, tk_at, None)?;
    let exp = CharacteristicExperiment { characteristic, queries, key_every, seed };
    let progress = common::Progress::of(py, progress, "pairs", "characteristic_experiment")?;
    let control = Control::new();
    let count = || (control.done(), queries);
    let counts = common::interruptible_with(
        py,
        &|| control.stop(),
        progress.as_ref().map(|p| (p, &count as common::Counter<'_>)),
        || exp.run_with(&control),
    )?
    .map_err(input)?;
    let d = PyDict::new(py);
    d.set_item("queries", counts.queries)?;
    d.set_item("keys", counts.keys)?;
    d.set_item("seconds", counts.seconds)?;
    let prefixes = PyList::empty(py);
    for p in &counts.prefixes {
        let x = PyDict::new(py);
        x.set_item("rounds", p.rounds)?;
        x.set_item("last_round", p.last_round)?;
        x.set_item("pairs", p.pairs)?;
        x.set_item("log2_p", p.estimate.log2_p)?;
        x.set_item("ci95", (p.estimate.log2_lower, p.estimate.log2_upper))?;
        x.set_item("predicted_log2", p.predicted_log2)?;
        x.set_item("agrees", p.agrees(counts.queries, 1e-6))?;
        prefixes.append(x)?;
    }
    d.set_item("prefixes", prefixes)?;
    Ok(d)
}
