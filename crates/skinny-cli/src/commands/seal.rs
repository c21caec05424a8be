//! `skinny seal` and `skinny open`: the sealed file format of
//! [`skinny_aead::sealed`] between an input and an output.
//!
//! The key is loaded and checked first, then the input opened, then the output
//! created (a temporary file beside it, renamed only when everything
//! succeeded: see [`crate::files`]). A failed `open` to a file therefore
//! leaves no output and an existing output untouched.

use crate::cli::{OpenArgs, SealArgs};
use crate::error::CliError;
use crate::files::{Sink, Source};
use crate::keys;
use crate::progress;
use skinny_aead::sealed::{self, SealOptions, SealedError};
use std::io::{self, Read};
use std::path::Path;

/// Runs `skinny seal`.
///
/// # Errors
/// One line for the user: bad arguments, unreadable input, unwritable output.
pub fn seal(a: &mut SealArgs) -> Result<(), CliError> {
    let key = take_key(&mut a.key, a.key_file.as_deref())?;
    let options = SealOptions { member: a.member.into(), chunk_log2: a.chunk_size };
    run(a.input.as_deref(), a.output.as_deref(), a.force, a.quiet, a.threads, |source, sink| {
        sealed::seal(source, sink, &key, &options).map(drop)
    })
}

/// Runs `skinny open`.
///
/// # Errors
/// One line for the user (exit 1): not a sealed file, truncated, a chunk that
/// does not verify (wrong key or a changed file), unreadable input or
/// unwritable output; bad arguments (exit 2).
pub fn open(a: &mut OpenArgs) -> Result<(), CliError> {
    let key = take_key(&mut a.key, a.key_file.as_deref())?;
    run(a.input.as_deref(), a.output.as_deref(), a.force, a.quiet, a.threads, |source, sink| {
        sealed::open(source, sink, &key).map(drop)
    })
}

/// Loads the key, and wipes our copy of `--key` whatever happens.
fn take_key(hex: &mut Option<String>, file: Option<&Path>) -> Result<zeroize::Zeroizing<[u8; 16]>, CliError> {
    let key = keys::load_aead_key(hex.as_deref(), file);
    if let Some(h) = hex.as_mut() {
        zeroize::Zeroize::zeroize(h);
    }
    key
}

/// Opens the input and the output, runs `work` between them on a pool of
/// `threads` (default: rayon's global pool, all cores), and commits the output
/// only when it succeeded (a dropped sink removes its temporary file).
fn run(
    input: Option<&Path>,
    output: Option<&Path>,
    force: bool,
    quiet: bool,
    threads: Option<usize>,
    work: impl FnOnce(&mut Counted<Source>, &mut Sink) -> Result<(), SealedError> + Send,
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
    let mut sink = Sink::open(output, &source, force)?;
    let to_stdout = output.is_none_or(|p| p.as_os_str() == "-");
    let bar = progress::bar(source.len(), quiet, to_stdout);
    let mut source = Counted { inner: source, bar: bar.clone() };
    let result = match pool {
        Some(pool) => pool.install(|| work(&mut source, &mut sink)),
        None => work(&mut source, &mut sink),
    };
    bar.finish_and_clear();
    result.map_err(CliError::from)?;
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
