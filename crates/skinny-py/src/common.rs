//! What the bindings share: names of variants and devices, and the backends
//! opened once per process (a CPU pool, a GPU with its compiled kernels).

use crate::errors::{Error, PyResultOf};
use skinny::Variant;
use skinny_bulk::backend::{self, Backend, BackendChoice, Options};
use std::sync::{Arc, Mutex};

/// Where work runs, as Python names it: the library's placement names
/// (`"cpu"`, `"gpu"`, `"auto"`), spelled and read by the library.
pub use skinny_exec::PlacementKind as Device;

/// Reads a `device=` name (any case, blanks around it ignored).
pub fn device(name: &str) -> PyResultOf<Device> {
    name.parse().map_err(|e: skinny_exec::UnknownPlacement| Error::input(format!("device: {e}")))
}

/// Where the execution layer puts work for `device`, on every GPU.
pub fn placement(device: Device, threads: Option<usize>) -> PyResultOf<skinny_exec::Placement> {
    Ok(device.with(skinny_exec::Threads::from_count(checked_threads(threads)?), skinny_exec::GpuSelection::All))
}

/// A `threads=` count: at most the library's [`skinny_exec::THREADS_PER_CORE`]
/// per core (the CLI's cap too), since more only take turns on the same cores
/// and thousands take seconds to start.
pub fn checked_threads(threads: Option<usize>) -> PyResultOf<Option<usize>> {
    let most = skinny_exec::most_threads();
    match threads {
        Some(n) if n > most => Err(Error::input(format!(
            "threads={n} is more than {} per core: at most {most} here",
            skinny_exec::THREADS_PER_CORE
        ))),
        other => Ok(other),
    }
}

/// A new zeroed `uint8` array of `shape`, made by numpy: a size no machine
/// can address is an `InputError`, one this machine cannot hold numpy's
/// `MemoryError` (never a panic).
pub fn zeros<'py, D: numpy::ndarray::Dimension>(
    py: pyo3::Python<'py>,
    shape: &[usize],
) -> pyo3::PyResult<pyo3::Bound<'py, numpy::PyArray<u8, D>>> {
    use pyo3::types::{PyAnyMethods, PyModule, PyTuple};
    let bytes = shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).filter(|&b| isize::try_from(b).is_ok());
    if bytes.is_none() {
        return Err(Error::input(format!("an array of shape {shape:?} is larger than any memory")).into());
    }
    let np = PyModule::import(py, "numpy")?;
    let a = np.call_method1("zeros", (PyTuple::new(py, shape)?, "uint8"))?;
    Ok(a.cast_into::<numpy::PyArray<u8, D>>()?)
}

/// Reads a variant name such as `"skinny-128-256"` (any case, `_` for `-`).
pub fn variant(name: &str) -> PyResultOf<Variant> {
    name.parse().map_err(|_| {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        Error::input(format!("unknown cipher {name:?} (expected one of {})", names.join(", ")))
    })
}

/// The round count: the variant's full count when `None`, else checked.
pub fn rounds(v: Variant, rounds: Option<usize>) -> PyResultOf<usize> {
    let r = rounds.unwrap_or(v.rounds());
    if !(1..=v.rounds()).contains(&r) {
        return Err(Error::input(format!("{v} has 1 to {} rounds, not {r}", v.rounds())));
    }
    Ok(r)
}

/// A cipher of `rounds` rounds under `tweakey` (whose length is checked).
pub fn cipher(v: Variant, tweakey: &[u8], rounds: usize) -> PyResultOf<skinny::Skinny> {
    skinny::Skinny::with_rounds(v, tweakey, rounds).map_err(|e| Error::input(e.to_string()))
}

static CPU: Mutex<Option<Arc<dyn Backend>>> = Mutex::new(None);
static GPU: Mutex<Option<Arc<dyn Backend>>> = Mutex::new(None);

/// The backend of `device`, opened on first use and kept (a GPU's kernels are
/// compiled once per process). A failed GPU open is not kept: the next call
/// tries again.
pub fn backend(device: Device) -> PyResultOf<Arc<dyn Backend>> {
    let slot = match device {
        Device::Cpu => &CPU,
        Device::Gpu => &GPU,
        Device::Auto => return Err(Error::unsupported("device \"auto\" is not offered here: use \"cpu\" or \"gpu\"")),
    };
    let choice = BackendChoice::from(device);
    let mut held = slot.lock().map_err(|_| Error::failure("a previous call panicked"))?;
    if let Some(b) = held.as_ref() {
        return Ok(Arc::clone(b));
    }
    let opened: Arc<dyn Backend> = Arc::from(backend::open(choice, &Options::default())?);
    *held = Some(Arc::clone(&opened));
    Ok(opened)
}

