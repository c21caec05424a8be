//! The hand-over without a device: a stand-in accelerator that records the
//! units it got, started by an opener that waits for a signal (or fails).
use super::*;
use std::sync::mpsc::{Receiver, SyncSender};

#[derive(Debug, PartialEq)]
enum TestError {
    NoGpu,
    Start(String),
}

impl From<StartError> for TestError {
    fn from(e: StartError) -> Self {
        TestError::Start(e.to_string())
    }
}

struct Fake {
    delay: Duration,
    units: Vec<u64>,
}

const CPU_WINDOW: usize = 2;
const GPU_WINDOW: usize = 8;

/// An opener that waits for `go`, then brings the stand-in (or fails).
fn gated(fail: bool, delay: Duration) -> (Opener<Fake, TestError>, SyncSender<()>, Receiver<()>) {
    let (go_tx, go_rx) = sync_channel(1);
    let (done_tx, done_rx) = sync_channel(1);
    let open: Opener<Fake, TestError> = Box::new(move || {
        let _ = go_rx.recv();
        let _ = done_tx.send(());
        if fail {
            return Err(TestError::NoGpu);
        }
        Ok((Fake { delay, units: Vec::new() }, GPU_WINDOW))
    });
    (open, go_tx, done_rx)
}

/// Runs `units` units of `bytes` each through `h`, letting the start go at
/// unit `at`; returns the sides that did them.
fn drive(
    h: &mut Handover<Fake, TestError>,
    go: Option<(SyncSender<()>, Receiver<()>)>,
    units: u64,
    at: u64,
) -> Result<Vec<Side>, TestError> {
    let window = AtomicUsize::new(CPU_WINDOW);
    let mut go = go;
    let mut sides = Vec::new();
    for i in 0..units {
        if i == at {
            if let Some((tx, done)) = go.take() {
                tx.send(()).unwrap();
                done.recv().unwrap();
                // Give the start thread time to send.
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        let (_, side) = h.work(
            Some(&window),
            1000,
            |g: &mut Fake| {
                std::thread::sleep(g.delay);
                g.units.push(i);
                Ok(())
            },
            || Ok(()),
        )?;
        sides.push(side);
    }
    Ok(sides)
}

#[test]
fn a_start_that_is_waited_for_takes_over_and_resizes_the_window() {
    let window = AtomicUsize::new(CPU_WINDOW);
    let (open, go, done) = gated(false, Duration::ZERO);
    let mut h = Handover::starting(open, OnFailure::Fail, Keep::Always).unwrap();
    for _ in 0..3 {
        assert!(h.next(Some(&window)).unwrap().is_none(), "not ready before it is let go");
    }
    go.send(()).unwrap();
    done.recv().unwrap();
    while h.next(Some(&window)).unwrap().is_none() {
        std::thread::yield_now();
    }
    assert_eq!(window.load(Ordering::Acquire), GPU_WINDOW, "the reader is told the new size");
    assert_eq!(h.standing(), Standing::Ready);
    let outcome = h.finish().unwrap();
    assert!(outcome.failure.is_none() && outcome.left.is_none());
}

#[test]
fn from_the_first_unit_after_it_is_ready_the_accelerator_does_all() {
    let (open, go, done) = gated(false, Duration::ZERO);
    let mut h = Handover::starting(open, OnFailure::Fail, Keep::Always).unwrap();
    let sides = drive(&mut h, Some((go, done)), 40, 10).unwrap();
    assert!(sides[..10].iter().all(|s| *s == Side::Cpu));
    let first = sides.iter().position(|s| *s == Side::Accelerator).expect("it took over");
    assert!(sides[first..].iter().all(|s| *s == Side::Accelerator), "{sides:?}");
    assert_eq!(h.accelerator_bytes(), 1000 * (40 - first as u64));
    assert!(h.finish().unwrap().failure.is_none());
}

#[test]
fn a_failed_start_fails_the_run_or_leaves_it_to_the_cpu() {
    // Fail: an error at the next unit.
    let (open, go, done) = gated(true, Duration::ZERO);
    let mut h = Handover::starting(open, OnFailure::Fail, Keep::Always).unwrap();
    let r = drive(&mut h, Some((go, done)), 20, 2);
    assert_eq!(r, Err(TestError::NoGpu));

    // UseCpu: the run ends on the CPU and the failure is reported.
    let (open, go, done) = gated(true, Duration::ZERO);
    let mut h = Handover::starting(open, OnFailure::UseCpu, Keep::WhileFaster).unwrap();
    let sides = drive(&mut h, Some((go, done)), 20, 2).unwrap();
    assert!(sides.iter().all(|s| *s == Side::Cpu));
    assert_eq!(h.standing(), Standing::Failed(&TestError::NoGpu), "the failure is seen before the end");
    assert_eq!(h.finish().unwrap().failure, Some(TestError::NoGpu));

    // A failure after the last unit still fails a run that needed it.
    for on_failure in [OnFailure::Fail, OnFailure::UseCpu] {
        let (open, go, _done) = gated(true, Duration::ZERO);
        let h = Handover::starting(open, on_failure, Keep::Always).unwrap();
        go.send(()).unwrap();
        let r = h.finish();
        match on_failure {
            OnFailure::Fail => assert!(matches!(r, Err(TestError::NoGpu))),
            OnFailure::UseCpu => assert_eq!(r.unwrap().failure, Some(TestError::NoGpu)),
        }
    }
}

#[test]
fn a_slower_accelerator_is_left_only_when_asked() {
    for keep in [Keep::WhileFaster, Keep::Always] {
        let (open, go, done) = gated(false, Duration::from_millis(20));
        let mut h = Handover::starting(open, OnFailure::UseCpu, keep).unwrap();
        let sides = drive(&mut h, Some((go, done)), 30, 5).unwrap();
        let on_accel = sides.iter().filter(|s| **s == Side::Accelerator).count();
        let seen_left = match h.standing() {
            Standing::Left(s) => Some(s),
            _ => None,
        };
        let seen_ready = h.standing() == Standing::Ready;
        let outcome = h.finish().unwrap();
        match keep {
            Keep::WhileFaster => {
                assert!(seen_left.is_some() && seen_left == outcome.left, "{seen_left:?}");
                // Its first unit (warm-up) and JUDGE_AFTER timed ones, then the CPU.
                assert_eq!(on_accel, 1 + JUDGE_AFTER as usize, "{sides:?}");
                let left = outcome.left.expect("left");
                assert!(left.to_string().starts_with("slower than the CPU here ("), "{left}");
                assert_eq!(*sides.last().unwrap(), Side::Cpu);
            }
            Keep::Always => {
                assert!(seen_ready);
                assert!(outcome.left.is_none());
                assert_eq!(*sides.last().unwrap(), Side::Accelerator);
            }
        }
    }
}

#[test]
fn a_deferred_start_happens_once_and_small_units_stay_on_the_cpu() {
    let mut h: Handover<Fake, TestError> = Handover::cpu();
    assert!(!h.asked());
    assert_eq!(h.standing(), Standing::NotAsked);
    h.work_on_cpu(500, || Ok(())).unwrap();
    assert_eq!(h.cpu_work().0, 500);
    let (open, go, done) = gated(false, Duration::ZERO);
    h.start(open, OnFailure::UseCpu, Keep::Always).unwrap();
    assert!(h.asked());
    assert_eq!(h.standing(), Standing::Starting);
    // A second start is ignored (its opener never runs).
    let (open2, _go2, _done2) = gated(true, Duration::ZERO);
    h.start(open2, OnFailure::Fail, Keep::Always).unwrap();
    go.send(()).unwrap();
    done.recv().unwrap();
    while !h.is_ready(None).unwrap() {
        std::thread::yield_now();
    }
    // Ready, but a unit too small for it stays on the CPU.
    h.work_on_cpu(10, || Ok(())).unwrap();
    assert_eq!(h.accelerator_bytes(), 0);
    let (_, side) = h.work(None, 1000, |_| Ok(()), || Ok(())).unwrap();
    assert_eq!(side, Side::Accelerator);
    assert!(h.cpu_rate().is_some());
    assert!(h.finish().unwrap().failure.is_none());
}

#[test]
fn the_cpu_because_keeps_the_reason() {
    let h: Handover<Fake, TestError> = Handover::cpu_because(TestError::NoGpu);
    assert!(h.asked());
    assert_eq!(h.finish().unwrap().failure, Some(TestError::NoGpu));
}

#[test]
fn a_panicking_opener_is_raised_not_swallowed() {
    let open: Opener<Fake, TestError> = Box::new(|| panic!("driver crashed"));
    let h = Handover::starting(open, OnFailure::UseCpu, Keep::Always).unwrap();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| h.finish()));
    assert!(r.is_err());
}
