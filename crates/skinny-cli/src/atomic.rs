//! Replacing a file all at once, the one way every output file is written:
//! readers see the old content or the new, never half of it, and a failure or
//! a signal leaves the old file (or none) and no litter. Nothing is named
//! before it is whole.
//!
//! An [`AtomicFile`] is, where the file system allows (Linux's `O_TMPFILE`),
//! a file without a name in the target's folder: whatever stops the command,
//! SIGKILL and the OOM killer included, the kernel frees it. Elsewhere it is a
//! temporary file beside the target (an unpredictable `.skinny-*.tmp` name,
//! created exclusively, never following or reusing someone else's file),
//! removed when dropped uncommitted and by every signal that ends the process
//! and can be caught (see [`interrupt`]); only SIGKILL (the OOM killer's
//! signal too) or a crash of the machine can leave it there. Either way it is
//! in the target's folder, so the rename cannot cross file systems.
//!
//! [`AtomicFile::commit`] syncs the file, gives it its name (an unnamed file
//! is linked in; a file already there is replaced by a rename from a
//! temporary name, given only once the content is whole and synced) and syncs
//! the folder, so that the new name itself survives a crash.

mod interrupt;
mod unnamed;

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
    /// would: reports and plots (`bench`'s only).
    #[cfg_attr(not(feature = "bench"), allow(dead_code))]
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
    /// Naming the file: renaming the temporary file over the target, or
    /// linking the unnamed one in.
    Rename(io::Error),
}

/// A new file that replaces `target` when committed.
pub struct AtomicFile {
    file: File,
    /// The temporary name, where the file has one (no `O_TMPFILE` here).
    named: Option<Named>,
    target: PathBuf,
}

/// A named temporary file and the signal handlers that remove it.
struct Named {
    path: tempfile::TempPath,
    /// Declared after `path`, so a dropped file is removed before the signal
    /// handler forgets it.
    guard: interrupt::Guard,
}

impl AtomicFile {
    /// Creates the new file in the folder of `target` (`.` for a bare name),
    /// with `access` should it become a new file.
    ///
    /// # Errors
    /// The folder does not exist, or a file cannot be created there.
    pub fn beside(target: &Path, access: NewFileAccess) -> io::Result<Self> {
        match unnamed::create(folder_of(target), access.mode())? {
            Some(file) => Ok(Self { file, named: None, target: target.to_path_buf() }),
            None => Self::named_beside(target, access),
        }
    }

    /// As [`AtomicFile::beside`], always through a named temporary file.
    fn named_beside(target: &Path, access: NewFileAccess) -> io::Result<Self> {
        let tmp = tempfile::Builder::new()
            .prefix(".skinny-")
            .suffix(".tmp")
            .permissions(Permissions::from_mode(access.mode()))
            .tempfile_in(folder_of(target))?;
        let (file, path) = tmp.into_parts();
        let guard = interrupt::Guard::new(&path);
        Ok(Self { file, named: Some(Named { path, guard }), target: target.to_path_buf() })
    }

    /// The file being written, to set its owner and permissions.
    pub fn as_file(&self) -> &File {
        &self.file
    }

