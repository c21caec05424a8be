//! `skinny seal` and `skinny open`: the sealed file format of
//! [`skinny_aead::sealed`] between an input and an output, on the CPU or a GPU
//! (`--backend`).
//!
//! A GPU is opened on a thread of its own while the CPU seals or opens the
//! first chunks (`Placement::GpuStarting`): getting it ready (context, kernels,
//! buffers: about 0.3 s) would otherwise come before the first byte, in a run
//! of 2 s for 4 GiB.
//!
//! The key is loaded and checked first, then the input opened, then the output
//! created (a temporary file beside it, renamed only when everything
//! succeeded: see [`crate::files`]). A failed `open` to a file therefore
//! leaves no output and an existing output untouched.

use crate::commands::seal_args::{OpenArgs, SealArgs, SealBackendName};
use crate::error::CliError;
use crate::files::{Sink, Source};
use crate::keys;
use crate::progress;
use skinny_aead::sealed::{
    self, Header, Placement, SealOptions, SealedError, SealedReport, GPU_MIN_CHUNK_LOG2, HEADER_LEN,
};
use skinny_bulk::backend::GpuSelection;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Below this many input bytes `auto` stays on the CPU: opening a GPU and
/// loading its kernels takes about 0.3 s (more the first time, before the
/// kernel cache holds them), while the CPU engine seals and opens at about
/// 2 GB/s on the H200 machine's 16 cores (runs/h200-log.md): it finishes
/// a file this size in the time the GPU takes to get ready. (The CPU works
/// while the GPU starts, but the run still waits for the start to end, and
/// the start takes the driver's time and a core.)
const AUTO_GPU_BYTES: u64 = 512 << 20;

/// Runs `skinny seal`.
///
/// # Errors
/// One line for the user: bad arguments, unreadable input, unwritable output,
/// no usable GPU for `--backend gpu`.
pub fn seal(a: &mut SealArgs) -> Result<(), CliError> {
    let key = take_key(&mut a.key, a.key_file.as_deref())?;
    let options = SealOptions { member: a.member.into(), chunk_log2: a.chunk_size };
    let how = How { backend: a.backend, gpus: &a.gpus, verbose: a.verbose };
    run(a.input.as_deref(), a.output.as_deref(), a.force, a.quiet, a.threads, |source, sink, len| {
        let engine = how.engine(Some(options.chunk_log2), len, "--chunk-size is")?;
        let report = sealed::seal_on(&engine.engine, source, sink, &key, &options).map_err(start_error)?;
        how.tell("sealed", &engine, &report);
        Ok(())
    })
}

/// Runs `skinny open`.
///
/// # Errors
/// One line for the user (exit 1): not a sealed file, truncated, a chunk that
/// does not verify (wrong key or a changed file), unreadable input or
/// unwritable output, no usable GPU for `--backend gpu`; bad arguments (exit 2).
pub fn open(a: &mut OpenArgs) -> Result<(), CliError> {
    let key = take_key(&mut a.key, a.key_file.as_deref())?;
    let how = How { backend: a.backend, gpus: &a.gpus, verbose: a.verbose };
    run(a.input.as_deref(), a.output.as_deref(), a.force, a.quiet, a.threads, |source, sink, len| {
        // The chunk size decides whether the GPU can serve the file: read the
        // header first, and hand it back to the library in front of the rest.
        let mut head = Vec::with_capacity(HEADER_LEN);
        source.by_ref().take(HEADER_LEN as u64).read_to_end(&mut head).map_err(SealedError::Read)?;
        let chunk_log2 =
            <[u8; HEADER_LEN]>::try_from(&head[..]).ok().and_then(|h| Header::parse(&h).ok()).map(|h| h.chunk_log2);
        // A damaged header: the CPU engine reports it (the library's message).
        let engine = match chunk_log2 {
            Some(_) => how.engine(chunk_log2, len, "this file's chunks are")?,
            None => Chosen { engine: Placement::Cpu, why_cpu: None, gpu_name: None },
        };
        let report =
            sealed::open_on(&engine.engine, io::Cursor::new(head).chain(source), sink, &key).map_err(start_error)?;
        how.tell("opened", &engine, &report);
        Ok(())
    })
}

/// What the user asked of the engine.
struct How<'a> {
    backend: SealBackendName,
    gpus: &'a GpuSelection,
    verbose: bool,
}

