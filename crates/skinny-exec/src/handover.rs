//! The one CPU-to-accelerator hand-over: start on the CPU, open the
//! accelerator on a thread of its own, give it the work from the first unit
//! after it is ready, and (if asked) keep it only while it proves faster.
//!
//! Getting a GPU ready (driver, context, kernel module, pinned and device
//! buffers) takes a fixed time, a good part of a whole run of a few seconds.
//! Products whose output does not depend on which engine did which unit of
//! work (a window of sealed chunks, a call of raw blocks) let the CPU work
//! meanwhile. Readiness is looked at once per unit, on the work's thread, so
//! a unit is always done whole by one engine and the order of the output is
//! the caller's.
//!
//! With [`Keep::WhileFaster`], the work time of each engine's units is
//! measured (each engine's first unit left out: it pays for warming up), and
//! after [`JUDGE_AFTER`] timed units of the accelerator, if it moved fewer
//! bytes per second of work than the CPU did, the rest of the run goes back to
//! the CPU. It is judged once a run: on a host with many cores the CPU can
//! outrun a GPU whose data passes through host memory twice.
//!
//! What a product supplies: the opener (a closure that returns its engine and
//! the window size it wants), and when to start it ([`Handover::starting`] at
//! once, or [`Handover::start`] later, when a rule such as
//! [`crate::payback::Payback`] says so).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use work_time::WorkTime;

mod kinds;
mod work_time;

/// Timed units of the accelerator after which it is compared with the CPU
/// (with sealed windows of 16 MiB, 48 MiB: a few percent of a file worth a
/// GPU).
pub const JUDGE_AFTER: u32 = 3;

pub use kinds::{Keep, OnFailure, Outcome, Side, Slower, Standing, StartError};

/// The accelerator, ready, and the units of work a window it wants; or why
/// not.
pub type Started<G, E> = Result<(G, usize), E>;

/// Gets the accelerator ready, on a thread of its own.
pub type Opener<G, E> = Box<dyn FnOnce() -> Started<G, E> + Send>;

/// An opener's thread and where its result arrives.
type Starting<G, E> = (Receiver<Started<G, E>>, JoinHandle<()>);

/// The engines of one run: the CPU, and an accelerator `G` whose opener fails
/// with `E`.
pub struct Handover<G, E> {
    ready: Option<G>,
    starting: Option<Starting<G, E>>,
    /// Whether an accelerator was ever asked for.
    asked: bool,
    on_failure: OnFailure,
    keep: Keep,
    cpu_time: WorkTime,
    accel_time: WorkTime,
    /// The window size before the accelerator took over (given back if the
    /// CPU takes over again).
    cpu_window: Option<usize>,
    judged: bool,
    failure: Option<E>,
    left: Option<Slower>,
}

impl<G: Send + 'static, E: From<StartError> + Send + 'static> Handover<G, E> {
    /// The CPU only (until [`Handover::start`]).
    pub fn cpu() -> Self {
        Self {
            ready: None,
            starting: None,
            asked: false,
            on_failure: OnFailure::UseCpu,
            keep: Keep::Always,
            cpu_time: WorkTime::default(),
            accel_time: WorkTime::default(),
            cpu_window: None,
            judged: false,
            failure: None,
            left: None,
        }
    }

    /// The CPU only, because the accelerator cannot serve this run (`why`,
    /// kept for the report as a start that failed).
    pub fn cpu_because(why: E) -> Self {
        Self { failure: Some(why), asked: true, ..Self::cpu() }
    }

    /// The accelerator, ready from the first unit.
    pub fn ready(engine: G) -> Self {
        Self { ready: Some(engine), asked: true, ..Self::cpu() }
    }

    /// The CPU until `open` (started now) has the accelerator ready.
    ///
    /// # Errors
    /// No thread could be started and `on_failure` is [`OnFailure::Fail`].
    pub fn starting(open: Opener<G, E>, on_failure: OnFailure, keep: Keep) -> Result<Self, E> {
        let mut h = Self::cpu();
        h.start(open, on_failure, keep)?;
        Ok(h)
    }

