//! The lab of `skinny-lab`: what every experiment's function (in
//! `experiments.rs`) shares: the common parameters, the run on the CPU or
//! the GPU ([`run`], from and to a checkpoint), the findings it returns
//! ([`PyFindings`]: counts, log2 p, exact interval, right pairs, shard, per-key
//! distribution) and the exact merge of shards.
//!
//! A new kind of experiment is one more `#[pyfunction]` there that builds its
//! `skinny_lab::Experiment` and calls [`run`]; `Findings` and [`merge`] need
//! no change as long as the library's findings carry it.

mod checkpoint;
pub(crate) mod experiments;
pub mod keyrecovery;

use crate::common;
use crate::errors::{chain, Error, Kind, PyResultOf};
use checkpoint::Checkpointing;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};
use skinny_lab::{Common, Control, Experiment, Findings, Rig, Shard, TweakeyAt};
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) mod characteristic;

/// The version findings are stamped with: only findings of one version merge,
/// and the stamp is the library's (the CLI's too), so shards counted by the
/// CLI and by Python built from one commit merge with each other.
pub const VERSION: &str = skinny_lab::stamp::STAMP;

/// A difference or mask: bytes, or a string of hex digits.
pub(crate) fn bytes_or_hex(what: &str, obj: &Bound<'_, PyAny>) -> PyResultOf<Vec<u8>> {
    if let Ok(s) = obj.extract::<String>() {
        let s: String = s.chars().filter(|c| !c.is_whitespace() && *c != '_').collect();
        return hex_decode(&s).ok_or_else(|| Error::input(format!("{what}: not hex digits")));
    }
    obj.extract::<Vec<u8>>()
        .or_else(|_| obj.extract::<pyo3::pybacked::PyBackedBytes>().map(|b| b.to_vec()))
        .map_err(|_| Error::input(format!("{what} must be bytes or a hex string")))
}

fn hex_decode(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok()).collect()
}

/// `checkpoint=` and `checkpoint_every=`.
type CheckpointArgs = (Option<std::path::PathBuf>, f64);

/// Where the rounds run: the first round (from 1) and where tweakeys and
/// their differences are given (`"master"` or `"start"`).
type Place<'a> = (usize, &'a str);

/// The parameters every experiment shares, from Python's arguments.
#[allow(clippy::too_many_arguments)]
pub(crate) fn common(
    cipher: &str,
    rounds: usize,
    place: Place<'_>,
    queries: u64,
    key_every: u64,
    seed: u64,
    shard: (u64, u64),
    show: usize,
) -> PyResultOf<Common> {
    let v = common::variant(cipher)?;
    let mut c = Common::new(v, rounds, queries);
    c.start_round = place.0;
    c.tk_at = match place.1 {
        "master" => TweakeyAt::Master,
        "start" => TweakeyAt::Start,
        other => return Err(Error::input(format!("tk_at must be \"master\" or \"start\", not {other:?}"))),
    };
    c.key_every = key_every;
    c.seed = seed;
    c.shard = Shard::new(shard.0, shard.1).map_err(Error::from)?;
    c.show = show;
    Ok(c)
}

