//! The measurement: every point of a plan on every opened backend, end to end
//! through an engine (host buffer in, host buffer out), kernel-only through
//! the backend's device timer, through pageable copies, or cold.

mod subject;
mod timer;

#[cfg(test)]
mod tests;

pub use subject::{open_subjects, Setup, Skipped, Subject};
pub use timer::{random_bytes, random_cipher, time_cold, time_engine, time_op, EngineTimes, RunSettings, Work};

use crate::plan::Plan;
use crate::record::{add_speedups, dir_name, series_label, Record, SpeedUps};
use crate::size::size_label;
use crate::timing::Timing;
use skinny::Skinny;
use std::time::Duration;

/// Untimed kernel launches before the timed ones (device timer).
pub const KERNEL_WARMUP: usize = 3;

/// What the measurement reports while it runs, so a caller can drive a
/// progress bar and show notices (and a test can stay silent).
pub trait Observer {
    /// A point is about to be measured (`ecb encrypt 4 KiB gpu kernel`).
    fn start(&mut self, what: &str);
    /// A point is done (measured or failed).
    fn done(&mut self);
    /// A one-line notice (a series dropped after a failure).
    fn notice(&mut self, line: &str);
}

/// An [`Observer`] that ignores everything.
pub struct Unobserved;

impl Observer for Unobserved {
    fn start(&mut self, _what: &str) {}
    fn done(&mut self) {}
    fn notice(&mut self, _line: &str) {}
}

/// How many points [`measure_all`] will attempt (for a progress bar's length).
pub fn points(plan: &Plan, subjects: &[Subject]) -> usize {
    subjects.iter().map(|s| s.timings().len()).sum::<usize>()
        * plan.sizes.len()
        * plan.modes.len()
        * plan.directions.len()
}

/// Measures every point of the plan on every subject, in the order mode,
/// direction, size, subject, timing. A series whose engine or kernel fails is
/// reported once through `obs.notice` and left out for the rest of the run.
pub fn measure_all(plan: &Plan, cipher: &Skinny, subjects: &mut [Subject], obs: &mut dyn Observer) -> Vec<Record> {
    let set = RunSettings {
        runs: plan.runs,
        min_run: Duration::from_secs_f64(plan.min_run_secs),
        budget: plan.max_time_per_size.map(Duration::from_secs_f64),
    };
    let mut records = Vec::new();
    for &mode in &plan.modes {
        for &dir in &plan.directions {
            for &bytes in &plan.sizes {
                let data = random_bytes(bytes);
                let counter = random_bytes(cipher.block_bytes());
                let work = Work { mode, dir, counter: &counter };
                let mut buf = vec![0u8; bytes];
                for s in subjects.iter_mut() {
                    for timing in s.timings() {
                        if s.failed[timing.index()] {
                            continue;
                        }
                        let label = series_label(s.name, timing, s.several());
                        let at = format!("{mode} {} {}", dir_name(dir), size_label(bytes));
                        obs.start(&format!("{at} {label}"));
                        buf.copy_from_slice(&data);
                        match measure_point(s, timing, cipher, work, &mut buf, set) {
                            Ok((reps, times_ms, warmup_ms)) => records.push(Record {
                                variant: cipher.variant().name(),
                                mode,
                                direction: dir,
                                backend: s.name,
                                label,
                                timing,
                                bytes,
                                reps,
                                times_ms,
                                warmup_ms,
                                speedups: SpeedUps::default(),
                            }),
                            Err(e) => {
                                s.failed[timing.index()] = true;
                                obs.notice(&format!("{label} failed at {at}: {e}; left out from here on"));
                            }
                        }
                        obs.done();
                    }
                }
            }
        }
    }
    add_speedups(&mut records);
    records
}

/// One series at one point: (repeats per run, ms per operation by run,
/// warm-up ms), or why it failed.
fn measure_point(
    s: &mut Subject,
    timing: Timing,
    cipher: &Skinny,
    work: Work<'_>,
    buf: &mut [u8],
    set: RunSettings,
) -> Result<(usize, Vec<f64>, Option<f64>), String> {
    let timed = |t: Result<EngineTimes, skinny_bulk::Error>| {
        t.map(|t| (t.reps, t.times_ms, Some(t.warmup_ms))).map_err(|e| e.to_string())
    };
    match timing {
        Timing::EndToEnd => timed(time_engine(s.engine.as_mut(), work, buf, set)),
        Timing::Pageable | Timing::Cold => match s.pageable.as_mut() {
            Some((backend, _)) if timing == Timing::Cold => timed(time_cold(backend.as_ref(), cipher, work, buf, set)),
            Some((_, engine)) => timed(time_engine(engine.as_mut(), work, buf, set)),
            None => Err("no pageable engine".to_string()),
        },
        Timing::Kernel => match s.backend.device_bench() {
            Some(db) => {
                let v = db
                    .time_kernel(cipher, work.mode, work.dir, buf.len(), KERNEL_WARMUP, set.runs)
                    .map_err(|e| e.to_string())?;
                if v.is_empty() || v.iter().any(|t| !t.is_finite() || *t <= 0.0) {
                    Err("the device timer returned no usable times".to_string())
                } else {
                    Ok((1, v, None))
                }
            }
            None => Err("no kernel timer".to_string()),
        },
    }
}
