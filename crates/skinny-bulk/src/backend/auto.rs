//! `auto`: the CPU at once, and the GPU only where it pays.
//!
//! Opening a GPU costs a few hundred milliseconds (driver, context, kernel
//! module, buffers: docs/data-path.md has the breakdown), while the `cpu`
//! backend starts in microseconds. So `auto` never waits for a GPU:
//!
//! 1. Every engine starts on the CPU.
//! 2. A GPU is opened on a background thread only once the work left is
//!    expected to keep the CPU busy for longer than [`GPU_OPEN_SECONDS`] times
//!    [`PAYBACK_FACTOR`]: from the total size when it is known (a file) and the
//!    CPU's measured rate, or, for a stream of unknown length, once the CPU has
//!    been busy that long already.
//! 3. Calls of at least [`GPU_MIN_CALL_BYTES`] go to the GPU once it is ready,
//!    and stay there only while its measured rate beats the CPU's.
//!
//! The output does not depend on which engine ran which call (every engine is
//! byte-identical to the specification code; CTR counters are absolute).
//! Nothing is printed: why no GPU could be used is kept for the caller
//! ([`AutoBackend::gpu_unavailable`]).

use super::{cpu::CpuBackend, Backend, Engine, Workload};
use crate::mode::Direction;
use crate::Error;
use skinny::counter::Counter;
use skinny::{Skinny, Variant};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
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

/// Calls are cut into parts of at most this many bytes, so that a GPU that
/// becomes ready during one long call (a whole buffer in place) takes over the
/// rest of it.
const PART_BYTES: usize = 64 << 20;

/// Smaller calls stay on the CPU even with a GPU ready: below this, transfers
/// and the launch cost more than the CPU takes.
pub const GPU_MIN_CALL_BYTES: usize = 1 << 20;

/// The `auto` backend.
pub struct AutoBackend {
    cpu: CpuBackend,
    /// The GPUs to open when the work repays them.
    gpus: super::GpuSelection,
    /// Why the GPU could not be used, once an engine tried.
    unavailable: Arc<Mutex<Option<String>>>,
    #[cfg(feature = "cuda")]
    /// The GPU backend, opened at most once per process and shared by engines.
    gpu: Arc<std::sync::OnceLock<Result<Arc<dyn Backend>, String>>>,
}

impl AutoBackend {
    pub(super) fn new(cpu: CpuBackend, gpus: super::GpuSelection) -> Self {
        Self {
            cpu,
            gpus,
            unavailable: Arc::new(Mutex::new(None)),
            #[cfg(feature = "cuda")]
            gpu: Arc::new(std::sync::OnceLock::new()),
        }
    }

    /// Why `auto` could not use a GPU for work that would have gone to one, if
    /// that happened: no driver, no device, no CUDA support in this build...
    /// `None` when the GPU was used, or never needed.
    pub fn gpu_unavailable(&self) -> Option<String> {
        self.unavailable.lock().ok().and_then(|g| g.clone())
    }
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
            match &self.gpus {
                super::GpuSelection::All => "every GPU".to_string(),
                super::GpuSelection::First(1) => "GPU 0".to_string(),
                super::GpuSelection::First(n) => format!("the first {n} GPUs"),
                super::GpuSelection::List(l) => {
                    format!("GPUs {}", l.iter().map(usize::to_string).collect::<Vec<_>>().join(","))
                }
            },
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

    fn engine_for(&self, cipher: &Skinny, work: &Workload) -> Result<Box<dyn Engine>, Error> {
        Ok(Box::new(AutoEngine {
            cpu: self.cpu.engine_for(cipher, work)?,
            cipher: cipher.clone(),
            total: work.total_bytes,
            done: 0,
            cpu_busy: Duration::ZERO,
            cpu_bytes: 0,
            cpu_rate: None,
            gpu: GpuState::NotOpened,
            gpu_bytes: 0,
            gpu_note: None,
            started: None,
            unavailable: self.unavailable.clone(),
            #[cfg(feature = "cuda")]
            shared: self.gpu.clone(),
            #[cfg(feature = "cuda")]
            gpus: self.gpus.clone(),
        }))
    }
}

/// The GPU side of one engine.
enum GpuState {
    /// Not needed yet.
    NotOpened,
    /// Opening on a background thread.
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    Opening(JoinHandle<Result<Box<dyn Engine>, String>>),
    /// Ready; its measured rate in bytes per second once it has run a call.
    Ready(Box<dyn Engine>, Option<f64>),
    /// Unusable, or slower than the CPU: never tried again by this engine.
    Off,
}

