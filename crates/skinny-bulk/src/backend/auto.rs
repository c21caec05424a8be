//! `auto`: the CPU at once, and the GPU only where it pays.
//!
//! Opening a GPU costs a few hundred milliseconds (driver, context, kernel
//! module, buffers: docs/data-path.md has the breakdown), while the `cpu`
//! backend starts in microseconds. So `auto` never waits for a GPU; it runs on
//! the execution layer's hand-over ([`skinny_exec::handover`]) with this
//! crate's rule:
//!
//! 1. Every engine starts on the CPU.
//! 2. A GPU is opened on a background thread only once the work left is
//!    expected to keep the CPU busy for longer than [`GPU_OPEN_SECONDS`] times
//!    [`PAYBACK_FACTOR`] ([`PAYBACK`], judged by [`Payback::would_pay`]): from
//!    the total size when it is known (a file) and the CPU's measured rate,
//!    or, for a stream of unknown length, once the CPU has been busy that long
//!    already.
//! 3. Calls of at least [`GPU_MIN_CALL_BYTES`] go to the GPU once it is ready,
//!    and stay there only while it proves faster than the CPU: the hand-over
//!    compares their rates once the GPU has done
//!    [`skinny_exec::handover::JUDGE_AFTER`] timed calls (its first call, the
//!    warm-up, left out) and gives the rest back to the CPU if it was slower.
//!
//! The output does not depend on which engine ran which call (every engine is
//! byte-identical to the specification code; CTR counters are absolute).
//! Nothing is printed: why no GPU could be used is kept for the caller
//! ([`AutoBackend::gpu_unavailable`]).

use super::cpu::CpuBackend;
use super::engine::{Backend, BlockEngine, Workload};
use crate::operation::Direction;
use crate::Error;
use skinny::counter::Counter;
use skinny::{Skinny, Variant};
use skinny_exec::handover::{Handover, Keep, OnFailure, Opener, StartError};
use skinny_exec::payback::{Payback, Progress};
use skinny_exec::{GpuSelection, Standing};
use std::cell::Cell;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What opening the GPU and a key on it costs, in seconds: measured on the
/// H200 machine with the kernel cache warm (docs/data-path.md); an upper
/// estimate elsewhere is harmless, the GPU is then opened a little later.
pub const GPU_OPEN_SECONDS: f64 = 0.4;

/// The GPU is opened only when the CPU alone would need this many times
/// [`GPU_OPEN_SECONDS`] for the rest of the work: the GPU then has time to take
/// over most of it, and a wrong guess costs at most one core for the opening.
pub const PAYBACK_FACTOR: f64 = 2.0;

/// Wall time watched before the CPU's rate and share are trusted.
const MIN_OBSERVED: Duration = Duration::from_millis(100);

/// The share of wall time the engine must be busy for a faster engine to pay:
/// below it, the caller's own work (file reading and writing) is the limit.
/// Measured on the H200 machine, the CLI's CPU engine is busy about a third of
/// the time when encrypting a file in tmpfs (docs/data-path.md).
const ENGINE_BOUND: f64 = 0.9;

/// `auto`'s payback rule: the constants above, in the execution layer's
/// terms.
pub const PAYBACK: Payback = Payback {
    open_seconds: GPU_OPEN_SECONDS,
    factor: PAYBACK_FACTOR,
    min_observed: MIN_OBSERVED,
    engine_bound: ENGINE_BOUND,
};

/// Calls are cut into parts of at most this many bytes, so that a GPU that
/// becomes ready during one long call (a whole buffer in place) takes over the
/// rest of it.
const PART_BYTES: usize = 64 << 20;

/// Smaller calls stay on the CPU even with a GPU ready: below this, transfers
/// and the launch cost more than the CPU takes.
pub const GPU_MIN_CALL_BYTES: usize = 1 << 20;

/// Opens a GPU engine for one key (on the hand-over's thread).
type OpenGpu = Arc<dyn Fn(&Skinny) -> Result<Box<dyn BlockEngine>, Error> + Send + Sync>;

/// The `auto` backend.
pub struct AutoBackend {
    cpu: CpuBackend,
    /// The GPUs to open when the work repays them.
    gpus: GpuSelection,
    /// Opens the GPU side; the GPU backend itself is opened at most once per
    /// backend and shared by its engines.
    open_gpu: OpenGpu,
    rule: Payback,
    /// Why the GPU could not be used, once an engine tried.
    unavailable: Arc<Mutex<Option<String>>>,
}

