//! The switch without a GPU: a stand-in "GPU" that runs the CPU's code a
//! window at a time and records the windows it got, started by a function
//! that waits until the input has been read up to a point (or fails).
use super::engine::{reason, Engines, WindowEngine};
use super::payload::{Nonces, Stream};
use super::placement::Opened;
use super::run::{open_windows, seal_windows};
use crate::error::{EngineError, OpenError, SealError};
use crate::header::v1::V1Header;
use crate::report::SealReport as Report;
use crate::scheme::Scheme;
use skinny_exec::handover::{Keep, OnFailure, Opener, JUDGE_AFTER};
use skinny_exec::pipeline::Window;
use std::io::{self, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::mpsc::{Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use zeroize::Zeroizing;

const KEY: [u8; 16] = [0x5a; 16];
/// Pieces a window: the CPU's, and the stand-in's once it is ready.
const CPU_WINDOW: usize = 2;
const GPU_WINDOW: usize = 8;

/// The file's header: version 1, M1, 16-byte chunks.
fn header() -> V1Header {
    V1Header::new(Scheme::M1, 4, &[7u8; 11]).unwrap()
}

/// The file's payload.
fn stream() -> Stream {
    let h = header();
    Stream {
        scheme: h.scheme,
        key: Zeroizing::new(KEY),
        nonces: Nonces::new(h.scheme, h.prefix),
        ad: h.to_bytes().to_vec(),
        chunk_log2: h.chunk_log2,
        v1: true,
        data_start: 24,
    }
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
    fn seal(&mut self, w: &mut Window, ad: &[u8]) -> Result<(), EngineError> {
        self.windows.lock().unwrap().push((w.first, w.input.len()));
        std::thread::sleep(self.delay);
        assert_eq!(ad, &stream().ad[..]);
        stream().seal_window(w);
        Ok(())
    }
    fn open(&mut self, w: &mut Window, ad: &[u8]) -> Result<Vec<bool>, EngineError> {
        self.windows.lock().unwrap().push((w.first, w.input.len()));
        std::thread::sleep(self.delay);
        assert_eq!(ad, &stream().ad[..]);
        Ok(stream().open_window(w))
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
    gated_slow(data, at, fail, or_cpu, Duration::ZERO, Keep::Always)
}

/// As [`gated`], with a stand-in that takes `delay` longer a window.
fn gated_slow(
    data: &[u8],
    at: usize,
    fail: bool,
    or_cpu: bool,
    delay: Duration,
    keep: Keep,
) -> (Engines<Fake>, Log, Gate<'_>) {
    let windows = Arc::new(Mutex::new(Vec::new()));
    let (go_tx, go_rx) = sync_channel(1);
    let (done_tx, done_rx) = sync_channel(1);
    let fake = Fake { windows: windows.clone(), delay };
    let opener: Opener<Fake, EngineError> = Box::new(move || {
        let _ = go_rx.recv();
        let _ = done_tx.send(());
        if fail {
            return Err(EngineError::GpuStart("no GPU here".into()));
        }
        Ok((fake, GPU_WINDOW))
    });
    let on_failure = if or_cpu { OnFailure::UseCpu } else { OnFailure::Fail };
    let engines = Engines::starting(opener, on_failure, keep).unwrap();
    (engines, windows, Gate { data, pos: 0, at, go: Some((go_tx, done_rx)) })
}

/// `engines` as a run's, with the CPU's windows.
fn opened(engines: Engines<Fake>) -> Opened<Fake> {
    let accelerator = Arc::new(std::sync::OnceLock::new());
    Opened { engines, window: CPU_WINDOW, why_cpu: None, accelerator }
}

/// Why the run went on without the other engine, in the report's words.
fn unavailable(r: &Report) -> Option<String> {
    match &r.placed.why_cpu {
        Some(skinny_exec::WhyCpu::Unavailable(why)) => Some(why.clone()),
        _ => None,
    }
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 13 + i / 253) as u8).collect()
}

/// The file the CPU alone seals.
fn cpu_file(plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    seal_windows(opened(Engines::<Fake>::cpu()), &stream(), &header().to_bytes(), plain, &mut out).unwrap();
    out
}

/// What the CPU alone writes and returns opening `file`.
fn cpu_open_file(file: &[u8]) -> (Vec<u8>, String) {
    let mut out = Vec::new();
    let r = open_windows(opened(Engines::<Fake>::cpu()), &stream(), &file[24..], &mut out);
    (out, format!("{:?}", r.map(|r| (r.chunks, r.plaintext_bytes))))
}

/// The stand-in's windows are one run up to the last chunk, each a whole
/// window; from the first of the stand-in's size on, all have that size
/// (but the input's last window, which may hold one piece more or fewer).
fn check_windows(windows: &[(u64, usize)], chunks: u64, report: &Report) {
    assert!(!windows.is_empty(), "the stand-in did no window");
    let done: u64 = windows.iter().map(|w| w.1 as u64).sum();
    assert_eq!(done, report.placed.accelerator_units);
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
        assert!(engines.next(Some(&window)).unwrap().is_none(), "not ready before it is let go");
    }
    let (go, done) = gate.go.unwrap();
    go.send(()).unwrap();
    done.recv().unwrap();
    while engines.next(Some(&window)).unwrap().is_none() {
        std::thread::yield_now();
    }
    assert_eq!(window.load(Ordering::Acquire), GPU_WINDOW, "the reader is told the new size");
    let outcome = engines.finish().unwrap();
    assert!(outcome.failure.is_none() && outcome.left.is_none());

    // Fails, and the run needs it: an error at the next window.
    let (mut engines, _, gate) = gated(&[], 0, true, false);
    let (go, done) = gate.go.unwrap();
    go.send(()).unwrap();
    done.recv().unwrap();
    let e = loop {
        match engines.next(Some(&window)) {
            Ok(None) => std::thread::yield_now(),
            Ok(Some(_)) => panic!("a failed start gave an engine"),
            Err(e) => break e,
        }
    };
    assert!(matches!(e, EngineError::GpuStart(_)), "{e:?}");

    // Fails after the run ended: the run fails all the same, or goes on (or_cpu).
    for or_cpu in [false, true] {
        let (engines, _, gate) = gated(&[], 0, true, or_cpu);
        let (go, _done) = gate.go.unwrap();
        go.send(()).unwrap();
        let r = engines.finish();
        if or_cpu {
            assert_eq!(r.unwrap().failure.as_ref().map(reason).as_deref(), Some("no GPU here"));
        } else {
            assert!(matches!(r, Err(EngineError::GpuStart(_))), "{r:?}");
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
        let r = seal_windows(opened(engines), &stream(), &header().to_bytes(), gate, &mut file).unwrap();
        assert!(file == want, "ready at byte {at}: the CPU's bytes");
        assert_eq!((r.chunks, r.plaintext_bytes, unavailable(&r).as_deref()), (chunks, plain.len() as u64, None));
        let windows = windows.lock().unwrap();
        if at < plain.len() {
            check_windows(&windows, chunks, &r);
        }
        if at == 100 * cs {
            // Windows well before the gate cannot have waited for it.
            assert!(
                r.placed.accelerator_units <= chunks - 100 + 4 * (CPU_WINDOW as u64 + 1),
                "{}",
                r.placed.accelerator_units
            );
        }

        // Opened the same way: the plaintext, counted per engine.
        let (engines, windows, gate) = gated(&want[24..], at, false, false);
        let mut out = Vec::new();
        let r = open_windows(opened(engines), &stream(), gate, &mut out).unwrap();
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
        let r = seal_windows(opened(engines), &stream(), &header().to_bytes(), gate, &mut file).unwrap();
        assert!(file == want);
        assert_eq!((r.placed.accelerator_units, unavailable(&r).as_deref()), (0, Some("no GPU here")));
        assert!(windows.lock().unwrap().is_empty());

        let (engines, _, gate) = gated(&plain, at, true, false);
        let r = seal_windows(opened(engines), &stream(), &header().to_bytes(), gate, Vec::new());
        assert!(matches!(r, Err(SealError::Engine(EngineError::GpuStart(_)))), "{r:?}");
        let (engines, _, gate) = gated(&want[24..], at, true, false);
        let r = open_windows(opened(engines), &stream(), gate, Vec::new());
        assert!(matches!(r, Err(OpenError::Engine(EngineError::GpuStart(_)))), "{r:?}");
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
        let keep = if while_faster { Keep::WhileFaster } else { Keep::Always };
        let (engines, windows, gate) = gated_slow(&plain, 40 * cs, false, true, Duration::from_millis(20), keep);
        let mut file = Vec::new();
        let r = seal_windows(opened(engines), &stream(), &header().to_bytes(), gate, &mut file).unwrap();
        assert!(file == want, "while_faster {while_faster}: the CPU's bytes");
        assert_eq!(r.chunks, chunks);
        let windows = windows.lock().unwrap();
        if while_faster {
            assert_eq!(windows.len(), judged, "{windows:?}");
            let why = r.placed.left.map(|s| s.to_string()).unwrap_or_default();
            assert!(why.starts_with("slower than the CPU here ("), "{why}");
            assert!(
                r.placed.accelerator_units > 0 && r.placed.accelerator_units < chunks / 4,
                "{}",
                r.placed.accelerator_units
            );
        } else {
            // Kept to the end when not asked to judge.
            assert_eq!(r.placed.left, None);
            check_windows(&windows, chunks, &r);
        }
    }

    // Opening: the same switch, the plaintext unchanged.
    let (engines, windows, gate) =
        gated_slow(&want[24..], 40 * (cs + 16), false, true, Duration::from_millis(20), Keep::WhileFaster);
    let mut out = Vec::new();
    let r = open_windows(opened(engines), &stream(), gate, &mut out).unwrap();
    assert!(out == plain);
    assert_eq!(windows.lock().unwrap().len(), judged);
    assert!(r.placed.left.is_some());

    // A stand-in as fast as the CPU is kept.
    let (engines, windows, gate) = gated_slow(&plain, 40 * cs, false, true, Duration::ZERO, Keep::WhileFaster);
    let mut file = Vec::new();
    let r = seal_windows(opened(engines), &stream(), &header().to_bytes(), gate, &mut file).unwrap();
    assert!(file == want);
    // (Equal rates: either way is right; the windows must stay whole and in order.)
    if r.placed.left.is_none() {
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
            let r = open_windows(opened(engines), &stream(), gate, &mut out);
            let got = (out, format!("{:?}", r.map(|r| (r.chunks, r.plaintext_bytes))));
            assert!(got == want, "{}: {} vs {}", bad.len(), got.1, want.1);
        }
    }
}
