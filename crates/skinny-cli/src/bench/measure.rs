//! The timing itself: end to end through an [`Engine`] (host buffer in, host
//! buffer out) and kernel-only through [`DeviceBench`], with the statistics and
//! the speed-ups computed from them.

use super::plan::{Plan, MIN_RUNS_UNDER_BUDGET};
use rand::RngCore;
use skinny::counter::Counter;
use skinny::Skinny;
use skinny_bulk::backend::{Backend, Engine};
use skinny_bulk::mode::{Direction, Mode};
use skinny_bulk::Error as EngineError;
use std::time::{Duration, Instant};

/// Untimed kernel launches before the timed ones (device bench).
pub const KERNEL_WARMUP: usize = 3;
/// Cap on operations repeated inside one timed run.
const MAX_REPS: usize = 1 << 20;

/// What a time covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Host buffer in, host buffer out: transfers and launch overhead included,
    /// through the engine's fastest path (pinned double-buffering for GPU calls
    /// of several MiB).
    EndToEnd,
    /// The kernel alone on resident data, timed with device events.
    Kernel,
    /// End to end through plain copies from and to pageable host memory, one
    /// piece at a time (the paper's way); GPU backends only.
    Pageable,
    /// Everything per operation, as a program that does one job would see it:
    /// opening an engine for the key (module instance, key and table upload,
    /// stream), device allocation, plain pageable copies, the kernel, and
    /// freeing it all again; GPU backends only.
    Cold,
}

impl Timing {
    /// Every timing, in the order measured.
    pub const ALL: [Timing; 4] = [Timing::EndToEnd, Timing::Kernel, Timing::Pageable, Timing::Cold];

    /// The name in CSV and JSON, and for `--timings`.
    pub const fn name(self) -> &'static str {
        match self {
            Timing::EndToEnd => "end-to-end",
            Timing::Kernel => "kernel",
            Timing::Pageable => "pageable",
            Timing::Cold => "cold",
        }
    }

    /// The short name in series labels (`gpu-paper e2e`).
    pub const fn short(self) -> &'static str {
        match self {
            Timing::EndToEnd => "e2e",
            Timing::Kernel => "kernel",
            Timing::Pageable => "pageable",
            Timing::Cold => "cold",
        }
    }

    /// From [`Timing::name`] or [`Timing::short`], any case.
    pub fn from_name(s: &str) -> Option<Self> {
        let s = s.trim();
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(s) || t.short().eq_ignore_ascii_case(s))
    }

    /// Index into per-timing arrays.
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One backend opened for the bench, with its key engine and setup costs.
pub struct Subject {
    /// The command-line name of the backend.
    pub name: &'static str,
    /// The backend.
    pub backend: Box<dyn Backend>,
    /// The engine for the bench key.
    pub engine: Box<dyn Engine>,
    /// Seconds to open the backend (device, context, module).
    pub open_secs: f64,
    /// Seconds to open the engine for the key (round tweakeys, buffers).
    pub engine_secs: f64,
    /// Whether the backend has a kernel-only timer.
    pub has_kernel: bool,
    /// The same backend opened for plain pageable copies, with its engine:
    /// the [`Timing::Pageable`] and [`Timing::Cold`] series (GPU backends, when asked).
    pub pageable: Option<(Box<dyn Backend>, Box<dyn Engine>)>,
    /// The timings asked for (those this subject cannot do are left out).
    pub asked: Vec<Timing>,
    /// Set once a measurement failed, per timing: left out after that.
    pub failed: [bool; 4],
}

impl Subject {
    /// Opens the engine for `cipher` on `backend`, timing it.
    ///
    /// # Errors
    /// The backend's message.
    pub fn open(backend: Box<dyn Backend>, open_secs: f64, cipher: &Skinny) -> Result<Self, skinny_bulk::Error> {
        let t = Instant::now();
        let engine = backend.engine(cipher)?;
        let engine_secs = t.elapsed().as_secs_f64();
        let has_kernel = backend.device_bench().is_some();
        Ok(Self {
            name: backend.name(),
            backend,
            engine,
            open_secs,
            engine_secs,
            has_kernel,
            pageable: None,
            asked: vec![Timing::EndToEnd, Timing::Kernel],
            failed: [false; 4],
        })
    }

