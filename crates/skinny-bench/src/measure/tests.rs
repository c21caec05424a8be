use super::*;
use crate::plan::MIN_RUNS_UNDER_BUDGET;
use skinny::counter::Counter;
use skinny::Variant;
use skinny_bulk::backend::{Backend, BackendChoice, BlockEngine, DeviceBench};
use skinny_bulk::mode::{Direction, Mode};
use skinny_bulk::Error as EngineError;

/// A pretend GPU: its engine XORs a constant (cheap, deterministic) and its
/// kernel timer returns fixed times, or fails from a given size on.
struct FakeGpu {
    fail_from: usize,
    calls: std::sync::Mutex<Vec<usize>>,
}

struct FakeEngine;

impl BlockEngine for FakeEngine {
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
    ) -> Result<Box<dyn BlockEngine>, EngineError> {
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

#[derive(Default)]
struct Quiet {
    notices: Vec<String>,
    done: usize,
}

impl Observer for Quiet {
    fn start(&mut self, _: &str) {}
    fn done(&mut self) {
        self.done += 1;
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
    let mut subjects = vec![Subject::open(serial, 0.0, &cipher).unwrap(), Subject::open(gpu, 0.0, &cipher).unwrap()];
    let mut obs = Quiet::default();
    let plan = plan(vec![64, 512, 1024, 2048]);
    let expected = points(&plan, &subjects);
    let recs = measure_all(&plan, &cipher, &mut subjects, &mut obs);

    // Kernel failed at 1024 in ECB: reported once, no kernel record from there
    // on (CTR included), end-to-end records unaffected.
    assert_eq!(obs.notices.len(), 1, "{:?}", obs.notices);
    assert!(obs.notices[0].contains("gpu kernel failed at ecb encrypt 1 KiB"), "{}", obs.notices[0]);
    let kernel: Vec<_> = recs.iter().filter(|r| r.timing == Timing::Kernel).map(|r| (r.mode, r.bytes)).collect();
    assert_eq!(kernel, vec![(Mode::Ecb, 64), (Mode::Ecb, 512)]);
    let e2e = recs.iter().filter(|r| r.timing == Timing::EndToEnd).count();
    assert_eq!(e2e, 2 * 2 * 4);
    // Every point attempted was reported done: 2 modes x 4 sizes x 2 e2e + 3 kernel.
    assert_eq!(obs.done, 2 * 4 * 2 + 3);
    // The count announced beforehand assumes nothing fails: 2 modes x 4 sizes x 3 series.
    assert_eq!(expected, 2 * 4 * 3);

    for r in &recs {
        assert_eq!(r.runs(), 3);
        assert!(r.min_ms() <= r.median_ms() && r.median_ms() <= r.times_ms.iter().copied().fold(0.0, f64::max));
        match (r.backend, r.timing) {
            ("cpu-serial", _) => assert!(r.speedups.serial.is_none() && r.speedups.cpu.is_none()),
            ("gpu", t) => {
                let serial =
                    recs.iter().find(|b| b.backend == "cpu-serial" && b.mode == r.mode && b.bytes == r.bytes).unwrap();
                let su = r.speedups.serial.unwrap();
                assert!((su.speedup - serial.median_ms() / r.median_ms()).abs() < 1e-12);
                assert!((su.efficiency - (1.0 - 1.0 / su.speedup)).abs() < 1e-9);
                assert!(r.speedups.cpu.is_none());
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
    let mut engine = FakeEngine;
    let mut buf = random_bytes(16);
    let set = RunSettings { runs: 4, min_run: Duration::from_millis(1), budget: None };
    let work = Work { mode: Mode::Ecb, dir: Direction::Encrypt, counter: &[0; 16] };
    let t = time_engine(&mut engine, work, &mut buf, set).unwrap();
    assert_eq!(t.times_ms.len(), 4);
    assert!(t.reps > 1, "a 16-byte XOR must be repeated to reach 1 ms, got {}", t.reps);
}

#[test]
fn budget_keeps_at_least_three_runs() {
    let mut engine = FakeEngine;
    let mut buf = random_bytes(1 << 16);
    let work = Work { mode: Mode::Ctr, dir: Direction::Encrypt, counter: &[0; 16] };
    let set = RunSettings { runs: 1000, min_run: Duration::from_micros(1), budget: Some(Duration::ZERO) };
    let t = time_engine(&mut engine, work, &mut buf, set).unwrap();
    assert_eq!(t.times_ms.len(), MIN_RUNS_UNDER_BUDGET);
}

#[test]
fn cold_opens_an_engine_per_operation() {
    let cipher = Skinny::new(Variant::Skinny128_256, &random_bytes(32)).unwrap();
    let gpu = FakeGpu { fail_from: usize::MAX, calls: Default::default() };
    let mut buf = random_bytes(64);
    let work = Work { mode: Mode::Ctr, dir: Direction::Encrypt, counter: &[0; 16] };
    let set = RunSettings { runs: 2, min_run: Duration::ZERO, budget: None };
    let t = time_cold(&gpu, &cipher, work, &mut buf, set).unwrap();
    assert_eq!((t.reps, t.times_ms.len()), (1, 2));
}
