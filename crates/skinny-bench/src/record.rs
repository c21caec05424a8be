//! One measured point, its units, and the speed-ups against the CPU baselines.

use crate::stats;
use crate::timing::Timing;
use skinny_bulk::mode::{Direction, Mode};

/// The two CPU baselines the speed-ups are computed against.
pub const BASELINES: [&str; 2] = ["cpu-serial", "cpu"];

/// Speed-up E = Tc/Tg and efficiency S = (Tc - Tg)/Tc against one CPU baseline.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeedUp {
    /// E = T_cpu / T_this.
    pub speedup: f64,
    /// S = (T_cpu - T_this) / T_cpu.
    pub efficiency: f64,
}

impl SpeedUp {
    /// From the baseline's and this series' times.
    pub fn of(t_cpu: f64, t_this: f64) -> Self {
        Self { speedup: t_cpu / t_this, efficiency: (t_cpu - t_this) / t_cpu }
    }
}

/// A record's speed-ups against each baseline, from the medians and from the
/// means (None for a baseline itself, or one not measured).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpeedUps {
    /// Against `cpu-serial`, from the medians.
    pub serial: Option<SpeedUp>,
    /// Against `cpu`, from the medians.
    pub cpu: Option<SpeedUp>,
    /// Against `cpu-serial`, from the means (the paper averaged its runs).
    pub serial_mean: Option<SpeedUp>,
    /// Against `cpu`, from the means.
    pub cpu_mean: Option<SpeedUp>,
}

/// One measured point: variant, mode, direction, backend, timing and size.
#[derive(Clone, Debug)]
pub struct Record {
    /// Variant name.
    pub variant: &'static str,
    /// The mode.
    pub mode: Mode,
    /// The direction.
    pub direction: Direction,
    /// Backend name.
    pub backend: &'static str,
    /// Series label (backend, plus timing where a backend has several).
    pub label: String,
    /// What the time covers.
    pub timing: Timing,
    /// Bytes processed by one operation.
    pub bytes: usize,
    /// Operations repeated inside one timed run (1 for large sizes).
    pub reps: usize,
    /// Milliseconds per operation, one per timed run.
    pub times_ms: Vec<f64>,
    /// The first (warm-up) call at this size, in ms: includes buffer growth and
    /// first-use work; None for kernel timings.
    pub warmup_ms: Option<f64>,
    /// Against the CPU baselines (filled by [`add_speedups`]).
    pub speedups: SpeedUps,
}

impl Record {
    /// Timed runs.
    pub fn runs(&self) -> usize {
        self.times_ms.len()
    }
    /// Mean ms.
    pub fn mean_ms(&self) -> f64 {
        stats::mean(&self.times_ms)
    }
    /// Maximum ms.
    pub fn max_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }
    /// Sample standard deviation of the runs, ms (0 for one run).
    pub fn sd_ms(&self) -> f64 {
        stats::sample_sd(&self.times_ms)
    }
    /// Median ms (mean of the two middle runs for an even count).
    pub fn median_ms(&self) -> f64 {
        stats::median(&self.times_ms)
    }
    /// Minimum ms.
    pub fn min_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::INFINITY, f64::min)
    }
    /// Decimal gigabits per second at a time in ms: bits / 1e9 / seconds.
    pub fn gbps_at(&self, ms: f64) -> f64 {
        gbps(self.bytes, ms)
    }
    /// Gb/s at the median time.
    pub fn gbps(&self) -> f64 {
        self.gbps_at(self.median_ms())
    }
    /// Whether `other` is the same point of another series or file (variant,
    /// mode, direction and size).
    pub fn same_point(&self, other: &Record) -> bool {
        self.variant == other.variant
            && self.mode == other.mode
            && self.direction == other.direction
            && self.bytes == other.bytes
    }
}

/// Decimal gigabits per second: bytes * 8 / 1e9 / seconds.
pub fn gbps(bytes: usize, ms: f64) -> f64 {
    bytes as f64 * 8.0 / 1e9 / (ms / 1e3)
}

/// `encrypt` or `decrypt`.
pub const fn dir_name(d: Direction) -> &'static str {
    match d {
        Direction::Encrypt => "encrypt",
        Direction::Decrypt => "decrypt",
    }
}

