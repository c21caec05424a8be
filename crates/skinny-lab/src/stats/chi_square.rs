//! The chi-square distribution's upper tail, through the regularized
//! incomplete gamma functions P(a, x) and Q(a, x) = 1 - P(a, x): a statistic
//! `x` with `df` degrees of freedom has the upper-tail probability
//! Q(df/2, x/2).
//!
//! Small and moderate `a` take the power series of P (for x < a + 1) or the
//! continued fraction of Q (otherwise), each with the prefactor
//! x^a e^-x / Γ(a) formed in logs so that nothing of size a ln a cancels.
//! Both need about sqrt(a) terms near x = a; from [`UNIFORM_MIN_A`] on,
//! Temme's uniform asymptotic expansion takes over (DLMF 8.12), whose first
//! omitted term is below 1e-10 of its leading correction there.

use super::{ln_gamma, stirling_series};

/// From this `a` on, Q(a, x) is Temme's expansion (one correction term): its
/// first omitted term is of relative size 1/a next to that correction.
const UNIFORM_MIN_A: f64 = 1e10;

/// Relative precision at which a series or continued fraction stops.
const EPS: f64 = 1e-16;

/// Terms at most: about sqrt(a) are needed below [`UNIFORM_MIN_A`] (at most
/// a few times 10^5); this bound only stops a runaway loop.
const MAX_TERMS: u64 = 100_000_000;

/// The upper-tail probability P(X >= `statistic`) of a chi-square variable
/// with `df` degrees of freedom (`df >= 1`, `statistic >= 0`): Q(df/2,
/// statistic/2). `None` for `df == 0` or a statistic that is negative or not
/// a number.
pub fn chi_square_upper(statistic: f64, df: u64) -> Option<f64> {
    if df == 0 || statistic.is_nan() || statistic < 0.0 {
        return None;
    }
    Some(reg_upper_gamma(df as f64 / 2.0, statistic / 2.0))
}

/// The regularized lower incomplete gamma function
/// P(a, x) = γ(a, x) / Γ(a) for a > 0, x >= 0 (`x = inf` gives 1).
pub fn reg_lower_gamma(a: f64, x: f64) -> f64 {
    assert!(a > 0.0 && x >= 0.0, "P(a, x) needs a > 0 and x >= 0");
    if x == 0.0 {
        return 0.0;
    }
    if a >= UNIFORM_MIN_A {
        return 1.0 - uniform_upper(a, x);
    }
    if x < a + 1.0 {
        lower_series(a, x)
    } else {
        1.0 - upper_fraction(a, x)
    }
}

/// The regularized upper incomplete gamma function
/// Q(a, x) = Γ(a, x) / Γ(a) = 1 - P(a, x) for a > 0, x >= 0.
pub fn reg_upper_gamma(a: f64, x: f64) -> f64 {
    assert!(a > 0.0 && x >= 0.0, "Q(a, x) needs a > 0 and x >= 0");
    if x == 0.0 {
        return 1.0;
    }
    if x.is_infinite() {
        return 0.0;
    }
    if a >= UNIFORM_MIN_A {
        return uniform_upper(a, x);
    }
    if x < a + 1.0 {
        1.0 - lower_series(a, x)
    } else {
        upper_fraction(a, x)
    }
}

/// ln(x^a e^-x / Γ(a)). For a >= 16, with t = (x - a) / a and Stirling's
/// ln Γ(a) = (a - 1/2) ln a - a + ln(2π)/2 + series(a), the terms of size
/// a ln a cancel on paper: a (ln(1 + t) - t) + ln(a)/2 - ln(2π)/2 - series(a).
fn ln_front(a: f64, x: f64) -> f64 {
    if a < 16.0 {
        return a * x.ln() - x - ln_gamma(a);
    }
    let t = (x - a) / a;
    -a * t_minus_ln_1p(t) + 0.5 * a.ln() - 0.5 * (2.0 * core::f64::consts::PI).ln() - stirling_series(a)
}

/// P(a, x) by its power series, for x < a + 1:
/// γ(a, x) = x^a e^-x Σ_n x^n / (a (a+1) ... (a+n)).
fn lower_series(a: f64, x: f64) -> f64 {
    let mut term = 1.0 / a;
    let mut sum = term;
    for n in 1..MAX_TERMS {
        term *= x / (a + n as f64);
        sum += term;
        if term < sum * EPS {
            break;
        }
    }
    (ln_front(a, x).exp() * sum).min(1.0)
}

