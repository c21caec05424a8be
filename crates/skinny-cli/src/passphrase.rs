//! Passphrases for `seal --passphrase` and `open --passphrase`: typed on the
//! terminal without echo (termios through libc; twice when sealing, so a typo
//! does not lock a file away), or read from a file descriptor
//! (`--passphrase-fd N`, for scripts: the first line, its newline dropped).
//! Held only in zeroized buffers; never printed.

use crate::error::CliError;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::sync::atomic::{AtomicI32, Ordering};
use zeroize::Zeroizing;

/// The longest passphrase read (a file descriptor could otherwise feed
/// gigabytes into Argon2's input).
const MAX_PASSPHRASE_BYTES: usize = 4096;

/// How the passphrase is to be had.
pub enum Source {
    /// Typed on the controlling terminal.
    Terminal,
    /// The first line read from this open file descriptor.
    Fd(i32),
}

/// The passphrase, asked for twice on a terminal when `confirm` (sealing).
///
/// # Errors
/// No terminal, an unreadable descriptor, an empty passphrase, or two
/// different entries.
pub fn read(source: &Source, confirm: bool) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let pass = match *source {
        Source::Fd(fd) => from_fd(fd)?,
        Source::Terminal => {
            let first = prompt("skinny: passphrase: ")?;
            if confirm {
                let again = prompt("skinny: passphrase again: ")?;
                if *again != *first {
                    return Err(CliError::Usage("the two passphrases differ; nothing was sealed".into()));
                }
            }
            first
        }
    };
    if pass.is_empty() {
        return Err(CliError::Usage("the passphrase is empty".into()));
    }
    Ok(pass)
}

/// The first line of descriptor `fd` (which is closed afterwards).
fn from_fd(fd: i32) -> Result<Zeroizing<Vec<u8>>, CliError> {
    if fd <= 2 {
        return Err(CliError::Usage(format!(
            "--passphrase-fd {fd}: give a descriptor of its own (3 or more: `3< file` or `3<<< \"$PASS\"`)"
        )));
    }
    // SAFETY: fcntl(F_GETFD) only asks whether the descriptor is open.
    if unsafe { libc::fcntl(fd, libc::F_GETFD) } < 0 {
        return Err(CliError::Usage(format!("--passphrase-fd {fd}: no such open file descriptor")));
    }
    // SAFETY: the descriptor is open (checked above) and this process takes it
    // over: nothing else in it uses descriptor `fd`.
    let file = unsafe { File::from_raw_fd(fd) };
    crate::files::note_secret_source(&file);
    read_line(file).map_err(|e| CliError::Io(format!("--passphrase-fd {fd}: {}", crate::error::reason(&e))))
}