struct AutoEngine {
    cpu: Box<dyn Engine>,
    #[cfg_attr(not(feature = "cuda"), allow(dead_code))]
    cipher: Skinny,
    total: Option<u64>,
    /// Bytes processed so far, by either engine.
    done: u64,
    cpu_busy: Duration,
    /// Bytes the CPU engine processed in `cpu_busy`.
    cpu_bytes: u64,
    /// The CPU engine's rate in bytes per second, over its calls so far.
    cpu_rate: Option<f64>,
    gpu: GpuState,
    /// Bytes the GPU processed.
    gpu_bytes: u64,
    /// What became of the GPU, for the report.
    gpu_note: Option<&'static str>,
    /// When the first call started.
    started: Option<Instant>,
    unavailable: Arc<Mutex<Option<String>>>,
    #[cfg(feature = "cuda")]
    shared: Arc<std::sync::OnceLock<Result<Arc<dyn Backend>, String>>>,
    #[cfg(feature = "cuda")]
    gpus: super::GpuSelection,
}

impl AutoEngine {
    /// A chaining decryption (CBC, CFB) in parts of [`PART_BYTES`]: each part
    /// chains on the previous part's last ciphertext block, kept before the
    /// part is decrypted in place over it.
    fn chained(
        &mut self,
        iv: &[u8],
        blocks: &mut [u8],
        op: impl Fn(&mut dyn Engine, &[u8], &mut [u8]) -> Result<(), Error>,
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
}

/// Which engine runs a call.
enum Pick {
    Cpu,
    Gpu,
}

impl AutoEngine {
    /// Whether the work left would keep the CPU busy long enough to repay
    /// opening a GPU.
    fn gpu_would_pay(&self) -> bool {
        let horizon = GPU_OPEN_SECONDS * PAYBACK_FACTOR;
        // Rates and shares from the first few milliseconds are mostly start-up
        // noise (cold caches, threads waking, the reader getting ahead).
        let wall = self.started.map_or(Duration::ZERO, |t| t.elapsed());
        if wall < MIN_OBSERVED {
            return false;
        }
        // When the engine waits for its caller much of the time (reading and
        // writing files, say), a faster engine would not make the whole faster.
        if self.cpu_busy.as_secs_f64() < ENGINE_BOUND * wall.as_secs_f64() {
            return false;
        }
        match (self.total, self.cpu_rate) {
            (Some(total), Some(rate)) => (total.saturating_sub(self.done) as f64 / rate) > horizon,
            // Known size, no rate yet: wait for the first CPU call to measure one.
            (Some(_), None) => false,
            // A stream of unknown length: judge by how long it has run so far.
            (None, _) => self.cpu_busy.as_secs_f64() > horizon / 2.0,
        }
    }

    fn start_gpu(&mut self) {
        #[cfg(feature = "cuda")]
        {
            let shared = self.shared.clone();
            let cipher = self.cipher.clone();
            let gpus = self.gpus.clone();
            let spawned = std::thread::Builder::new().name("skinny-gpu-open".into()).spawn(move || {
                let backend = shared
                    .get_or_init(|| super::gpu::open_set(false, &gpus).map(Arc::from).map_err(|e| e.to_string()))
                    .clone()?;
                backend.engine(&cipher).map_err(|e| e.to_string())
            });
            self.gpu = match spawned {
                Ok(handle) => GpuState::Opening(handle),
                Err(e) => {
                    self.note_unavailable(format!("cannot start a thread to open the GPU: {e}"));
                    GpuState::Off
                }
            };
        }
        #[cfg(not(feature = "cuda"))]
        {
            self.note_unavailable(Error::NoCudaSupport.to_string());
            self.gpu = GpuState::Off;
        }
    }

    fn note_unavailable(&mut self, why: String) {
        self.gpu_note = Some("unusable");
        if let Ok(mut slot) = self.unavailable.lock() {
            slot.get_or_insert(why);
        }
    }

    /// Chooses the engine for a call of `len` bytes, moving the GPU along.
    fn pick(&mut self, len: usize) -> Pick {
        if matches!(self.gpu, GpuState::NotOpened) && self.gpu_would_pay() {
            self.start_gpu();
        }
        if let GpuState::Opening(handle) = &self.gpu {
            if handle.is_finished() {
                let GpuState::Opening(handle) = std::mem::replace(&mut self.gpu, GpuState::Off) else {
                    unreachable!("matched above")
                };
                match handle.join() {
                    Ok(Ok(engine)) => self.gpu = GpuState::Ready(engine, None),
                    Ok(Err(why)) => self.note_unavailable(why),
                    Err(_) => self.note_unavailable("opening the GPU panicked".into()),
                }
            }
        }
        match &self.gpu {
            GpuState::Ready(_, rate) if len >= GPU_MIN_CALL_BYTES => match (rate, self.cpu_rate) {
                (Some(g), Some(c)) if *g < c => Pick::Cpu,
                _ => Pick::Gpu,
            },
            _ => Pick::Cpu,
        }
    }

