//! Watching and steering a run from another thread.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A run watched and steered from another thread: how many queries are done
/// (for a progress bar), and a request to stop early (Ctrl-C), after which the
/// run returns what it has, marked [`Outcome::interrupted`](crate::Outcome::interrupted).
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    done: AtomicU64,
}

impl Control {
    /// A control with nothing done and no stop asked for.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the run to stop: batches not yet started are skipped.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Queries done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }

    /// Counts `n` more queries done.
    pub(crate) fn add_done(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }
}
