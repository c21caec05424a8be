//! How much each side of the hand-over did, and how fast once warm.

use std::time::Duration;

/// Bytes an engine did and the work time it took, all of it and with its
/// first unit left out.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WorkTime {
    /// Units seen, the first one included.
    pub(super) seen: u32,
    pub(super) total_bytes: u64,
    pub(super) total_time: Duration,
    pub(super) timed_bytes: u64,
    pub(super) timed_time: Duration,
}

impl WorkTime {
    pub(super) fn add(&mut self, bytes: u64, time: Duration) {
        self.seen += 1;
        self.total_bytes += bytes;
        self.total_time += time;
        if self.seen > 1 {
            self.timed_bytes += bytes;
            self.timed_time += time;
        }
    }

    /// Units timed (all but the first).
    pub(super) fn timed(&self) -> u32 {
        self.seen.saturating_sub(1)
    }

    /// Bytes a second of work, once a unit was timed.
    pub(super) fn rate(&self) -> Option<f64> {
        (self.timed() > 0 && self.timed_time > Duration::ZERO)
            .then(|| self.timed_bytes as f64 / self.timed_time.as_secs_f64())
    }
}