/// The engine picked, and for `auto` on the CPU, why.
struct Chosen {
    engine: Placement,
    why_cpu: Option<String>,
    /// For a GPU being started: its description once it is open.
    gpu_name: Option<Arc<OnceLock<String>>>,
}

/// A GPU that `--backend gpu` asked for and that did not start: one line
/// naming the option.
fn start_error(e: SealedError) -> CliError {
    match e {
        SealedError::GpuStart(why) => CliError::Gpu(format!("--backend gpu: {why}")),
        e => e.into(),
    }
}

/// What `--backend` and the run's facts ask for, before any GPU is opened.
#[derive(Debug, PartialEq, Eq)]
enum Pick {
    Cpu(Option<String>),
    Gpu,
}

/// The engine for `backend`: `chunk_log2` is the chunk size (when known), `len`
/// the input's length (when known). `--backend gpu` with chunks the GPU cannot
/// take is an error (`chunks_are` says whose chunks, for the message); `auto`
/// takes the GPU only where it pays.
fn pick(
    backend: SealBackendName,
    chunk_log2: Option<u8>,
    len: Option<u64>,
    chunks_are: &str,
) -> Result<Pick, CliError> {
    let small_chunks = chunk_log2.is_some_and(|c| c < GPU_MIN_CHUNK_LOG2);
    match backend {
        SealBackendName::Cpu => Ok(Pick::Cpu(None)),
        SealBackendName::Gpu if small_chunks => Err(CliError::Usage(format!(
            "--backend gpu needs chunks of 16K or more ({chunks_are} {}); use --backend cpu",
            crate::error::count(1u64 << chunk_log2.unwrap_or(0), "byte")
        ))),
        SealBackendName::Gpu => Ok(Pick::Gpu),
        SealBackendName::Auto if small_chunks => Ok(Pick::Cpu(Some("chunks under 16K".into()))),
        SealBackendName::Auto => match len {
            None => Ok(Pick::Cpu(Some("input of unknown length".into()))),
            Some(n) if n < AUTO_GPU_BYTES => Ok(Pick::Cpu(Some("input under 512 MiB".into()))),
            Some(_) => Ok(Pick::Gpu),
        },
    }
}

impl Chosen {
    /// For `auto` on the CPU: why (picked so, or the GPU did not start).
    fn why_cpu(&self, report: &SealedReport) -> Option<String> {
        self.why_cpu.clone().or_else(|| report.gpu_failure.as_ref().map(|w| format!("no usable GPU: {w}")))
    }
}

impl How<'_> {
    /// Picks the engine; a GPU is only named here, and opened by the run on
    /// a thread of its own while the CPU begins. For `auto`, a GPU that does
    /// not open means the CPU (a `--gpus` that does not fit a machine with
    /// GPUs stays an error); for `gpu`, the run fails.
    fn engine(&self, chunk_log2: Option<u8>, len: Option<u64>, chunks_are: &str) -> Result<Chosen, CliError> {
        match pick(self.backend, chunk_log2, len, chunks_are)? {
            Pick::Cpu(why_cpu) => Ok(Chosen { engine: Placement::Cpu, why_cpu, gpu_name: None }),
            Pick::Gpu => match (gpu_ordinal(self.gpus), self.backend) {
                (Ok(ordinal), backend) => {
                    let gpu_name = Arc::new(OnceLock::new());
                    let engine = starting_gpu(ordinal, backend == SealBackendName::Auto, gpu_name.clone());
                    Ok(Chosen { engine, why_cpu: None, gpu_name: Some(gpu_name) })
                }
                (Err(e), SealBackendName::Gpu) => Err(e),
                (Err(e @ CliError::Usage(_)), _) if gpus_present() => Err(e),
                (Err(e), _) => {
                    let why = e.to_string();
                    let why = why.strip_prefix("--backend gpu: ").unwrap_or(&why);
                    Ok(Chosen {
                        engine: Placement::Cpu,
                        why_cpu: Some(format!("no usable GPU: {why}")),
                        gpu_name: None,
                    })
                }
            },
        }
    }

    /// With `--verbose`: what ran, on which engine (a notice: a failing stderr
    /// does not fail the run).
    fn tell(&self, what: &str, chosen: &Chosen, report: &SealedReport) {
        if !self.verbose {
            return;
        }
        let threads = rayon::current_num_threads();
        let cpu = report.chunks - report.gpu_chunks;
        // A GPU was started and did not fail: how the chunks were shared.
        let on = match (&chosen.gpu_name, &report.gpu_failure) {
            (Some(name), None) => format!(
                ": {} on GPU {}, {cpu} on the CPU ({threads} threads, {})",
                report.gpu_chunks,
                name.get().map_or("(not ready)", String::as_str),
                match &report.gpu_left {
                    Some(why) => format!("while the GPU started and after it was left: {why}"),
                    None => "while the GPU started".into(),
                }
            ),
            _ => format!(" on the CPU ({threads} threads)"),
        };
        let mut err = io::stderr();
        let bytes = crate::error::count(report.plaintext_bytes, "byte");
        let chunks = crate::error::count(report.chunks, "chunk");
        let _ = writeln!(err, "skinny: {what} {bytes} in {chunks}{on}");
        if let Some(why) = chosen.why_cpu(report) {
            let _ = writeln!(err, "skinny: auto: {why}; using the CPU");
        }
    }
}

