//! `skinny seal` and `skinny open`: the sealed file format of [`skinny_seal`]
//! (version 2 written; versions 1 and 2 opened) between an input and an
//! output, where `--backend` places it (the library decides CPU or GPU by the
//! format's rule, opens the GPU while the CPU begins, and reports where the
//! chunks went).
//!
//! The keys are loaded and checked first, then the input opened, then the
//! output created (a temporary file beside it, renamed only when everything
//! succeeded: see [`crate::files`]). A failed `open` to a file therefore
//! leaves no output and an existing output untouched.

pub mod args;
pub mod errors;
pub mod keys;
pub mod terminal;

use crate::args::{Delivery, Io};
use crate::error::{count, CliError};
use crate::files::{FileError, Sink, Source};
use crate::progress;
use args::{OpenArgs, SealArgs, SealPlacement};
use errors::{from_open, from_seal, Command, OPEN, SEAL};
use skinny_seal::armor::{ArmoredReader, ArmoredWriter};
use skinny_seal::{Job, OpenOptions, SealOptions, SealReport};
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use terminal::TerminalGate;

/// Runs `skinny seal`.
///
/// # Errors
/// One line for the user: no or bad keys, bad arguments, unreadable input,
/// unwritable output, no usable GPU for `--backend gpu`.
pub fn seal(a: &mut SealArgs) -> Result<(), CliError> {
    let recipients = keys::recipients(&mut a.key, &a.secret, &a.recipients, &a.recipients_files, &a.io)?;
    let mut options = SealOptions {
        scheme: a.aead,
        chunk_log2: a.chunk_size,
        context: a.secret.context.as_ref().map(|c| c.as_bytes().to_vec()),
        input_len: None,
    };
    let asked = a.placement.machine.gpus.clone();
    let key_file = key_file_path(a.key.key_file.as_deref());
    let armor = a.armor;
    // Armor is text: to a terminal it is let through as `open`'s printable
    // output is (binary still needs --force).
    let gate = armor && a.io.to_stdout() && io::stdout().is_terminal() && !a.delivery.force;
    run(&a.io, key_file, &[], &a.placement, &a.delivery, &SEAL, gate, |job, len, source, sink| {
        options.input_len = len;
        if !armor {
            return skinny_seal::seal_on(job, source, sink, &recipients.refs(), &options)
                .map_err(|e| from_seal(e, &asked));
        }
        let mut armored = ArmoredWriter::new(sink);
        let report = skinny_seal::seal_on(job, source, &mut armored, &recipients.refs(), &options)
            .map_err(|e| from_seal(e, &asked))?;
        armored.finish().map_err(CliError::Output)?;
        Ok(report)
    })
}

/// Runs `skinny open`.
///
/// # Errors
/// One line for the user (exit 1): not a sealed file, truncated, no key given
/// opens it, a chunk that does not verify (a changed file or the wrong
/// context), a 64-bit-tag scheme not named, unreadable input or unwritable
/// output, no usable GPU for `--backend gpu`; bad arguments (exit 2).
pub fn open(a: &mut OpenArgs) -> Result<(), CliError> {
    let identities = keys::identities(&mut a.key, &a.secret, &a.identities, &a.io)?;
    let named = a.aead;
    let options = OpenOptions {
        context: a.secret.context.as_ref().map(|c| c.as_bytes().to_vec()),
        allow_short_tag_scheme: named.filter(|s| s.short_tag()),
        expect_scheme: named,
    };
    let asked = a.placement.machine.gpus.clone();
    let key_file = key_file_path(a.key.key_file.as_deref());
    let gate = a.io.to_stdout() && io::stdout().is_terminal() && !a.delivery.force;
    if a.offset.is_some() || a.length.is_some() {
        let (offset, length) = (a.offset.unwrap_or(0), a.length.unwrap_or(0));
        return open_range(&a.io, key_file, &a.identities, &a.delivery, gate, |file, sink| {
            skinny_seal::open_range(file, sink, offset, length, &identities.refs(), &options)
                .map(drop)
                .map_err(|e| from_open(e, &asked, None))
        });
    }
    run(&a.io, key_file, &a.identities, &a.placement, &a.delivery, &OPEN, gate, |job, _, source, sink| {
        // Armor is recognised by its first line; the version byte for the
        // messages is then read from the decoded bytes.
        let mut input = Counted { inner: ArmoredReader::new(&mut *source), bar: None, head: Vec::with_capacity(11) };
        skinny_seal::open_on(job, &mut input, sink, &identities.refs(), &options)
            .map_err(|e| from_open(e, &asked, input.version()))
    })
}

/// The key file the output must never be (not stdin's `-`).
fn key_file_path(key_file: Option<&Path>) -> Option<&Path> {
    key_file.filter(|p| *p != Path::new("-"))
}

