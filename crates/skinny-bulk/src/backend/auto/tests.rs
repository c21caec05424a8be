//! `auto` without a device: the real GPU side where there is one, and stand-in
//! GPU engines (slower, failing, panicking) to drive the hand-over's
//! decisions where there is none.
use super::*;
use skinny_exec::handover::JUDGE_AFTER;

fn cipher() -> Skinny {
    Skinny::new(Variant::Skinny128_256, &[5u8; 32]).unwrap()
}

fn auto() -> AutoBackend {
    AutoBackend::new(CpuBackend::new(Some(2)).unwrap(), GpuSelection::All)
}

/// A rule that opens the GPU as soon as the CPU has done any work.
const EAGER: Payback = Payback { open_seconds: 0.0, factor: 1.0, min_observed: Duration::ZERO, engine_bound: 0.0 };

/// `auto` whose GPU side is `open` and whose rule is [`EAGER`].
fn eager(open: OpenGpu) -> AutoBackend {
    AutoBackend::with_gpu(CpuBackend::new(Some(2)).unwrap(), GpuSelection::All, open, EAGER)
}

/// The engine itself, to look at its hand-over.
fn engine(backend: &AutoBackend, work: &Workload) -> AutoEngine {
    AutoEngine {
        cpu: backend.cpu.engine_for(&cipher(), work).unwrap(),
        handover: Handover::cpu(),
        cipher: cipher(),
        open_gpu: backend.open_gpu.clone(),
        rule: backend.rule,
        total: work.total_bytes,
        done: 0,
        started: None,
        noted: false,
        unavailable: backend.unavailable.clone(),
    }
}

/// A stand-in GPU: the CPU engine, `delay` slower per call.
struct StandIn {
    inner: Box<dyn BlockEngine>,
    delay: Duration,
}

impl BlockEngine for StandIn {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error> {
        std::thread::sleep(self.delay);
        self.inner.ecb(dir, blocks)
    }
    fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), Error> {
        std::thread::sleep(self.delay);
        self.inner.ctr(counter, data)
    }
}

/// Opens a [`StandIn`] after `opening`, `delay` slower per call than the CPU.
fn stand_in(opening: Duration, delay: Duration) -> OpenGpu {
    let cpu = CpuBackend::new(Some(2)).unwrap();
    Arc::new(move |c: &Skinny| {
        std::thread::sleep(opening);
        Ok(Box::new(StandIn { inner: cpu.engine(c)?, delay }) as Box<dyn BlockEngine>)
    })
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(37) ^ (i >> 11) as u8).collect()
}

const COUNTER: [u8; 16] = [9; 16];

/// CTR over `d` on `e`, checked against the CPU alone.
fn ctr_checked(e: &mut dyn BlockEngine, d: &[u8]) {
    let counter = Counter::from_block(&COUNTER).unwrap();
    let mut want = d.to_vec();
    CpuBackend::new(Some(1)).unwrap().engine(&cipher()).unwrap().ctr(counter, &mut want).unwrap();
    let mut got = d.to_vec();
    e.ctr(counter, &mut got).unwrap();
    assert!(got == want, "the same output whichever engine ran");
}