    /// Runs `op` on the chosen engine and keeps the rates up to date.
    fn run(&mut self, len: usize, op: impl FnOnce(&mut dyn Engine) -> Result<(), Error>) -> Result<(), Error> {
        let start = Instant::now();
        self.started.get_or_insert(start);
        match self.pick(len) {
            Pick::Cpu => {
                op(self.cpu.as_mut())?;
                self.cpu_busy += start.elapsed();
                self.cpu_rate = rate(self.done_by_cpu(len), self.cpu_busy);
            }
            Pick::Gpu => {
                let GpuState::Ready(engine, gpu_rate) = &mut self.gpu else { unreachable!("picked a ready GPU") };
                op(engine.as_mut())?;
                self.gpu_bytes += len as u64;
                let r = len as f64 / start.elapsed().as_secs_f64().max(1e-9);
                *gpu_rate = Some(gpu_rate.map_or(r, |old| 0.5 * old + 0.5 * r));
                if let (Some(g), Some(c)) = (*gpu_rate, self.cpu_rate) {
                    if g < c {
                        // Slower than the CPU here (a small GPU, a busy link): leave it.
                        self.gpu = GpuState::Off;
                        self.gpu_note = Some("slower than the CPU here, left after trying");
                    }
                }
            }
        }
        self.done += len as u64;
        Ok(())
    }

    /// Bytes the CPU engine has processed including this call (the GPU's calls
    /// are not in `cpu_busy`).
    fn done_by_cpu(&mut self, len: usize) -> u64 {
        self.cpu_bytes += len as u64;
        self.cpu_bytes
    }
}

fn rate(bytes: u64, busy: Duration) -> Option<f64> {
    let s = busy.as_secs_f64();
    (s > 0.0 && bytes > 0).then(|| bytes as f64 / s)
}

impl Engine for AutoEngine {
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
        if self.gpu_bytes > 0 {
            "auto (cpu and gpu)"
        } else {
            "auto (cpu)"
        }
    }
    fn report(&self) -> String {
        let gpu = match (&self.gpu, self.gpu_note) {
            (_, Some(note)) => note,
            (GpuState::NotOpened, None) => "not opened: the work could not repay it",
            (GpuState::Opening(_), None) => "still opening when the work ended",
            (GpuState::Ready(..), None) => "used",
            (GpuState::Off, None) => "off",
        };
        format!("auto: {} bytes on the cpu, {} on the gpu (gpu {gpu})", self.cpu_bytes, self.gpu_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cipher() -> Skinny {
        Skinny::new(Variant::Skinny128_256, &[5u8; 32]).unwrap()
    }

    fn auto() -> AutoBackend {
        AutoBackend::new(CpuBackend::new(Some(2)).unwrap(), super::super::GpuSelection::All)
    }

    /// An engine whose next call believes the CPU has already been busy for a
    /// long time on a stream of unknown length.
    fn long_running(backend: &AutoBackend) -> AutoEngine {
        AutoEngine {
            cpu: backend.cpu.engine(&cipher()).unwrap(),
            cipher: cipher(),
            total: None,
            done: 0,
            cpu_busy: Duration::from_secs(60),
            cpu_bytes: 1,
            cpu_rate: Some(1.0),
            gpu: GpuState::NotOpened,
            gpu_bytes: 0,
            gpu_note: None,
            started: Some(Instant::now() - Duration::from_secs(60)),
            unavailable: backend.unavailable.clone(),
            #[cfg(feature = "cuda")]
            shared: backend.gpu.clone(),
            #[cfg(feature = "cuda")]
            gpus: backend.gpus.clone(),
        }
    }

    #[test]
    fn long_calls_cut_into_parts_give_the_same_output() {
        let backend = auto();
        let c = cipher();
        let mut a = backend.engine_for(&c, &Workload::default()).unwrap();
        let mut cpu = backend.cpu.engine(&c).unwrap();
        let len = PART_BYTES + 5 * 16;
        let data: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(37) ^ (i >> 11) as u8).collect();
        let iv = [0xfeu8; 16];
        let counter = Counter::from_block(&[0xff; 16]).unwrap();
        type Op = fn(&mut dyn Engine, &[u8], Counter, &mut [u8]) -> Result<(), Error>;
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
        assert_eq!(backend.gpu_unavailable(), None, "nothing tried, nothing to report");
    }

    #[test]
    fn long_work_tries_the_gpu_and_reports_why_it_could_not() {
        let gpu_here = super::super::describe_gpus().is_ok();
        let backend = auto();
        let mut e = long_running(&backend);
        let mut data = vec![2u8; 4 << 20];
        let want = {
            let mut w = data.clone();
            backend.cpu.engine(&cipher()).unwrap().ctr(Counter::from_block(&[9; 16]).unwrap(), &mut w).unwrap();
            w
        };
        // Calls until the background opening has ended one way or the other.
        for _ in 0..200 {
            let mut d = data.clone();
            e.ctr(Counter::from_block(&[9; 16]).unwrap(), &mut d).unwrap();
            assert_eq!(d, want, "the same output whichever engine ran");
            if !matches!(e.gpu, GpuState::Opening(_) | GpuState::NotOpened) {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        data.clear();
        if gpu_here {
            assert!(matches!(e.gpu, GpuState::Ready(..) | GpuState::Off));
        } else {
            assert!(matches!(e.gpu, GpuState::Off));
            let why = backend.gpu_unavailable().expect("the reason is kept");
            assert!(!why.is_empty());
        }
    }
}