/// Refuses an output that is one of the identity files (the same file by any
/// name): writing there would destroy the key.
fn not_an_identity(io: &Io, identities: &[std::path::PathBuf]) -> Result<(), CliError> {
    use std::os::unix::fs::MetadataExt;
    let Some(out) = io.output.as_deref().filter(|_| !io.to_stdout()) else { return Ok(()) };
    let Ok(o) = std::fs::metadata(out) else { return Ok(()) };
    for id in identities {
        if std::fs::metadata(id).is_ok_and(|m| m.dev() == o.dev() && m.ino() == o.ino()) {
            return Err(FileError::KeyFile.into());
        }
    }
    Ok(())
}

/// `open --offset/--length`: the range from the named, seekable input file.
fn open_range(
    io: &Io,
    key_file: Option<&Path>,
    identities: &[std::path::PathBuf],
    delivery: &Delivery,
    gate: bool,
    work: impl FnOnce(std::fs::File, &mut (dyn Write + Send)) -> Result<(), CliError>,
) -> Result<(), CliError> {
    let pipe = || {
        CliError::Usage("--offset/--length need a seekable input: name the sealed file (not stdin or a pipe)".into())
    };
    let path = io.input.as_deref().filter(|p| *p != Path::new("-")).ok_or_else(pipe)?;
    let source = Source::open(Some(path))?;
    if source.len().is_none() {
        return Err(pipe());
    }
    let cannot = |e: io::Error| CliError::Io(format!("cannot read input: {}", crate::error::reason(&e)));
    let file = std::fs::File::open(path).map_err(cannot)?;
    if ArmoredReader::new(&file).is_armored().map_err(cannot)? {
        return Err(CliError::Usage(
            "--offset/--length need a binary sealed file; this one is armored (open it whole)".into(),
        ));
    }
    let file = std::fs::File::open(path).map_err(cannot)?;
    not_an_identity(io, identities)?;
    let mut sink = Sink::open(io.output.as_deref(), &source, key_file, delivery.force || gate)?;
    if gate {
        let mut gated = TerminalGate::new(&mut sink);
        let result = work(file, &mut gated);
        if gated.refused {
            return Err(FileError::Terminal.into());
        }
        result?;
    } else {
        work(file, &mut sink)?;
    }
    Ok(sink.commit()?)
}

/// Opens the input and the output (never over `key_file`), runs `work`
/// between them as the placement asks (the input's length, when known, goes
/// to `auto`'s rule; the threads at most 4 per core), says where the chunks
/// went with `--verbose`, and commits the output only when it succeeded (a
/// dropped sink removes its temporary file).
#[allow(clippy::too_many_arguments)]
fn run(
    io: &Io,
    key_file: Option<&Path>,
    identities: &[std::path::PathBuf],
    placement: &SealPlacement,
    delivery: &Delivery,
    command: &Command,
    gate: bool,
    work: impl FnOnce(&Job, Option<u64>, &mut Counted<Source>, &mut (dyn Write + Send)) -> Result<SealReport, CliError>,
) -> Result<(), CliError> {
    let source = Source::open(io.input.as_deref())?;
    let len = source.len();
    not_an_identity(io, identities)?;
    let mut sink = Sink::open(io.output.as_deref(), &source, key_file, delivery.force || gate)?;
    let (threads, notice) = crate::args::capped_threads(placement.machine.threads);
    if let (Some(notice), false) = (notice, delivery.quiet) {
        let _ = writeln!(io::stderr(), "skinny: {notice}");
    }
    let bar = progress::bar(len, delivery.quiet, io.to_stdout());
    let mut source = Counted { inner: source, bar: Some(bar.clone()), head: Vec::with_capacity(11) };
    let job = Job::new(placement.placement(threads)).input_len(len);
    let result = if gate {
        let mut gated = TerminalGate::new(&mut sink);
        let result = work(&job, len, &mut source, &mut gated);
        if gated.refused {
            bar.finish_and_clear();
            return Err(FileError::Terminal.into());
        }
        result
    } else {
        work(&job, len, &mut source, &mut sink)
    };
    bar.finish_and_clear();
    let report = result?;
    if delivery.verbose {
        tell(command.verb, threads, placement, &report);
    }
    Ok(sink.commit()?)
}

/// With `--verbose`: what ran, on which engine, and for `auto` on the CPU,
/// why (a notice: a failing stderr does not fail the run).
fn tell(verb: &str, threads: Option<usize>, placement: &SealPlacement, report: &SealReport) {
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
    if let (skinny_exec::PlacementKind::Auto, Some(why)) = (placement.backend, &placed.why_cpu) {
        let _ = writeln!(err, "skinny: auto: {why}; using the CPU");
    }
}

/// A reader that moves the progress bar (if it has one), and keeps the first
/// bytes read (the format version, for `open`'s messages).
struct Counted<R> {
    inner: R,
    bar: Option<indicatif::ProgressBar>,
    head: Vec<u8>,
}

impl<R> Counted<R> {
    /// The format version byte of a sealed input, once read.
    fn version(&self) -> Option<u8> {
        self.head.get(10).copied()
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let keep = n.min(11 - self.head.len());
        self.head.extend_from_slice(&buf[..keep]);
        if let Some(bar) = &self.bar {
            bar.inc(n as u64);
        }
        Ok(n)
    }
}
