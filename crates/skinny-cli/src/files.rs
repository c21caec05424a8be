//! Where `encrypt` and `decrypt` read and write.
//!
//! The output to a file is written to a temporary file beside it (same
//! directory, unpredictable name, created exclusively) and renamed over the
//! target only once everything succeeded, so a failure never leaves a partial or
//! clobbered output: dropping an uncommitted [`Sink`] removes the temporary file.

use crate::error::{reason, CliError};
use std::fs::{File, Metadata};
use std::io::{self, IsTerminal, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Names that mean stdin or stdout.
fn is_std(path: Option<&Path>) -> bool {
    path.is_none_or(|p| p.as_os_str() == "-")
}

/// A file's identity on this machine, to catch the same file under two names
/// (hard links, symlinks, `..`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    fn of(meta: &Metadata) -> Self {
        Self { dev: meta.dev(), ino: meta.ino() }
    }
}

/// Metadata of an open standard stream (fstat), if it can be had.
fn std_stream_meta(fd: std::os::fd::BorrowedFd<'_>) -> Option<Metadata> {
    let owned = fd.try_clone_to_owned().ok()?;
    File::from(owned).metadata().ok()
}

/// The input: a file or stdin.
pub struct Source {
    reader: Box<dyn Read + Send>,
    /// Bytes to read, when known (a regular file).
    len: Option<u64>,
    /// Identity of a regular file, for the same-file check.
    id: Option<FileId>,
    /// Canonical path of a named input.
    canonical: Option<PathBuf>,
}

impl Source {
    /// Opens `path` (`None` or `-`: stdin).
    ///
    /// # Errors
    /// A missing, unreadable or directory input.
    pub fn open(path: Option<&Path>) -> Result<Self, CliError> {
        if is_std(path) {
            let stdin = io::stdin();
            let meta = std_stream_meta(stdin.as_fd());
            let regular = meta.as_ref().filter(|m| m.is_file());
            return Ok(Self {
                reader: Box::new(stdin),
                len: regular.map(Metadata::len),
                id: regular.map(FileId::of),
                canonical: None,
            });
        }
        let path = path.unwrap_or(Path::new("-"));
        let shown = path.display();
        let cannot = |e: io::Error| CliError::Io(format!("cannot read input {shown}: {}", reason(&e)));
        let file = File::open(path).map_err(cannot)?;
        let meta = file.metadata().map_err(cannot)?;
        if meta.is_dir() {
            return Err(CliError::Io(format!("cannot read input {shown}: it is a directory")));
        }
        Ok(Self {
            reader: Box::new(file),
            len: meta.is_file().then_some(meta.len()),
            id: Some(FileId::of(&meta)),
            canonical: std::fs::canonicalize(path).ok(),
        })
    }

    /// Input length in bytes when known in advance.
    pub fn len(&self) -> Option<u64> {
        self.len
    }
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

/// Where the output goes.
enum Target {
    /// Standard output, written as it comes (through a duplicate of its file
    /// descriptor: large writes go straight to it, with no line buffer).
    Stdout(File),
    /// A temporary file renamed over `target` on commit.
    Replace { tmp: tempfile::NamedTempFile, target: PathBuf },
    /// A special file that cannot be replaced (`/dev/null`, a FIFO): written
    /// straight through.
    Special(File),
}

/// The output, committed only on success.
pub struct Sink {
    target: Target,
}

impl Sink {
    /// Prepares the output `path` (`None` or `-`: stdout) for the input `source`.
    ///
    /// # Errors
    /// The output is the input, stdout is a terminal and `force` is off, or the
    /// output cannot be created (no such directory, no permission).
    pub fn open(path: Option<&Path>, source: &Source, force: bool) -> Result<Self, CliError> {
        if is_std(path) {
            let stdout = io::stdout();
            if stdout.is_terminal() && !force {
                return Err(CliError::Usage(
                    "refusing to write binary output to a terminal; use -o FILE, a pipe, or --force".into(),
                ));
            }
            let meta = std_stream_meta(stdout.as_fd());
            if let (Some(m), Some(id)) = (meta.filter(Metadata::is_file), source.id) {
                if FileId::of(&m) == id {
                    return Err(same_file());
                }
            }
            let fd = stdout
                .as_fd()
                .try_clone_to_owned()
                .map_err(|e| CliError::Io(format!("cannot write output: {}", reason(&e))))?;
            return Ok(Self { target: Target::Stdout(File::from(fd)) });
        }
        let path = path.unwrap_or(Path::new("-"));
        let shown = path.display();
        match std::fs::metadata(path) {
            Ok(meta) => {
                let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                if Some(FileId::of(&meta)) == source.id || source.canonical.as_deref() == Some(canonical.as_path()) {
                    return Err(same_file());
                }
                if meta.is_dir() {
                    return Err(CliError::Io(format!("cannot write output {shown}: it is a directory")));
                }
                if !meta.is_file() {
                    let file = std::fs::OpenOptions::new()
                        .write(true)
                        .open(path)
                        .map_err(|e| CliError::Io(format!("cannot write output {shown}: {}", reason(&e))))?;
                    return Ok(Self { target: Target::Special(file) });
                }
                // Replace the file a symlink points to, not the link.
                let tmp = temp_beside(&canonical, &shown.to_string())?;
                // Keep the permissions of the file being replaced.
                let _ = tmp.as_file().set_permissions(meta.permissions());
                Ok(Self { target: Target::Replace { tmp, target: canonical } })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let tmp = temp_beside(path, &shown.to_string())?;
                Ok(Self { target: Target::Replace { tmp, target: path.to_path_buf() } })
            }
            Err(e) => Err(CliError::Io(format!("cannot write output {shown}: {}", reason(&e)))),
        }
    }

    /// Flushes, and for a file syncs it and renames it over the target.
    ///
    /// # Errors
    /// A flush, sync or rename error (the temporary file is then removed).
    pub fn commit(self) -> Result<(), CliError> {
        let fail = |e: io::Error| CliError::Io(format!("cannot write output: {}", reason(&e)));
        match self.target {
            Target::Stdout(mut f) | Target::Special(mut f) => f.flush().map_err(fail),
            Target::Replace { tmp, target } => {
                tmp.as_file().sync_all().map_err(fail)?;
                tmp.persist(&target).map(drop).map_err(|e| {
                    CliError::Io(format!("cannot write output {}: {}", target.display(), reason(&e.error)))
                })
            }
        }
    }
}

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Stdout(f) | Target::Special(f) => f.write(data),
            Target::Replace { tmp, .. } => tmp.write(data),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Stdout(f) | Target::Special(f) => f.flush(),
            Target::Replace { tmp, .. } => tmp.flush(),
        }
    }
}

fn same_file() -> CliError {
    CliError::Usage("input and output are the same file; write to another file and rename it".into())
}

/// An exclusively created temporary file with an unpredictable name in the
/// directory of `target`.
fn temp_beside(target: &Path, shown: &str) -> Result<tempfile::NamedTempFile, CliError> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    tempfile::Builder::new()
        .prefix(".skinny-")
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(|e| CliError::Io(format!("cannot write output {shown}: {}", reason(&e))))
}
