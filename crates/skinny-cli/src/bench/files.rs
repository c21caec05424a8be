//! `skinny bench --files`: what a user sees encrypting a file: a file in the
//! temporary directory (`TMPDIR`; `/dev/shm` for files in memory) to another,
//! through the library's overlapped pipe (`skinny_bulk::stream::pipe`), by
//! backend and size, beside a plain copy of the same file (`std::fs::copy`, what
//! `cp` does). The backends are opened once and left out of the timing (start-up
//! is in the CLI's wall time, docs/data-path.md); each timed run builds its
//! engine, reads, encrypts, writes and syncs nothing.

use super::measure::{median, random_bytes};
use super::plan::Plan;
use crate::error::{reason, CliError};
use skinny::Skinny;
use skinny_bulk::backend::{self, BackendChoice, Options};
use skinny_bulk::mode::{Direction, Mode, Padding, Processor};
use skinny_bulk::stream::{self, PipeOptions};
use std::fs::File;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Times every size and backend of `plan` (CTR, or the first mode asked) and
/// writes one table to `out`.
///
/// # Errors
/// The temporary files cannot be written; an engine fails; `out` fails.
pub fn run(plan: &Plan, cipher: &Skinny, out: &mut dyn Write) -> Result<(), CliError> {
    fn io_err(what: &'static str) -> impl Fn(std::io::Error) -> CliError {
        move |e| CliError::Io(format!("bench --files: {what}: {}", reason(&e)))
    }
    let dir = tempfile::Builder::new().prefix("skinny-bench-").tempdir().map_err(io_err("a temporary folder"))?;
    let mode = if plan.modes.contains(&Mode::Ctr) { Mode::Ctr } else { plan.modes[0] };
    let mut choices = plan.backends.clone();
    if !choices.contains(&BackendChoice::Auto) {
        choices.push(BackendChoice::Auto);
    }
    let opts = Options::with_threads(plan.threads).gpus(plan.gpus.clone());
    let mut backends = Vec::new();
    for choice in choices {
        match backend::open(choice, &opts) {
            Ok(b) if b.supports(plan.variant) => backends.push((choice, b)),
            Ok(_) => writeln!(out, "# {choice}: does not run {}, left out", plan.variant).map_err(CliError::Output)?,
            Err(e) => writeln!(out, "# {choice}: cannot be used here ({e}), left out").map_err(CliError::Output)?,
        }
    }
    writeln!(
        out,
        "# file to file in {} ({} {mode} encryption through skinny_bulk::stream::pipe), median of {} runs after one warm-up",
        dir.path().display(),
        plan.variant,
        plan.runs
    ).map_err(CliError::Output)?;
    write!(out, "{:>10} {:>10}", "bytes", "copy ms").map_err(CliError::Output)?;
    for (choice, _) in &backends {
        write!(out, " {:>10} {:>7} {:>7}", format!("{choice} ms"), "GB/s", "x copy").map_err(CliError::Output)?;
    }
    writeln!(out).map_err(CliError::Output)?;
    let input = dir.path().join("in");
    let output = dir.path().join("out");
    let iv = random_bytes(plan.variant.block_bytes());
    for &bytes in &plan.sizes {
        let bytes = bytes / plan.variant.block_bytes() * plan.variant.block_bytes();
        std::fs::write(&input, random_bytes(bytes)).map_err(io_err("the input file"))?;
        let copy_ms =
            timed(plan.runs, || std::fs::copy(&input, &output).map(drop).map_err(io_err("copying the input")))?;
        write!(out, "{bytes:>10} {copy_ms:>10.3}").map_err(CliError::Output)?;
        for (_, b) in &backends {
            let ms = timed(plan.runs, || {
                let mut builder = Processor::builder(cipher, mode, Direction::Encrypt).backend(b.as_ref());
                if mode.needs_iv() {
                    builder = builder.iv(&iv);
                }
                if mode.is_block_mode() {
                    builder = builder.padding(Padding::None);
                }
                let p = builder.total_bytes(bytes as u64).build()?;
                let (src, dst) = open_pair(&input, &output).map_err(io_err("the files"))?;
                stream::pipe(p, src, dst, &PipeOptions::default(), None)?;
                Ok(())
            })?;
            let gbs = bytes as f64 / (ms * 1e-3) / 1e9;
            write!(out, " {ms:>10.3} {gbs:>7.2} {:>7.2}", copy_ms / ms).map_err(CliError::Output)?;
        }
        writeln!(out).map_err(CliError::Output)?;
    }
    Ok(())
}

fn open_pair(input: &Path, output: &Path) -> std::io::Result<(File, File)> {
    Ok((File::open(input)?, File::create(output)?))
}

/// Median milliseconds of `runs` timed calls after one untimed one.
fn timed(runs: usize, mut f: impl FnMut() -> Result<(), CliError>) -> Result<f64, CliError> {
    f()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        f()?;
        times.push(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(median(&times))
}
