//! Issue 27, items 2 and 6, end to end: the output is never the key file;
//! a blank key file, a closed stdin and a terminal named as a file are
//! refused in one line; `--threads` is capped at 4 per core with a notice;
//! clap's refusals are one line.

use crate::common;

use common::{bytes, listing, run_in, skinny, stderr};
use std::os::unix::process::CommandExt;
use std::process::Stdio;

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const TWEAKEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// Exit `code`, one `skinny: ` line on stderr holding `expect`, nothing on stdout.
fn one_line(o: &std::process::Output, code: i32, expect: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{e}");
    assert_eq!(e.lines().count(), 1, "one line expected: {e}");
    assert!(e.starts_with("skinny: ") && e.contains(expect), "expected '{expect}' in: {e}");
    assert!(o.stdout.is_empty());
    e
}

#[test]
fn the_output_is_never_the_key_file_by_any_name() {
    let dir = tempfile::tempdir().unwrap();
    let at = |n: &str| dir.path().join(n);
    std::fs::write(at("report.txt"), bytes(1, 1000)).unwrap();
    std::fs::write(at("my.key"), format!("{KEY}\n")).unwrap();
    std::fs::write(at("tweakey"), format!("{TWEAKEY}\n")).unwrap();
    std::os::unix::fs::symlink("my.key", at("key-link")).unwrap();
    let o = run_in(Some(dir.path()), &["seal", "--key-file", "my.key", "report.txt", "-o", "sealed", "-q"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let before = listing(dir.path());
    let cases: [&[&str]; 6] = [
        &["seal", "--key-file", "my.key", "report.txt", "-o", "my.key"],
        &["seal", "--key-file", "my.key", "report.txt", "-o", "key-link", "--force"],
        &["seal", "--key-file", "key-link", "report.txt", "-o", "./my.key"],
        &["open", "--key-file", "my.key", "sealed", "-o", "my.key"],
        &["encrypt", "--key-file", "tweakey", "--iv", IV, "report.txt", "-o", "tweakey"],
        &["decrypt", "--key-file", "tweakey", "--iv", IV, "report.txt", "-o", "tweakey"],
    ];
    for args in cases {
        let o = run_in(Some(dir.path()), args, b"");
        one_line(&o, 2, "refusing to write the output over the key file");
        assert_eq!(listing(dir.path()), before, "{args:?}");
        assert_eq!(std::fs::read_to_string(at("my.key")).unwrap(), format!("{KEY}\n"), "{args:?}");
        assert_eq!(std::fs::read_to_string(at("tweakey")).unwrap(), format!("{TWEAKEY}\n"), "{args:?}");
    }
    // Appending to it through stdout (`>> my.key`) is refused the same way.
    let key_file = std::fs::OpenOptions::new().append(true).open(at("my.key")).unwrap();
    let o = skinny()
        .args(["seal", "--key-file", "my.key", "report.txt"])
        .current_dir(dir.path())
        .stdout(Stdio::from(key_file))
        .output()
        .unwrap();
    let e = stderr(&o);
    assert_eq!((o.status.code(), e.lines().count()), (Some(2), 1), "{e}");
    assert!(e.contains("over the key file"), "{e}");
    assert_eq!(std::fs::read_to_string(at("my.key")).unwrap(), format!("{KEY}\n"));
}

#[test]
fn a_blank_key_file_is_refused_with_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), b"data").unwrap();
    for (name, content) in [("spaces", vec![b' '; 16]), ("newlines", vec![b'\n'; 16]), ("empty", vec![])] {
        std::fs::write(dir.path().join(name), &content).unwrap();
        let o = run_in(Some(dir.path()), &["seal", "--key-file", name, "in", "-o", "out"], b"");
        let e = one_line(&o, 2, "did whatever wrote it fail?");
        assert!(e.contains(if content.is_empty() { "it is empty" } else { "only whitespace, 16 bytes" }), "{e}");
        assert!(!dir.path().join("out").exists());
    }
}

