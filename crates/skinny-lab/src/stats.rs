//! The estimate of a probability from a count, with the exact binomial
//! (Clopper-Pearson) confidence interval, all in log2.
//!
//! The interval's ends are quantiles of beta distributions: with `x` hits in
//! `n` trials and level `1 - alpha`, the lower end is the `alpha/2` quantile of
//! Beta(x, n - x + 1) and the upper end the `1 - alpha/2` quantile of
//! Beta(x + 1, n - x). The beta CDF is the regularized incomplete beta function
//! I_z(a, b), evaluated here with its continued fraction and inverted by
//! bisection.
//!
//! The per-key dispersion test's p-value is a chi-square upper tail
//! ([`chi_square_upper`], the regularized incomplete gamma function).

mod chi_square;

pub use chi_square::{chi_square_upper, reg_lower_gamma, reg_upper_gamma};

/// An estimate of p = hits / queries with a two-sided confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// log2(hits / queries); `None` when there are no hits (log2 0 = -inf).
    pub log2_p: Option<f64>,
    /// The interval's lower end in log2; `None` (-inf) when there are no hits.
    pub log2_lower: Option<f64>,
    /// The interval's upper end in log2 (0 when every query hit).
    pub log2_upper: f64,
}

/// The point estimate and the 95 % Clopper-Pearson interval of `hits` in
/// `queries` trials. With `queries == 0` nothing is known: the interval is all
/// of [0, 1] and there is no estimate.
pub fn estimate(hits: u64, queries: u64) -> Estimate {
    estimate_at(hits, queries, 0.05)
}

/// [`estimate`] at level `1 - alpha` (0 < alpha < 1).
pub fn estimate_at(hits: u64, queries: u64, alpha: f64) -> Estimate {
    assert!(hits <= queries, "more hits than queries");
    assert!(alpha > 0.0 && alpha < 1.0, "alpha in (0, 1)");
    if queries == 0 {
        return Estimate { log2_p: None, log2_lower: None, log2_upper: 0.0 };
    }
    let (lo, hi) = clopper_pearson(hits, queries, alpha);
    let log2_p = (hits > 0).then(|| (hits as f64).log2() - (queries as f64).log2());
    Estimate { log2_p, log2_lower: (lo > 0.0).then(|| lo.log2()), log2_upper: hi.log2() }
}

/// An estimate of a correlation `c = 2p - 1` from `hits` (pairs of even
/// parity, probability `p`) in `queries`, with a two-sided interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Correlation {
    /// `2 hits / queries - 1`; `None` with no queries.
    pub correlation: Option<f64>,
    /// The interval's ends, `2 lo - 1` and `2 hi - 1` for the Clopper-Pearson
    /// interval `[lo, hi]` of `p`: exact, as the map is monotone.
    pub interval: [f64; 2],
    /// log2 of the correlation's magnitude; `None` when it is 0 (or unknown).
    pub log2_abs: Option<f64>,
}

/// The correlation estimated from `hits` of even parity in `queries`, with
/// the 95 % interval mapped from the exact binomial one of `hits / queries`.
pub fn correlation(hits: u64, queries: u64) -> Correlation {
    assert!(hits <= queries, "more hits than queries");
    if queries == 0 {
        return Correlation { correlation: None, interval: [-1.0, 1.0], log2_abs: None };
    }
    let (lo, hi) = clopper_pearson(hits, queries, 0.05);
    // 2h - n exactly in integers, so that a tiny correlation keeps its digits.
    let excess = 2 * i128::from(hits) - i128::from(queries);
    let c = excess as f64 / queries as f64;
    let log2_abs = (excess != 0).then(|| (excess.unsigned_abs() as f64).log2() - (queries as f64).log2());
    Correlation { correlation: Some(c), interval: [2.0 * lo - 1.0, 2.0 * hi - 1.0], log2_abs }
}

/// The Clopper-Pearson interval as probabilities.
pub fn clopper_pearson(hits: u64, queries: u64, alpha: f64) -> (f64, f64) {
    let x = hits as f64;
    let n = queries as f64;
    let lower = if hits == 0 { 0.0 } else { beta_quantile(alpha / 2.0, x, n - x + 1.0) };
    let upper = if hits == queries { 1.0 } else { beta_quantile(1.0 - alpha / 2.0, x + 1.0, n - x) };
    (lower, upper)
}

