//! Which engine does each window, and a GPU engine started behind the CPU's
//! back.
//!
//! Getting a GPU ready (the driver, a context, the kernel module, pinned and
//! device buffers) takes a fixed time that on the H200 machine was a good part
//! of a 4 GiB file's ~2 s (run 35). Both engines write the same bytes chunk by
//! chunk (the nonces depend only on a chunk's index and whether it is the
//! last), so windows may be done by either in any mix: [`Engines::starting`]
//! opens the GPU on a thread of its own while the CPU does the first windows,
//! and from the first window after it is ready, the GPU does them. Readiness is
//! looked at once a window, on the work's thread, so a window is always done
//! whole by one engine, and the order of the output is the pipeline's.
//!
//! A start may also ask that the other engine keep the windows only while it
//! is the faster one ([`Engines::while_faster`]): on a host with many cores the
//! CPU engine can outrun a GPU whose windows pass through host memory twice
//! (run 39 on the H200 machine: 5.3 against 4.7 GB/s in memory). The work time
//! of each engine's windows is measured (each engine's first window left out:
//! it pays for warming up), and after [`JUDGE_AFTER`] timed windows of the
//! other engine, if it moved fewer bytes per second of work than the CPU did,
//! the rest of the run goes back to the CPU. It is judged once a run.

use super::pipeline::Window;
use super::SealedError;
use std::boxed::Box;
use std::format;
use std::string::{String, ToString};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, TryRecvError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use std::vec::Vec;

/// Timed windows of the other engine after which it is compared with the CPU
/// (with a window of 16 MiB, 48 MiB: a few percent of a file worth a GPU).
pub(super) const JUDGE_AFTER: u32 = 3;

/// What the work needs of an engine other than the CPU: a whole window at a
/// time (`GpuChunks` on a GPU; stand-ins in the tests).
pub(super) trait WindowEngine: Send + 'static {
    /// Seals the window in place (each input chunk becomes ciphertext ‖ tag).
    fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), SealedError>;
    /// Opens the window into `w.output` (which holds a buffer per chunk); a
    /// chunk that fails gets nothing. Returns whether each chunk verified.
    fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, SealedError>;
}

/// The other engine, ready, and the pieces a window it wants; or why not.
pub(super) type Started<G> = Result<(G, usize), SealedError>;

/// Gets the other engine ready, on a thread of its own.
pub(super) type Opener<G> = Box<dyn FnOnce() -> Started<G> + Send>;

/// The engines of one run.
pub(super) struct Engines<G> {
    ready: Option<G>,
    starting: Option<(Receiver<Started<G>>, JoinHandle<()>)>,
    /// When the start fails: finish on the CPU (`true`) or fail the run.
    or_cpu: bool,
    /// Why the other engine did not start (with `or_cpu`).
    failure: Option<String>,
    /// Keep the other engine only if it proves faster than the CPU.
    while_faster: bool,
    /// Work time of each engine's windows.
    cpu_time: WorkTime,
    other_time: WorkTime,
    /// The reader's window size before the other engine took over (given back
    /// if the CPU takes over again).
    cpu_window: Option<usize>,
    /// Whether the engines were compared (once a run).
    judged: bool,
    /// Why the other engine was left (slower than the CPU), if it was.
    left: Option<String>,
}

/// What the engines did besides the chunks: for the run's report.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Outcome {
    /// Why the other engine did not start, if the run went on without it.
    pub failure: Option<String>,
    /// Why the other engine was left during the run (slower than the CPU).
    pub left: Option<String>,
}

/// Bytes an engine did and the work time it took, its first window left out.
#[derive(Clone, Copy, Debug, Default)]
struct WorkTime {
    /// Windows seen, the first one included.
    seen: u32,
    bytes: u64,
    time: Duration,
}

impl WorkTime {
    fn add(&mut self, bytes: u64, time: Duration) {
        self.seen += 1;
        if self.seen > 1 {
            self.bytes += bytes;
            self.time += time;
        }
    }

    /// Windows timed (all but the first).
    fn timed(&self) -> u32 {
        self.seen.saturating_sub(1)
    }

    /// Bytes a second of work, once a window was timed.
    fn rate(&self) -> Option<f64> {
        (self.timed() > 0 && self.time > Duration::ZERO).then(|| self.bytes as f64 / self.time.as_secs_f64())
    }
}