/// Whether the driver sees any GPU.
fn gpus_present() -> bool {
    #[cfg(feature = "cuda")]
    {
        skinny_aead::gpu::GpuDevice::count().is_ok_and(|n| n > 0)
    }
    #[cfg(not(feature = "cuda"))]
    {
        false
    }
}

/// The first GPU of `--gpus`. For the default (all) that is GPU 0, and
/// nothing is asked of the driver here: opening it, on the run's start
/// thread, says why if there is none. A `--gpus` of its own needs the
/// driver's count first (here, before the run).
#[cfg(feature = "cuda")]
fn gpu_ordinal(sel: &GpuSelection) -> Result<usize, CliError> {
    use skinny_aead::gpu::GpuDevice;
    if *sel == GpuSelection::All {
        return Ok(0);
    }
    let count = GpuDevice::count().map_err(|e| CliError::Gpu(format!("--backend gpu: {e}")))?;
    if count == 0 {
        // GPU 0's own reason (no device).
        GpuDevice::first().map_err(|e| CliError::Gpu(format!("--backend gpu: {e}")))?;
    }
    let ordinals = sel.resolve(count).map_err(|e| CliError::Usage(format!("--gpus {sel}: {e}")))?;
    Ok(ordinals[0])
}

#[cfg(not(feature = "cuda"))]
fn gpu_ordinal(_sel: &GpuSelection) -> Result<usize, CliError> {
    Err(CliError::Gpu("--backend gpu: this skinny was built without CUDA support".into()))
}

/// GPU `ordinal`, opened while the run begins on the CPU; `or_cpu`: if it
/// does not open, the run goes on on the CPU. Its description goes to `name`.
#[cfg(feature = "cuda")]
fn starting_gpu(ordinal: usize, or_cpu: bool, name: Arc<OnceLock<String>>) -> Placement {
    use skinny_aead::gpu::GpuDevice;
    let start = sealed::GpuStart::new(move || {
        let gpu = GpuDevice::open(ordinal)?;
        let _ = name.set(gpu.describe());
        Ok(gpu)
    });
    // `auto` (or_cpu) also keeps the GPU only while it is the faster engine:
    // on the H200 machine's 16 cores the CPU engine was (run 39).
    Placement::GpuStarting(if or_cpu { start.or_cpu().while_faster() } else { start })
}

#[cfg(not(feature = "cuda"))]
fn starting_gpu(_ordinal: usize, _or_cpu: bool, _name: Arc<OnceLock<String>>) -> Placement {
    // Not reached: without CUDA there is no ordinal (see `gpu_ordinal`).
    Placement::Cpu
}

/// Loads the key, and wipes our copy of `--key` whatever happens.
fn take_key(hex: &mut Option<String>, file: Option<&Path>) -> Result<zeroize::Zeroizing<[u8; 16]>, CliError> {
    let key = keys::load_aead_key(hex.as_deref(), file);
    if let Some(h) = hex.as_mut() {
        zeroize::Zeroize::zeroize(h);
    }
    key
}

