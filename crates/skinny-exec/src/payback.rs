//! When an accelerator repays its opening, for work whose size may not be
//! known in advance (a stream): the rule `auto` applies before it asks the
//! [`crate::handover::Handover`] to start one. The product supplies the
//! constants (what opening costs on its device, how busy its CPU engine must
//! be); the rule is the same for all.

use std::time::Duration;

/// The rule's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Payback {
    /// What opening the accelerator (and the product's state on it) costs, in
    /// seconds; an upper estimate is harmless (it then opens a little later).
    pub open_seconds: f64,
    /// The accelerator is opened only when the CPU alone would need this many
    /// times `open_seconds` for the rest of the work: it then has time to take
    /// over most of it, and a wrong guess costs at most one core for the
    /// opening.
    pub factor: f64,
    /// Wall time watched before the CPU's rate and share are trusted (rates
    /// from the first milliseconds are mostly start-up noise).
    pub min_observed: Duration,
    /// The share of wall time the CPU engine must be busy for a faster engine
    /// to pay: below it, the caller's own work (reading and writing files) is
    /// the limit.
    pub engine_bound: f64,
}

/// What the run has seen so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Wall time since the first unit of work started.
    pub wall: Duration,
    /// Time the CPU engine was busy in it.
    pub cpu_busy: Duration,
    /// The CPU engine's rate in bytes a second, once it did any work.
    pub cpu_rate: Option<f64>,
    /// Bytes left, when the total is known.
    pub bytes_left: Option<u64>,
}

impl Payback {
    /// Whether the work left would keep the CPU busy long enough to repay
    /// opening the accelerator.
    pub fn would_pay(&self, p: &Progress) -> bool {
        let horizon = self.open_seconds * self.factor;
        if p.wall < self.min_observed {
            return false;
        }
        if p.cpu_busy.as_secs_f64() < self.engine_bound * p.wall.as_secs_f64() {
            return false;
        }
        match (p.bytes_left, p.cpu_rate) {
            (Some(left), Some(rate)) => left as f64 / rate > horizon,
            // Known size, no rate yet: wait for the first CPU unit to measure one.
            (Some(_), None) => false,
            // A stream of unknown length: judge by how long it has run so far.
            (None, _) => p.cpu_busy.as_secs_f64() > horizon / 2.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: Payback =
        Payback { open_seconds: 0.4, factor: 2.0, min_observed: Duration::from_millis(100), engine_bound: 0.9 };

    fn seen(wall_ms: u64, busy_ms: u64, rate: Option<f64>, left: Option<u64>) -> Progress {
        Progress {
            wall: Duration::from_millis(wall_ms),
            cpu_busy: Duration::from_millis(busy_ms),
            cpu_rate: rate,
            bytes_left: left,
        }
    }

    #[test]
    fn pays_only_for_long_engine_bound_work() {
        // 1 GB/s with 10 GB left: 10 s of CPU against 0.8 s.
        assert!(RULE.would_pay(&seen(200, 199, Some(1e9), Some(10_000_000_000))));
        // Too early to judge.
        assert!(!RULE.would_pay(&seen(50, 50, Some(1e9), Some(10_000_000_000))));
        // The caller is the limit (the engine idles half the time).
        assert!(!RULE.would_pay(&seen(200, 100, Some(1e9), Some(10_000_000_000))));
        // Little left.
        assert!(!RULE.would_pay(&seen(200, 199, Some(1e9), Some(500_000_000))));
        // No rate yet.
        assert!(!RULE.would_pay(&seen(200, 199, None, Some(10_000_000_000))));
    }

    #[test]
    fn a_stream_pays_once_it_has_run_half_the_horizon() {
        assert!(!RULE.would_pay(&seen(300, 300, Some(1e9), None)));
        assert!(RULE.would_pay(&seen(500, 500, Some(1e9), None)));
    }
}