/// Q(a, x) by its continued fraction, for x >= a + 1:
/// Γ(a, x) = x^a e^-x / (x + 1 - a - 1(1 - a) / (x + 3 - a - 2(2 - a) / ...)),
/// by the modified Lentz method (tiny values stand in for zeros).
fn upper_fraction(a: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut b = x + 1.0 - a;
    let mut c = 1.0 / TINY;
    let mut d = 1.0 / b;
    let mut h = d;
    for i in 1..MAX_TERMS {
        let i = i as f64;
        let an = -i * (i - a);
        b += 2.0;
        d = an * d + b;
        if d.abs() < TINY {
            d = TINY;
        }
        c = b + an / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let delta = d * c;
        h *= delta;
        if (delta - 1.0).abs() < EPS {
            break;
        }
    }
    (ln_front(a, x).exp() * h).min(1.0)
}

/// Q(a, x) by Temme's uniform expansion (DLMF 8.12.3, 8.12.10):
/// ½ erfc(η sqrt(a/2)) + e^(-a η²/2) / sqrt(2π a) (c0(η) + O(1/a)), with
/// λ = x/a, η²/2 = λ - 1 - ln λ, η of the sign of λ - 1, and
/// c0(η) = 1/(λ - 1) - 1/η.
fn uniform_upper(a: f64, x: f64) -> f64 {
    let t = (x - a) / a;
    let half_eta2 = t_minus_ln_1p(t);
    let eta = (2.0 * half_eta2).sqrt().copysign(t);
    let y = eta * (a / 2.0).sqrt();
    let c0 = if t.abs() < 1e-3 {
        // 1/t - 1/η cancels near λ = 1; its Taylor series in η there.
        -1.0 / 3.0 + eta * (1.0 / 12.0 - eta * (2.0 / 135.0 - eta * (1.0 / 864.0)))
    } else {
        1.0 / t - 1.0 / eta
    };
    let correction = (-a * half_eta2).exp() / (2.0 * core::f64::consts::PI * a).sqrt() * c0;
    (0.5 * erfc(y) + correction).clamp(0.0, 1.0)
}

/// t - ln(1 + t) for t > -1. Near 0 it is about t²/2 and the difference
/// would keep only the digits of t that ln(1 + t) does not share: its series
/// Σ_{k>=2} (-t)^k / k there instead (t^50/50 is below 1e-17 of t²/2).
fn t_minus_ln_1p(t: f64) -> f64 {
    if t.abs() >= 0.5 {
        return t - t.ln_1p();
    }
    let mut power = t * t;
    let mut sum = 0.0;
    for k in 2..60 {
        let term = power / f64::from(k);
        sum += if k % 2 == 0 { term } else { -term };
        if term.abs() < sum.abs() * 1e-17 {
            break;
        }
        power *= t;
    }
    sum
}