impl AutoBackend {
    pub(super) fn new(cpu: CpuBackend, gpus: GpuSelection) -> Self {
        let open_gpu = gpu_opener(&gpus);
        Self::with_gpu(cpu, gpus, open_gpu, PAYBACK)
    }

    /// `auto` with its GPU side opened by `open_gpu` and judged by `rule`.
    fn with_gpu(cpu: CpuBackend, gpus: GpuSelection, open_gpu: OpenGpu, rule: Payback) -> Self {
        Self { cpu, gpus, open_gpu, rule, unavailable: Arc::new(Mutex::new(None)) }
    }

    /// Why `auto` could not use a GPU for work that would have gone to one, if
    /// that happened: no driver, no device, no CUDA support in this build...
    /// `None` when the GPU was used, or never needed.
    pub fn gpu_unavailable(&self) -> Option<String> {
        self.unavailable.lock().ok().and_then(|g| g.clone())
    }
}

/// The bitsliced GPU backend on `gpus`, opened by the first engine that needs
/// it and shared by the rest (its failure too, in words).
#[cfg(feature = "cuda")]
fn gpu_opener(gpus: &GpuSelection) -> OpenGpu {
    use std::sync::OnceLock;
    let gpus = gpus.clone();
    let shared: OnceLock<Result<Arc<dyn Backend>, String>> = OnceLock::new();
    Arc::new(move |cipher: &Skinny| {
        let backend = shared
            .get_or_init(|| {
                super::gpu::open_set(super::options::GpuKernel::Bitsliced, &gpus)
                    .map(Arc::from)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(Error::GpuUnavailable)?;
        backend.engine(cipher)
    })
}

/// No GPU in a build without CUDA.
#[cfg(not(feature = "cuda"))]
fn gpu_opener(_gpus: &GpuSelection) -> OpenGpu {
    Arc::new(|_: &Skinny| Err(Error::NoCudaSupport))
}

impl Backend for AutoBackend {
    fn name(&self) -> &'static str {
        "auto"
    }

    fn describe(&self) -> String {
        format!(
            "{}; {}, opened in the background, take calls of {} MiB and more once the work left repays their \
             opening",
            self.cpu.describe(),
            self.gpus.describe(),
            GPU_MIN_CALL_BYTES >> 20
        )
    }

    fn constant_time(&self) -> bool {
        // The CPU code and the `gpu` kernels are both constant time.
        self.cpu.constant_time()
    }

    fn supports(&self, _variant: Variant) -> bool {
        true
    }

    fn fallback(&self) -> Option<String> {
        self.gpu_unavailable()
    }

    fn engine_for(&self, cipher: &Skinny, work: &Workload) -> Result<Box<dyn BlockEngine>, Error> {
        Ok(Box::new(AutoEngine {
            cpu: self.cpu.engine_for(cipher, work)?,
            handover: Handover::cpu(),
            cipher: cipher.clone(),
            open_gpu: self.open_gpu.clone(),
            rule: self.rule,
            total: work.total_bytes,
            done: 0,
            started: None,
            noted: false,
            unavailable: self.unavailable.clone(),
        }))
    }
}

/// One key on `auto`: the CPU engine, and the GPU's through the hand-over.
struct AutoEngine {
    cpu: Box<dyn BlockEngine>,
    handover: Handover<Box<dyn BlockEngine>, Error>,
    cipher: Skinny,
    open_gpu: OpenGpu,
    rule: Payback,
    total: Option<u64>,
    /// Bytes processed so far, by either engine.
    done: u64,
    /// When the first call started.
    started: Option<Instant>,
    /// The GPU's failure went into `unavailable`.
    noted: bool,
    unavailable: Arc<Mutex<Option<String>>>,
}

impl AutoEngine {
    /// A chaining decryption (CBC, CFB) in parts of [`PART_BYTES`]: each part
    /// chains on the previous part's last ciphertext block, kept before the
    /// part is decrypted in place over it.
    fn chained(
        &mut self,
        iv: &[u8],
        blocks: &mut [u8],
        op: impl Fn(&mut dyn BlockEngine, &[u8], &mut [u8]) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let bs = iv.len();
        let mut chain = iv.to_vec();
        for part in blocks.chunks_mut(PART_BYTES) {
            let next = part[part.len().saturating_sub(bs)..].to_vec();
            self.run(part.len(), |e| op(e, &chain, part))?;
            chain = next;
        }
        Ok(())
    }

    /// What the run has seen, in the payback rule's terms.
    fn progress(&self) -> Progress {
        let (_, cpu_busy) = self.handover.cpu_work();
        Progress {
            wall: self.started.map_or(Duration::ZERO, |t| t.elapsed()),
            cpu_busy,
            cpu_rate: self.handover.cpu_rate(),
            bytes_left: self.total.map(|t| t.saturating_sub(self.done)),
        }
    }

    /// Starts opening the GPU on the hand-over's thread.
    fn start_gpu(&mut self) -> Result<(), Error> {
        let open = self.open_gpu.clone();
        let cipher = self.cipher.clone();
        let opener: Opener<Box<dyn BlockEngine>, Error> = Box::new(move || {
            // A driver that panics makes the GPU unusable, not the run.
            let opened = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| open(&cipher)));
            let engine = opened.unwrap_or_else(|_| Err(StartError::Panicked.into()))?;
            // The window size is the pipeline's business: `auto` is handed calls.
            Ok((engine, 1))
        });
        self.handover.start(opener, OnFailure::UseCpu, Keep::WhileFaster)
    }

    /// Runs `op` on the engine the hand-over picks (the CPU for calls under
    /// [`GPU_MIN_CALL_BYTES`]), starting the GPU first if the rule says so.
    fn run(&mut self, len: usize, op: impl FnOnce(&mut dyn BlockEngine) -> Result<(), Error>) -> Result<(), Error> {
        self.started.get_or_insert_with(Instant::now);
        if !self.handover.asked() && self.rule.would_pay(&self.progress()) {
            self.start_gpu()?;
        }
        let bytes = len as u64;
        let Self { cpu, handover, .. } = self;
        if len < GPU_MIN_CALL_BYTES {
            // Looked at so that the report knows what became of the GPU.
            handover.is_ready(None)?;
            handover.work_on_cpu(bytes, || op(cpu.as_mut()))?;
        } else {
            // One of the two sides runs it, never both.
            let op = Cell::new(Some(op));
            let call = |e: &mut dyn BlockEngine| op.take().map_or(Ok(()), |f| f(e));
            handover.work(None, bytes, |gpu| call(gpu.as_mut()), || call(cpu.as_mut()))?;
        }
        self.done += bytes;
        self.note_failure();
        Ok(())
    }

    /// Keeps why the GPU could not be had, for [`AutoBackend::gpu_unavailable`]
    /// (the first reason any engine of the backend met).
    fn note_failure(&mut self) {
        if self.noted {
            return;
        }
        if let Standing::Failed(e) = self.handover.standing() {
            let why = match e {
                Error::GpuUnavailable(why) => why.clone(),
                other => other.to_string(),
            };
            if let Ok(mut slot) = self.unavailable.lock() {
                slot.get_or_insert(why);
            }
            self.noted = true;
        }
    }
}

