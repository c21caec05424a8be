//! Where `encrypt`, `decrypt`, `seal` and `open` read and write.
//!
//! The output to a file is an [`AtomicFile`] beside it, renamed over the
//! target only once everything succeeded, so a failure never leaves a partial or
//! clobbered output: dropping an uncommitted [`Sink`] removes the temporary file.

mod error;

use crate::atomic::{AtomicFile, CommitError, NewFileAccess};
pub(crate) use error::shown;
pub use error::FileError;
use std::fs::{File, Metadata};
use std::io::{self, IsTerminal, Read, Seek, Write};
use std::os::fd::AsFd;
use std::os::unix::fs::{FileTypeExt, MetadataExt};
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

/// Every file a key, identity or passphrase of this run was read from (by
/// fstat of the very descriptor read, so a name cannot change under us). The
/// output is never one of them and the input is never one of them: writing
/// there would destroy the secret (`--passphrase-fd 3 3<pass -o pass`), and
/// reading there would seal the secret under itself (`--key-file /dev/stdin`
/// with stdin the input). Terminals and other character devices are left out:
/// a passphrase typed at a terminal does not live there.
static SECRET_SOURCES: std::sync::Mutex<Vec<FileId>> = std::sync::Mutex::new(Vec::new());

/// Records that a secret is about to be read from `file` (call before reading).
pub fn note_secret_source(file: &File) {
    if let Ok(meta) = file.metadata() {
        if !meta.file_type().is_char_device() {
            SECRET_SOURCES.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(FileId::of(&meta));
        }
    }
}

/// Records that a secret is about to be read from the open descriptor `fd`.
pub fn note_secret_fd(fd: std::os::fd::BorrowedFd<'_>) {
    if let Ok(owned) = fd.try_clone_to_owned() {
        note_secret_source(&File::from(owned));
    }
}

/// Whether `meta` is a file a secret of this run came from.
fn is_secret_source(meta: &Metadata) -> bool {
    let id = FileId::of(meta);
    SECRET_SOURCES.lock().unwrap_or_else(std::sync::PoisonError::into_inner).contains(&id)
}

/// Metadata of an open standard stream (fstat), if it can be had.
fn std_stream_meta(fd: std::os::fd::BorrowedFd<'_>) -> Option<Metadata> {
    let owned = fd.try_clone_to_owned().ok()?;
    File::from(owned).metadata().ok()
}