    /// Adds the backend opened for plain pageable copies (the pageable and cold series).
    ///
    /// # Errors
    /// The backend's message.
    pub fn with_pageable(mut self, backend: Box<dyn Backend>, cipher: &Skinny) -> Result<Self, skinny_bulk::Error> {
        let engine = backend.engine(cipher)?;
        self.pageable = Some((backend, engine));
        Ok(self)
    }

    /// Whether this subject has several series (and so labels them by timing).
    pub fn several(&self) -> bool {
        self.has_kernel || self.pageable.is_some()
    }

    /// The series this subject yields: end to end always (the CPU baselines'
    /// only one), the others when asked and possible.
    pub fn timings(&self) -> Vec<Timing> {
        Timing::ALL
            .into_iter()
            .filter(|t| match t {
                Timing::EndToEnd => true,
                Timing::Kernel => self.has_kernel && self.asked.contains(t),
                Timing::Pageable | Timing::Cold => self.pageable.is_some() && self.asked.contains(t),
            })
            .collect()
    }
}

/// A series' label in tables and charts: the backend name, with the timing
/// added for backends that have several.
pub fn series_label(backend: &str, timing: Timing, several: bool) -> String {
    if several {
        format!("{backend} {}", timing.short())
    } else {
        backend.to_string()
    }
}

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
    /// Series label (backend, plus timing where a backend has two).
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
    /// Against `cpu-serial` (None for itself or when not measured).
    pub vs_cpu_serial: Option<SpeedUp>,
    /// Against `cpu` (None for itself or when not measured).
    pub vs_cpu: Option<SpeedUp>,
    /// Against `cpu-serial`, from the means (the paper averaged its runs).
    pub vs_cpu_serial_mean: Option<SpeedUp>,
    /// Against `cpu`, from the means.
    pub vs_cpu_mean: Option<SpeedUp>,
}