/// Waits (a few seconds at most) until the GPU side is no longer starting.
fn settle(e: &mut AutoEngine) {
    for _ in 0..200 {
        e.handover.is_ready(None).unwrap();
        if !matches!(e.handover.standing(), Standing::Starting) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn long_calls_cut_into_parts_give_the_same_output() {
    let backend = auto();
    let c = cipher();
    let mut a = backend.engine_for(&c, &Workload::default()).unwrap();
    let mut cpu = backend.cpu.engine(&c).unwrap();
    let len = PART_BYTES + 5 * 16;
    let data = data(len);
    let iv = [0xfeu8; 16];
    let counter = Counter::from_block(&[0xff; 16]).unwrap();
    type Op = fn(&mut dyn BlockEngine, &[u8], Counter, &mut [u8]) -> Result<(), Error>;
    let ops: [(&str, Op); 4] = [
        ("ecb", |e, _, _, d| e.ecb(Direction::Encrypt, d)),
        ("ctr", |e, _, c, d| e.ctr(c, d)),
        ("cbc", |e, iv, _, d| e.cbc_decrypt(iv, d)),
        ("cfb", |e, iv, _, d| e.cfb_decrypt(iv, d)),
    ];
    for (name, op) in ops {
        let mut want = data.clone();
        op(cpu.as_mut(), &iv, counter, &mut want).unwrap();
        let mut got = data.clone();
        op(a.as_mut(), &iv, counter, &mut got).unwrap();
        assert!(got == want, "{name} over a cut differs");
    }
}

#[test]
fn small_known_work_never_opens_a_gpu() {
    let backend = auto();
    let mut e = backend.engine_for(&cipher(), &Workload { total_bytes: Some(1 << 20) }).unwrap();
    let mut data = vec![1u8; 1 << 20];
    e.ecb(Direction::Encrypt, &mut data).unwrap();
    assert_eq!(e.name(), "auto (cpu)");
    assert!(e.report().ends_with("(gpu not opened: the work could not repay it)"), "{}", e.report());
    assert_eq!(backend.gpu_unavailable(), None, "nothing tried, nothing to report");
}

#[test]
fn long_work_tries_the_gpu_and_reports_why_it_could_not() {
    // The real GPU side, opened as soon as the CPU has worked at all.
    let gpu_here = crate::backend::describe_gpus().is_ok();
    let backend = eager(gpu_opener(&GpuSelection::All));
    let mut e = engine(&backend, &Workload::default());
    let d = data(4 << 20);
    // Calls until the background opening has ended one way or the other.
    for _ in 0..200 {
        ctr_checked(&mut e, &d);
        if !matches!(e.handover.standing(), Standing::Starting | Standing::NotAsked) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    if gpu_here {
        assert!(!matches!(e.handover.standing(), Standing::Starting | Standing::NotAsked), "{}", e.report());
    } else {
        assert!(matches!(e.handover.standing(), Standing::Failed(_)), "{}", e.report());
        let why = backend.gpu_unavailable().expect("the reason is kept");
        assert!(!why.is_empty());
        assert!(e.report().ends_with("(gpu unusable)"), "{}", e.report());
    }
}

#[test]
fn a_gpu_that_cannot_open_leaves_the_work_to_the_cpu_and_says_why() {
    type Opened = Result<Box<dyn BlockEngine>, Error>;
    let no_device: OpenGpu = Arc::new(|_: &Skinny| -> Opened { Err(Error::GpuUnavailable("no device here".into())) });
    let panics: OpenGpu = Arc::new(|_: &Skinny| -> Opened { panic!("the driver fell over") });
    for (open, why) in [(no_device, "no device here"), (panics, "opening the GPU panicked")] {
        let backend = eager(open);
        let mut e = engine(&backend, &Workload::default());
        let d = data(1 << 20);
        for _ in 0..3 {
            ctr_checked(&mut e, &d);
        }
        settle(&mut e);
        ctr_checked(&mut e, &d);
        assert!(matches!(e.handover.standing(), Standing::Failed(_)), "{}", e.report());
        assert_eq!(backend.gpu_unavailable().as_deref(), Some(why));
        assert_eq!(backend.fallback().as_deref(), Some(why));
        assert_eq!(e.report(), format!("auto: {} bytes on the cpu, 0 on the gpu (gpu unusable)", 4 << 20));
    }
}

#[test]
fn a_slower_gpu_is_left_after_the_hand_over_judged_it() {
    // Opening takes long enough that the CPU does the first calls (the
    // hand-over leaves each side's first call out of its rate).
    let backend = eager(stand_in(Duration::from_millis(500), Duration::from_millis(40)));
    let mut e = engine(&backend, &Workload::default());
    let d = data(1 << 20);
    for _ in 0..3 {
        ctr_checked(&mut e, &d);
    }
    assert!(matches!(e.handover.standing(), Standing::Starting), "{}", e.report());
    settle(&mut e);
    assert!(matches!(e.handover.standing(), Standing::Ready), "{}", e.report());
    for _ in 0..JUDGE_AFTER + 4 {
        ctr_checked(&mut e, &d);
    }
    // Its warm-up call and JUDGE_AFTER timed ones, then back to the CPU.
    assert_eq!(e.handover.accelerator_bytes(), u64::from(1 + JUDGE_AFTER) << 20, "{}", e.report());
    assert!(matches!(e.handover.standing(), Standing::Left(_)), "{}", e.report());
    assert!(e.report().ends_with("(gpu slower than the CPU here, left after trying)"), "{}", e.report());
    assert_eq!(e.name(), "auto (cpu and gpu)");
    assert_eq!(backend.gpu_unavailable(), None, "a slower GPU is no failure");
}

#[test]
fn a_ready_gpu_takes_the_large_calls_and_leaves_the_small_ones() {
    let backend = eager(stand_in(Duration::ZERO, Duration::ZERO));
    let mut e = engine(&backend, &Workload::default());
    let big = data(GPU_MIN_CALL_BYTES);
    ctr_checked(&mut e, &big);
    ctr_checked(&mut e, &big);
    settle(&mut e);
    let before = e.handover.accelerator_bytes();
    ctr_checked(&mut e, &big);
    assert_eq!(e.handover.accelerator_bytes(), before + GPU_MIN_CALL_BYTES as u64, "{}", e.report());
    let (cpu_before, _) = e.handover.cpu_work();
    ctr_checked(&mut e, &data(GPU_MIN_CALL_BYTES - 16));
    assert_eq!(e.handover.cpu_work().0, cpu_before + (GPU_MIN_CALL_BYTES - 16) as u64);
    assert_eq!(e.handover.accelerator_bytes(), before + GPU_MIN_CALL_BYTES as u64);
    assert_eq!(e.name(), "auto (cpu and gpu)");
}
