//! Replacing a file all at once, the one way every output file is written:
//! readers see the old content or the new, never half of it, and a failure
//! leaves the old file (or none) and no litter.
//!
//! An [`AtomicFile`] is a temporary file beside its target (same folder, so the
//! rename cannot cross file systems; an unpredictable `.skinny-*.tmp` name,
//! created exclusively, never following or reusing someone else's file).
//! [`AtomicFile::commit`] syncs it, renames it over the target and syncs the
//! folder, so that the rename itself survives a crash. Dropping an uncommitted
//! one removes the temporary file, and so does a signal that stops the command
//! while it exists (see [`interrupt`]).

use std::fs::{File, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Who may read a file that did not exist before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewFileAccess {
    /// Its owner only (0600): what `encrypt`, `decrypt`, `seal` and `open`
    /// write may be a plaintext or a key's work.
    OwnerOnly,
    /// Whoever the umask allows (0666 minus the umask), as `>` in a shell
    /// would: reports and plots.
    Umask,
}

impl NewFileAccess {
    fn mode(self) -> u32 {
        match self {
            NewFileAccess::OwnerOnly => 0o600,
            NewFileAccess::Umask => 0o666,
        }
    }
}

/// The step of [`AtomicFile::commit`] that failed; the temporary file is gone
/// and the target is as it was.
#[derive(Debug)]
pub enum CommitError {
    /// Flushing or syncing the written bytes to disk.
    Sync(io::Error),
    /// Renaming the temporary file over the target.
    Rename(io::Error),
}

/// A new file that replaces `target` when committed.
pub struct AtomicFile {
    tmp: tempfile::NamedTempFile,
    /// Declared after `tmp`, so a dropped file is removed before the signal
    /// handler forgets it.
    guard: interrupt::Guard,
    target: PathBuf,
}

impl AtomicFile {
    /// Creates the temporary file in the folder of `target` (`.` for a bare
    /// name), with `access` should it become a new file.
    ///
    /// # Errors
    /// The folder does not exist, or a file cannot be created there.
    pub fn beside(target: &Path, access: NewFileAccess) -> io::Result<Self> {
        let tmp = tempfile::Builder::new()
            .prefix(".skinny-")
            .suffix(".tmp")
            .permissions(Permissions::from_mode(access.mode()))
            .tempfile_in(folder_of(target))?;
        let guard = interrupt::Guard::new(tmp.path());
        Ok(Self { tmp, guard, target: target.to_path_buf() })
    }

    /// The temporary file, to set its owner and permissions.
    pub fn as_file(&self) -> &File {
        self.tmp.as_file()
    }

    /// The file this one replaces on commit.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Syncs the file, renames it over the target and syncs the folder.
    ///
    /// # Errors
    /// Syncing or renaming failed (the temporary file is then removed). A
    /// folder that cannot be opened or synced (some file systems) does not
    /// make the commit fail: the file is in place by then.
    pub fn commit(self) -> Result<(), CommitError> {
        let Self { mut tmp, guard, target } = self;
        tmp.flush().and_then(|()| tmp.as_file().sync_all()).map_err(CommitError::Sync)?;
        tmp.persist(&target).map_err(|e| CommitError::Rename(e.error))?;
        drop(guard);
        if let Ok(dir) = File::open(folder_of(&target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.tmp.write(data)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.tmp.flush()
    }
}

/// Writes `bytes` to `path` through an [`AtomicFile`] (a new file readable as
/// the umask allows).
///
/// # Errors
/// Creating, writing, syncing or renaming failed; `path` is then as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::beside(path, NewFileAccess::Umask)?;
    file.write_all(bytes)?;
    file.commit().map_err(|(CommitError::Sync(e) | CommitError::Rename(e))| e)
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Removing the temporary file when a signal stops the command.
///
/// SIGINT, SIGTERM and SIGHUP would end the process without running
/// destructors and leave `.skinny-*.tmp` beside the output. The handler unlinks
/// the registered path and exits with 128 + the signal, the shell's convention.
/// It only loads an atomic pointer and calls `unlink` and `_exit`, both
/// async-signal-safe; the path is prepared (allocated) before registration.
mod interrupt {
    use std::ffi::{c_char, c_int, CString};
    use std::os::unix::ffi::OsStrExt;
    use std::path::Path;
    use std::ptr;
    use std::sync::atomic::{AtomicPtr, Ordering};
    use std::sync::Once;

    /// The temporary file to remove, or null.
    static TEMP: AtomicPtr<c_char> = AtomicPtr::new(ptr::null_mut());

    /// Registration of one temporary file; dropping it forgets the file.
    pub struct Guard(());

    impl Guard {
        pub fn new(path: &Path) -> Self {
            install();
            if let Ok(c) = CString::new(path.as_os_str().as_bytes()) {
                // Leaked on purpose: the handler may still be reading it when
                // another thread moves on; one short path per file.
                TEMP.store(c.into_raw(), Ordering::SeqCst);
            }
            Guard(())
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            TEMP.store(ptr::null_mut(), Ordering::SeqCst);
        }
    }

    extern "C" fn on_signal(sig: c_int) {
        let path = TEMP.swap(ptr::null_mut(), Ordering::SeqCst);
        // SAFETY: `path` is null or a leaked, never-freed NUL-terminated string;
        // unlink and _exit are async-signal-safe.
        unsafe {
            if !path.is_null() {
                libc::unlink(path);
            }
            libc::_exit(128 + sig);
        }
    }

    fn install() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| crate::signals::catch(&[libc::SIGINT, libc::SIGTERM, libc::SIGHUP], on_signal));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::MetadataExt;

    fn listing(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> =
            fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        v.sort();
        v
    }

    #[test]
    fn creates_and_replaces_leaving_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.json");
        write_atomically(&p, b"first").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"first");
        write_atomically(&p, b"second").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"second");
        assert_eq!(listing(dir.path()), ["r.json"]);
    }

    #[test]
    fn a_failed_rename_keeps_the_target_and_removes_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty folder cannot be replaced by a file: the rename fails.
        let p = dir.path().join("taken");
        fs::create_dir(&p).unwrap();
        fs::write(p.join("inside"), b"keep").unwrap();
        assert!(write_atomically(&p, b"new").is_err());
        assert_eq!(listing(dir.path()), ["taken"]);
        assert_eq!(fs::read(p.join("inside")).unwrap(), b"keep");
        // A folder that does not exist: nothing created.
        assert!(write_atomically(&dir.path().join("no/such/file"), b"x").is_err());
        assert_eq!(listing(dir.path()), ["taken"]);
    }

    #[test]
    fn an_uncommitted_file_leaves_nothing_and_access_sets_a_new_files_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out");
        let mut f = AtomicFile::beside(&p, NewFileAccess::OwnerOnly).unwrap();
        f.write_all(b"half").unwrap();
        assert_eq!(f.target(), p);
        drop(f);
        assert_eq!(listing(dir.path()), Vec::<String>::new());
        let mut f = AtomicFile::beside(&p, NewFileAccess::OwnerOnly).unwrap();
        f.write_all(b"all").unwrap();
        f.commit().unwrap();
        assert_eq!(fs::metadata(&p).unwrap().mode() & 0o777, 0o600);
        assert_eq!(fs::read(&p).unwrap(), b"all");
        // The umask never grants more than 0666.
        write_atomically(&p, b"report").unwrap();
        assert_eq!(fs::metadata(&p).unwrap().mode() & 0o111, 0);
    }
}
