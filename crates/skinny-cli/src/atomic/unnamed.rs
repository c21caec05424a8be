//! Files without a name until they are whole (Linux's `O_TMPFILE`): nothing a
//! signal, SIGKILL, the OOM killer or a power cut can leave behind, since the
//! kernel frees an unnamed file when its last descriptor closes.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Set (to anything) to write outputs through named temporary files, as on a
/// file system without `O_TMPFILE`: how the tests reach that path here.
pub const NAMED_TEMP_FILES_ENV: &str = "SKINNY_NAMED_TEMP_FILES";

/// An unnamed regular file in `dir` with permission bits `mode` (less the
/// umask), or `Ok(None)` where the file system, the kernel or a missing
/// `/proc` rules it out (the caller then names a temporary file).
///
/// # Errors
/// What creating any file in `dir` would meet: no such folder, no permission.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub fn create(dir: &Path, mode: u32) -> io::Result<Option<File>> {
    use std::os::unix::fs::OpenOptionsExt;
    if std::env::var_os(NAMED_TEMP_FILES_ENV).is_some() {
        return Ok(None);
    }
    let opened = std::fs::OpenOptions::new().read(true).write(true).custom_flags(libc::O_TMPFILE).mode(mode).open(dir);
    match opened {
        // The commit names the file through /proc/self/fd: without it the
        // file could never be named, so a named temporary file is used.
        Ok(file) => Ok(proc_path(&file).exists().then_some(file)),
        // Kernels before 3.11 see only O_DIRECTORY (EISDIR); file systems
        // without support say EOPNOTSUPP.
        Err(e) if matches!(e.raw_os_error(), Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Elsewhere: always a named temporary file.
#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub fn create(_dir: &Path, _mode: u32) -> io::Result<Option<File>> {
    Ok(None)
}

/// The name of `file`'s descriptor under /proc, which `linkat` follows to the
/// file itself.
fn proc_path(file: &File) -> PathBuf {
    PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()))
}

/// Gives the unnamed `file` the name `name`; fails with `AlreadyExists` if
/// that name is taken (a link never replaces).
pub fn link(file: &File, name: &Path) -> io::Result<()> {
    let from = CString::new(proc_path(file).as_os_str().as_bytes())?;
    let to = CString::new(name.as_os_str().as_bytes())?;
    // SAFETY: two NUL-terminated paths that outlive the call.
    let rc =
        unsafe { libc::linkat(libc::AT_FDCWD, from.as_ptr(), libc::AT_FDCWD, to.as_ptr(), libc::AT_SYMLINK_FOLLOW) };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
