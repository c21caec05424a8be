//! Nothing named before it is whole (issue 27, item 3): a command stopped by
//! any signal leaves no output and no temporary file beside it, whether the
//! file system lets the output be made without a name (`O_TMPFILE`, where
//! even SIGKILL leaves nothing) or the command names a temporary file and
//! removes it on every signal that can be caught (`SKINNY_NAMED_TEMP_FILES`
//! makes it do so here). A signal ends the command by that signal. A file
//! size limit (`ulimit -f`) is a one-line error, not a SIGXFSZ.
//!
//! Robust on a loaded machine: each case waits (with a deadline) until the
//! command has read most of its input and holds its output open, never for a
//! fixed time.

use crate::common;

use common::{bytes, ignored_here, listing, skinny, stderr};
use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const TWEAKEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
const NAMED: &str = "SKINNY_NAMED_TEMP_FILES";
const DEADLINE: Duration = Duration::from_secs(120);

/// The command under test, in `dir`, with no core dumps (SIGQUIT and others
/// would leave a `core` there) and a file size limit when `fsize` is given.
fn command(dir: &Path, args: &[&str], named: bool, fsize: Option<u64>) -> Command {
    let mut cmd = skinny();
    cmd.args(args).current_dir(dir);
    if named {
        cmd.env(NAMED, "1");
    }
    // SAFETY: setrlimit is async-signal-safe; run between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let zero = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::setrlimit(libc::RLIMIT_CORE, &zero);
            if let Some(n) = fsize {
                let limit = libc::rlimit { rlim_cur: n, rlim_max: n };
                libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            }
            Ok(())
        });
    }
    cmd
}

/// The files in `dir` that the process `pid` holds open (an unnamed one reads
/// `dir/#123 (deleted)`).
fn open_in(pid: u32, dir: &Path) -> usize {
    let dir = std::fs::canonicalize(dir).unwrap();
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else { return 0 };
    fds.filter_map(|e| std::fs::read_link(e.ok()?.path()).ok()).filter(|t| t.starts_with(&dir)).count()
}

/// Starts `args` reading from a pipe, feeds it `input` and keeps the pipe
/// open, then waits until it holds its output open in `dir`.
fn mid_stream(dir: &Path, args: &[&str], named: bool, input: &[u8]) -> (Child, ChildStdin) {
    let mut child = command(dir, args, named, None)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Returns once the command has read all but a pipe's buffer of it.
    if let Err(e) = stdin.write_all(input) {
        let mut err = String::new();
        child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
        panic!("{args:?} stopped reading ({e}): {:?} {err}", child.wait());
    }
    let start = Instant::now();
    while open_in(child.id(), dir) == 0 {
        assert!(start.elapsed() < DEADLINE, "{args:?}: no output open in {}", dir.display());
        std::thread::sleep(Duration::from_millis(10));
    }
    let temps = listing(dir).iter().filter(|n| n.starts_with(".skinny-")).count();
    // Named only where asked: the unnamed output has no name at all.
    assert_eq!(temps, usize::from(named), "{args:?}: {:?}", listing(dir));
    (child, stdin)
}

/// Stops the command by `sig` mid-stream; it must end by that signal and
/// leave nothing in its folder.
fn stopped_by(args: &[&str], input: &[u8], sig: i32, named: bool) {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, stdin) = mid_stream(dir.path(), args, named, input);
    // SAFETY: a plain kill of our own child.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    let status = child.wait().unwrap();
    drop(stdin);
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    assert_eq!(status.signal(), Some(sig), "{args:?} signal {sig} named {named}: {status:?} {err}");
    assert_eq!(listing(dir.path()), Vec::<String>::new(), "{args:?} signal {sig} named {named}: files left");
}

/// Every signal that ends a process by default and can be caught.
fn terminating() -> Vec<i32> {
    let mut all = vec![
        libc::SIGHUP,
        libc::SIGINT,
        libc::SIGQUIT,
        libc::SIGABRT,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGTERM,
        libc::SIGXCPU,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGSYS,
        libc::SIGPWR,
        libc::SIGRTMIN() + 1,
    ];
    // Inherited as ignored (a background job ignores SIGINT, nohup SIGHUP):
    // skinny rightly keeps it ignored, so there is nothing to see.
    all.retain(|&s| {
        let ignored = ignored_here(s as u32);
        if ignored {
            println!("skip: signal {s} is ignored in this test's environment");
        }
        !ignored
    });
    all
}