    /// The file this one replaces on commit.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Syncs the file, gives it the target's name and syncs the folder.
    ///
    /// # Errors
    /// Syncing or naming failed (the temporary file is then removed). A
    /// folder that cannot be opened or synced (some file systems) does not
    /// make the commit fail: the file is in place by then.
    pub fn commit(self) -> Result<(), CommitError> {
        let Self { mut file, named, target } = self;
        file.flush().and_then(|()| file.sync_all()).map_err(CommitError::Sync)?;
        let named = match named {
            Some(Named { path, guard }) => {
                // A failed rename's error holds the path: dropping it removes
                // the file, before the guard goes.
                let renamed = path.persist(&target).map_err(|e| e.error);
                drop(guard);
                renamed
            }
            None => name_unnamed(&file, &target),
        };
        named.map_err(CommitError::Rename)?;
        if let Ok(dir) = File::open(folder_of(&target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

impl AtomicFile {
    /// As [`AtomicFile::commit`], but only where `target` does not exist yet:
    /// an existing file (created meanwhile too) is left as it was, and the
    /// error is `AlreadyExists` (a key file is never replaced).
    ///
    /// # Errors
    /// Syncing or naming failed, or the name is taken (the temporary file is
    /// then removed).
    pub fn commit_new(self) -> Result<(), CommitError> {
        let Self { mut file, named, target } = self;
        file.flush().and_then(|()| file.sync_all()).map_err(CommitError::Sync)?;
        let named = match named {
            Some(Named { path, guard }) => {
                let linked = path.persist_noclobber(&target).map_err(|e| e.error);
                drop(guard);
                linked
            }
            None => unnamed::link(&file, &target),
        };
        named.map_err(CommitError::Rename)?;
        if let Ok(dir) = File::open(folder_of(&target)) {
            let _ = dir.sync_all();
        }
        Ok(())
    }
}

/// Gives the whole, synced, unnamed `file` the name `target`: linked straight
/// in where the name is free; otherwise linked to a temporary name beside it
/// (removed by signals, as a named temporary file is) and renamed over it.
fn name_unnamed(file: &File, target: &Path) -> io::Result<()> {
    match unnamed::link(file, target) {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        linked => return linked,
    }
    let tmp = tempfile::Builder::new()
        .prefix(".skinny-")
        .suffix(".tmp")
        .make_in(folder_of(target), |name| unnamed::link(file, name))?;
    let guard = interrupt::Guard::new(tmp.path());
    let renamed = tmp.persist(target).map_err(|e| e.error);
    drop(guard);
    renamed
}

impl Write for AtomicFile {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.file.write(data)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// Writes `bytes` to `path` through an [`AtomicFile`] (a new file readable as
/// the umask allows).
///
/// # Errors
/// Creating, writing, syncing or renaming failed; `path` is then as it was.
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::beside(path, NewFileAccess::Umask)?;
    file.write_all(bytes)?;
    file.commit().map_err(|(CommitError::Sync(e) | CommitError::Rename(e))| e)
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
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

    /// Both ways of making the file, each as the other: unnamed until whole
    /// (where `O_TMPFILE` works, as on the file systems tests run on), and
    /// named, as on a file system without it.
    #[test]
    fn both_ways_name_nothing_before_commit_except_the_named_temporary_file() {
        type Make = fn(&Path, NewFileAccess) -> io::Result<AtomicFile>;
        for (make, named) in [(AtomicFile::beside as Make, false), (AtomicFile::named_beside as Make, true)] {
            let dir = tempfile::tempdir().unwrap();
            let p = dir.path().join("out");
            fs::write(&p, b"old").unwrap();
            let mut f = make(&p, NewFileAccess::OwnerOnly).unwrap();
            if !named && f.named.is_some() {
                println!("skip: no O_TMPFILE in {}", dir.path().display());
            }
            f.write_all(b"new").unwrap();
            let temps = listing(dir.path()).iter().filter(|n| n.starts_with(".skinny-")).count();
            assert_eq!(temps, usize::from(f.named.is_some()), "named: {named}");
            assert_eq!(fs::read(&p).unwrap(), b"old");
            f.commit().unwrap();
            assert_eq!(listing(dir.path()), ["out"]);
            assert_eq!(fs::read(&p).unwrap(), b"new");
            // A new name: linked straight in (or renamed), nothing else left.
            let q = dir.path().join("fresh");
            let mut f = make(&q, NewFileAccess::Umask).unwrap();
            f.write_all(b"fresh").unwrap();
            f.commit().unwrap();
            assert_eq!(listing(dir.path()), ["fresh", "out"]);
            assert_eq!(fs::read(&q).unwrap(), b"fresh");
        }
    }
}