/// erfc(y) = Q(1/2, y²) for y >= 0 (and 2 - erfc(-y) below): a = 1/2 needs few
/// terms of the series or the fraction.
fn erfc(y: f64) -> f64 {
    let q = if y == 0.0 {
        1.0
    } else if y * y < 1.5 {
        1.0 - lower_series(0.5, y * y)
    } else {
        upper_fraction(0.5, y * y)
    };
    if y >= 0.0 {
        q
    } else {
        2.0 - q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, rel: f64) -> bool {
        (got - want).abs() <= rel * want.abs().max(1e-300)
    }

    #[test]
    fn chi_square_critical_values() {
        // The 5 % and 1 % critical values of the chi-square tables (the last
        // two tails from mpmath at 30 digits: the tables' x are rounded).
        for (x, df, p) in [
            (3.841_458_820_694_124, 1, 0.05),
            (6.634_896_601_021_214, 1, 0.01),
            (5.991_464_547_107_979, 2, 0.05),
            (18.307_038_053_275_146, 10, 0.05),
            (124.342_113_404_463_8, 100, 0.049_999_999_997_098_41),
            (1_074.679_443_992_656, 1000, 0.050_000_010_575_366_31),
        ] {
            let got = chi_square_upper(x, df).expect("defined");
            assert!(close(got, p, 1e-9), "df {df}, x {x}: {got} not {p}");
        }
    }

    #[test]
    fn exact_forms() {
        // Two degrees of freedom: Q(1, x/2) = e^(-x/2).
        for x in [0.01, 1.0, 7.5, 40.0, 700.0] {
            assert!(close(chi_square_upper(x, 2).unwrap(), (-x / 2.0).exp(), 1e-13), "{x}");
        }
        // Whole a: Q(n, x) = e^-x Σ_{k<n} x^k / k! (a Poisson sum).
        for (n, x) in [(3u32, 2.0f64), (5, 0.5), (10, 12.0), (20, 3.0), (30, 45.0)] {
            let mut term = 1.0;
            let mut sum = 0.0;
            for k in 0..n {
                if k > 0 {
                    term *= x / f64::from(k);
                }
                sum += term;
            }
            let want = (-x).exp() * sum;
            assert!(close(reg_upper_gamma(f64::from(n), x), want, 1e-12), "Q({n}, {x})");
            assert!((reg_lower_gamma(f64::from(n), x) - (1.0 - want)).abs() < 1e-13, "P({n}, {x})");
        }
        // Q(1/2, y²) = erfc(y): erfc(1) and erfc(2).
        assert!(close(reg_upper_gamma(0.5, 1.0), 0.157_299_207_050_285_13, 1e-13));
        assert!(close(reg_upper_gamma(0.5, 4.0), 0.004_677_734_981_047_266, 1e-12));
    }

    #[test]
    fn edges_and_undefined() {
        assert_eq!(chi_square_upper(0.0, 5), Some(1.0));
        assert_eq!(chi_square_upper(1.0, 0), None);
        assert_eq!(chi_square_upper(-1.0, 3), None);
        assert_eq!(chi_square_upper(f64::NAN, 3), None);
        assert_eq!(chi_square_upper(f64::INFINITY, 3), Some(0.0));
        // Far tails stay finite and in [0, 1].
        let tiny = chi_square_upper(5_000.0, 10).unwrap();
        assert!((0.0..1e-300).contains(&tiny));
        assert_eq!(chi_square_upper(1e-9, 10_000), Some(1.0));
    }

    #[test]
    fn large_df_against_mpmath() {
        // Q(a, x) from mpmath's gammainc at 40 digits: at the mean (a little
        // under 1/2, the skew) and a few standard deviations out, on both
        // sides of the switch to the uniform expansion.
        for (a, x, q) in [
            (5e5, 5e5, 0.499_811_936_803_394_5),
            (5e7, 5e7, 0.499_981_193_680_546_3),
            (5e11, 5e11, 0.499_999_811_936_805_5),
            (5e11, 5e11 + 2e6, 0.002_338_891_602_055_917),
            (5e11, 5e11 - 3e6, 0.999_988_955_146_045_8),
            (2e13, 2e13 + 1.5e7, 3.981_161_780_329_887e-4),
        ] {
            let got = reg_upper_gamma(a, x);
            assert!(close(got, q, 1e-11), "Q({a}, {x}) = {got}, not {q}");
        }
        // Temme's expansion against the series and fraction where both hold.
        for a in [1e6f64, 3e7] {
            for z in [-4.0, -1.0, -1e-4, 0.0, 1e-5, 0.5, 2.0, 6.0] {
                let x = a + z * a.sqrt();
                let direct = reg_upper_gamma(a, x);
                let uniform = uniform_upper(a, x);
                assert!((direct - uniform).abs() < 1e-8 * direct.max(1e-12), "a {a}, z {z}: {direct} vs {uniform}");
            }
        }
        // And across the switch to it, no seam.
        let below = reg_upper_gamma(UNIFORM_MIN_A * (1.0 - 1e-12), UNIFORM_MIN_A + 1e5);
        let above = reg_upper_gamma(UNIFORM_MIN_A, UNIFORM_MIN_A + 1e5);
        assert!((below - above).abs() < 1e-6, "{below} vs {above}");
    }

    #[test]
    fn complements_add_to_one() {
        for (a, x) in [(0.5, 0.3), (2.5, 2.0), (50.0, 49.0), (50.0, 80.0), (1e4, 1e4 + 50.0)] {
            let s = reg_lower_gamma(a, x) + reg_upper_gamma(a, x);
            assert!((s - 1.0).abs() < 1e-13, "a {a}, x {x}: {s}");
        }
    }
}
