//! The statistics of a [`KeyHistogram`]: what a report shows of a per-key
//! run. Every value is a function of the histogram alone, so merged findings
//! recompute them from the merged histogram and never trust a record's.

use super::KeyHistogram;
use crate::stats::chi_square_upper;

/// How a run's hits spread over its keys, against the model in which every
/// key has the key-averaged probability `p = hits / queries` (so each key's
/// hits are Binomial(Q, p), Q = `queries_per_key`).
///
/// Values that are undefined are `None` (never NaN): with no keys, nothing;
/// with `p` 0 or 1 the dispersion statistic (every key has the same hits,
/// and the binomial variance is 0); with one key its p-value.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(expecting = "struct PerKey"))]
pub struct KeyDistribution {
    /// Keys (complete key groups) counted.
    pub keys: u64,
    /// Queries each key had (the run's `key_every`).
    pub queries_per_key: u64,
    /// `[hits, keys]`: how many keys had each number of hits, in increasing
    /// order of hits, entries of no keys left out.
    pub histogram: Vec<[u64; 2]>,
    /// The share of keys without a hit.
    #[cfg_attr(feature = "serde", serde(default))]
    pub zero_hit_share: Option<f64>,
    /// That share's expectation under the averaged model, `(1 - p)^Q`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub zero_hit_expected: Option<f64>,
    /// Mean hits per key, `Q p`.
    #[cfg_attr(feature = "serde", serde(default))]
    pub mean_hits: Option<f64>,
    /// The sample variance of the hits per key (divisor `keys - 1`; the
    /// averaged model expects `Q p (1 - p)`).
    #[cfg_attr(feature = "serde", serde(default))]
    pub variance_hits: Option<f64>,
    /// The dispersion statistic `Σ_k (h_k - Q p)² / (Q p (1 - p))`, about
    /// chi-square with `keys - 1` degrees of freedom under the averaged model
    /// (for `Q p (1 - p)` not too small); `None` for `p` 0 or 1.
    #[cfg_attr(feature = "serde", serde(default))]
    pub dispersion: Option<f64>,
    /// Its degrees of freedom, `keys - 1` (0 with at most one key).
    #[cfg_attr(feature = "serde", serde(default))]
    pub dispersion_df: u64,
    /// The statistic's upper-tail probability under chi-square(`keys - 1`):
    /// small when the keys differ more than one probability explains.
    #[cfg_attr(feature = "serde", serde(default))]
    pub dispersion_p_value: Option<f64>,
    /// An approximate 95 % interval for the key-averaged probability that
    /// counts the spread between keys: `p ± 1.96 s / (Q √K)`, `s²` the
    /// sample variance of the hits per key (the keys as independent
    /// clusters; the normal approximation wants a few dozen keys or more),
    /// clipped to [0, 1]. Where keys differ, the run's exact binomial
    /// interval, which takes every query as independent, is too narrow and
    /// can miss the true average; this one widens with the keys' spread.
    /// `None` with fewer than two keys.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub probability_ci95_over_keys: Option<[f64; 2]>,
    /// Correlation experiments: the mean over keys of `c_k = 2 h_k / Q - 1`
    /// (equal to the run's correlation, the keys being of equal size).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mean_correlation: Option<f64>,
    /// Correlation experiments: the mean over keys of `c_k²` with each key's
    /// finite-sample bias removed, `(Q ĉ_k² - 1) / (Q - 1)` (as
    /// `E[ĉ²] = c² + (1 - c²) / Q`): an unbiased estimate of the mean squared
    /// correlation (the linear potential's key average). `None` for `Q = 1`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mean_squared_correlation: Option<f64>,
    /// Correlation experiments: an approximate 95 % interval for
    /// [`Self::mean_correlation`] (the signed key average) that counts the
    /// spread between keys, `mean ± 1.96 s / √K` with `s` the sample
    /// standard deviation of the `c_k` (keys as independent clusters, normal
    /// approximation), clipped to [-1, 1]. `None` with fewer than two keys.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mean_correlation_ci95: Option<[f64; 2]>,
    /// Correlation experiments: the mean over keys of `|c_k|`, the figure
    /// hadipourh's tools report (`Σ_k |#even − #odd| / all pairs`). Unlike the
    /// signed average it does not cancel keys of opposite sign; each `|ĉ_k|`
    /// is biased upwards by the sampling noise (about `√(2 / (π Q))` where
    /// `c_k` is near 0), so it measures `|c|` only where `|c_k| ≫ 1/√Q`.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mean_abs_correlation: Option<f64>,
    /// Correlation experiments: an approximate 95 % interval for
    /// [`Self::mean_abs_correlation`] over keys, `mean ± 1.96 s / √K` with `s`
    /// the sample standard deviation of the `|c_k|`, clipped to [0, 1]. `None`
    /// with fewer than two keys.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mean_abs_correlation_ci95: Option<[f64; 2]>,
}