/// How often a call that runs without the GIL looks for a pending signal
/// (Ctrl-C): the longest a `KeyboardInterrupt` waits, plus one batch.
const SIGNAL_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Runs `work` on a helper thread with the GIL released, taking the GIL back
/// every [`SIGNAL_POLL`] to run Python's signal handlers: when one raises
/// (Ctrl-C's `KeyboardInterrupt`, Jupyter's interrupt), `stop` is called, so
/// that the work ends at its next batch, and once it has ended the exception
/// is raised instead of its result. Python runs signal handlers on its main
/// thread only: called from another thread, this waits for `work` alone.
pub fn interruptible<T: Send>(
    py: pyo3::Python<'_>,
    stop: &(dyn Fn() + Sync),
    work: impl FnOnce() -> T + Send,
) -> pyo3::PyResult<T> {
    interruptible_with(py, stop, None, work)
}

/// How often a long call reports its progress to its `progress=` callable.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// What a long call reports its progress to: the callable that
/// `skinny._progress.reporter` makes of the call's `progress=` argument
/// (`None`, `True` for a tqdm bar, or a callable `progress(done, total)`).
pub struct Progress(pyo3::Py<pyo3::PyAny>);

impl Progress {
    /// The reporter for `progress` (nothing for `None` or `False`); `unit`
    /// and `what` label a bar.
    pub fn of(
        py: pyo3::Python<'_>,
        progress: Option<&pyo3::Bound<'_, pyo3::PyAny>>,
        unit: &str,
        what: &str,
    ) -> pyo3::PyResult<Option<Self>> {
        use pyo3::types::PyAnyMethods;
        let Some(p) = progress else { return Ok(None) };
        let r = py.import("skinny._progress")?.call_method1("reporter", (p, unit, what))?;
        Ok((!r.is_none()).then(|| Progress(r.unbind())))
    }

    fn report(&self, py: pyo3::Python<'_>, (done, total): (u64, u64)) -> pyo3::PyResult<()> {
        self.0.call1(py, (done, total)).map(drop)
    }

    /// Closes a bar (a reporter with a `close` method).
    fn close(&self, py: pyo3::Python<'_>) -> pyo3::PyResult<()> {
        use pyo3::types::PyAnyMethods;
        let r = self.0.bind(py);
        if r.hasattr("close")? {
            r.call_method0("close")?;
        }
        Ok(())
    }
}

/// A long call's stop flag and count of the work done, with its progress
/// reporter: the work checks [`Tally::stopped`] between batches and adds
/// what each finished to the count ([`Tally::add`]); [`Tally::run`] runs it
/// interruptibly, reporting `(done, total)`.
pub struct Tally {
    stop: std::sync::atomic::AtomicBool,
    done: std::sync::atomic::AtomicU64,
    total: u64,
    progress: Option<Progress>,
}

impl Tally {
    /// A tally of `total` units (`unit`, for a bar labelled `what`),
    /// reporting to `progress` (see [`Progress::of`]).
    pub fn new(
        py: pyo3::Python<'_>,
        progress: Option<&pyo3::Bound<'_, pyo3::PyAny>>,
        unit: &str,
        what: &str,
        total: u64,
    ) -> pyo3::PyResult<Self> {
        Ok(Self {
            stop: std::sync::atomic::AtomicBool::new(false),
            done: std::sync::atomic::AtomicU64::new(0),
            total,
            progress: Progress::of(py, progress, unit, what)?,
        })
    }