/// The current offset of an open standard stream (lseek SEEK_CUR on a
/// duplicate, which shares the offset), if it has one.
fn std_stream_offset(fd: std::os::fd::BorrowedFd<'_>) -> Option<u64> {
    let owned = fd.try_clone_to_owned().ok()?;
    File::from(owned).stream_position().ok()
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
    pub fn open(path: Option<&Path>) -> Result<Self, FileError> {
        if is_std(path) {
            if crate::closed_stdout::stdin_was_closed() {
                return Err(FileError::StdinClosed);
            }
            let stdin = io::stdin();
            let meta = std_stream_meta(stdin.as_fd());
            if meta.as_ref().is_some_and(is_secret_source) {
                return Err(FileError::InputIsSecret);
            }
            let regular = meta.as_ref().filter(|m| m.is_file());
            // A file on stdin may be partly read already (`{ head -c 5 >/dev/null;
            // skinny ...; } < file`): what is left starts at the shared offset, and
            // only that is checked for whole blocks.
            let len = regular.map(|m| m.len().saturating_sub(std_stream_offset(stdin.as_fd()).unwrap_or(0)));
            return Ok(Self { reader: Box::new(stdin), len, id: regular.map(FileId::of), canonical: None });
        }
        let path = path.unwrap_or(Path::new("-"));
        let cannot = |source| FileError::InputUnreadable { path: path.to_path_buf(), source };
        let file = File::open(path).map_err(cannot)?;
        let meta = file.metadata().map_err(cannot)?;
        if meta.is_dir() {
            return Err(FileError::InputIsDirectory { path: path.to_path_buf() });
        }
        if is_secret_source(&meta) {
            return Err(FileError::InputIsSecret);
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
    /// A temporary file renamed over its target on commit.
    Replace(AtomicFile),
    /// A special file that cannot be replaced (`/dev/null`, a FIFO): written
    /// straight through.
    Special(File),
}

/// The output, committed only on success.
pub struct Sink {
    target: Target,
}

impl Sink {
    /// Prepares the output `path` (`None` or `-`: stdout) for the input
    /// `source`, never over `key_file` (the key the output is made with).
    ///
    /// # Errors
    /// The output is the input or the key file, it is a terminal and `force`
    /// is off, or it cannot be created (no such directory, no permission).
    pub fn open(path: Option<&Path>, source: &Source, key_file: Option<&Path>, force: bool) -> Result<Self, FileError> {
        // The same file under any name (links followed): writing there would
        // leave the only copy of the key encrypted under itself.
        let key_id = key_file.and_then(|k| std::fs::metadata(k).ok()).map(|m| FileId::of(&m));
        let is_key = |meta: &Metadata| key_id.is_some_and(|id| FileId::of(meta) == id);
        if is_std(path) {
            if crate::closed_stdout::stdout_was_closed() {
                return Err(FileError::StdoutClosed);
            }
            let stdout = io::stdout();
            if stdout.is_terminal() && !force {
                return Err(FileError::Terminal);
            }
            let meta = std_stream_meta(stdout.as_fd());
            let secret = meta.as_ref().is_some_and(is_secret_source);
            if let Some(m) = meta.filter(Metadata::is_file) {
                if source.id == Some(FileId::of(&m)) {
                    return Err(FileError::SameFile);
                }
                if is_key(&m) {
                    return Err(FileError::KeyFile);
                }
            }
            if secret {
                return Err(FileError::SecretSource);
            }
            let fd = stdout.as_fd().try_clone_to_owned().map_err(FileError::Stdout)?;
            return Ok(Self { target: Target::Stdout(File::from(fd)) });
        }
        let path = path.unwrap_or(Path::new("-"));
        let unwritable = |source| FileError::OutputUnwritable { path: path.to_path_buf(), source };
        match std::fs::metadata(path) {
            Ok(meta) => {
                let canonical = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                if Some(FileId::of(&meta)) == source.id || source.canonical.as_deref() == Some(canonical.as_path()) {
                    return Err(FileError::SameFile);
                }
                if is_key(&meta) {
                    return Err(FileError::KeyFile);
                }
                if is_secret_source(&meta) {
                    return Err(FileError::SecretSource);
                }
                if meta.is_dir() {
                    return Err(FileError::OutputIsDirectory { path: path.to_path_buf() });
                }
                if !meta.is_file() {
                    let file = std::fs::OpenOptions::new().write(true).open(path).map_err(unwritable)?;
                    // `-o /dev/stdout`, `-o /dev/tty`: a terminal by any name.
                    if file.is_terminal() && !force {
                        return Err(FileError::Terminal);
                    }
                    return Ok(Self { target: Target::Special(file) });
                }
                check_replaceable(&canonical, &meta, path, force)?;
                // Replace the file a symlink points to, not the link.
                let tmp = temp_beside(&canonical, path)?;
                keep_owner_and_mode(&tmp, &meta, path)?;
                Ok(Self { target: Target::Replace(tmp) })
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                // A symlink to nothing: writing "through" it would create a file
                // wherever it points (maybe a place set up by someone else), and
                // replacing the link would break what it was for. Neither is
                // clearly meant, so the user decides.
                if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
                    return Err(FileError::DanglingSymlink { path: path.to_path_buf() });
                }
                Ok(Self { target: Target::Replace(temp_beside(path, path)?) })
            }
            Err(e) => Err(unwritable(e)),
        }
    }

    /// Flushes, and for a file commits it (see [`AtomicFile::commit`]).
    ///
    /// # Errors
    /// A flush, sync or rename error (the temporary file is then removed).
    pub fn commit(self) -> Result<(), FileError> {
        match self.target {
            Target::Stdout(mut f) | Target::Special(mut f) => f.flush().map_err(FileError::Flush),
            Target::Replace(tmp) => {
                let path = tmp.target().to_path_buf();
                tmp.commit().map_err(|e| match e {
                    CommitError::Sync(e) => FileError::Flush(e),
                    CommitError::Rename(source) => FileError::Rename { path, source },
                })
            }
        }
    }
}

impl Write for Sink {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        match &mut self.target {
            Target::Stdout(f) | Target::Special(f) => f.write(data),
            Target::Replace(tmp) => tmp.write(data),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.target {
            Target::Stdout(f) | Target::Special(f) => f.flush(),
            Target::Replace(tmp) => tmp.flush(),
        }
    }
}

/// Refuses to replace a regular file that this user could not write in place
/// (as `cp` would refuse: a read-only file is a statement), or one with other
/// hard links unless `force` (they would keep the old content: the rename gives
/// only this name the new file).
fn check_replaceable(target: &Path, meta: &Metadata, shown: &Path, force: bool) -> Result<(), FileError> {
    // Opening for writing without truncating asks the kernel the real question
    // (mode bits, ACLs, read-only mounts, root's override) and changes nothing.
    if let Err(source) = std::fs::OpenOptions::new().write(true).open(target) {
        return Err(FileError::NotWritable { path: shown.to_path_buf(), source });
    }
    if meta.nlink() > 1 && !force {
        return Err(FileError::HardLinks { path: shown.to_path_buf(), others: meta.nlink() - 1 });
    }
    Ok(())
}

/// Gives the temporary file the owner, group and permissions of the file it
/// will replace. Ownership that cannot be kept is an error, not a silent
/// change: a file of another user or group would otherwise become ours.
fn keep_owner_and_mode(tmp: &AtomicFile, old: &Metadata, shown: &Path) -> Result<(), FileError> {
    let file = tmp.as_file();
    let new = file.metadata().map_err(|source| FileError::TempFile { path: shown.to_path_buf(), source })?;
    let uid = (new.uid() != old.uid()).then_some(old.uid());
    let gid = (new.gid() != old.gid()).then_some(old.gid());
    if uid.is_some() || gid.is_some() {
        std::os::unix::fs::fchown(file, uid, gid).map_err(|source| FileError::Owner {
            path: shown.to_path_buf(),
            uid: old.uid(),
            gid: old.gid(),
            source,
        })?;
    }
    // After the chown, which may clear set-user-ID and set-group-ID bits. A mode
    // that cannot be set leaves the new file private to its owner: safe.
    let _ = file.set_permissions(old.permissions());
    Ok(())
}

/// The temporary file for `target`, private to its owner until
/// [`keep_owner_and_mode`] says otherwise.
fn temp_beside(target: &Path, shown: &Path) -> Result<AtomicFile, FileError> {
    AtomicFile::beside(target, NewFileAccess::OwnerOnly)
        .map_err(|source| FileError::TempFile { path: shown.to_path_buf(), source })
}

#[cfg(test)]
mod tests;
