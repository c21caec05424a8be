//! Per-key findings in Python: `Findings.per_key`, the keys' histogram (numpy
//! arrays) and its statistics, a read-only view of
//! `skinny_lab::KeyDistribution`.

use numpy::PyArray1;
use pyo3::prelude::*;
use skinny_lab::KeyDistribution;

/// How a per-key run's hits spread over its keys (`per_key=True`).
#[pyclass(name = "KeyDistribution", module = "skinny.lab", frozen)]
#[derive(Clone)]
pub struct PyKeyDistribution(pub KeyDistribution);

#[pymethods]
impl PyKeyDistribution {
    fn __repr__(&self) -> String {
        let d = &self.0;
        let p = d.dispersion_p_value.map_or("None".into(), |p| format!("{p:.3e}"));
        format!("KeyDistribution(keys={} queries_per_key={} dispersion_p_value={p})", d.keys, d.queries_per_key)
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.0 == other.0
    }

    /// Keys (complete key groups) counted.
    #[getter]
    fn keys(&self) -> u64 {
        self.0.keys
    }
    /// Queries each key had.
    #[getter]
    fn queries_per_key(&self) -> u64 {
        self.0.queries_per_key
    }
    /// `(hits, keys)`: two uint64 arrays, `keys[i]` keys having `hits[i]`
    /// hits, in increasing order of hits (counts of no keys left out).
    #[getter]
    fn histogram<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<u64>>) {
        let hits: Vec<u64> = self.0.histogram.iter().map(|&[h, _]| h).collect();
        let keys: Vec<u64> = self.0.histogram.iter().map(|&[_, k]| k).collect();
        (PyArray1::from_vec(py, hits), PyArray1::from_vec(py, keys))
    }
    /// The share of keys without a hit.
    #[getter]
    fn zero_hit_share(&self) -> Option<f64> {
        self.0.zero_hit_share
    }
    /// Its expectation with one probability for every key, (1 - p)^Q.
    #[getter]
    fn zero_hit_expected(&self) -> Option<f64> {
        self.0.zero_hit_expected
    }
    /// Mean hits per key.
    #[getter]
    fn mean_hits(&self) -> Option<f64> {
        self.0.mean_hits
    }
    /// Sample variance of the hits per key.
    #[getter]
    fn variance_hits(&self) -> Option<f64> {
        self.0.variance_hits
    }
    /// The dispersion statistic sum_k (h_k - Q p)^2 / (Q p (1 - p)); `None`
    /// when p is 0 or 1.
    #[getter]
    fn dispersion(&self) -> Option<f64> {
        self.0.dispersion
    }
    /// Its degrees of freedom, keys - 1.
    #[getter]
    fn dispersion_df(&self) -> u64 {
        self.0.dispersion_df
    }
    /// The chi-square upper-tail p-value of the dispersion statistic: small
    /// when the keys differ more than one probability explains.
    #[getter]
    fn dispersion_p_value(&self) -> Option<f64> {
        self.0.dispersion_p_value
    }
    /// Correlation experiments: the mean per-key correlation.
    #[getter]
    fn mean_correlation(&self) -> Option<f64> {
        self.0.mean_correlation
    }
    /// An approximate 95 % interval for the key-averaged probability that
    /// counts the spread between keys (normal, over keys; wants a few dozen
    /// keys); `None` with fewer than two keys.
    #[getter]
    fn probability_ci95_over_keys(&self) -> Option<(f64, f64)> {
        self.0.probability_ci95_over_keys.map(|[lo, hi]| (lo, hi))
    }
    /// Correlation experiments: the mean squared per-key correlation, each
    /// key's 1/Q bias removed.
    #[getter]
    fn mean_squared_correlation(&self) -> Option<f64> {
        self.0.mean_squared_correlation
    }
    /// Correlation experiments: an approximate 95 % interval over keys for
    /// the signed mean correlation; `None` with fewer than two keys.
    #[getter]
    fn mean_correlation_ci95(&self) -> Option<(f64, f64)> {
        self.0.mean_correlation_ci95.map(|[lo, hi]| (lo, hi))
    }
    /// Correlation experiments: the mean over keys of |c_k| (hadipourh's figure).
    #[getter]
    fn mean_abs_correlation(&self) -> Option<f64> {
        self.0.mean_abs_correlation
    }
    /// Correlation experiments: an approximate 95 % interval over keys for
    /// the mean |c_k|; `None` with fewer than two keys.
    #[getter]
    fn mean_abs_correlation_ci95(&self) -> Option<(f64, f64)> {
        self.0.mean_abs_correlation_ci95.map(|[lo, hi]| (lo, hi))
    }
}