    /// Starts opening the accelerator now (once a run: later calls do
    /// nothing). If `open` fails, the run continues on the CPU
    /// ([`OnFailure::UseCpu`]) or fails with its error at the next unit (or
    /// in [`Handover::finish`]: a run that must use the accelerator does not
    /// succeed without it, however short).
    ///
    /// # Errors
    /// No thread could be started and `on_failure` is [`OnFailure::Fail`].
    pub fn start(&mut self, open: Opener<G, E>, on_failure: OnFailure, keep: Keep) -> Result<(), E> {
        if self.asked {
            return Ok(());
        }
        self.asked = true;
        self.on_failure = on_failure;
        self.keep = keep;
        // Room for the one message: the thread never waits for the run.
        let (tx, rx) = sync_channel(1);
        let thread = std::thread::Builder::new()
            .name("skinny-gpu-start".into())
            .stack_size(crate::WORKER_STACK_BYTES)
            .spawn(move || {
                let _ = tx.send(open());
            });
        match thread {
            Ok(handle) => {
                self.starting = Some((rx, handle));
                Ok(())
            }
            Err(e) => self.failed(StartError::Thread(e).into()),
        }
    }

    /// Whether an accelerator was asked for (started, ready or failed).
    pub fn asked(&self) -> bool {
        self.asked
    }

    /// Whether the accelerator is ready now (looked at without waiting).
    pub fn is_ready(&mut self, window: Option<&AtomicUsize>) -> Result<bool, E> {
        Ok(self.next(window)?.is_some())
    }

    /// The CPU's work so far: bytes, work time (all units).
    pub fn cpu_work(&self) -> (u64, Duration) {
        (self.cpu_time.total_bytes, self.cpu_time.total_time)
    }

    /// The CPU's rate of work in bytes a second over all its units, once it
    /// did any.
    pub fn cpu_rate(&self) -> Option<f64> {
        let (bytes, time) = self.cpu_work();
        (time > Duration::ZERO && bytes > 0).then(|| bytes as f64 / time.as_secs_f64())
    }

    /// Bytes the accelerator did.
    pub fn accelerator_bytes(&self) -> u64 {
        self.accel_time.total_bytes
    }

