//! A passphrase prompt stopped by a signal (Ctrl-C) gives the terminal its
//! echo back: the prompt turns echo off, and a signal's default action would
//! end the process without the guard that turns it on again.
//!
//! The command runs on a pseudo-terminal of its own (its controlling
//! terminal, so `/dev/tty` is the pty); the test waits for the prompt, sends
//! the signal, and reads the pty's settings after the command has ended.

use crate::common;

use common::skinny;
use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::time::{Duration, Instant};

/// A pty pair: (master, slave).
fn pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors; the other arguments may be null.
    let r = unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    assert_eq!(r, 0, "openpty failed");
    // SAFETY: both descriptors were just opened for this process.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

fn echo_on(fd: &OwnedFd) -> bool {
    // SAFETY: termios is plain data that tcgetattr fills.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::tcgetattr(fd.as_raw_fd(), &mut t) }, 0);
    t.c_lflag & libc::ECHO != 0
}

#[test]
fn a_signal_at_the_prompt_leaves_echo_on() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("in"), b"data").unwrap();
        let (master, slave) = pty();
        assert!(echo_on(&slave), "a new pty echoes");
        let slave_fd = slave.as_raw_fd();
        let mut cmd = skinny();
        cmd.args(["seal", "--passphrase", "in", "-o", "out"]).current_dir(dir.path());
        // SAFETY: setsid, ioctl and dup2 are async-signal-safe; run between
        // fork and exec to give the child the pty as its controlling terminal.
        unsafe {
            cmd.pre_exec(move || {
                libc::setsid();
                libc::ioctl(slave_fd, libc::TIOCSCTTY as _, 0);
                libc::dup2(slave_fd, 0);
                Ok(())
            });
        }
        let mut child = cmd.spawn().unwrap();
        // The prompt on the pty means echo is off and the handler is armed.
        let mut reader = std::fs::File::from(master.try_clone().unwrap());
        let mut seen = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut buf = [0u8; 256];
        while !String::from_utf8_lossy(&seen).contains("passphrase:") {
            assert!(Instant::now() < deadline, "no prompt; got {:?}", String::from_utf8_lossy(&seen));
            let n = reader.read(&mut buf).unwrap();
            seen.extend_from_slice(&buf[..n]);
        }
        assert!(!echo_on(&slave), "echo is off while the prompt waits");
        // SAFETY: a signal to the child this test started.
        unsafe { libc::kill(child.id() as i32, sig) };
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(sig), "ended by the signal");
        assert!(echo_on(&slave), "echo is back on after signal {sig}");
        assert!(!dir.path().join("out").exists());
    }
}