impl KeyDistribution {
    /// The statistics of `h`; `correlation` adds the per-key correlations'.
    pub(crate) fn of(h: &KeyHistogram, correlation: bool) -> Self {
        let q = h.queries_per_key();
        let keys = h.keys().unwrap_or(u64::MAX);
        let mut d = KeyDistribution {
            keys,
            queries_per_key: q,
            histogram: h.pairs(),
            zero_hit_share: None,
            zero_hit_expected: None,
            mean_hits: None,
            variance_hits: None,
            dispersion: None,
            dispersion_df: keys.saturating_sub(1),
            dispersion_p_value: None,
            probability_ci95_over_keys: None,
            mean_correlation: None,
            mean_squared_correlation: None,
            mean_correlation_ci95: None,
            mean_abs_correlation: None,
            mean_abs_correlation_ci95: None,
        };
        if keys == 0 || q == 0 {
            return d;
        }
        let k = keys as f64;
        // Sums in integers where they are exact: hits and queries as u128.
        let hits: u128 = h.entries().map(|(x, n)| u128::from(x) * u128::from(n)).sum();
        let queries = u128::from(keys) * u128::from(q);
        let mean = hits as f64 / k;
        let p = hits as f64 / queries as f64;
        // 1 - p from the misses, so that p near 1 keeps its digits.
        let miss = (queries - hits) as f64 / queries as f64;
        let zero_keys = h.entries().find(|&(x, _)| x == 0).map_or(0, |(_, n)| n);
        d.zero_hit_share = Some(zero_keys as f64 / k);
        d.zero_hit_expected = Some(if hits == queries { 0.0 } else { (q as f64 * (-p).ln_1p()).exp() });
        d.mean_hits = Some(mean);
        // Squares about the mean, weighted by the keys of each entry.
        let squares: f64 = h
            .entries()
            .map(|(x, n)| {
                let dev = x as f64 - mean;
                n as f64 * dev * dev
            })
            .sum();
        if keys >= 2 {
            let variance = squares / (k - 1.0);
            d.variance_hits = Some(variance);
            let half = 1.96 * variance.sqrt() / (q as f64 * k.sqrt());
            d.probability_ci95_over_keys = Some([(p - half).max(0.0), (p + half).min(1.0)]);
        }
        if hits != 0 && hits != queries {
            let stat = squares / (q as f64 * p * miss);
            d.dispersion = Some(stat);
            d.dispersion_p_value = chi_square_upper(stat, keys - 1);
        }
        if correlation {
            let qf = q as f64;
            // 2h - Q exactly, then as a float.
            let c = |x: u64| (2 * i128::from(x) - i128::from(q)) as f64 / qf;
            let mean_c = h.entries().map(|(x, n)| n as f64 * c(x)).sum::<f64>() / k;
            d.mean_correlation = Some(mean_c);
            let mean_abs = h.entries().map(|(x, n)| n as f64 * c(x).abs()).sum::<f64>() / k;
            d.mean_abs_correlation = Some(mean_abs);
            if keys >= 2 {
                // The spread of f(c_k) over keys: a normal interval for its mean.
                let interval = |f: &dyn Fn(u64) -> f64, mean: f64, lo: f64| {
                    let squares: f64 = h.entries().map(|(x, n)| n as f64 * (f(x) - mean).powi(2)).sum();
                    let half = 1.96 * (squares / (k - 1.0)).sqrt() / k.sqrt();
                    [(mean - half).max(lo), (mean + half).min(1.0)]
                };
                d.mean_correlation_ci95 = Some(interval(&c, mean_c, -1.0));
                d.mean_abs_correlation_ci95 = Some(interval(&|x| c(x).abs(), mean_abs, 0.0));
            }
            if q >= 2 {
                let unbiased = |x: u64| (qf * c(x) * c(x) - 1.0) / (qf - 1.0);
                d.mean_squared_correlation = Some(h.entries().map(|(x, n)| n as f64 * unbiased(x)).sum::<f64>() / k);
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(q: u64, pairs: &[[u64; 2]]) -> KeyHistogram {
        KeyHistogram::from_pairs(q, pairs).expect("valid")
    }

    fn close(a: Option<f64>, b: f64) -> bool {
        a.is_some_and(|a| (a - b).abs() <= 1e-12 * b.abs().max(1.0))
    }

    #[test]
    fn two_keys_by_hand() {
        // Q = 2, one key with 0 hits and one with 2: p = 1/2, mean 1,
        // squares 2, Q p (1 - p) = 1/2, statistic 4 on 1 degree of freedom,
        // whose tail is erfc(sqrt 2).
        let d = hist(2, &[[0, 1], [2, 1]]).distribution(true);
        assert_eq!((d.keys, d.queries_per_key, d.dispersion_df), (2, 2, 1));
        assert!(close(d.zero_hit_share, 0.5) && close(d.zero_hit_expected, 0.25));
        assert!(close(d.mean_hits, 1.0) && close(d.variance_hits, 2.0) && close(d.dispersion, 4.0));
        assert!(close(d.dispersion_p_value, 0.045_500_263_896_358_41), "{:?}", d.dispersion_p_value);
        // c = -1 and 1: mean 0; (2 * 1 - 1) / 1 = 1 each.
        assert!(close(d.mean_correlation, 0.0) && close(d.mean_squared_correlation, 1.0));
        // s = √2, Q = 2, K = 2: half-width 1.96 √2 / (2 √2) = 0.98 about 1/2, clipped.
        assert_eq!(d.probability_ci95_over_keys, Some([0.0, 1.0]));
        assert_eq!(hist(2, &[[0, 1], [2, 1]]).distribution(false).mean_correlation, None);
        // |c| = 1 for both keys: mean 1 with no spread; the signed c_k = -1, 1
        // have s = √2: 0 ± 1.96 √2 / √2, clipped.
        assert!(close(d.mean_abs_correlation, 1.0));
        assert_eq!(d.mean_abs_correlation_ci95, Some([1.0, 1.0]));
        assert_eq!(d.mean_correlation_ci95, Some([-1.0, 1.0]));
    }

    #[test]
    fn undefined_is_none() {
        let empty = KeyHistogram::new(8).distribution(true);
        assert_eq!((empty.keys, empty.zero_hit_share, empty.mean_hits, empty.dispersion), (0, None, None, None));
        // p = 0 and p = 1: no statistic, but the rest.
        let none = hist(8, &[[0, 5]]).distribution(false);
        assert_eq!((none.dispersion, none.dispersion_p_value), (None, None));
        assert!(
            close(none.zero_hit_share, 1.0) && close(none.zero_hit_expected, 1.0) && close(none.variance_hits, 0.0)
        );
        let all = hist(8, &[[8, 5]]).distribution(true);
        assert_eq!((all.dispersion, all.zero_hit_expected), (None, Some(0.0)));
        assert!(close(all.mean_correlation, 1.0) && close(all.mean_squared_correlation, 1.0));
        // One key: a statistic of 0 but no degrees of freedom.
        let one = hist(8, &[[3, 1]]).distribution(true);
        assert_eq!(
            (one.dispersion, one.dispersion_df, one.dispersion_p_value, one.variance_hits),
            (Some(0.0), 0, None, None)
        );
        assert_eq!(one.probability_ci95_over_keys, None);
        assert_eq!((one.mean_correlation_ci95, one.mean_abs_correlation_ci95), (None, None));
        assert!(close(one.mean_abs_correlation, 0.25));
        // Q = 1: no unbiased square.
        assert_eq!(hist(1, &[[0, 3], [1, 2]]).distribution(true).mean_squared_correlation, None);
    }

    #[test]
    fn unbiased_square_of_a_fixed_correlation() {
        // Keys whose hits are exactly the binomial expectations of c = 0.5,
        // Q = 4 (p = 3/4): the weights of Binomial(4, 3/4) times 256, so the
        // unbiased mean square is c² = 0.25 exactly.
        let d = hist(4, &[[0, 1], [1, 12], [2, 54], [3, 108], [4, 81]]).distribution(true);
        assert!(close(d.mean_correlation, 0.5) && close(d.mean_squared_correlation, 0.25), "{d:?}");
        // The squares about the mean 3 are 192 = 256 * Q p (1 - p): the
        // statistic is 256 (its expectation, the degrees of freedom, 255).
        assert!(close(d.dispersion, 256.0), "{:?}", d.dispersion);
        // s² = 192 / 255, Q = 4, K = 256: 3/4 ± 1.96 s / 64.
        let half = 1.96 * (192.0f64 / 255.0).sqrt() / 64.0;
        let [lo, hi] = d.probability_ci95_over_keys.unwrap();
        assert!((lo - (0.75 - half)).abs() < 1e-12 && (hi - (0.75 + half)).abs() < 1e-12, "{lo} {hi}");
    }

    #[test]
    fn signed_and_absolute_key_averages() {
        // Q = 8: 3 keys at c = +0.5 (6 hits), 1 key at c = -0.5 (2 hits).
        // Signed mean 0.25, mean |c| 0.5 (no spread: an interval of one point).
        let d = hist(8, &[[2, 1], [6, 3]]).distribution(true);
        assert!(close(d.mean_correlation, 0.25) && close(d.mean_abs_correlation, 0.5), "{d:?}");
        assert_eq!(d.mean_abs_correlation_ci95, Some([0.5, 0.5]));
        // c_k - 0.25 = 0.25 (x3), -0.75: squares 0.75, s² = 0.25, half-width 1.96 * 0.5 / 2.
        let [lo, hi] = d.mean_correlation_ci95.unwrap();
        assert!((lo - (0.25 - 0.49)).abs() < 1e-12 && (hi - (0.25 + 0.49)).abs() < 1e-12, "{lo} {hi}");
        // Keys of opposite signs cancel in the signed average only.
        let d = hist(8, &[[0, 2], [8, 2]]).distribution(true);
        assert!(close(d.mean_correlation, 0.0) && close(d.mean_abs_correlation, 1.0));
    }
}
