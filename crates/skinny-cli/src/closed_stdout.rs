//! Whether stdout was closed when the process started, recorded before Rust's
//! runtime hides it; in a module of its own so that the output code below
//! `main` can ask without reaching up into it.

/// Whether stdout was closed when the process started (`skinny info >&-`).
/// Rust's runtime quietly opens `/dev/null` in its place before `main`, so
/// everything written would vanish and the command would claim success; the
/// state is recorded by an ELF constructor that runs before the runtime does.
pub(crate) fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(std::sync::atomic::Ordering::Relaxed)
}

static STDOUT_CLOSED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED_STDOUT: extern "C" fn() = record_closed_stdout;

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
extern "C" fn record_closed_stdout() {
    // SAFETY: F_GETFD only asks whether descriptor 1 is open; it touches no memory.
    let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed, std::sync::atomic::Ordering::Relaxed);
}