/// A series' label in tables and charts: the backend name, with the timing
/// added for backends that have several series.
pub fn series_label(backend: &str, timing: Timing, several: Several) -> String {
    match several {
        Several::Yes => format!("{backend} {}", timing.short()),
        Several::No => backend.to_string(),
    }
}

/// Whether a backend yields several series (and so labels them by timing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Several {
    /// End to end only: the label is the backend's name.
    No,
    /// Several timings: the label names the timing too.
    Yes,
}

/// The distinct labels of `records`, in the order first seen.
pub fn labels<'a>(records: impl IntoIterator<Item = &'a Record>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for r in records {
        if !out.contains(&r.label.as_str()) {
            out.push(&r.label);
        }
    }
    out
}

/// Fills the speed-ups of every record against the end-to-end medians (and
/// means) of `cpu-serial` and `cpu` at the same variant, mode, direction and size.
pub fn add_speedups(records: &mut [Record]) {
    let find = |records: &[Record], r: &Record, base: &str| {
        records
            .iter()
            .find(|b| b.backend == base && b.timing == Timing::EndToEnd && b.same_point(r))
            .map(|b| (b.median_ms(), b.mean_ms()))
    };
    for i in 0..records.len() {
        let r = &records[i];
        let (this, this_mean) = (r.median_ms(), r.mean_ms());
        let is = |name: &str| r.backend == name && r.timing == Timing::EndToEnd;
        let serial = if is("cpu-serial") { None } else { find(records, r, "cpu-serial") };
        let cpu = if is("cpu") { None } else { find(records, r, "cpu") };
        records[i].speedups = SpeedUps {
            serial: serial.map(|(t, _)| SpeedUp::of(t, this)),
            cpu: cpu.map(|(t, _)| SpeedUp::of(t, this)),
            serial_mean: serial.map(|(_, t)| SpeedUp::of(t, this_mean)),
            cpu_mean: cpu.map(|(_, t)| SpeedUp::of(t, this_mean)),
        };
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record of three runs: `ms`, twice `ms` and half `ms`.
    pub(crate) fn rec(backend: &'static str, timing: Timing, label: &str, bytes: usize, ms: f64) -> Record {
        Record {
            variant: "skinny-128-256",
            mode: Mode::Ecb,
            direction: Direction::Encrypt,
            backend,
            label: label.into(),
            timing,
            bytes,
            reps: 1,
            times_ms: vec![ms, ms * 2.0, ms / 2.0],
            warmup_ms: None,
            speedups: SpeedUps::default(),
        }
    }

    #[test]
    fn units_and_speedups() {
        // 125 MB in 1 s is exactly 1 Gb/s (decimal).
        assert!((gbps(125_000_000, 1000.0) - 1.0).abs() < 1e-12);
        let s = SpeedUp::of(10.0, 2.0);
        assert_eq!((s.speedup, s.efficiency), (5.0, 0.8));
        let mut v = vec![
            rec("cpu-serial", Timing::EndToEnd, "cpu-serial", 16, 100.0),
            rec("cpu", Timing::EndToEnd, "cpu", 16, 10.0),
            rec("gpu", Timing::Kernel, "gpu kernel", 16, 1.0),
            rec("gpu", Timing::Kernel, "gpu kernel", 32, 1.0),
        ];
        add_speedups(&mut v);
        // cpu-serial against cpu (medians 100 and 10), never against itself.
        assert_eq!(v[0].speedups.cpu, Some(SpeedUp::of(10.0, 100.0)));
        assert!(v[0].speedups.serial.is_none() && v[0].speedups.serial_mean.is_none());
        assert_eq!(v[2].speedups.serial.map(|s| s.speedup), Some(100.0));
        assert_eq!(v[3].speedups, SpeedUps::default(), "no baseline at 32 B");
        assert_eq!(labels(&v), vec!["cpu-serial", "cpu", "gpu kernel"]);
        assert_eq!(series_label("gpu", Timing::EndToEnd, Several::Yes), "gpu e2e");
        assert_eq!(series_label("cpu", Timing::EndToEnd, Several::No), "cpu");
    }
}
