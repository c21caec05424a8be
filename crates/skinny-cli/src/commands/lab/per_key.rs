//! The per-key lines of the table (`--per-key`): how many keys, the share
//! without a hit against its expectation under one key-averaged probability,
//! the dispersion test, and for correlations the per-key means. The JSON
//! carries the whole `per_key` object, histogram included.

use skinny_lab::KeyDistribution;
use std::fmt::Write as _;

/// A value or "n/a" where it is undefined.
fn or_na(v: Option<f64>, show: impl Fn(f64) -> String) -> String {
    v.map_or_else(|| "n/a".into(), show)
}

/// The per-key lines, each ending in a newline.
pub(super) fn render(d: &KeyDistribution) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "per key     {} keys of {} queries; hits per key mean {}, variance {}",
        d.keys,
        d.queries_per_key,
        or_na(d.mean_hits, |x| format!("{x:.4}")),
        or_na(d.variance_hits, |x| format!("{x:.4}")),
    );
    let _ = writeln!(
        s,
        "no hit      {} of the keys (one probability for all: {})",
        or_na(d.zero_hit_share, |x| format!("{x:.6}")),
        or_na(d.zero_hit_expected, |x| format!("{x:.6}")),
    );
    let dispersion = match (d.dispersion, d.dispersion_p_value) {
        (Some(x), Some(p)) => format!("chi2 {x:.2} on {} df, p-value {p:.3e}", d.dispersion_df),
        (Some(x), None) => format!("chi2 {x:.2} on {} df, no p-value", d.dispersion_df),
        (None, _) => "undefined (no key hit, or every query hit)".into(),
    };
    let _ = writeln!(s, "dispersion  {dispersion}");
    if let Some([lo, hi]) = d.probability_ci95_over_keys {
        let _ = writeln!(s, "p over keys 95% [{lo:.6e}, {hi:.6e}] (spread between keys counted)");
    }
    if let Some(c) = d.mean_correlation {
        let _ = writeln!(
            s,
            "per-key c   mean {c:+.6e}, mean c^2 {} (each key's 1/Q bias removed)",
            or_na(d.mean_squared_correlation, |x| format!("{x:+.6e}")),
        );
        let ci = |v: Option<[f64; 2]>| {
            or_na(v.map(|[lo, _]| lo), |lo| format!("{lo:+.6e}"))
                + ", "
                + &or_na(v.map(|[_, hi]| hi), |hi| format!("{hi:+.6e}"))
        };
        let _ = writeln!(
            s,
            "c over keys signed mean 95% [{}]; mean |c| {} 95% [{}]",
            ci(d.mean_correlation_ci95),
            or_na(d.mean_abs_correlation, |x| format!("{x:.6e}")),
            ci(d.mean_abs_correlation_ci95),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::render;
    use skinny_lab::KeyHistogram;

    #[test]
    fn lines_for_defined_and_undefined_statistics() {
        let d = KeyHistogram::from_pairs(2, &[[0, 1], [2, 1]]).unwrap().distribution(true);
        let s = render(&d);
        assert!(s.contains("2 keys of 2 queries"), "{s}");
        assert!(s.contains("no hit      0.500000 of the keys (one probability for all: 0.250000)"), "{s}");
        assert!(s.contains("chi2 4.00 on 1 df, p-value 4.550e-2"), "{s}");
        assert!(s.contains("per-key c   mean +0.000000e0, mean c^2 +1.000000e0"), "{s}");
        assert!(
            s.contains("c over keys signed mean 95% [-1.000000e0, +1.000000e0]; mean |c| 1.000000e0 95% [+1.000000e0, +1.000000e0]"),
            "{s}"
        );
        let none = render(&KeyHistogram::from_pairs(4, &[[0, 3]]).unwrap().distribution(false));
        assert!(none.contains("dispersion  undefined") && !none.contains("per-key c"), "{none}");
        let empty = render(&KeyHistogram::new(4).distribution(false));
        assert!(empty.contains("0 keys") && empty.contains("n/a"), "{empty}");
    }
}
