//! `skinny hash`: 256-bit digests of files in GNU coreutils' format
//! (`sha256sum`'s, or with `--tag` BSD-style lines that name the function),
//! and `--check` of such lists, over Romulus-H and the two SKINNY-Hash
//! members. The format both ways is in [`line`], the check in [`check`];
//! docs/hash.md is the reference.
//!
//! Files are read in 64 KiB pieces, so memory does not grow with them. Several
//! files are hashed at once on worker threads ([`spread`]), their lines
//! printed in the order given. A file that cannot be read is reported on its
//! own line and the others are still done; the command then fails (exit 1)
//! once all are, as `sha256sum` does.

pub mod args;
pub mod check;
pub mod line;
pub mod spread;

use crate::error::{count, reason, CliError};
use args::{HashAlgo, HashArgs};
use line::Style;
use skinny_romulus::digest::Digest;
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes read from a file at a time.
const READ_BYTES: usize = 64 * 1024;

/// Bytes in every digest offered.
pub const DIGEST_BYTES: usize = 32;

/// The words of [`HashError::StdoutClosed`]: the shared ones offer `-o
/// FILE`, which `hash` does not have.
const STDOUT_CLOSED: &str = "cannot write output: stdout is closed (hash writes to stdout only: use a pipe, \
                             > FILE, or >/dev/null to discard it)";

/// What stops `skinny hash` in its own terms; turned into a [`CliError`]
/// where it leaves the command.
#[derive(Debug)]
pub enum HashError {
    /// Stdout was closed when the process started (`>&-`): the digests or
    /// verdicts would vanish. Worded for `hash`, which has no `-o`.
    StdoutClosed,
    /// Writing the digests or the verdicts failed (a closed pipe, a full disk).
    Output(io::Error),
    /// Some files could not be read; each was reported already.
    Unreadable {
        /// How many.
        files: u64,
    },
    /// `--check` failed, and said why on its own lines already (or, under
    /// `--status`, by its exit status alone).
    CheckFailed,
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HashError::Output(e) => write!(f, "cannot write output: {}", reason(e)),
            HashError::StdoutClosed => f.write_str(STDOUT_CLOSED),
            HashError::Unreadable { files } => write!(f, "{} could not be read", count(*files, "file")),
            HashError::CheckFailed => f.write_str("the check failed"),
        }
    }
}

impl std::error::Error for HashError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HashError::Output(e) => Some(e),
            HashError::StdoutClosed | HashError::Unreadable { .. } | HashError::CheckFailed => None,
        }
    }
}

impl From<HashError> for CliError {
    fn from(e: HashError) -> Self {
        match e {
            HashError::Output(e) => CliError::Output(e),
            e @ (HashError::StdoutClosed | HashError::Unreadable { .. }) => CliError::Io(e.to_string()),
            HashError::CheckFailed => CliError::Reported,
        }
    }
}

/// Runs `skinny hash`.
///
/// # Errors
/// Unwritable output; files that could not be read (after the others were
/// hashed); with `--check`, any list that failed (reported already).
pub fn run(a: &HashArgs) -> Result<(), CliError> {
    if crate::closed_stdout::stdout_was_closed() {
        return Err(HashError::StdoutClosed.into());
    }
    let stdin = [PathBuf::from("-")];
    let files = if a.files.is_empty() { &stdin[..] } else { &a.files[..] };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = if a.check {
        check::check(&check::CheckOptions::from_args(a), files, &mut out).and_then(|passed| {
            if passed {
                Ok(())
            } else {
                Err(HashError::CheckFailed)
            }
        })
    } else {
        let algo = a.algo.unwrap_or(HashAlgo::DEFAULT);
        let style = Style { tagged: a.tag, zero: a.zero };
        hash(algo, style, files, spread::workers_for(files, a.threads), &mut out)
    };
    // A write error that the buffer held back is still an error.
    let flushed = out.flush().map_err(HashError::Output);
    flushed.and(result).map_err(CliError::from)
}

