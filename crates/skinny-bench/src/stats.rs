//! Statistics of timed runs: mean, median, sample standard deviation, and the
//! spread between repeats of a whole experiment. (Why these few lines and not
//! a statistics crate: see the crate's documentation.)

/// Mean (NaN for an empty slice).
pub fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        f64::NAN
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// Median: the middle value, or the mean of the two middle values for an even
/// count (NaN for an empty slice).
pub fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Sample standard deviation (n - 1 in the denominator); 0 for one value, NaN
/// for none.
pub fn sample_sd(v: &[f64]) -> f64 {
    match v.len() {
        0 => f64::NAN,
        1 => 0.0,
        n => {
            let m = mean(v);
            (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1) as f64).sqrt()
        }
    }
}

/// A summary of some values (the runs of one point, or one figure over the
/// repeats of an experiment).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// How many values.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// Their median.
    pub median: f64,
    /// The smallest.
    pub min: f64,
    /// The largest.
    pub max: f64,
    /// Sample standard deviation.
    pub sd: f64,
}

impl Summary {
    /// The summary of `v` (every field NaN but `n` for an empty slice).
    pub fn of(v: &[f64]) -> Self {
        Self {
            n: v.len(),
            mean: mean(v),
            median: median(v),
            min: v.iter().copied().fold(f64::NAN, f64::min),
            max: v.iter().copied().fold(f64::NAN, f64::max),
            sd: sample_sd(v),
        }
    }

    /// Coefficient of variation: sd / mean.
    pub fn cv(&self) -> f64 {
        self.sd / self.mean
    }

    /// Range relative to the median: (max - min) / median; how far apart the
    /// repeats of an experiment landed.
    pub fn spread(&self) -> f64 {
        (self.max - self.min) / self.median
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_median_sd() {
        assert_eq!(mean(&[1.0, 2.0, 6.0]), 3.0);
        assert!(mean(&[]).is_nan());
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&[]).is_nan());
        assert_eq!(sample_sd(&[5.0]), 0.0);
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, squares sum 32, over 7.
        let sd = sample_sd(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert!((sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn summary_spread_and_cv() {
        let s = Summary::of(&[10.0, 12.0, 8.0]);
        assert_eq!((s.n, s.mean, s.median, s.min, s.max), (3, 10.0, 10.0, 8.0, 12.0));
        assert!((s.spread() - 0.4).abs() < 1e-12);
        assert!((s.cv() - 0.2).abs() < 1e-12);
        let e = Summary::of(&[]);
        assert_eq!(e.n, 0);
        assert!(e.mean.is_nan() && e.min.is_nan() && e.max.is_nan());
    }
}
