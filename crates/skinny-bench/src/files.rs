//! What a user sees encrypting a file: a file in the temporary directory
//! (`TMPDIR`; `/dev/shm` for files in memory) to another (both unnamed, so
//! that a stopped run leaves nothing there), through the library's overlapped
//! pipe (`skinny_bulk::stream::pipe`), by backend and size, beside a plain
//! copy of the same file (the kernel's copy, what `cp` does). The backends are opened once and left out of the timing; each timed
//! run builds its engine, reads, encrypts, writes and syncs nothing.

use crate::measure::{random_bytes, random_cipher};
use crate::plan::Plan;
use crate::stats::median;
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use skinny_bulk::stream::{self, PipeOptions, StreamError};
use std::fs::File;
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Why the file-to-file timing stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FilesError {
    /// The scratch folder or one of its files could not be made, read or written.
    #[error("{what}: {source}")]
    Scratch {
        /// Which: "a temporary folder", "the input file"...
        what: &'static str,
        /// Why.
        source: io::Error,
    },
    /// The random key was refused (never: it is made the variant's length).
    #[error(transparent)]
    Key(#[from] skinny::InvalidTweakeyLength),
    /// The cipher or the backend refused.
    #[error(transparent)]
    Cipher(#[from] skinny_bulk::Error),
    /// The pipe failed (reading, writing, or the cipher within).
    #[error(transparent)]
    Stream(#[from] StreamError),
    /// The table could not be written to its writer.
    #[error("cannot write the table: {0}")]
    Output(#[source] io::Error),
}

/// The two scratch files, without names (`O_TMPFILE` where the file system
/// allows; elsewhere created and unlinked at once), in the temporary folder:
/// however the run ends, Ctrl-C, SIGTERM or SIGKILL included, the kernel frees
/// them with the process and nothing is left behind. No other code creates or
/// deletes them.
struct Scratch {
    dir: PathBuf,
    input: File,
    output: File,
}

impl Scratch {
    fn new() -> Result<Self, FilesError> {
        let dir = std::env::temp_dir();
        let unnamed = || tempfile::tempfile_in(&dir).map_err(scratch("a temporary file"));
        Ok(Self { input: unnamed()?, output: unnamed()?, dir })
    }

    fn path(&self) -> &Path {
        &self.dir
    }

    /// Replaces the input with `bytes` random bytes.
    fn fill_input(&self, bytes: usize) -> Result<(), FilesError> {
        let mut input = &self.input;
        (|| {
            input.set_len(0)?;
            input.rewind()?;
            input.write_all(&random_bytes(bytes))
        })()
        .map_err(scratch("the input file"))
    }

    /// The input from its start and the output emptied, as two handles of
    /// their own (each run reads and writes from the start).
    fn open_pair(&self) -> Result<(File, File), FilesError> {
        (|| {
            let (mut input, mut output) = (self.input.try_clone()?, self.output.try_clone()?);
            input.rewind()?;
            output.set_len(0)?;
            output.rewind()?;
            Ok((input, output))
        })()
        .map_err(scratch("the files"))
    }

    /// The plain copy of the input to the output: `io::copy` between two
    /// files takes the kernel's copy (`copy_file_range`), as `std::fs::copy`
    /// and `cp` do.
    fn copy(&self) -> Result<(), FilesError> {
        let (mut input, mut output) = self.open_pair()?;
        io::copy(&mut input, &mut output).map(drop).map_err(scratch("copying the input"))
    }
}

fn scratch(what: &'static str) -> impl Fn(io::Error) -> FilesError {
    move |source| FilesError::Scratch { what, source }
}

/// Times every size and backend of `plan` (`auto` added; CTR, or the first mode
/// asked) under a fresh random key and writes one table to `out`, row by row.
///
/// # Errors
/// The scratch files cannot be written; an engine fails; `out` fails.
pub fn run(plan: &Plan, out: &mut dyn Write) -> Result<(), FilesError> {
    let cipher = random_cipher(plan.variant)?;
    let w = |r: io::Result<()>| r.map_err(FilesError::Output);
    // The machine first: file-to-file figures hold only for the machine class they ran on.
    w(writeln!(out, "# {}", crate::system::cpu_line_here()))?;
    let scratch = Scratch::new()?;
    let mode =
        if plan.modes.contains(&Mode::Ctr) { Mode::Ctr } else { plan.modes.first().copied().unwrap_or(Mode::Ctr) };
    let mut choices = plan.backends.clone();
    if !choices.contains(&BackendChoice::Auto) {
        choices.push(BackendChoice::Auto);
    }
    let opts = Options::with_threads(plan.threads).gpus(plan.gpus.clone());
    let mut backends = Vec::new();
    for choice in choices {
        match backend::open(choice, &opts) {
            Ok(b) if b.supports(plan.variant) => backends.push((choice, b)),
            Ok(_) => w(writeln!(out, "# {choice}: does not run {}, left out", plan.variant))?,
            Err(e) => w(writeln!(out, "# {choice}: cannot be used here ({e}), left out"))?,
        }
    }
    w(writeln!(
        out,
        "# file to file in {} ({} {mode} encryption through skinny_bulk::stream::pipe), median of {} runs after one warm-up",
        scratch.path().display(),
        plan.variant,
        plan.runs
    ))?;
    w(write!(out, "{:>10} {:>10}", "bytes", "copy ms"))?;
    for (choice, _) in &backends {
        w(write!(out, " {:>10} {:>7} {:>7}", format!("{choice} ms"), "GB/s", "x copy"))?;
    }
    w(writeln!(out))?;
    let block = plan.variant.block_bytes();
    let iv = random_bytes(block);
    for &bytes in &plan.sizes {
        let bytes = bytes / block * block;
        scratch.fill_input(bytes)?;
        let copy_ms = timed(plan.runs, || scratch.copy())?;
        w(write!(out, "{bytes:>10} {copy_ms:>10.3}"))?;
        for (_, b) in &backends {
            let ms = timed(plan.runs, || {
                let mut builder = Processor::builder(&cipher, mode, Direction::Encrypt).backend(b.as_ref());
                if mode.needs_iv() {
                    builder = builder.iv(&iv);
                }
                if mode.is_block_mode() {
                    builder = builder.padding(Padding::None);
                }
                let p = builder.total_bytes(bytes as u64).build()?;
                let (src, dst) = scratch.open_pair()?;
                stream::pipe(p, src, dst, &PipeOptions::default(), None)?;
                Ok(())
            })?;
            let gbs = bytes as f64 / (ms * 1e-3) / 1e9;
            w(write!(out, " {ms:>10.3} {gbs:>7.2} {:>7.2}", copy_ms / ms))?;
        }
        w(writeln!(out))?;
    }
    Ok(())
}

/// Median milliseconds of `runs` timed calls after one untimed one.
fn timed(runs: usize, mut f: impl FnMut() -> Result<(), FilesError>) -> Result<f64, FilesError> {
    f()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        f()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(median(&times))
}