/// Runs `exp` on `device` without the GIL held, from and to a checkpoint
/// file where one is given; Ctrl-C raises `KeyboardInterrupt` within a batch;
/// `progress=` hears of the queries done.
pub(crate) fn run(
    py: Python<'_>,
    exp: Experiment,
    device: &str,
    threads: Option<usize>,
    ck: CheckpointArgs,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyFindings> {
    exp.check().map_err(Error::from)?;
    let placement = common::placement(common::device(device)?, threads)?;
    let ck = Checkpointing::of(ck.0, ck.1)?;
    let progress = common::Progress::of(py, progress, "queries", exp.name())?;
    // Ctrl-C stops the run at its next batch, as the CLI's does; a
    // checkpoint keeps what was counted, and the same call goes on from it.
    let control = Control::new();
    // The queries this call counts: the shard's, or what a checkpoint left.
    let planned = exp.common().shard_queries();
    let total = AtomicU64::new(planned.end - planned.start);
    let count = || (control.done(), total.load(Ordering::Relaxed));
    let findings = common::interruptible_with(
        py,
        &|| control.stop(),
        progress.as_ref().map(|p| (p, &count as common::Counter<'_>)),
        || -> PyResultOf<Findings> {
            let rig = Rig::open(&placement, exp.common()).map_err(Error::from)?;
            match &ck {
                Some(c) => checkpoint::run(&rig, exp, c, &control, VERSION, &total),
                None => rig.run(&exp, &control, VERSION).map_err(Error::from),
            }
        },
    )??;
    Ok(PyFindings(findings))
}

/// The exact merge of shards of one run.
#[pyfunction]
pub fn merge(parts: Vec<PyRef<'_, PyFindings>>) -> PyResult<PyFindings> {
    let parts: Vec<Findings> = parts.iter().map(|p| p.0.clone()).collect();
    Findings::merge(&parts, VERSION)
        .map(PyFindings)
        .map_err(|e| Error::new(Kind::Input, format!("cannot merge: {}", chain(&e))).into())
}

/// What a run found (one shard, or shards merged): the Python face of
/// `skinny_lab::Findings`.
#[pyclass(name = "Findings", module = "skinny.lab", frozen)]
#[derive(Clone)]
pub struct PyFindings(pub Findings);

#[pymethods]
impl PyFindings {
    /// Reads findings back from their JSON form (the CLI's `--json`).
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Self> {
        serde_json::from_str(text).map(PyFindings).map_err(|e| Error::input(format!("not findings: {e}")).into())
    }

    /// The JSON form, as the CLI writes it.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string_pretty(&self.0).map_err(|e| Error::failure(e.to_string()).into())
    }

    /// Pickling (for Ray, multiprocessing): through the JSON form.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let f = slf.getattr("from_json")?;
        Ok((f, (slf.get().to_json()?,)))
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.0 == other.0
    }

    fn __repr__(&self) -> String {
        let f = &self.0;
        let p = f.log2_p.map_or("-inf".to_string(), |l| format!("2^{l:.3}"));
        format!(
            "Findings({} {} rounds={} hits={}/{} p={} shard={} complete={} backend={})",
            f.experiment, f.cipher, f.rounds, f.hits, f.queries, p, f.shard, f.complete, f.backend
        )
    }

    #[getter]
    fn experiment(&self) -> &str {
        &self.0.experiment
    }
    #[getter]
    fn cipher(&self) -> &str {
        &self.0.cipher
    }
    #[getter]
    fn rounds(&self) -> usize {
        self.0.rounds
    }
    #[getter]
    fn start_round(&self) -> usize {
        self.0.start_round
    }
    #[getter]
    fn tk_at(&self) -> &str {
        &self.0.tk_at
    }
    /// The correlation 2 h / n - 1 (differential-linear, linear; `None` otherwise).
    #[getter]
    fn correlation(&self) -> Option<f64> {
        self.0.correlation
    }
    /// Its exact 95 % interval (differential-linear, linear; `None` otherwise).
    #[getter]
    fn correlation_ci95(&self) -> Option<(f64, f64)> {
        self.0.correlation_ci95.map(|[a, b]| (a, b))
    }
    #[getter]
    fn queries(&self) -> u64 {
        self.0.queries
    }
    #[getter]
    fn queries_total(&self) -> u64 {
        self.0.queries_total
    }
    #[getter]
    fn hits(&self) -> u64 {
        self.0.hits
    }
    #[getter]
    fn key_every(&self) -> u64 {
        self.0.key_every
    }
    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed
    }
    #[getter]
    fn shard(&self) -> &str {
        &self.0.shard
    }
    #[getter]
    fn shards(&self) -> Vec<u64> {
        self.0.shards.clone()
    }
    #[getter]
    fn complete(&self) -> bool {
        self.0.complete
    }
    #[getter]
    fn interrupted(&self) -> bool {
        self.0.interrupted
    }
    #[getter]
    fn log2_p(&self) -> Option<f64> {
        self.0.log2_p
    }
    /// The 95 % Clopper-Pearson interval in log2 (`None` for -inf).
    #[getter]
    fn ci95(&self) -> (Option<f64>, Option<f64>) {
        (self.0.ci95[0], self.0.ci95[1])
    }
    #[getter]
    fn seconds(&self) -> f64 {
        self.0.seconds
    }
    #[getter]
    fn rate_per_s(&self) -> f64 {
        self.0.rate_per_s
    }
    #[getter]
    fn backend(&self) -> &str {
        &self.0.backend
    }
    #[getter]
    fn version(&self) -> &str {
        &self.0.version
    }
    #[getter]
    fn threads(&self) -> Option<usize> {
        self.0.threads
    }
    /// The keys' histogram and its statistics (`per_key=True`; `None` otherwise).
    #[getter]
    fn per_key(&self) -> Option<crate::per_key::PyKeyDistribution> {
        self.0.per_key.clone().map(crate::per_key::PyKeyDistribution)
    }
    /// The differences and masks in hex, by name (`dp`, `dc`, `dk`, `dc_mask`,
    /// `dk1`, `dk2`, `mask`, `in_mask`, `out_mask`), and a differential's
    /// cell pattern (`cells`).
    #[getter]
    fn differences<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        let f = &self.0;
        d.set_item("dp", &f.dp)?;
        d.set_item("dc", &f.dc)?;
        for (name, v) in [
            ("dk", &f.dk),
            ("dc_mask", &f.dc_mask),
            ("dk1", &f.dk1),
            ("dk2", &f.dk2),
            ("mask", &f.mask),
            ("in_mask", &f.in_mask),
            ("out_mask", &f.out_mask),
            ("cells", &f.cells),
        ] {
            if let Some(v) = v {
                d.set_item(name, v)?;
            }
        }
        Ok(d)
    }
    /// The right pairs (quartets) kept: dicts of `query` and lists `p`, `c`, `k` of bytes.
    #[getter]
    fn right<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for w in &self.0.right {
            let d = PyDict::new(py);
            d.set_item("query", w.query)?;
            for (name, vals) in [("p", &w.p), ("c", &w.c), ("k", &w.k)] {
                let items: Vec<Bound<'py, PyBytes>> =
                    vals.iter().map(|h| PyBytes::new(py, &hex_decode(h).unwrap_or_default())).collect();
                d.set_item(name, items)?;
            }
            list.append(d)?;
        }
        Ok(list)
    }
}