impl Record {
    /// Timed runs.
    pub fn runs(&self) -> usize {
        self.times_ms.len()
    }
    /// Mean ms.
    pub fn mean_ms(&self) -> f64 {
        super::stats::mean(&self.times_ms)
    }
    /// Maximum ms.
    pub fn max_ms(&self) -> f64 {
        self.times_ms.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    }
    /// Sample standard deviation of the runs, ms (0 for one run).
    pub fn sd_ms(&self) -> f64 {
        super::stats::sample_sd(&self.times_ms)
    }
    /// Median ms (mean of the two middle runs for an even count).
    pub fn median_ms(&self) -> f64 {
        median(&self.times_ms)
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
}

/// Decimal gigabits per second: bytes * 8 / 1e9 / seconds.
pub fn gbps(bytes: usize, ms: f64) -> f64 {
    bytes as f64 * 8.0 / 1e9 / (ms / 1e3)
}

/// Median of a non-empty slice (NaN for an empty one).
pub fn median(v: &[f64]) -> f64 {
    super::stats::median(v)
}

/// The work of one point, for [`time_engine`].
fn call(
    engine: &mut dyn Engine,
    mode: Mode,
    dir: Direction,
    counter: &[u8],
    buf: &mut [u8],
) -> Result<(), EngineError> {
    match mode {
        Mode::Ctr => engine.ctr(
            Counter::from_block(counter)
                .map_err(|_| EngineError::IvLength { variant: skinny::Variant::Skinny128_256, got: counter.len() })?,
            buf,
        ),
        // The plan admits ECB and CTR only.
        _ => engine.ecb(dir, buf),
    }
}

/// The outcome of [`time_engine`].
pub struct EngineTimes {
    /// The warm-up call, ms.
    pub warmup_ms: f64,
    /// Operations per timed run.
    pub reps: usize,
    /// Ms per operation, one per run.
    pub times_ms: Vec<f64>,
}

/// How many timed runs, how long each lasts at least, and the optional cap on a
/// point's total timed time.
#[derive(Clone, Copy, Debug)]
pub struct RunSettings {
    /// Timed runs wanted.
    pub runs: usize,
    /// Minimum length of one timed run (tiny operations are repeated).
    pub min_run: Duration,
    /// Stop after this much timed time, keeping at least [`MIN_RUNS_UNDER_BUDGET`] runs.
    pub budget: Option<Duration>,
}

/// End-to-end timing of one point: one warm-up call (timed apart), then `runs`
/// timed runs, each repeating the operation often enough to last `min_run`, each
/// working in place on the buffer the previous one left (random-looking data of
/// the same size: the same work every time).
///
/// # Errors
/// The engine's.
pub fn time_engine(
    engine: &mut dyn Engine,
    mode: Mode,
    dir: Direction,
    counter: &[u8],
    buf: &mut [u8],
    set: RunSettings,
) -> Result<EngineTimes, EngineError> {
    time_op(|| call(engine, mode, dir, counter, buf), set)
}

/// Cold timing of one point: every operation opens an engine for the key on
/// `backend` (module instance, key and table upload, stream), runs one call
/// (device allocation, copies, kernel) and drops the engine (device memory
/// freed, round tweakeys wiped, module unloaded), all inside the timed run.
///
/// # Errors
/// The backend's or the engine's.
#[allow(clippy::too_many_arguments)]
pub fn time_cold(
    backend: &dyn Backend,
    cipher: &Skinny,
    mode: Mode,
    dir: Direction,
    counter: &[u8],
    buf: &mut [u8],
    set: RunSettings,
) -> Result<EngineTimes, EngineError> {
    time_op(
        || {
            let mut engine = backend.engine(cipher)?;
            call(engine.as_mut(), mode, dir, counter, buf)
        },
        set,
    )
}

/// The timing loop of [`time_engine`] and [`time_cold`] around any operation.
///
/// # Errors
/// The operation's.
pub fn time_op(mut op: impl FnMut() -> Result<(), EngineError>, set: RunSettings) -> Result<EngineTimes, EngineError> {
    let RunSettings { runs, min_run, budget } = set;
    let t = Instant::now();
    op()?;
    let warm = t.elapsed();

    // How many operations make one run last `min_run`: double until a batch takes
    // a quarter of it, then scale. Large sizes skip this (one call is enough).
    let reps = if warm >= min_run {
        1
    } else {
        let mut n = 1usize;
        loop {
            let t = Instant::now();
            for _ in 0..n {
                op()?;
            }
            let took = t.elapsed();
            if took >= min_run / 4 || n >= MAX_REPS {
                let per = took.as_secs_f64() / n as f64;
                break ((min_run.as_secs_f64() / per.max(1e-12)).ceil() as usize).clamp(1, MAX_REPS);
            }
            n *= 2;
        }
    };

    let mut times_ms = Vec::with_capacity(runs);
    let start = Instant::now();
    while times_ms.len() < runs {
        let t = Instant::now();
        for _ in 0..reps {
            op()?;
        }
        times_ms.push(t.elapsed().as_secs_f64() * 1e3 / reps as f64);
        if let Some(b) = budget {
            if times_ms.len() >= MIN_RUNS_UNDER_BUDGET && start.elapsed() >= b {
                break;
            }
        }
    }
    Ok(EngineTimes { warmup_ms: warm.as_secs_f64() * 1e3, reps, times_ms })
}

/// Random bytes (never zeros), fresh for each size.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rand::rng().fill_bytes(&mut v);
    v
}

/// Hooks the runner calls, so the CLI can drive a progress bar and print notices
/// while tests stay silent.
pub trait Observer {
    /// A point is about to be measured.
    fn start(&mut self, what: &str);
    /// A point is done.
    fn done(&mut self);
    /// A one-line notice (a backend dropped after a failure).
    fn notice(&mut self, line: &str);
}