    /// Where the accelerator stands, as last seen (nothing is looked at
    /// anew: [`Handover::next`] and [`Handover::is_ready`] do that).
    pub fn standing(&self) -> Standing<'_, E> {
        if let Some(slower) = self.left {
            Standing::Left(slower)
        } else if let Some(e) = &self.failure {
            Standing::Failed(e)
        } else if self.ready.is_some() {
            Standing::Ready
        } else if self.starting.is_some() {
            Standing::Starting
        } else {
            Standing::NotAsked
        }
    }

    fn failed(&mut self, e: E) -> Result<(), E> {
        match self.on_failure {
            OnFailure::UseCpu => {
                self.failure = Some(e);
                Ok(())
            }
            OnFailure::Fail => Err(e),
        }
    }

    /// The accelerator for the next unit if it is ready (from its first unit
    /// on, `window` is set to its size, so that a reader cuts the windows
    /// after those already read for it), else `None` (the CPU).
    ///
    /// # Errors
    /// The start failed and the run may not go on without the accelerator.
    pub fn next(&mut self, window: Option<&AtomicUsize>) -> Result<Option<&mut G>, E> {
        let arrived = match &self.starting {
            Some((rx, _)) => match rx.try_recv() {
                Ok(result) => Some(result),
                Err(TryRecvError::Empty) => None,
                // The thread died without sending: its panic is raised by join.
                Err(TryRecvError::Disconnected) => Some(Err(StartError::Panicked.into())),
            },
            None => None,
        };
        if let Some(result) = arrived {
            self.join();
            match result {
                Ok((engine, size)) => {
                    if let Some(window) = window {
                        self.cpu_window = Some(window.swap(size, Ordering::AcqRel));
                    }
                    self.ready = Some(engine);
                }
                Err(e) => self.failed(e)?,
            }
        }
        Ok(self.ready.as_mut())
    }

    /// Does one unit of `bytes`: with `accel` on the accelerator when it is
    /// ready (see [`Handover::next`]), else with `cpu`; times the work and,
    /// with [`Keep::WhileFaster`], leaves the accelerator once it has proved
    /// slower. Returns the work's value and which side did it.
    ///
    /// # Errors
    /// The work's own, or the start's (as [`Handover::next`]).
    pub fn work<T>(
        &mut self,
        window: Option<&AtomicUsize>,
        bytes: u64,
        accel: impl FnOnce(&mut G) -> Result<T, E>,
        cpu: impl FnOnce() -> Result<T, E>,
    ) -> Result<(T, Side), E> {
        self.work_with(window, bytes, &mut (), |g, ()| accel(g), |()| cpu())
    }

    /// As [`Handover::work`], with `unit` (the window or buffer both sides
    /// work on) handed to whichever side runs: one borrow for both closures.
    ///
    /// # Errors
    /// As [`Handover::work`].
    pub fn work_with<C: ?Sized, T>(
        &mut self,
        window: Option<&AtomicUsize>,
        bytes: u64,
        unit: &mut C,
        accel: impl FnOnce(&mut G, &mut C) -> Result<T, E>,
        cpu: impl FnOnce(&mut C) -> Result<T, E>,
    ) -> Result<(T, Side), E> {
        let start = Instant::now();
        let (value, side) = match self.next(window)? {
            Some(g) => (accel(g, unit)?, Side::Accelerator),
            None => (cpu(unit)?, Side::Cpu),
        };
        self.timed(side, bytes, start.elapsed(), window);
        Ok((value, side))
    }

    /// Does one unit on the CPU whatever is ready (work too small for the
    /// accelerator), timed like the others.
    ///
    /// # Errors
    /// The work's own.
    pub fn work_on_cpu<T>(&mut self, bytes: u64, cpu: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let start = Instant::now();
        let value = cpu()?;
        self.timed(Side::Cpu, bytes, start.elapsed(), None);
        Ok(value)
    }

    /// Records a unit's work time; judges the accelerator once it has
    /// [`JUDGE_AFTER`] timed units and the CPU at least one.
    fn timed(&mut self, side: Side, bytes: u64, time: Duration, window: Option<&AtomicUsize>) {
        match side {
            Side::Accelerator => self.accel_time.add(bytes, time),
            Side::Cpu => self.cpu_time.add(bytes, time),
        }
        if self.keep != Keep::WhileFaster || self.judged || self.accel_time.timed() < JUDGE_AFTER {
            return;
        }
        self.judged = true;
        if let (Some(cpu), Some(accelerator)) = (self.cpu_time.rate(), self.accel_time.rate()) {
            if accelerator < cpu {
                self.ready = None;
                if let (Some(size), Some(window)) = (self.cpu_window, window) {
                    window.store(size, Ordering::Release);
                }
                self.left = Some(Slower { accelerator, cpu });
            }
        }
    }

    /// After the run: waits for a start still under way (its thread holds
    /// the device; the engine it brings is dropped unused). Returns why the
    /// accelerator did not start, if the run may go on without it, and why
    /// it was left, if it was.
    ///
    /// # Errors
    /// The start failed and the run may not succeed without the accelerator.
    pub fn finish(mut self) -> Result<Outcome<E>, E> {
        if let Some((rx, _)) = &self.starting {
            let result = rx.recv().unwrap_or_else(|_| Err(StartError::Panicked.into()));
            self.join();
            if let Err(e) = result {
                self.failed(e)?;
            }
        }
        Ok(Outcome { failure: self.failure, left: self.left })
    }

    fn join(&mut self) {
        if let Some((_, handle)) = self.starting.take() {
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
    }
}

#[cfg(test)]
mod tests;
