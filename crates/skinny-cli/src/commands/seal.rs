//! `skinny seal` and `skinny open`: the sealed file format of
//! [`skinny_aead::sealed`] between an input and an output, where `--backend`
//! places it (the library decides CPU or GPU by the format's rule, opens the
//! GPU while the CPU begins, and reports where the chunks went).
//!
//! The key is loaded and checked first, then the input opened, then the output
//! created (a temporary file beside it, renamed only when everything
//! succeeded: see [`crate::files`]). A failed `open` to a file therefore
//! leaves no output and an existing output untouched.

use crate::args::{Delivery, Io, KeyArgs};
use crate::commands::seal_args::{OpenArgs, SealArgs, SealBackendName, SealPlacement};
use crate::error::{count, CliError};
use crate::files::{Sink, Source};
use crate::keys;
use crate::progress;
use skinny_aead::sealed::{self, Job, SealOptions, SealedError, SealedReport};
use skinny_exec::{GpuSelection, GpuSelectionError};
use std::io::{self, Read, Write};
use std::path::Path;

/// Runs `skinny seal`.
///
/// # Errors
/// One line for the user: bad arguments, unreadable input, unwritable output,
/// no usable GPU for `--backend gpu`.
pub fn seal(a: &mut SealArgs) -> Result<(), CliError> {
    let key = take_key(&mut a.key)?;
    let options = SealOptions { member: a.member.into(), chunk_log2: a.chunk_size };
    let command = Command { verb: "sealed", chunks_are: "--chunk-size is" };
    run(&a.io, a.key.key_file.as_deref(), &a.placement, &a.delivery, &command, |job, source, sink| {
        sealed::seal_on(job, source, sink, &key, &options)
    })
}

/// Runs `skinny open`.
///
/// # Errors
/// One line for the user (exit 1): not a sealed file, truncated, a chunk that
/// does not verify (wrong key or a changed file), unreadable input or
/// unwritable output, no usable GPU for `--backend gpu`; bad arguments (exit 2).
pub fn open(a: &mut OpenArgs) -> Result<(), CliError> {
    let key = take_key(&mut a.key)?;
    let command = Command { verb: "opened", chunks_are: "this file's chunks are" };
    run(&a.io, a.key.key_file.as_deref(), &a.placement, &a.delivery, &command, |job, source, sink| {
        sealed::open_on(job, source, sink, &key)
    })
}

/// What differs between the two commands' words.
struct Command {
    /// What the verbose line says was done.
    verb: &'static str,
    /// Whose chunks a refusal of small chunks speaks of.
    chunks_are: &'static str,
}

/// What stops `seal` or `open` in these commands' own terms, with its
/// source; turned into a [`CliError`] where it leaves the command.
#[derive(Debug)]
pub enum SealError {
    /// `--backend gpu` with chunks the GPU cannot take.
    GpuChunks {
        /// The chunk size, as a power of two.
        chunk_log2: u8,
        /// Whose chunks: the option's or the file's.
        chunks_are: &'static str,
    },
    /// `--backend gpu`, and no GPU could be had.
    NoGpu(SealedError),
    /// `--gpus` names GPUs this machine does not have.
    Gpus {
        /// The selection asked for.
        asked: GpuSelection,
        /// Why it does not fit.
        source: GpuSelectionError,
    },
    /// The format's own error: reading, writing, verifying, the threads.
    Sealed(SealedError),
}

impl std::fmt::Display for SealError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SealError::GpuChunks { chunk_log2, chunks_are } => write!(
                f,
                "--backend gpu needs chunks of 16K or more ({chunks_are} {}); use --backend cpu",
                count(1u64 << chunk_log2, "byte")
            ),
            SealError::NoGpu(SealedError::GpuStart(why)) => write!(f, "--backend gpu: {why}"),
            SealError::NoGpu(SealedError::NoCuda) => {
                f.write_str("--backend gpu: this skinny was built without CUDA support")
            }
            SealError::NoGpu(e) => write!(f, "--backend gpu: {e}"),
            SealError::Gpus { asked, source } => write!(f, "--gpus {asked}: {source}"),
            SealError::Sealed(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SealError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SealError::GpuChunks { .. } => None,
            SealError::NoGpu(e) | SealError::Sealed(e) => Some(e),
            SealError::Gpus { source, .. } => Some(source),
        }
    }
}