impl<G: WindowEngine> Engines<G> {
    /// The CPU only.
    pub(super) fn cpu() -> Self {
        Self {
            ready: None,
            starting: None,
            or_cpu: true,
            failure: None,
            while_faster: false,
            cpu_time: WorkTime::default(),
            other_time: WorkTime::default(),
            cpu_window: None,
            judged: false,
            left: None,
        }
    }

    /// Keeps the other engine only while it proves faster than the CPU (see
    /// the module's text); the run goes on on the CPU otherwise.
    pub(super) fn while_faster(mut self, yes: bool) -> Self {
        self.while_faster = yes;
        self
    }

    /// The CPU only, because the other engine cannot serve this run (`why`).
    pub(super) fn cpu_because(why: &SealedError) -> Self {
        Self { failure: Some(reason(why)), ..Self::cpu() }
    }

    /// The other engine, ready from the first window.
    pub(super) fn ready(engine: G) -> Self {
        Self { ready: Some(engine), ..Self::cpu() }
    }

    /// The CPU until `open` (started now, on a thread of its own) has the
    /// other engine ready; then that one. If `open` fails, the run continues
    /// on the CPU (`or_cpu`) or fails with its error at the next window (or at
    /// the end, in [`Engines::finish`]: a run that must use the other engine
    /// does not succeed without it, however short).
    ///
    /// # Errors
    /// No thread could be started, and the run may not go on without it.
    pub(super) fn starting(open: Opener<G>, or_cpu: bool) -> Result<Self, SealedError> {
        // Room for the one message: the thread never waits for the run.
        let (tx, rx) = sync_channel(1);
        let thread = std::thread::Builder::new().name("skinny-gpu-start".into()).spawn(move || {
            let _ = tx.send(open());
        });
        match thread {
            Ok(handle) => Ok(Self { starting: Some((rx, handle)), or_cpu, ..Self::cpu() }),
            // No thread: as a start that failed at once (before anything is written).
            Err(e) => {
                let e = SealedError::GpuStart(Box::new(e));
                if or_cpu {
                    Ok(Self::cpu_because(&e))
                } else {
                    Err(e)
                }
            }
        }
    }

    /// The engine for the next window: the other one if it is ready (from its
    /// first window on, `window` is set to its size, so that the reader cuts
    /// the windows after those already read for it), else none (the CPU).
    ///
    /// # Errors
    /// The start failed and the run may not go on without the other engine.
    pub(super) fn next(&mut self, window: &AtomicUsize) -> Result<Option<&mut G>, SealedError> {
        let arrived = match &self.starting {
            Some((rx, _)) => match rx.try_recv() {
                Ok(result) => Some(result),
                Err(TryRecvError::Empty) => None,
                // The thread died without sending: its panic is raised by join.
                Err(TryRecvError::Disconnected) => Some(Err(SealedError::InvalidOptions("the GPU start panicked"))),
            },
            None => None,
        };
        if let Some(result) = arrived {
            self.join();
            match result {
                Ok((engine, size)) => {
                    self.cpu_window = Some(window.swap(size, Ordering::AcqRel));
                    self.ready = Some(engine);
                }
                Err(e) if self.or_cpu => self.failure = Some(reason(&e)),
                Err(e) => return Err(e),
            }
        }
        Ok(self.ready.as_mut())
    }

    /// Works on window `w`: with `other` on the other engine when it is
    /// ready (see [`Engines::next`]), else with `cpu`; times the work and,
    /// for a run [`Engines::while_faster`], leaves the other engine once it
    /// has proved slower. Returns the work's value and whether the other
    /// engine did it.
    ///
    /// # Errors
    /// The work's own, or the start's (as [`Engines::next`]).
    pub(super) fn work<T>(
        &mut self,
        window: &AtomicUsize,
        w: &mut Window,
        other: impl FnOnce(&mut G, &mut Window) -> Result<T, SealedError>,
        cpu: impl FnOnce(&mut Window) -> Result<T, SealedError>,
    ) -> Result<(T, bool), SealedError> {
        let bytes: u64 = w.input.iter().map(|b| b.len() as u64).sum();
        let start = Instant::now();
        let (value, on_other) = match self.next(window)? {
            Some(g) => (other(g, w)?, true),
            None => (cpu(w)?, false),
        };
        self.timed(on_other, bytes, start.elapsed(), window);
        Ok((value, on_other))
    }