/// The `q` quantile of Beta(a, b): the z with I_z(a, b) = q, by bisection (the
/// CDF increases with z). Bisection on [0, 1] halves the bracket each step; 1100
/// steps would reach the smallest subnormal, so the loop stops when the midpoint
/// no longer moves, which keeps full relative precision for tiny quantiles
/// such as 2^-40.
pub fn beta_quantile(q: f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    loop {
        // Bisect in the geometric sense once the bracket spans many orders of
        // magnitude (lo > 0), so small quantiles need tens of steps, not hundreds.
        let mid = if lo > 0.0 && hi / lo > 4.0 { (lo * hi).sqrt() } else { 0.5 * (lo + hi) };
        let mid = if lo == 0.0 && hi > 1e-300 && hi < 0.25 { hi / 16.0 } else { mid };
        if mid <= lo || mid >= hi {
            return 0.5 * (lo + hi);
        }
        if reg_inc_beta(mid, a, b) < q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
}

/// The regularized incomplete beta function I_z(a, b) for a, b > 0, 0 <= z <= 1.
///
/// I_z(a, b) = z^a (1-z)^b / (a B(a, b)) * 1 / (1 + d1 / (1 + d2 / (1 + ...)))
/// with d_{2m+1} = -(a+m)(a+b+m) z / ((a+2m)(a+2m+1)) and
/// d_{2m} = m(b-m) z / ((a+2m-1)(a+2m)). The fraction converges fast for
/// z < (a+1)/(a+b+2); above that the symmetry I_z(a, b) = 1 - I_{1-z}(b, a)
/// is used instead.
pub fn reg_inc_beta(z: f64, a: f64, b: f64) -> f64 {
    assert!(a > 0.0 && b > 0.0, "a, b > 0");
    if z <= 0.0 {
        return 0.0;
    }
    if z >= 1.0 {
        return 1.0;
    }
    // The prefactor z^a (1-z)^b / B(a, b), in logs (the powers under- or
    // overflow for large a, b), always from z itself: 1 - z would round away
    // the low digits of a tiny z, which are all there is to a quantile such as
    // 3.7 / 2^40.
    let ln_front = a * z.ln() + b * (-z).ln_1p() - ln_beta(a, b);
    // Above the mean, (a+1)/(a+b+2), the fraction converges slowly (and, in
    // floating point, to nonsense) and the symmetry is used, whose fraction runs
    // on 1 - z. For a tiny z (few hits in 2^40 queries) 1 - z has lost most of
    // z's digits. With whole a and b (every Clopper-Pearson call) and a small
    // a, the complement is a short binomial sum in z itself instead.
    if z > (a + 1.0) / (a + b + 2.0) {
        if a.fract() == 0.0 && b.fract() == 0.0 && a <= SUM_MAX_A {
            1.0 - binomial_cdf(a as u64 - 1, a + b - 1.0, z)
        } else {
            1.0 - ln_front.exp() / b * continued_fraction(1.0 - z, b, a)
        }
    } else {
        ln_front.exp() / a * continued_fraction(z, a, b)
    }
}

/// The largest `a` for which [`reg_inc_beta`] sums binomial terms (one term per
/// unit of `a`, per bisection step).
const SUM_MAX_A: f64 = 10_000.0;

/// P(X <= k) for X ~ Binomial(n, z) with k < n: the identity
/// 1 - I_z(k + 1, n - k) = P(X <= k), summed term by term in logs
/// (C(n, j) z^j (1-z)^(n-j) underflows for large n), largest term first.
fn binomial_cdf(k: u64, n: f64, z: f64) -> f64 {
    let ln_z = z.ln();
    let ln_1z = (-z).ln_1p();
    // ln C(n, j) = ln Γ(n+1) - ln Γ(j+1) - ln Γ(n-j+1), with the first and last
    // as one stable difference.
    let ln_term = |j: f64| -(ln_gamma_diff(n - j + 1.0, j)) - ln_gamma(j + 1.0) + j * ln_z + (n - j) * ln_1z;
    let terms: Vec<f64> = (0..=k).map(|j| ln_term(j as f64)).collect();
    let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - top).exp()).sum();
    (top + sum.ln()).exp().min(1.0)
}