/// Measures every point of the plan on every subject, in the order mode,
/// direction, size, subject, timing. A subject whose engine or kernel fails is
/// reported once through `obs.notice` and left out for the rest of the run.
pub fn measure_all(plan: &Plan, cipher: &Skinny, subjects: &mut [Subject], obs: &mut dyn Observer) -> Vec<Record> {
    let set = RunSettings {
        runs: plan.runs,
        min_run: Duration::from_secs_f64(plan.min_run_secs),
        budget: plan.max_time_per_size.map(Duration::from_secs_f64),
    };
    let bs = cipher.block_bytes();
    let mut records = Vec::new();
    for &mode in &plan.modes {
        for &dir in &plan.directions {
            for &bytes in &plan.sizes {
                let data = random_bytes(bytes);
                let counter = random_bytes(bs);
                let mut work = vec![0u8; bytes];
                for s in subjects.iter_mut() {
                    for timing in s.timings() {
                        let slot = timing.index();
                        if s.failed[slot] {
                            continue;
                        }
                        let label = series_label(s.name, timing, s.several());
                        obs.start(&format!("{mode} {} {} {label}", dir_name(dir), super::plan::size_label(bytes)));
                        let outcome = match timing {
                            Timing::EndToEnd => {
                                work.copy_from_slice(&data);
                                time_engine(s.engine.as_mut(), mode, dir, &counter, &mut work, set)
                                    .map(|t| (t.reps, t.times_ms, Some(t.warmup_ms)))
                                    .map_err(|e| e.to_string())
                            }
                            Timing::Pageable | Timing::Cold => match s.pageable.as_mut() {
                                Some((backend, engine)) => {
                                    work.copy_from_slice(&data);
                                    let times = if timing == Timing::Cold {
                                        time_cold(backend.as_ref(), cipher, mode, dir, &counter, &mut work, set)
                                    } else {
                                        time_engine(engine.as_mut(), mode, dir, &counter, &mut work, set)
                                    };
                                    times.map(|t| (t.reps, t.times_ms, Some(t.warmup_ms))).map_err(|e| e.to_string())
                                }
                                None => Err("no pageable engine".to_string()),
                            },
                            Timing::Kernel => match s.backend.device_bench() {
                                Some(db) => db
                                    .time_kernel(cipher, mode, dir, bytes, KERNEL_WARMUP, plan.runs)
                                    .map_err(|e| e.to_string())
                                    .and_then(|v| {
                                        if v.is_empty() || v.iter().any(|t| !t.is_finite() || *t <= 0.0) {
                                            Err("the device timer returned no usable times".to_string())
                                        } else {
                                            Ok(v)
                                        }
                                    })
                                    .map(|v| (1, v, None)),
                                None => Err("no kernel timer".to_string()),
                            },
                        };
                        match outcome {
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
                                vs_cpu_serial: None,
                                vs_cpu: None,
                                vs_cpu_serial_mean: None,
                                vs_cpu_mean: None,
                            }),
                            Err(e) => {
                                s.failed[slot] = true;
                                obs.notice(&format!(
                                    "{label} failed at {mode} {} {}: {e}; left out from here on",
                                    dir_name(dir),
                                    super::plan::size_label(bytes)
                                ));
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

/// `encrypt` or `decrypt`.
pub const fn dir_name(d: Direction) -> &'static str {
    match d {
        Direction::Encrypt => "encrypt",
        Direction::Decrypt => "decrypt",
    }
}

/// Fills the speed-ups of every record against the end-to-end medians (and
/// means) of `cpu-serial` and `cpu` at the same variant, mode, direction and size.
pub fn add_speedups(records: &mut [Record]) {
    let find = |records: &[Record], r: &Record, base: &str| {
        records
            .iter()
            .find(|b| {
                b.backend == base
                    && b.timing == Timing::EndToEnd
                    && b.variant == r.variant
                    && b.mode == r.mode
                    && b.direction == r.direction
                    && b.bytes == r.bytes
            })
            .map(|b| (b.median_ms(), b.mean_ms()))
    };
    for i in 0..records.len() {
        let r = &records[i];
        let (this, this_mean) = (r.median_ms(), r.mean_ms());
        let is = |name: &str| r.backend == name && r.timing == Timing::EndToEnd;
        let serial = if is("cpu-serial") { None } else { find(records, r, "cpu-serial") };
        let cpu = if is("cpu") { None } else { find(records, r, "cpu") };
        records[i].vs_cpu_serial = serial.map(|(t, _)| SpeedUp::of(t, this));
        records[i].vs_cpu = cpu.map(|(t, _)| SpeedUp::of(t, this));
        records[i].vs_cpu_serial_mean = serial.map(|(_, t)| SpeedUp::of(t, this_mean));
        records[i].vs_cpu_mean = cpu.map(|(_, t)| SpeedUp::of(t, this_mean));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny::Variant;
    use skinny_bulk::backend::{BackendChoice, DeviceBench};
    use std::cell::Cell;

    /// A pretend GPU: its engine XORs a constant (cheap, deterministic) and its
    /// kernel timer returns fixed times, or fails from a given size on.
    struct FakeGpu {
        fail_from: usize,
        calls: std::sync::Mutex<Vec<usize>>,
    }

    struct FakeEngine;

    impl Engine for FakeEngine {
        fn ecb(&mut self, _dir: Direction, blocks: &mut [u8]) -> Result<(), EngineError> {
            blocks.iter_mut().for_each(|b| *b ^= 0x5a);
            Ok(())
        }
        fn ctr(&mut self, _counter: Counter, data: &mut [u8]) -> Result<(), EngineError> {
            data.iter_mut().for_each(|b| *b ^= 0xa5);
            Ok(())
        }
    }

    impl Backend for FakeGpu {
        fn name(&self) -> &'static str {
            "gpu"
        }
        fn describe(&self) -> String {
            "fake".into()
        }
        fn constant_time(&self) -> bool {
            false
        }
        fn supports(&self, _v: Variant) -> bool {
            true
        }
        fn engine_for(
            &self,
            _c: &Skinny,
            _w: &skinny_bulk::backend::Workload,
        ) -> Result<Box<dyn Engine>, skinny_bulk::Error> {
            Ok(Box::new(FakeEngine))
        }
        fn device_bench(&self) -> Option<&dyn DeviceBench> {
            Some(self)
        }
    }

    impl DeviceBench for FakeGpu {
        fn time_kernel(
            &self,
            _c: &Skinny,
            _m: Mode,
            _d: Direction,
            bytes: usize,
            warmup: usize,
            runs: usize,
        ) -> Result<Vec<f64>, EngineError> {
            assert_eq!(warmup, KERNEL_WARMUP);
            self.calls.lock().unwrap().push(bytes);
            if bytes >= self.fail_from {
                return Err(EngineError::Unsupported { backend: "gpu", variant: Variant::Skinny128_256 });
            }
            // 1 µs per KiB, plus run-to-run spread.
            Ok((0..runs).map(|i| bytes as f64 / 1024.0 * 1e-3 * (1.0 + i as f64 / 10.0)).collect())
        }
    }

    struct Quiet {
        notices: Vec<String>,
        done: Cell<usize>,
    }

    impl Observer for Quiet {
        fn start(&mut self, _: &str) {}
        fn done(&mut self) {
            self.done.set(self.done.get() + 1);
        }
        fn notice(&mut self, line: &str) {
            self.notices.push(line.to_string());
        }
    }

    fn plan(sizes: Vec<usize>) -> Plan {
        Plan {
            variant: Variant::Skinny128_256,
            modes: vec![Mode::Ecb, Mode::Ctr],
            directions: vec![Direction::Encrypt],
            sizes,
            backends: vec![BackendChoice::CpuSerial, BackendChoice::Gpu],
            runs: 3,
            timings: Timing::ALL.to_vec(),
            max_time_per_size: None,
            min_run_secs: 1e-4,
            threads: None,
            gpus: skinny_bulk::backend::GpuSelection::All,
        }
    }

    #[test]
    fn fake_gpu_yields_both_timings_and_speedups_and_drops_after_failure() {
        let cipher = Skinny::new(Variant::Skinny128_256, &random_bytes(32)).unwrap();
        let serial =
            skinny_bulk::backend::open(BackendChoice::CpuSerial, &skinny_bulk::backend::Options::default()).unwrap();
        let gpu = Box::new(FakeGpu { fail_from: 1024, calls: Default::default() });
        let mut subjects =
            vec![Subject::open(serial, 0.0, &cipher).unwrap(), Subject::open(gpu, 0.0, &cipher).unwrap()];
        let mut obs = Quiet { notices: vec![], done: Cell::new(0) };
        let recs = measure_all(&plan(vec![64, 512, 1024, 2048]), &cipher, &mut subjects, &mut obs);

        // Kernel failed at 1024 in ECB: reported once, no kernel record from there
        // on (CTR included), end-to-end records unaffected.
        assert_eq!(obs.notices.len(), 1, "{:?}", obs.notices);
        assert!(obs.notices[0].contains("gpu kernel failed at ecb encrypt 1 KiB"), "{}", obs.notices[0]);
        let kernel: Vec<_> = recs.iter().filter(|r| r.timing == Timing::Kernel).map(|r| (r.mode, r.bytes)).collect();
        assert_eq!(kernel, vec![(Mode::Ecb, 64), (Mode::Ecb, 512)]);
        let e2e = recs.iter().filter(|r| r.timing == Timing::EndToEnd).count();
        assert_eq!(e2e, 2 * 2 * 4);
        // Every point attempted was reported done: 2 modes x 4 sizes x 2 e2e + 3 kernel.
        assert_eq!(obs.done.get(), 2 * 4 * 2 + 3);

        for r in &recs {
            assert_eq!(r.runs(), 3);
            assert!(r.min_ms() <= r.median_ms() && r.median_ms() <= r.times_ms.iter().copied().fold(0.0, f64::max));
            match (r.backend, r.timing) {
                ("cpu-serial", _) => assert!(r.vs_cpu_serial.is_none() && r.vs_cpu.is_none()),
                ("gpu", t) => {
                    let serial = recs
                        .iter()
                        .find(|b| b.backend == "cpu-serial" && b.mode == r.mode && b.bytes == r.bytes)
                        .unwrap();
                    let su = r.vs_cpu_serial.unwrap();
                    assert!((su.speedup - serial.median_ms() / r.median_ms()).abs() < 1e-12);
                    assert!((su.efficiency - (1.0 - 1.0 / su.speedup)).abs() < 1e-9);
                    assert!(r.vs_cpu.is_none());
                    assert_eq!(r.warmup_ms.is_some(), t == Timing::EndToEnd);
                    if t == Timing::Kernel {
                        // 1.0, 1.1, 1.2 µs per KiB: median 1.1.
                        assert!((r.median_ms() - r.bytes as f64 / 1024.0 * 1.1e-3).abs() < 1e-15);
                    }
                }
                _ => unreachable!(),
            }
        }
    }

    #[test]
    fn tiny_sizes_repeat_inside_a_run() {
        let cipher = Skinny::new(Variant::Skinny128_256, &random_bytes(32)).unwrap();
        let mut engine = FakeEngine;
        let mut buf = random_bytes(16);
        let set = RunSettings { runs: 4, min_run: Duration::from_millis(1), budget: None };
        let t = time_engine(&mut engine, Mode::Ecb, Direction::Encrypt, &[0; 16], &mut buf, set).unwrap();
        assert_eq!(t.times_ms.len(), 4);
        assert!(t.reps > 1, "a 16-byte XOR must be repeated to reach 1 ms, got {}", t.reps);
        drop(cipher);
    }

    #[test]
    fn budget_keeps_at_least_three_runs() {
        let mut engine = FakeEngine;
        let mut buf = random_bytes(1 << 16);
        let t = time_engine(
            &mut engine,
            Mode::Ctr,
            Direction::Encrypt,
            &[0; 16],
            &mut buf,
            RunSettings { runs: 1000, min_run: Duration::from_micros(1), budget: Some(Duration::ZERO) },
        )
        .unwrap();
        assert_eq!(t.times_ms.len(), MIN_RUNS_UNDER_BUDGET);
    }

    #[test]
    fn stats_and_units() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        // 125 MB in 1 s is exactly 1 Gb/s (decimal).
        assert!((gbps(125_000_000, 1000.0) - 1.0).abs() < 1e-12);
        let s = SpeedUp::of(10.0, 2.0);
        assert_eq!((s.speedup, s.efficiency), (5.0, 0.8));
    }
}