    /// Records a window's work time; judges the other engine once it has
    /// [`JUDGE_AFTER`] timed windows and the CPU at least one.
    fn timed(&mut self, on_other: bool, bytes: u64, time: Duration, window: &AtomicUsize) {
        if on_other {
            self.other_time.add(bytes, time);
        } else {
            self.cpu_time.add(bytes, time);
        }
        if !self.while_faster || self.judged || self.other_time.timed() < JUDGE_AFTER {
            return;
        }
        self.judged = true;
        if let (Some(cpu), Some(other)) = (self.cpu_time.rate(), self.other_time.rate()) {
            if other < cpu {
                self.ready = None;
                if let Some(size) = self.cpu_window {
                    window.store(size, Ordering::Release);
                }
                self.left = Some(format!(
                    "slower than the CPU here ({:.2} GB/s of work against the CPU's {:.2})",
                    other / 1e9,
                    cpu / 1e9
                ));
            }
        }
    }

    /// After the run: waits for a start still under way (its thread holds
    /// the GPU; the engine it brings is dropped unused). Returns why the other
    /// engine did not start, if it did not and the run may go on without it,
    /// and why it was left, if it was.
    ///
    /// # Errors
    /// The start failed and the run may not succeed without the other engine.
    pub(super) fn finish(mut self) -> Result<Outcome, SealedError> {
        if let Some((rx, _)) = &self.starting {
            let result = rx.recv().unwrap_or(Err(SealedError::InvalidOptions("the GPU start panicked")));
            self.join();
            match result {
                Ok(_) => {}
                Err(e) if self.or_cpu => self.failure = Some(reason(&e)),
                Err(e) => return Err(e),
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

/// Why the other engine did not start, in the words of what failed.
fn reason(e: &SealedError) -> String {
    match e {
        SealedError::GpuStart(why) => why.to_string(),
        e => e.to_string(),
    }
}

/// No other engine (without the `cuda` feature).
#[cfg(not(feature = "cuda"))]
pub(super) enum NoGpu {}

#[cfg(not(feature = "cuda"))]
impl WindowEngine for NoGpu {
    fn seal(&mut self, _: &mut Window, _: &[u8]) -> Result<(), SealedError> {
        match *self {}
    }
    fn open(&mut self, _: &mut Window, _: &[u8]) -> Result<Vec<bool>, SealedError> {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    //! The switch without a GPU: a stand-in "GPU" that runs the CPU's code a
    //! window at a time and records the windows it got, started by a function
    //! that waits until the input has been read up to a point (or fails).
    use super::*;
    use crate::sealed::{cpu_open, cpu_seal, open_windows, seal_windows, Header, Member, Report, PREFIX_FIELD_LEN};
    use std::format;
    use std::io::{self, Read};
    use std::sync::mpsc::{Receiver, SyncSender};
    use std::sync::{Arc, Mutex};
    use std::vec;

    const KEY: [u8; 16] = [0x5a; 16];
    /// Pieces a window: the CPU's, and the stand-in's once it is ready.
    const CPU_WINDOW: usize = 2;
    const GPU_WINDOW: usize = 8;

    fn header() -> Header {
        Header { member: Member::M1, chunk_log2: 4, prefix: [7u8; PREFIX_FIELD_LEN] }
    }

    /// Each window the stand-in did, as (first chunk, chunks).
    type Log = Arc<Mutex<Vec<(u64, usize)>>>;

    /// The stand-in.
    struct Fake {
        windows: Log,
        /// Extra work time a window (a stand-in slower than the CPU).
        delay: Duration,
    }

    impl WindowEngine for Fake {
        fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), SealedError> {
            self.windows.lock().unwrap().push((w.first, w.input.len()));
            std::thread::sleep(self.delay);
            cpu_seal(&header(), &KEY, ad, w)
        }
        fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, SealedError> {
            self.windows.lock().unwrap().push((w.first, w.input.len()));
            std::thread::sleep(self.delay);
            Ok(cpu_open(&header(), &KEY, ad, w))
        }
    }

    /// A reader of `data` that, on reaching byte `at` (or the end), lets the
    /// start go on and waits until it has ended: the stand-in is then ready
    /// (or failed) before the window holding byte `at` is worked on, give or
    /// take the start thread's hand-over.
    struct Gate<'a> {
        data: &'a [u8],
        pos: usize,
        at: usize,
        go: Option<(SyncSender<()>, Receiver<()>)>,
    }

    impl Read for Gate<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pos >= self.at.min(self.data.len()) {
                if let Some((go, done)) = self.go.take() {
                    let _ = go.send(());
                    let _ = done.recv();
                }
            }
            let end = if self.pos < self.at { self.at.min(self.data.len()) } else { self.data.len() };
            let n = buf.len().min(end - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    /// The engines with a start that waits for the gate at byte `at`, then
    /// brings the stand-in (or fails: `fail`); the stand-in's windows; the
    /// reader.
    fn gated(data: &[u8], at: usize, fail: bool, or_cpu: bool) -> (Engines<Fake>, Log, Gate<'_>) {
        gated_slow(data, at, fail, or_cpu, Duration::ZERO)
    }

    /// As [`gated`], with a stand-in that takes `delay` longer a window.
    fn gated_slow(data: &[u8], at: usize, fail: bool, or_cpu: bool, delay: Duration) -> (Engines<Fake>, Log, Gate<'_>) {
        let windows = Arc::new(Mutex::new(Vec::new()));
        let (go_tx, go_rx) = sync_channel(1);
        let (done_tx, done_rx) = sync_channel(1);
        let fake = Fake { windows: windows.clone(), delay };
        let opener: Opener<Fake> = Box::new(move || {
            let _ = go_rx.recv();
            let _ = done_tx.send(());
            if fail {
                return Err(SealedError::GpuStart("no GPU here".into()));
            }
            Ok((fake, GPU_WINDOW))
        });
        let engines = Engines::starting(opener, or_cpu).unwrap();
        (engines, windows, Gate { data, pos: 0, at, go: Some((go_tx, done_rx)) })
    }

    fn data(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 13 + i / 253) as u8).collect()
    }

    /// The file the CPU alone seals.
    fn cpu_file(plain: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        seal_windows(Engines::<Fake>::cpu(), CPU_WINDOW, &header(), &KEY, plain, &mut out).unwrap();
        out
    }

    /// What the CPU alone writes and returns opening `file`.
    fn cpu_open_file(file: &[u8]) -> (Vec<u8>, String) {
        let mut out = Vec::new();
        let r = open_windows(Engines::<Fake>::cpu(), CPU_WINDOW, &header(), &KEY, &file[24..], &mut out);
        (out, format!("{:?}", r.map(|r| (r.chunks, r.plaintext_bytes))))
    }

    /// The stand-in's windows are one run up to the last chunk, each a whole
    /// window; from the first of the stand-in's size on, all have that size
    /// (but the input's last window, which may hold one piece more or fewer).
    fn check_windows(windows: &[(u64, usize)], chunks: u64, report: &Report) {
        assert!(!windows.is_empty(), "the stand-in did no window");
        let done: u64 = windows.iter().map(|w| w.1 as u64).sum();
        assert_eq!(done, report.gpu_chunks);
        let start = windows[0].0;
        assert_eq!(start + done, chunks, "the stand-in did every window from its first on");
        for pair in windows.windows(2) {
            assert_eq!(pair[0].0 + pair[0].1 as u64, pair[1].0, "windows in order, none skipped");
        }
        let body = &windows[..windows.len() - 1];
        assert!(windows.iter().all(|w| w.1 <= GPU_WINDOW + 1), "{windows:?}");
        if let Some(k) = body.iter().position(|w| w.1 == GPU_WINDOW) {
            assert!(body[k..].iter().all(|w| w.1 == GPU_WINDOW), "the size stays the stand-in's: {windows:?}");
            // Windows read before the switch keep the CPU's size: a few at most.
            assert!(k <= 3, "{k} windows of the old size after the switch: {windows:?}");
        }
        assert!(body.iter().all(|w| w.1 == GPU_WINDOW || w.1 == CPU_WINDOW), "{windows:?}");
    }

    #[test]
    fn a_start_that_is_waited_for_or_fails() {
        let window = AtomicUsize::new(CPU_WINDOW);
        let (mut engines, _, gate) = gated(&[], 0, false, false);
        for _ in 0..3 {
            assert!(engines.next(&window).unwrap().is_none(), "not ready before it is let go");
        }
        let (go, done) = gate.go.unwrap();
        go.send(()).unwrap();
        done.recv().unwrap();
        while engines.next(&window).unwrap().is_none() {
            std::thread::yield_now();
        }
        assert_eq!(window.load(Ordering::Acquire), GPU_WINDOW, "the reader is told the new size");
        assert_eq!(engines.finish().unwrap(), Outcome::default());

        // Fails, and the run needs it: an error at the next window.
        let (mut engines, _, gate) = gated(&[], 0, true, false);
        let (go, done) = gate.go.unwrap();
        go.send(()).unwrap();
        done.recv().unwrap();
        let e = loop {
            match engines.next(&window) {
                Ok(None) => std::thread::yield_now(),
                Ok(Some(_)) => panic!("a failed start gave an engine"),
                Err(e) => break e,
            }
        };
        assert!(matches!(e, SealedError::GpuStart(_)), "{e:?}");

        // Fails after the run ended: the run fails all the same, or goes on (or_cpu).
        for or_cpu in [false, true] {
            let (engines, _, gate) = gated(&[], 0, true, or_cpu);
            let (go, _done) = gate.go.unwrap();
            go.send(()).unwrap();
            let r = engines.finish();
            if or_cpu {
                assert_eq!(r.unwrap().failure.as_deref(), Some("no GPU here"));
            } else {
                assert!(matches!(r, Err(SealedError::GpuStart(_))), "{r:?}");
            }
        }
    }

    #[test]
    fn windows_move_to_the_started_engine_with_the_same_bytes() {
        let cs = 16;
        let plain = data(1000 * cs + 5);
        let want = cpu_file(&plain);
        let chunks = 1001u64;
        // Ready before the first window; after 100 chunks (50 CPU windows);
        // with the last window (at the end of the input).
        for at in [0, 100 * cs, plain.len()] {
            let (engines, windows, gate) = gated(&plain, at, false, false);
            let mut file = Vec::new();
            let r = seal_windows(engines, CPU_WINDOW, &header(), &KEY, gate, &mut file).unwrap();
            assert!(file == want, "ready at byte {at}: the CPU's bytes");
            assert_eq!((r.chunks, r.plaintext_bytes, r.gpu_failure.as_deref()), (chunks, plain.len() as u64, None));
            let windows = windows.lock().unwrap();
            if at < plain.len() {
                check_windows(&windows, chunks, &r);
            }
            if at == 100 * cs {
                // Windows well before the gate cannot have waited for it.
                assert!(r.gpu_chunks <= chunks - 100 + 4 * (CPU_WINDOW as u64 + 1), "{}", r.gpu_chunks);
            }

            // Opened the same way: the plaintext, counted per engine.
            let (engines, windows, gate) = gated(&want[24..], at, false, false);
            let mut out = Vec::new();
            let r = open_windows(engines, CPU_WINDOW, &header(), &KEY, gate, &mut out).unwrap();
            assert!(out == plain, "ready at byte {at}: the plaintext");
            assert_eq!(r.chunks, chunks);
            if at < want.len() - 24 {
                check_windows(&windows.lock().unwrap(), chunks, &r);
            }
        }
    }

    #[test]
    fn a_start_that_fails_stops_the_run_or_leaves_it_to_the_cpu() {
        let plain = data(300 * 16 + 3);
        let want = cpu_file(&plain);
        for at in [0, 100 * 16] {
            let (engines, windows, gate) = gated(&plain, at, true, true);
            let mut file = Vec::new();
            let r = seal_windows(engines, CPU_WINDOW, &header(), &KEY, gate, &mut file).unwrap();
            assert!(file == want);
            assert_eq!((r.gpu_chunks, r.gpu_failure.as_deref()), (0, Some("no GPU here")));
            assert!(windows.lock().unwrap().is_empty());

            let (engines, _, gate) = gated(&plain, at, true, false);
            let r = seal_windows(engines, CPU_WINDOW, &header(), &KEY, gate, Vec::new());
            assert!(matches!(r, Err(SealedError::GpuStart(_))), "{r:?}");
            let (engines, _, gate) = gated(&want[24..], at, true, false);
            let r = open_windows(engines, CPU_WINDOW, &header(), &KEY, gate, Vec::new());
            assert!(matches!(r, Err(SealedError::GpuStart(_))), "{r:?}");
        }
    }

    #[test]
    fn a_slower_engine_kept_only_while_faster_gives_the_rest_back_to_the_cpu() {
        let cs = 16;
        let plain = data(2000 * cs + 7);
        let want = cpu_file(&plain);
        let chunks = 2001u64;
        // Ready after 40 chunks (20 CPU windows timed), then 20 ms a window
        // slower than the CPU's microseconds: left after its first 1 +
        // JUDGE_AFTER windows, the rest on the CPU, the bytes the CPU's.
        let judged = 1 + JUDGE_AFTER as usize;
        for while_faster in [true, false] {
            let (engines, windows, gate) = gated_slow(&plain, 40 * cs, false, true, Duration::from_millis(20));
            let engines = engines.while_faster(while_faster);
            let mut file = Vec::new();
            let r = seal_windows(engines, CPU_WINDOW, &header(), &KEY, gate, &mut file).unwrap();
            assert!(file == want, "while_faster {while_faster}: the CPU's bytes");
            assert_eq!(r.chunks, chunks);
            let windows = windows.lock().unwrap();
            if while_faster {
                assert_eq!(windows.len(), judged, "{windows:?}");
                let why = r.gpu_left.as_deref().unwrap_or("");
                assert!(why.starts_with("slower than the CPU here ("), "{why}");
                assert!(r.gpu_chunks > 0 && r.gpu_chunks < chunks / 4, "{}", r.gpu_chunks);
            } else {
                // Kept to the end when not asked to judge.
                assert_eq!(r.gpu_left, None);
                check_windows(&windows, chunks, &r);
            }
        }

        // Opening: the same switch, the plaintext unchanged.
        let (engines, windows, gate) = gated_slow(&want[24..], 40 * (cs + 16), false, true, Duration::from_millis(20));
        let mut out = Vec::new();
        let r = open_windows(engines.while_faster(true), CPU_WINDOW, &header(), &KEY, gate, &mut out).unwrap();
        assert!(out == plain);
        assert_eq!(windows.lock().unwrap().len(), judged);
        assert!(r.gpu_left.is_some());

        // A stand-in as fast as the CPU is kept.
        let (engines, windows, gate) = gated(&plain, 40 * cs, false, true);
        let mut file = Vec::new();
        let r = seal_windows(engines.while_faster(true), CPU_WINDOW, &header(), &KEY, gate, &mut file).unwrap();
        assert!(file == want);
        // (Equal rates: either way is right; the windows must stay whole and in order.)
        if r.gpu_left.is_none() {
            check_windows(&windows.lock().unwrap(), chunks, &r);
        }
    }

    #[test]
    fn a_damaged_file_fails_as_on_the_cpu_whichever_engine_finds_it() {
        let cs = 16;
        let piece = cs + 16;
        let plain = data(400 * cs + 9);
        let file = cpu_file(&plain);
        // Damage in a window the CPU does (chunk 3, before the gate at chunk
        // 100), in one the stand-in does (chunk 300); cut inside chunk 350;
        // cut at a chunk boundary.
        let mut cases = vec![];
        for chunk in [3usize, 300] {
            let mut bad = file.clone();
            bad[24 + chunk * piece + 5] ^= 4;
            cases.push(bad);
        }
        cases.push(file[..24 + 350 * piece + 7].to_vec());
        cases.push(file[..24 + 350 * piece].to_vec());
        for bad in cases {
            let want = cpu_open_file(&bad);
            assert!(want.1.starts_with("Err"), "{want:?}");
            for or_cpu in [false, true] {
                let (engines, _, gate) = gated(&bad[24..], 100 * piece, false, or_cpu);
                let mut out = Vec::new();
                let r = open_windows(engines, CPU_WINDOW, &header(), &KEY, gate, &mut out);
                let got = (out, format!("{:?}", r.map(|r| (r.chunks, r.plaintext_bytes))));
                assert!(got == want, "{}: {} vs {}", bad.len(), got.1, want.1);
            }
        }
    }
}
