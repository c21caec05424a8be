//! Replacing a file all at once: readers see the old content or the new, never
//! half of it, and a failure leaves the old file (or none) and no litter.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` through a temporary file beside it: created
/// exclusively (never following or reusing someone else's file), written,
/// synced to disk, then renamed over `path`. On any error the temporary file is
/// removed and `path` is left as it was.
///
/// # Errors
/// Creating, writing, syncing or renaming failed.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let (tmp, mut file) = create_beside(path)?;
    let written = file.write_all(bytes).and_then(|()| file.sync_all()).and_then(|()| {
        drop(file);
        fs::rename(&tmp, path)
    });
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
        return written;
    }
    // The rename is durable once the folder is synced too; a folder that cannot
    // be opened or synced (some file systems) does not make the write fail.
    if let Ok(dir) = fs::File::open(folder_of(path)) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// A new file `.NAME.PID-N.tmp` beside `path`, created exclusively. The name is
/// hidden and unique within this process; a name left by a crashed run with the
/// same process id is skipped, not reused.
fn create_beside(path: &Path) -> io::Result<(PathBuf, fs::File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut last = None;
    for _ in 0..100 {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let tmp = path.with_file_name(format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::new(io::ErrorKind::AlreadyExists, "no free temporary name")))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
