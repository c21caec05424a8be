//! Whether stdin or stdout was closed when the process started, recorded
//! before Rust's runtime hides it; in a module of its own so that the input
//! and output code below `main` can ask without reaching up into it.

use std::sync::atomic::{AtomicBool, Ordering};

/// Whether stdout was closed when the process started (`skinny info >&-`).
/// Rust's runtime quietly opens `/dev/null` in its place before `main`, so
/// everything written would vanish and the command would claim success; the
/// state is recorded by an ELF constructor that runs before the runtime does.
pub(crate) fn stdout_was_closed() -> bool {
    STDOUT_CLOSED.load(Ordering::Relaxed)
}

/// Whether stdin was closed when the process started (`skinny seal <&-`):
/// the `/dev/null` put in its place would read as an empty input, and an
/// empty input seals, encrypts and opens without complaint.
pub(crate) fn stdin_was_closed() -> bool {
    STDIN_CLOSED.load(Ordering::Relaxed)
}

static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);
static STDIN_CLOSED: AtomicBool = AtomicBool::new(false);

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED_STREAMS: extern "C" fn() = record_closed_streams;

#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
extern "C" fn record_closed_streams() {
    // SAFETY: F_GETFD only asks whether a descriptor is open; it touches no memory.
    let closed = |fd| unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1;
    STDOUT_CLOSED.store(closed(libc::STDOUT_FILENO), Ordering::Relaxed);
    STDIN_CLOSED.store(closed(libc::STDIN_FILENO), Ordering::Relaxed);
}