/// Opens the input and the output, runs `work` between them (with the input's
/// length when known) on a pool of `threads` (default: rayon's global pool,
/// all cores), and commits the output only when it succeeded (a dropped sink
/// removes its temporary file).
fn run(
    input: Option<&Path>,
    output: Option<&Path>,
    force: bool,
    quiet: bool,
    threads: Option<usize>,
    work: impl FnOnce(&mut Counted<Source>, &mut Sink, Option<u64>) -> Result<(), CliError> + Send,
) -> Result<(), CliError> {
    let pool = match threads {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map_err(|e| CliError::Io(format!("cannot start {n} worker threads: {e}")))?,
        ),
        None => None,
    };
    let source = Source::open(input)?;
    let len = source.len();
    let mut sink = Sink::open(output, &source, force)?;
    let to_stdout = output.is_none_or(|p| p.as_os_str() == "-");
    let bar = progress::bar(len, quiet, to_stdout);
    let mut source = Counted { inner: source, bar: bar.clone() };
    let result = match pool {
        Some(pool) => pool.install(|| work(&mut source, &mut sink, len)),
        None => work(&mut source, &mut sink, len),
    };
    bar.finish_and_clear();
    result?;
    sink.commit()
}

/// A reader that moves the progress bar.
struct Counted<R> {
    inner: R,
    bar: indicatif::ProgressBar,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    #[test]
    fn cpu_is_always_the_cpu() {
        for (c, len) in [(Some(4), None), (Some(16), Some(8 << 30)), (None, Some(0))] {
            assert_eq!(pick(SealBackendName::Cpu, c, len, "x").unwrap(), Pick::Cpu(None));
        }
    }

    #[test]
    fn gpu_refuses_small_chunks_in_one_line() {
        let e = pick(SealBackendName::Gpu, Some(13), Some(8 << 30), "--chunk-size is").unwrap_err();
        assert!(matches!(e, CliError::Usage(_)));
        let msg = e.to_string();
        assert!(msg.contains("16K") && msg.contains("--backend cpu") && !msg.contains('\n'), "{msg}");
        for c in [14, 16, 24] {
            assert_eq!(pick(SealBackendName::Gpu, Some(c), Some(1), "x").unwrap(), Pick::Gpu);
        }
        // Any length, known or not.
        assert_eq!(pick(SealBackendName::Gpu, Some(16), None, "x").unwrap(), Pick::Gpu);
    }

    #[test]
    fn auto_takes_the_gpu_only_where_it_pays() {
        let auto = |c, len| pick(SealBackendName::Auto, Some(c), len, "x").unwrap();
        assert_eq!(auto(16, Some(AUTO_GPU_BYTES)), Pick::Gpu);
        assert_eq!(auto(14, Some(4096 * MIB)), Pick::Gpu);
        assert!(matches!(auto(13, Some(4096 * MIB)), Pick::Cpu(Some(w)) if w.contains("16K")));
        assert!(matches!(auto(16, Some(AUTO_GPU_BYTES - 1)), Pick::Cpu(Some(w)) if w.contains("512 MiB")));
        assert!(matches!(auto(16, None), Pick::Cpu(Some(w)) if w.contains("unknown")));
    }

    #[test]
    fn auto_without_a_gpu_falls_back_to_the_cpu() {
        if gpus_present() {
            return; // the fallback is for machines without one
        }
        // Without CUDA the CPU is picked at once; with it, the GPU is started
        // with the run, fails, and the run goes on on the CPU (auto) or fails.
        let (key, data, options) = ([1u8; 16], vec![7u8; 300_000], SealOptions::default());
        let seal = |c: &Chosen| sealed::seal_on(&c.engine, &data[..], Vec::new(), &key, &options);
        let how = How { backend: SealBackendName::Auto, gpus: &GpuSelection::All, verbose: false };
        let chosen = how.engine(Some(16), Some(8 << 30), "x").unwrap();
        let report = seal(&chosen).unwrap();
        assert_eq!((report.chunks, report.gpu_chunks), (5, 0));
        assert!(chosen.why_cpu(&report).is_some_and(|w| w.starts_with("no usable GPU")));
        let how = How { backend: SealBackendName::Gpu, gpus: &GpuSelection::All, verbose: false };
        let e = how
            .engine(Some(16), Some(1), "x")
            .and_then(|c| seal(&c).map_err(start_error))
            .expect_err("--backend gpu without a GPU fails");
        let line = e.to_string();
        assert!(matches!(e, CliError::Gpu(_)) && line.starts_with("--backend gpu: ") && !line.contains('\n'), "{e}");
    }
}