    /// Whether the work should end at its next batch (Ctrl-C, or a
    /// reporter that raised).
    pub fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Counts `n` more units done.
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
    }

    /// Runs `work` as [`interruptible_with`] does, with this tally's stop
    /// flag and count.
    pub fn run<T: Send>(&self, py: pyo3::Python<'_>, work: impl FnOnce() -> T + Send) -> pyo3::PyResult<T> {
        let count = || (self.done.load(std::sync::atomic::Ordering::Relaxed), self.total);
        interruptible_with(
            py,
            &|| self.stop.store(true, std::sync::atomic::Ordering::Relaxed),
            self.progress.as_ref().map(|p| (p, &count as Counter<'_>)),
            work,
        )
    }
}

/// A long call's counter of its work: `(done, total)`.
pub type Counter<'a> = &'a (dyn Fn() -> (u64, u64) + Sync);

/// [`interruptible`], reporting to `progress` (with the work's `(done,
/// total)` from its counter) every [`PROGRESS_EVERY`] and once at the end.
/// An exception the reporter raises stops the work as Ctrl-C does, and is
/// raised once the work has ended.
pub fn interruptible_with<T: Send>(
    py: pyo3::Python<'_>,
    stop: &(dyn Fn() + Sync),
    progress: Option<(&Progress, Counter<'_>)>,
    work: impl FnOnce() -> T + Send,
) -> pyo3::PyResult<T> {
    use std::sync::Condvar;
    let finished = (Mutex::new(false), Condvar::new());
    std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            // Marks the end even when `work` panics, so the wait below ends.
            struct Finish<'a>(&'a (Mutex<bool>, Condvar));
            impl Drop for Finish<'_> {
                fn drop(&mut self) {
                    if let Ok(mut done) = self.0 .0.lock() {
                        *done = true;
                    }
                    self.0 .1.notify_all();
                }
            }
            let _finish = Finish(&finished);
            work()
        });
        let mut raised = None;
        let mut reported = std::time::Instant::now();
        loop {
            let done = py.detach(|| match finished.0.lock() {
                Ok(done) if *done => true,
                Ok(done) => finished.1.wait_timeout(done, SIGNAL_POLL).map(|(d, _)| *d).unwrap_or(true),
                Err(_) => true,
            });
            if done {
                break;
            }
            if raised.is_none() {
                if let Err(e) = py.check_signals() {
                    stop();
                    raised = Some(e);
                }
            }
            if let (None, Some((p, count))) = (&raised, progress) {
                if reported.elapsed() >= PROGRESS_EVERY {
                    reported = std::time::Instant::now();
                    if let Err(e) = p.report(py, count()) {
                        stop();
                        raised = Some(e);
                    }
                }
            }
        }
        let out = py.detach(|| worker.join()).map_err(|_| Error::failure("the work panicked"))?;
        if let Some((p, count)) = progress {
            if raised.is_none() {
                raised = p.report(py, count()).err();
            }
            // A bar is closed whatever happened; its own failure counts
            // only when nothing else was raised.
            if let (Err(e), None) = (p.close(py), &raised) {
                raised = Some(e);
            }
        }
        match raised {
            Some(e) => Err(e),
            None => Ok(out),
        }
    })
}

/// A byte-string argument: `bytes` or `bytearray` as they are, or any other
/// object with the buffer protocol (`memoryview`, `array.array`, a numpy
/// array), read through `memoryview(obj).tobytes()`, as hashlib reads it.
pub struct Bytes(pyo3::pybacked::PyBackedBytes);

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl AsRef<[u8]> for Bytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl<'a, 'py> pyo3::FromPyObject<'a, 'py> for Bytes {
    type Error = pyo3::PyErr;

    fn extract(obj: pyo3::Borrowed<'a, 'py, pyo3::PyAny>) -> pyo3::PyResult<Self> {
        use pyo3::types::{PyAnyMethods, PyTypeMethods};
        let obj = obj.to_owned();
        if let Ok(b) = obj.extract::<pyo3::pybacked::PyBackedBytes>() {
            return Ok(Bytes(b));
        }
        let py = obj.py();
        let view = py.import("builtins")?.getattr("memoryview")?.call1((&obj,)).map_err(|_| {
            let kind = obj.get_type().name().map(|n| n.to_string()).unwrap_or_default();
            // A TypeError, as hashlib raises for a str or an int.
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected bytes, bytearray or a buffer (memoryview), not {kind}"
            ))
        })?;
        Ok(Bytes(view.call_method0("tobytes")?.extract()?))
    }
}

/// `obj` as a C-contiguous uint8 numpy array through `numpy.asarray` (lists,
/// tuples, other array-likes, integer arrays of another dtype), or `None`
/// where numpy makes no integer array of it. Values outside 0..=255 are an
/// input error, never wrapped as `astype` would.
pub fn u8_array_like<'py>(
    py: pyo3::Python<'py>,
    obj: &pyo3::Bound<'py, pyo3::PyAny>,
    what: &str,
) -> PyResultOf<Option<pyo3::Bound<'py, pyo3::PyAny>>> {
    use pyo3::types::PyAnyMethods;
    let numpy_failed = |e: pyo3::PyErr| Error::input(format!("{what}: {e}"));
    let np = py.import("numpy").map_err(numpy_failed)?;
    let Ok(a) = np.call_method1("asarray", (obj,)) else { return Ok(None) };
    let kind: String =
        a.getattr("dtype").and_then(|d| d.getattr("kind")).and_then(|k| k.extract()).map_err(numpy_failed)?;
    if kind != "u" && kind != "i" {
        return Ok(None);
    }
    if a.getattr("size").and_then(|n| n.extract::<usize>()).map_err(numpy_failed)? > 0 {
        let value = |m: &str| -> pyo3::PyResult<i128> { a.call_method0(m)?.call_method0("item")?.extract() };
        let (lo, hi) = (value("min").map_err(numpy_failed)?, value("max").map_err(numpy_failed)?);
        if lo < 0 || hi > 255 {
            return Err(Error::input(format!("{what} must hold bytes (0 to 255), not values from {lo} to {hi}")));
        }
    }
    np.call_method1("ascontiguousarray", (a, "uint8")).map(Some).map_err(numpy_failed)
}