/// 1 / (1 + d1 / (1 + d2 / ...)) by the modified Lentz method: the convergents
/// are built front to back as products C_k D_k, with tiny values standing in
/// for zeros so no step divides by zero.
fn continued_fraction(z: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-15;
    // Terms needed grow like sqrt(max(a, b)) near the mean: this bound covers
    // counts far beyond 2^64 trials, and only stops a runaway loop.
    const MAX_PAIRS: u64 = 100_000_000;
    // h = 1 + d1 / (1 + d2 / ...) as the product of the convergent ratios
    // c_k * e_k (c_k = h_k / h_{k-1} numerators, e_k denominators); the result
    // is 1 / h.
    let mut h = 1.0f64;
    let mut c = 1.0f64;
    let mut e = 0.0f64;
    let mut term = |num: f64| -> f64 {
        e = 1.0 + num * e;
        if e.abs() < TINY {
            e = TINY;
        }
        c = 1.0 + num / c;
        if c.abs() < TINY {
            c = TINY;
        }
        e = 1.0 / e;
        let delta = c * e;
        h *= delta;
        delta
    };
    for m in 0..MAX_PAIRS {
        let m = m as f64;
        let odd = -(a + m) * (a + b + m) * z / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        let d_odd = term(odd);
        let m1 = m + 1.0;
        let even = m1 * (b - m1) * z / ((a + 2.0 * m1 - 1.0) * (a + 2.0 * m1));
        let d_even = term(even);
        if (d_odd - 1.0).abs() < EPS && (d_even - 1.0).abs() < EPS {
            break;
        }
    }
    1.0 / h
}

/// ln B(a, b) = ln Γ(a) + ln Γ(b) - ln Γ(a + b), with the last two taken as one
/// difference when the larger argument is big: there ln Γ(b) and ln Γ(a + b)
/// are both near b ln b (about 3e13 for b = 2^40) and subtracting them would
/// lose a few decimal digits of a result of order a ln b.
pub fn ln_beta(a: f64, b: f64) -> f64 {
    let (small, large) = if a <= b { (a, b) } else { (b, a) };
    ln_gamma(small) + ln_gamma_diff(large, small)
}

/// ln Γ(x) - ln Γ(x + s) for x >= s > 0.
fn ln_gamma_diff(x: f64, s: f64) -> f64 {
    if x < 16.0 {
        return ln_gamma(x) - ln_gamma(x + s);
    }
    // Stirling: ln Γ(y) = (y - 1/2) ln y - y + ln(2π)/2 + series(y). The
    // difference of the leading terms, rearranged with ln_1p so that nothing
    // large cancels: -s ln(x + s) - (x - 1/2) ln(1 + s/x) + s.
    let y = x + s;
    -s * y.ln() - (x - 0.5) * (s / x).ln_1p() + s + stirling_series(x) - stirling_series(y)
}

/// ln Γ(x) for x > 0: Stirling's series after raising the argument above 16
/// with Γ(x) = Γ(x + k) / (x (x+1) ... (x+k-1)).
pub fn ln_gamma(x: f64) -> f64 {
    assert!(x > 0.0, "ln_gamma of a positive number");
    let mut shift = 0.0;
    let mut y = x;
    while y < 16.0 {
        shift += y.ln();
        y += 1.0;
    }
    (y - 0.5) * y.ln() - y + 0.5 * (2.0 * core::f64::consts::PI).ln() + stirling_series(y) - shift
}