impl SealError {
    /// The library's error in this command's terms (`asked`: the `--gpus`
    /// given, for the message).
    fn new(e: SealedError, command: &Command, asked: &GpuSelection) -> Self {
        match e {
            SealedError::GpuChunkSize { chunk_log2 } => {
                SealError::GpuChunks { chunk_log2, chunks_are: command.chunks_are }
            }
            e @ (SealedError::GpuStart(_) | SealedError::NoCuda) => SealError::NoGpu(e),
            SealedError::GpuSelection(source) => SealError::Gpus { asked: asked.clone(), source },
            e => SealError::Sealed(e),
        }
    }
}

impl From<SealError> for CliError {
    fn from(e: SealError) -> Self {
        match e {
            SealError::GpuChunks { .. } | SealError::Gpus { .. } => CliError::Usage(e.to_string()),
            SealError::NoGpu(_) => CliError::Gpu(e.to_string()),
            SealError::Sealed(e @ SealedError::Threads { .. }) => CliError::Io(e.to_string()),
            SealError::Sealed(e) => e.into(),
        }
    }
}

/// Loads the key, and wipes our copy of `--key` whatever happens.
fn take_key(key: &mut KeyArgs) -> Result<zeroize::Zeroizing<[u8; 16]>, CliError> {
    let loaded = keys::load_aead_key(key.key.as_deref(), key.key_file.as_deref());
    if let Some(h) = key.key.as_mut() {
        zeroize::Zeroize::zeroize(h);
    }
    Ok(loaded?)
}

/// Opens the input and the output (never over `key_file`), runs `work`
/// between them as the placement asks (the input's length, when known, goes
/// to `auto`'s rule; the threads at most 4 per core), says where the chunks
/// went with `--verbose`, and commits the output only when it succeeded (a
/// dropped sink removes its temporary file).
fn run(
    io: &Io,
    key_file: Option<&Path>,
    placement: &SealPlacement,
    delivery: &Delivery,
    command: &Command,
    work: impl FnOnce(&Job, &mut Counted<Source>, &mut Sink) -> Result<SealedReport, SealedError>,
) -> Result<(), CliError> {
    let source = Source::open(io.input.as_deref())?;
    let len = source.len();
    let mut sink = Sink::open(io.output.as_deref(), &source, key_file, delivery.force)?;
    let (threads, notice) = crate::args::capped_threads(placement.machine.threads);
    if let (Some(notice), false) = (notice, delivery.quiet) {
        let _ = writeln!(io::stderr(), "skinny: {notice}");
    }
    let bar = progress::bar(len, delivery.quiet, io.to_stdout());
    let mut source = Counted { inner: source, bar: bar.clone() };
    let job = Job::new(placement.placement(threads)).input_len(len);
    let result = work(&job, &mut source, &mut sink);
    bar.finish_and_clear();
    let report = result.map_err(|e| SealError::new(e, command, &placement.machine.gpus))?;
    if delivery.verbose {
        tell(command.verb, threads, placement, &report);
    }
    Ok(sink.commit()?)
}

