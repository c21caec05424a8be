//! The timing loop: a warm-up call timed apart, a repeat count that makes each
//! run last long enough, then the timed runs, within an optional budget.

use crate::plan::MIN_RUNS_UNDER_BUDGET;
use rand::RngCore;
use skinny::counter::Counter;
use skinny::Skinny;
use skinny_bulk::backend::{Backend, BlockEngine};
use skinny_bulk::mode::{Direction, Mode};
use skinny_bulk::Error as EngineError;
use std::time::{Duration, Instant};

/// Cap on operations repeated inside one timed run.
const MAX_REPS: usize = 1 << 20;

/// The outcome of [`time_op`].
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

/// One point's work: what is encrypted, how, and with which counter.
#[derive(Clone, Copy)]
pub struct Work<'a> {
    /// ECB or CTR (the plan admits no other).
    pub mode: Mode,
    /// Encrypt or decrypt (CTR is the same both ways).
    pub dir: Direction,
    /// CTR's initial counter block.
    pub counter: &'a [u8],
}

impl Work<'_> {
    /// One call on `engine` over `buf`, in place.
    fn call(&self, engine: &mut dyn BlockEngine, buf: &mut [u8]) -> Result<(), EngineError> {
        match self.mode {
            Mode::Ctr => engine.ctr(
                Counter::from_block(self.counter).map_err(|_| EngineError::IvLength {
                    variant: skinny::Variant::Skinny128_256,
                    got: self.counter.len(),
                })?,
                buf,
            ),
            _ => engine.ecb(self.dir, buf),
        }
    }
}

/// End-to-end timing of one point: each timed run works in place on the
/// buffer the previous one left (random-looking data of the same size: the
/// same work every time).
///
/// # Errors
/// The engine's.
pub fn time_engine(
    engine: &mut dyn BlockEngine,
    work: Work<'_>,
    buf: &mut [u8],
    set: RunSettings,
) -> Result<EngineTimes, EngineError> {
    time_op(|| work.call(engine, buf), set)
}

/// Cold timing of one point: every operation opens an engine for the key on
/// `backend` (module instance, key and table upload, stream), runs one call
/// (device allocation, copies, kernel) and drops the engine (device memory
/// freed, round tweakeys wiped, module unloaded), all inside the timed run.
///
/// # Errors
/// The backend's or the engine's.
pub fn time_cold(
    backend: &dyn Backend,
    cipher: &Skinny,
    work: Work<'_>,
    buf: &mut [u8],
    set: RunSettings,
) -> Result<EngineTimes, EngineError> {
    time_op(
        || {
            let mut engine = backend.engine(cipher)?;
            work.call(engine.as_mut(), buf)
        },
        set,
    )
}

/// The timing loop of [`time_engine`] and [`time_cold`] around any operation:
/// one warm-up call (timed apart), then `runs` timed runs, each repeating the
/// operation often enough to last `min_run`.
///
/// # Errors
/// The operation's.
pub fn time_op<E>(mut op: impl FnMut() -> Result<(), E>, set: RunSettings) -> Result<EngineTimes, E> {
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

/// The cipher under a fresh random key (the key wiped once expanded; the
/// cipher wipes its own copy).
///
/// # Errors
/// None in practice: the key is made the variant's length.
pub fn random_cipher(variant: skinny::Variant) -> Result<Skinny, skinny::InvalidTweakeyLength> {
    let key = zeroize::Zeroizing::new(random_bytes(variant.tweakey_bytes()));
    Skinny::new(variant, &key)
}

/// Random bytes (never all zeros in practice), fresh for each size.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rand::rng().fill_bytes(&mut v);
    v
}