/// Prints a line for each file, in order, hashing on `workers` threads.
fn hash(
    algo: HashAlgo,
    style: Style,
    files: &[PathBuf],
    workers: usize,
    out: &mut impl Write,
) -> Result<(), HashError> {
    let mut unreadable = 0;
    spread::in_order(
        files,
        workers,
        |path| digest_path(algo, path),
        |path, result| {
            match result {
                Ok(digest) => {
                    out.write_all(&line::digest_line(algo, &digest, &name_bytes(path), style))
                        .map_err(HashError::Output)?;
                }
                Err(e) => {
                    unreadable += 1;
                    notice(out, &format!("{}: {}", shown_name(&name_bytes(path)), reason(&e)))?;
                }
            }
            Ok(())
        },
    )?;
    if unreadable > 0 {
        return Err(HashError::Unreadable { files: unreadable });
    }
    Ok(())
}

/// Says `message` on stderr as `skinny: <message>`, after what `out` holds,
/// so that a terminal shows the two in order. A failing stderr is ignored
/// (the exit status still tells); a failing stdout is an error.
fn notice(out: &mut impl Write, message: &str) -> Result<(), HashError> {
    out.flush().map_err(HashError::Output)?;
    // `hash` takes no secret: a digest-named file is shown as it is.
    let _ = writeln!(io::stderr(), "skinny: {message}");
    Ok(())
}

/// A name for messages on stderr: escaped as in a list, so that a newline
/// in it cannot split the message.
fn shown_name(name: &[u8]) -> String {
    let mut shown = Vec::with_capacity(name.len());
    line::push_name(&mut shown, name, true);
    String::from_utf8_lossy(&shown).into_owned()
}

/// Whether `path` means stdin.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The digest of the file at `path` (`-`: stdin), read in pieces.
fn digest_path(algo: HashAlgo, path: &Path) -> io::Result<[u8; DIGEST_BYTES]> {
    let mut reader = open(path)?;
    match algo {
        HashAlgo::RomulusH => digest_reader::<skinny_romulus::RomulusH>(&mut reader),
        HashAlgo::SkinnyTk3Hash => digest_reader::<skinny_hash::SkinnyTk3Hash>(&mut reader),
        HashAlgo::SkinnyTk2Hash => digest_reader::<skinny_hash::SkinnyTk2Hash>(&mut reader),
    }
}

/// The file at `path`, or stdin for `-`.
fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    if is_stdin(path) {
        // A closed stdin (`<&-`) is no empty input: its digest would be a lie.
        if crate::closed_stdout::stdin_was_closed() {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed (give a file, or a pipe)"));
        }
        Ok(Box::new(io::stdin().lock()))
    } else {
        Ok(Box::new(File::open(path)?))
    }
}

/// `D`'s digest of everything `reader` gives.
fn digest_reader<D: Digest>(reader: &mut dyn Read) -> io::Result<[u8; DIGEST_BYTES]> {
    let mut hasher = D::new();
    let mut buf = vec![0u8; READ_BYTES];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let digest = hasher.finalize();
    digest.as_slice().try_into().map_err(|_| io::Error::other("the digest is not 32 bytes"))
}

/// The name as given, byte for byte where the platform allows.
fn name_bytes(path: &Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
    }
}

/// The path a list names (`None`: not a name this platform can have).
fn path_from_bytes(name: &[u8]) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(name)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(name).ok().map(PathBuf::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_leave_as_one_line_or_none() {
        assert_eq!(CliError::from(HashError::Unreadable { files: 1 }).exit_code(), 1);
        assert_eq!(CliError::from(HashError::Unreadable { files: 2 }).to_string(), "2 files could not be read");
        assert!(matches!(CliError::from(HashError::CheckFailed), CliError::Reported));
    }

    #[test]
    fn names_in_messages_cannot_split_them() {
        assert_eq!(shown_name(b"a\nb\\c\r"), "a\\nb\\\\c\\r");
        assert_eq!(shown_name(b"plain name"), "plain name");
    }
}