/// With `--verbose`: what ran, on which engine, and for `auto` on the CPU,
/// why (a notice: a failing stderr does not fail the run).
fn tell(verb: &str, threads: Option<usize>, placement: &SealPlacement, report: &SealedReport) {
    let threads = threads.unwrap_or_else(rayon::current_num_threads);
    let placed = &report.placed;
    // A GPU was opened and served the run: how the chunks were shared.
    let on = match (&placed.accelerator, &placed.why_cpu) {
        (Some(name), None) => format!(
            ": {} on GPU {name}, {} on the CPU ({threads} threads, {})",
            placed.accelerator_units,
            placed.cpu_units,
            match &placed.left {
                Some(slower) => format!("while the GPU started and after it was left: {slower}"),
                None => "while the GPU started".into(),
            }
        ),
        _ => format!(" on the CPU ({threads} threads)"),
    };
    let mut err = io::stderr();
    let bytes = count(report.plaintext_bytes, "byte");
    let chunks = count(report.chunks, "chunk");
    let _ = writeln!(err, "skinny: {verb} {bytes} in {chunks}{on}");
    if let (SealBackendName::Auto, Some(why)) = (placement.backend, &placed.why_cpu) {
        let _ = writeln!(err, "skinny: auto: {why}; using the CPU");
    }
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
    use skinny_exec::{Placement, Threads};

    const SEAL: Command = Command { verb: "sealed", chunks_are: "--chunk-size is" };

    #[test]
    fn gpu_refuses_small_chunks_in_one_line() {
        let gpu = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All });
        let options = SealOptions { member: sealed::Member::M1, chunk_log2: 13 };
        let e = sealed::seal_on(&gpu, &[0u8; 10][..], Vec::new(), &[1; 16], &options).unwrap_err();
        let e = CliError::from(SealError::new(e, &SEAL, &GpuSelection::All));
        let msg = e.to_string();
        assert_eq!(e.exit_code(), 2);
        assert!(msg.contains("16K") && msg.contains("--backend cpu") && !msg.contains('\n'), "{msg}");
        assert!(msg.contains("(--chunk-size is 8192 bytes)"), "{msg}");
    }

    #[test]
    fn errors_keep_their_words_and_exit_codes() {
        let cases = [
            (SealedError::NoCuda, "--backend gpu: this skinny was built without CUDA support", 1),
            (SealedError::GpuStart("no device".into()), "--backend gpu: no device", 1),
            (SealedError::GpuSelection(GpuSelectionError::Zero), "--gpus 2: ", 2),
        ];
        for (e, starts, code) in cases {
            let e = CliError::from(SealError::new(e, &SEAL, &GpuSelection::First(2)));
            assert!(e.to_string().starts_with(starts) && e.exit_code() == code, "{e}");
        }
    }

    #[test]
    fn auto_without_a_gpu_falls_back_to_the_cpu() {
        let present = {
            #[cfg(feature = "cuda")]
            {
                skinny_aead::gpu::GpuDevice::count().is_ok_and(|n| n > 0)
            }
            #[cfg(not(feature = "cuda"))]
            {
                false
            }
        };
        if present {
            return; // the fallback is for machines without one
        }
        // Told the input is large: the GPU is started with the run, fails,
        // and the run goes on on the CPU (auto) or fails (gpu).
        let (key, data, options) = ([1u8; 16], vec![7u8; 300_000], SealOptions::default());
        let auto = Job::new(Placement::default()).input_len(Some(8 << 30));
        let report = sealed::seal_on(&auto, &data[..], Vec::new(), &key, &options).unwrap();
        assert_eq!((report.chunks, report.placed.accelerator_units), (5, 0));
        let why = report.placed.why_cpu.map(|w| w.to_string()).unwrap_or_default();
        assert!(why.starts_with("no usable GPU"), "{why}");
        let gpu = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All });
        let e = sealed::seal_on(&gpu, &data[..], Vec::new(), &key, &options).unwrap_err();
        let e = CliError::from(SealError::new(e, &SEAL, &GpuSelection::All));
        let line = e.to_string();
        assert!(matches!(e, CliError::Gpu(_)) && line.starts_with("--backend gpu: ") && !line.contains('\n'), "{e}");
    }
}