/// Up to the first newline (dropped, with a `\r` before it), at most
/// [`MAX_PASSPHRASE_BYTES`].
fn read_line(reader: impl Read) -> std::io::Result<Zeroizing<Vec<u8>>> {
    let mut line = Zeroizing::new(Vec::with_capacity(128));
    let mut byte = [0u8; 1];
    let mut reader = reader.take(MAX_PASSPHRASE_BYTES as u64 + 1);
    while reader.read(&mut byte)? == 1 && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    zeroize::Zeroize::zeroize(&mut byte);
    if line.len() > MAX_PASSPHRASE_BYTES {
        return Err(std::io::Error::other(format!("the passphrase is longer than {MAX_PASSPHRASE_BYTES} bytes")));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(line)
}

/// Restores the terminal's settings when dropped, and when a signal ends the
/// process while echo is off (Ctrl-C at the prompt): a signal's default action
/// runs no destructor, and the shell would be left without echo.
struct EchoOff {
    tty: File,
    saved: libc::termios,
    signals: Option<crate::signals::Saved>,
}

/// The terminal and its settings for [`on_signal`]: the descriptor (-1 when
/// no prompt is up) and the settings, stored before the descriptor is.
static PROMPT_TTY: AtomicI32 = AtomicI32::new(-1);
static PROMPT_SAVED_COPY: std::sync::OnceLock<Box<libc::termios>> = std::sync::OnceLock::new();

impl EchoOff {
    fn new(tty: File, saved: libc::termios) -> Self {
        // The settings are the same for every prompt of a process (the same
        // terminal, asked once or twice), so one copy made before the handler
        // is armed serves: the handler only reads it.
        let _ = PROMPT_SAVED_COPY.set(Box::new(saved));
        PROMPT_TTY.store(tty.as_raw_fd(), Ordering::SeqCst);
        let signals = Some(crate::signals::catch_saving(&crate::signals::terminating(), on_signal));
        EchoOff { tty, saved, signals }
    }
}

impl Drop for EchoOff {
    fn drop(&mut self) {
        // SAFETY: `saved` came from tcgetattr on this descriptor.
        unsafe { libc::tcsetattr(self.tty.as_raw_fd(), libc::TCSAFLUSH, &self.saved) };
        PROMPT_TTY.store(-1, Ordering::SeqCst);
        if let Some(s) = self.signals.take() {
            s.restore();
        }
    }
}

/// A terminating signal at the prompt: the terminal's settings back, a newline
/// (the prompt line stays unfinished otherwise), then the signal's default
/// action. tcsetattr and write are async-signal-safe; the settings were
/// stored before the descriptor that arms this.
extern "C" fn on_signal(sig: std::ffi::c_int) {
    let fd = PROMPT_TTY.swap(-1, Ordering::SeqCst);
    if fd >= 0 {
        if let Some(saved) = PROMPT_SAVED_COPY.get() {
            // SAFETY: a termios tcgetattr gave, on the terminal it came from.
            unsafe {
                libc::tcsetattr(fd, libc::TCSAFLUSH, &**saved);
                libc::write(fd, b"\n".as_ptr().cast(), 1);
            }
        }
    }
    crate::signals::die_by(sig);
}

/// Shows `message` on the controlling terminal and reads a line there with
/// echo off.
fn prompt(message: &str) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let no_tty =
        || CliError::Usage("--passphrase needs a terminal to ask on; without one use --passphrase-fd N".into());
    let mut tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").map_err(|_| no_tty())?;
    // SAFETY: termios is plain data; tcgetattr fills it or fails.
    let mut saved: libc::termios = unsafe { std::mem::zeroed() };
    if unsafe { libc::tcgetattr(tty.as_raw_fd(), &mut saved) } != 0 {
        return Err(no_tty());
    }
    let mut quiet = saved;
    quiet.c_lflag &= !(libc::ECHO | libc::ECHONL);
    quiet.c_lflag |= libc::ICANON;
    let guard = EchoOff::new(tty.try_clone().map_err(|_| no_tty())?, saved);
    // SAFETY: a termios derived from the one tcgetattr gave.
    if unsafe { libc::tcsetattr(tty.as_raw_fd(), libc::TCSAFLUSH, &quiet) } != 0 {
        return Err(no_tty());
    }
    let shown = tty.write_all(message.as_bytes()).and_then(|()| tty.flush());
    let line = shown.and_then(|()| read_line(&mut tty));
    drop(guard);
    let _ = tty.write_all(b"\n");
    line.map_err(|e| CliError::Io(format!("cannot read the passphrase: {}", crate::error::reason(&e))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_the_first_newline_and_lose_a_carriage_return() {
        assert_eq!(*read_line(&b"secret\r\nmore"[..]).unwrap(), b"secret");
        assert_eq!(*read_line(&b"no newline"[..]).unwrap(), b"no newline");
        assert_eq!(*read_line(&b"\n"[..]).unwrap(), b"");
        assert!(read_line(&vec![b'a'; MAX_PASSPHRASE_BYTES + 1][..]).is_err());
        assert_eq!(read_line(&vec![b'a'; MAX_PASSPHRASE_BYTES][..]).unwrap().len(), MAX_PASSPHRASE_BYTES);
    }
}