/// A sealed file to open (64K chunks), and the first half of it to feed.
fn sealed_input() -> Vec<u8> {
    let plain = bytes(27, 2 << 20);
    let o = common::run(&["seal", "-K", KEY, "--chunk-size", "64K", "-q"], &plain);
    assert!(o.status.success(), "{}", stderr(&o));
    o.stdout[..1 << 20].to_vec()
}

#[test]
fn open_stopped_by_any_signal_leaves_no_plaintext() {
    let input = sealed_input();
    let args = ["open", "-K", KEY, "-q", "-o", "plain"];
    for sig in terminating() {
        for named in [false, true] {
            stopped_by(&args, &input, sig, named);
        }
    }
}

#[test]
fn seal_and_encrypt_stopped_by_a_signal_leave_no_ciphertext() {
    let input = bytes(3, 1 << 20);
    let seal = ["seal", "-K", KEY, "-q", "-o", "sealed"];
    let encrypt = ["encrypt", "-K", TWEAKEY, "--iv", IV, "-q", "-o", "out"];
    for sig in [libc::SIGTERM, libc::SIGQUIT, libc::SIGUSR1, libc::SIGALRM] {
        if ignored_here(sig as u32) {
            continue;
        }
        for named in [false, true] {
            stopped_by(&seal, &input, sig, named);
            stopped_by(&encrypt, &input, sig, named);
        }
    }
}

/// SIGKILL (and the OOM killer, which sends it) cannot be caught: only an
/// unnamed output leaves nothing. On a file system without `O_TMPFILE` the
/// named temporary file would stay (the documented limit).
#[test]
fn sigkill_leaves_nothing_where_the_output_is_unnamed() {
    let probe = tempfile::tempdir().unwrap();
    // SAFETY: open(2) on a NUL-terminated path; the descriptor is closed below.
    let fd = unsafe { libc::open(c"/tmp".as_ptr(), libc::O_TMPFILE | libc::O_RDWR, 0o600) };
    if fd < 0 {
        println!("skip: no O_TMPFILE in the temporary folder ({})", probe.path().display());
        return;
    }
    // SAFETY: our own descriptor.
    unsafe { libc::close(fd) };
    stopped_by(&["open", "-K", KEY, "-q", "-o", "plain"], &sealed_input(), libc::SIGKILL, false);
    stopped_by(&["seal", "-K", KEY, "-q", "-o", "s"], &bytes(4, 1 << 20), libc::SIGKILL, false);
}

/// `ulimit -f`: writing past it is an error (EFBIG) said in one line, and
/// the partial output is gone, not a SIGXFSZ that leaves it.
#[test]
fn a_file_size_limit_is_one_line_and_leaves_nothing() {
    let plain = bytes(8, 2 << 20);
    let sealed = {
        let o = common::run(&["seal", "-K", KEY, "-q"], &plain);
        o.stdout
    };
    for named in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain"), &plain).unwrap();
        std::fs::write(dir.path().join("sealed"), &sealed).unwrap();
        let cases: [&[&str]; 3] = [
            &["open", "-K", KEY, "-q", "sealed", "-o", "out"],
            &["seal", "-K", KEY, "-q", "plain", "-o", "out"],
            &["encrypt", "-K", TWEAKEY, "--iv", IV, "-q", "plain", "-o", "out"],
        ];
        for args in cases {
            let o = command(dir.path(), args, named, Some(256 << 10)).output().unwrap();
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{args:?} named {named}: {:?} {err}", o.status);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.starts_with("skinny: ") && err.contains("File too large"), "{err}");
            assert_eq!(listing(dir.path()), ["plain", "sealed"], "{args:?} named {named}");
        }
    }
}

/// `bench --files` stopped by Ctrl-C or SIGTERM leaves nothing in the
/// temporary folder (its scratch files have no names).
#[test]
fn bench_files_stopped_leaves_no_scratch_files() {
    for sig in [libc::SIGINT, libc::SIGTERM] {
        if ignored_here(sig as u32) {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let mut child = command(
            dir.path(),
            &["bench", "--files", "--sizes", "64M", "--runs", "50", "--backends", "cpu-serial"],
            false,
            None,
        )
        .env("TMPDIR", dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
        let start = Instant::now();
        while open_in(child.id(), dir.path()) < 2 {
            assert!(start.elapsed() < DEADLINE, "bench --files opened no scratch files");
            assert!(child.try_wait().unwrap().is_none(), "bench --files ended early");
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: a plain kill of our own child.
        assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
        let status = child.wait().unwrap();
        assert!(!status.success(), "{status:?}");
        assert_eq!(listing(dir.path()), Vec::<String>::new(), "signal {sig}: scratch files left");
    }
}