#[test]
fn a_closed_stdin_is_an_error_not_an_empty_input() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 3] = [
        &["seal", "-K", KEY, "-o", "out"],
        &["open", "-K", KEY, "-o", "out"],
        &["encrypt", "-K", TWEAKEY, "--iv", IV, "-o", "out"],
    ];
    for args in cases {
        let mut cmd = skinny();
        cmd.args(args).current_dir(dir.path()).stdout(Stdio::piped()).stderr(Stdio::piped());
        // SAFETY: close(2) between fork and exec: `<&-`.
        unsafe {
            cmd.pre_exec(|| {
                libc::close(0);
                Ok(())
            });
        }
        let o = cmd.output().unwrap();
        one_line(&o, 1, "cannot read input: stdin is closed");
        assert_eq!(listing(dir.path()), Vec::<String>::new(), "{args:?}");
    }
}

/// A pseudo-terminal's other end, as a file, and its name.
fn terminal() -> Option<(std::fs::File, String)> {
    // SAFETY: the POSIX pty calls on a descriptor we own; ptsname's buffer
    // is copied before any other call.
    unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        if master < 0 || libc::grantpt(master) != 0 || libc::unlockpt(master) != 0 {
            return None;
        }
        let name = std::ffi::CStr::from_ptr(libc::ptsname(master)).to_string_lossy().into_owned();
        let slave = std::fs::OpenOptions::new().read(true).write(true).open(&name).ok()?;
        // The master is left open (leaked) so the terminal stays usable.
        Some((slave, name))
    }
}

#[test]
fn a_terminal_by_any_name_is_refused_without_force() {
    let Some((tty, name)) = terminal() else {
        println!("skip: no pseudo-terminal here");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(2, 100)).unwrap();
    for out in ["/dev/stdout", "/proc/self/fd/1", name.as_str()] {
        let o = skinny()
            .args(["seal", "-K", KEY, "in", "-o", out])
            .current_dir(dir.path())
            .stdout(Stdio::from(tty.try_clone().unwrap()))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let e = stderr(&o);
        assert_eq!((o.status.code(), e.lines().count()), (Some(2), 1), "{out}: {e}");
        assert!(e.starts_with("skinny: refusing to write binary output to a terminal"), "{out}: {e}");
    }
}

#[test]
fn threads_beyond_four_per_core_are_capped_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let data = bytes(5, 300_000);
    std::fs::write(dir.path().join("in"), &data).unwrap();
    let cores = std::thread::available_parallelism().unwrap().get();
    let most = 4 * cores;
    let asked = (most + 1).to_string();
    for args in [
        &["seal", "-K", KEY, "-b", "cpu", "--threads", &asked, "in", "-o", "sealed"][..],
        &["encrypt", "-K", TWEAKEY, "--iv", IV, "-b", "cpu", "--threads", &asked, "in", "-o", "enc"][..],
    ] {
        let o = run_in(Some(dir.path()), args, b"");
        let e = stderr(&o);
        assert!(o.status.success(), "{e}");
        assert!(
            e.contains(&format!("--threads {asked} is more than 4 per core")) && e.contains(&format!("using {most}")),
            "{e}"
        );
        let mut quiet = args.to_vec();
        quiet.push("-q");
        let o = run_in(Some(dir.path()), &quiet, b"");
        assert!(o.status.success() && o.stderr.is_empty(), "{}", stderr(&o));
    }
    let o = run_in(Some(dir.path()), &["open", "-K", KEY, "sealed", "-o", "back", "-q"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("back")).unwrap(), data);
}

#[test]
fn clap_refusals_are_one_line_with_a_pointer_to_help() {
    let cases: [(&[&str], &str, &str); 4] = [
        (&["seal", "--frobnicate"], "unexpected argument '--frobnicate'", "see 'skinny seal --help'"),
        (&["encrypt", "-m", "xyz"], "invalid value 'xyz' for '--mode <MODE>'", "see 'skinny encrypt --help'"),
        (&["completions"], "required arguments were not provided", "see 'skinny completions --help'"),
        (&["sael"], "unrecognized subcommand 'sael'", "see 'skinny --help'"),
    ];
    for (args, what, pointer) in cases {
        let o = skinny().args(args).stdin(Stdio::null()).output().unwrap();
        let e = stderr(&o);
        assert_eq!((o.status.code(), e.lines().count()), (Some(2), 1), "{args:?}: {e}");
        assert!(e.starts_with("error: ") && e.contains(what) && e.trim_end().ends_with(pointer), "{args:?}: {e}");
    }
}
