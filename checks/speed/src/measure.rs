//! Timing two workloads against each other on a noisy machine: many short
//! samples, A and B alternating, and the median of the per-pair ratios.
//!
//! Why this shape: on a shared 2-core VM another process can take the core for
//! milliseconds at a time, and the machine's speed drifts over seconds (other
//! tenants, clock changes). A sample of a few milliseconds is rarely hit, a
//! pair's two samples are taken within milliseconds of each other so drift
//! cancels in their ratio, the order within a pair alternates so that neither
//! side always runs second (warmer caches, a clock ramping up), and the median
//! of many pairs ignores the pairs that a preemption did hit.
//!
//! The clock is the process's CPU time where the system has one (Linux,
//! `CLOCK_PROCESS_CPUTIME_ID`: every thread of the process, so the
//! many-message engine's worker counts too): while another process has the
//! core, this one's CPU time stands still, so a preempted sample is not
//! inflated the way a wall-clock one is. What is left of the other process is
//! its effect on caches and shared cores, which the pairing and the median
//! absorb.

use std::time::{Duration, Instant};

/// Where time is read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    /// The process's CPU time.
    ProcessCpu,
    /// The wall clock (`Instant`), where there is no CPU-time clock.
    Wall,
}

impl Clock {
    /// The process CPU-time clock if it can be read here, else the wall clock.
    pub fn best() -> Clock {
        if process_cpu_time().is_some() {
            Clock::ProcessCpu
        } else {
            Clock::Wall
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Clock::ProcessCpu => "process CPU time",
            Clock::Wall => "wall clock",
        }
    }

    /// A reading; only differences of two readings of one clock mean anything.
    fn now(self, epoch: Instant) -> Duration {
        match self {
            Clock::ProcessCpu => process_cpu_time().unwrap_or_else(|| epoch.elapsed()),
            Clock::Wall => epoch.elapsed(),
        }
    }
}

#[cfg(unix)]
fn process_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec that outlives the call, and
    // the clock id is a constant of the C library.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    let secs = u64::try_from(ts.tv_sec).ok()?;
    let nanos = u32::try_from(ts.tv_nsec).ok()?;
    (rc == 0).then(|| Duration::new(secs, nanos))
}

#[cfg(not(unix))]
fn process_cpu_time() -> Option<Duration> {
    None
}

/// How long and how often to sample.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub clock: Clock,
    /// Pairs of samples (A, B) per ratio.
    pub pairs: usize,
    /// Target length of one sample; each workload is repeated to fill it.
    pub sample: Duration,
}

/// One workload: what it runs, and how much work one run is in the unit the
/// ratio compares (bytes, blocks, or block-cipher calls).
pub struct Work<'a> {
    pub run: &'a mut dyn FnMut(),
    pub units: f64,
}

/// The outcome of [`compare`]: A's rate over B's rate.
#[derive(Clone, Copy, Debug)]
pub struct Comparison {
    /// Median of the per-pair ratios: the figure checked against a threshold.
    pub median: f64,
    /// First and third quartiles of the per-pair ratios: how steady it was.
    pub quartiles: (f64, f64),
    /// A's best sample rate over B's best: the undisturbed figure, for the record.
    pub best: f64,
    /// The best sample rates themselves, units per second (A, B): for the
    /// record only, never checked (they depend on the machine).
    pub best_rates: (f64, f64),
    /// Pairs taken.
    pub pairs: usize,
}

/// Times `a` against `b` in `settings.pairs` alternating pairs of samples.
pub fn compare(settings: Settings, a: Work<'_>, b: Work<'_>) -> Comparison {
    let timer = Timer { clock: settings.clock, epoch: Instant::now() };
    let reps_a = timer.calibrate(&mut *a.run, settings.sample);
    let reps_b = timer.calibrate(&mut *b.run, settings.sample);
    let pairs = settings.pairs.max(1);
    let mut ratios = Vec::with_capacity(pairs);
    let (mut best_a, mut best_b) = (0f64, 0f64);
    for i in 0..pairs {
        let (rate_a, rate_b) = if i % 2 == 0 {
            let ra = timer.rate(&mut *a.run, reps_a, a.units);
            (ra, timer.rate(&mut *b.run, reps_b, b.units))
        } else {
            let rb = timer.rate(&mut *b.run, reps_b, b.units);
            (timer.rate(&mut *a.run, reps_a, a.units), rb)
        };
        best_a = best_a.max(rate_a);
        best_b = best_b.max(rate_b);
        ratios.push(rate_a / rate_b);
    }
    ratios.sort_by(f64::total_cmp);
    Comparison {
        median: quantile(&ratios, 0.5),
        quartiles: (quantile(&ratios, 0.25), quantile(&ratios, 0.75)),
        best: best_a / best_b,
        best_rates: (best_a, best_b),
        pairs,
    }
}

struct Timer {
    clock: Clock,
    epoch: Instant,
}

impl Timer {
    /// Repetitions of `run` that take about `sample`, after one warm-up run
    /// (which also faults in the buffers and the CPU-feature caches).
    fn calibrate(&self, run: &mut dyn FnMut(), sample: Duration) -> u64 {
        run();
        let mut reps = 1u64;
        loop {
            let t = self.time(run, reps);
            // A quarter of the sample is long enough to scale from; doubling
            // until then keeps one slow call from costing more than a sample.
            if t >= sample / 4 || reps >= 1 << 30 {
                let scaled = reps as f64 * sample.as_secs_f64() / t.as_secs_f64().max(1e-9);
                return (scaled.ceil() as u64).max(1);
            }
            reps *= 2;
        }
    }

    fn time(&self, run: &mut dyn FnMut(), reps: u64) -> Duration {
        let start = self.clock.now(self.epoch);
        for _ in 0..reps {
            run();
        }
        self.clock.now(self.epoch).saturating_sub(start)
    }

    /// Units per second over `reps` runs.
    fn rate(&self, run: &mut dyn FnMut(), reps: u64, units: f64) -> f64 {
        let secs = self.time(run, reps).as_secs_f64().max(1e-9);
        units * reps as f64 / secs
    }
}

/// The `q` quantile of sorted `xs` (linear between neighbours).
fn quantile(xs: &[f64], q: f64) -> f64 {
    match xs.len() {
        0 => f64::NAN,
        n => {
            let pos = q * (n - 1) as f64;
            let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
            xs[lo] + (xs[hi] - xs[lo]) * (pos - lo as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_of_a_small_list() {
        let xs = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&xs, 0.5), 3.0);
        assert_eq!(quantile(&xs, 0.25), 2.0);
        assert_eq!(quantile(&[1.0, 2.0], 0.5), 1.5);
        assert!(quantile(&[], 0.5).is_nan());
    }

    #[test]
    fn twice_the_work_is_about_half_the_rate() {
        let settings = Settings { clock: Clock::best(), pairs: 5, sample: Duration::from_millis(2) };
        let spin = |n: u64| {
            let mut x = 0u64;
            for i in 0..n {
                x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
            }
            x
        };
        let mut a = || {
            std::hint::black_box(spin(20_000));
        };
        let mut b = || {
            std::hint::black_box(spin(40_000));
        };
        let c = compare(settings, Work { run: &mut a, units: 1.0 }, Work { run: &mut b, units: 1.0 });
        // Loose: this runs beside other tests on a shared machine.
        assert!(c.median > 1.3 && c.median < 3.0, "{c:?}");
    }
}