/// The tail of Stirling's series for ln Γ, 1/(12y) - 1/(360y^3) + ..., whose
/// terms with y >= 16 are below 1e-17 after the fifth.
pub(crate) fn stirling_series(y: f64) -> f64 {
    let r = 1.0 / y;
    let r2 = r * r;
    r * (1.0 / 12.0 - r2 * (1.0 / 360.0 - r2 * (1.0 / 1260.0 - r2 * (1.0 / 1680.0 - r2 * (1.0 / 1188.0)))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn ln_gamma_known_values() {
        // Γ(1) = Γ(2) = 1, Γ(5) = 24, Γ(1/2) = sqrt(π), Γ(100) = 99!.
        assert!(close(ln_gamma(1.0), 0.0, 1e-14));
        assert!(close(ln_gamma(2.0), 0.0, 1e-14));
        assert!(close(ln_gamma(5.0), 24f64.ln(), 1e-13));
        assert!(close(ln_gamma(0.5), core::f64::consts::PI.sqrt().ln(), 1e-14));
        assert!(close(ln_gamma(100.0), 359.134_205_369_575_4, 1e-10));
    }

    #[test]
    fn incomplete_beta_known_values() {
        // I_z(1, 1) = z; I_z(a, 1) = z^a; I_z(1, b) = 1 - (1 - z)^b.
        assert!(close(reg_inc_beta(0.3, 1.0, 1.0), 0.3, 1e-14));
        assert!(close(reg_inc_beta(0.3, 4.0, 1.0), 0.3f64.powi(4), 1e-14));
        assert!(close(reg_inc_beta(0.3, 1.0, 7.0), 1.0 - 0.7f64.powi(7), 1e-14));
        // The binomial link: P(X >= 3) for X ~ Bin(10, 0.2) = I_0.2(3, 8) = 0.3222004736.
        assert!(close(reg_inc_beta(0.2, 3.0, 8.0), 0.322_200_473_6, 1e-10));
        // Symmetric case: I_0.5(a, a) = 1/2.
        assert!(close(reg_inc_beta(0.5, 37.0, 37.0), 0.5, 1e-12));
    }

    #[test]
    fn clopper_pearson_known_values() {
        // Zero hits in 10: the upper end is 1 - 0.025^(1/10) = 0.308497.
        let (lo, hi) = clopper_pearson(0, 10, 0.05);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 1.0 - 0.025f64.powf(0.1), 1e-9), "{hi}");
        assert!(close(hi, 0.3085, 1e-4));
        // 5 in 10: [0.1871, 0.8129] (symmetric).
        let (lo, hi) = clopper_pearson(5, 10, 0.05);
        assert!(close(lo, 0.187_086, 1e-5), "{lo}");
        assert!(close(hi, 0.812_914, 1e-5), "{hi}");
        // All 10: the mirror of zero hits.
        let (lo, hi) = clopper_pearson(10, 10, 0.05);
        assert!(close(lo, 0.025f64.powf(0.1), 1e-9));
        assert_eq!(hi, 1.0);
    }

    #[test]
    fn large_n_is_sane() {
        // 100 hits in 2^40: p = 100 / 2^40; the exact interval is close to the
        // Poisson one for a count of 100, [81.37, 121.63] / 2^40.
        let n = 1u64 << 40;
        let (lo, hi) = clopper_pearson(100, n, 0.05);
        let scale = n as f64;
        assert!(close(lo * scale, 81.364, 0.01), "{}", lo * scale);
        assert!(close(hi * scale, 121.627, 0.01), "{}", hi * scale);
        let e = estimate(100, n);
        let p = e.log2_p.unwrap();
        assert!(close(p, 100f64.log2() - 40.0, 1e-12));
        assert!(e.log2_lower.unwrap() < p && p < e.log2_upper);
        // Zero hits in 2^40: the upper end is about 3.689 / 2^40 (-ln 0.025).
        let e = estimate(0, n);
        assert_eq!(e.log2_p, None);
        assert_eq!(e.log2_lower, None);
        // log2(1 - 0.025^(1/2^40)), computed elsewhere to 1e-12.
        assert!(close(e.log2_upper, -38.116_817_354_855, 1e-9), "{}", e.log2_upper);
    }

    #[test]
    fn interval_contains_estimate() {
        for (x, n) in [(1u64, 1u64), (1, 2), (3, 1000), (999, 1000), (17, 1 << 20), (12345, 1 << 30)] {
            let (lo, hi) = clopper_pearson(x, n, 0.05);
            let p = x as f64 / n as f64;
            assert!(lo < p && p <= hi, "{x}/{n}: {lo} {p} {hi}");
            // The tails at the ends are 2.5 % each.
            if x > 0 {
                assert!(close(1.0 - reg_inc_beta(lo, x as f64, (n - x) as f64 + 1.0), 0.975, 1e-9));
            }
            if x < n {
                assert!(close(reg_inc_beta(hi, x as f64 + 1.0, (n - x) as f64), 0.975, 1e-9));
            }
        }
    }

    #[test]
    fn no_seam_at_the_binomial_sum_limit() {
        // The upper end for 9999, 10000 and 10001 hits in 2^40 (the sum below,
        // the fraction above): near the normal approximation's
        // p (1 ± 1.96 / sqrt(x)) and evenly spaced.
        let n = 1u64 << 40;
        let ends: Vec<f64> = (9999..=10001).map(|x| clopper_pearson(x, n, 0.05).1 * n as f64).collect();
        assert!(close(ends[1], 10_000.0 + 1.96 * 100.0, 5.0), "{ends:?}");
        assert!(close(ends[1] - ends[0], ends[2] - ends[1], 1e-3), "{ends:?}");
    }

    #[test]
    fn large_counts_are_quick_and_tight() {
        // Half of 2^40: the interval is p (1 ± 1.96 / sqrt(2^40)), about ±2.7e-6 in log2.
        let e = estimate(1 << 39, 1 << 40);
        assert!(close(e.log2_upper, -1.0 + 2.696e-6, 1e-8), "{e:?}");
        assert!(close(e.log2_lower.unwrap(), -1.0 - 2.696e-6, 1e-8), "{e:?}");
    }
}