impl BlockEngine for AutoEngine {
    fn ecb(&mut self, dir: Direction, blocks: &mut [u8]) -> Result<(), Error> {
        for part in blocks.chunks_mut(PART_BYTES) {
            self.run(part.len(), |e| e.ecb(dir, part))?;
        }
        Ok(())
    }
    fn ctr(&mut self, counter: Counter, data: &mut [u8]) -> Result<(), Error> {
        let bs = counter.width();
        for (i, part) in data.chunks_mut(PART_BYTES).enumerate() {
            let c = counter.add((i * (PART_BYTES / bs)) as u64);
            self.run(part.len(), |e| e.ctr(c, part))?;
        }
        Ok(())
    }
    fn cbc_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        self.chained(iv, blocks, |e, chain, part| e.cbc_decrypt(chain, part))
    }
    fn cfb_decrypt(&mut self, iv: &[u8], blocks: &mut [u8]) -> Result<(), Error> {
        self.chained(iv, blocks, |e, chain, part| e.cfb_decrypt(chain, part))
    }
    fn preferred_chunk(&self) -> usize {
        self.cpu.preferred_chunk().max(GPU_MIN_CALL_BYTES)
    }
    fn name(&self) -> &'static str {
        if self.handover.accelerator_bytes() > 0 {
            "auto (cpu and gpu)"
        } else {
            "auto (cpu)"
        }
    }
    fn report(&self) -> String {
        let gpu = match self.handover.standing() {
            Standing::Failed(_) => "unusable",
            Standing::Left(_) => "slower than the CPU here, left after trying",
            Standing::NotAsked => "not opened: the work could not repay it",
            Standing::Starting => "still opening when the work ended",
            Standing::Ready => "used",
        };
        let (cpu_bytes, _) = self.handover.cpu_work();
        format!("auto: {cpu_bytes} bytes on the cpu, {} on the gpu (gpu {gpu})", self.handover.accelerator_bytes())
    }
}

#[cfg(test)]
mod tests;
