//! `skinny hash --check`: GNU's verdicts, warnings, flags and exit codes, and
//! a list on stdin that names `-`.

use super::{empty_digest, msg32, stdout, KATS};
use crate::common::{assert_ok, run, run_in, skinny, stderr};
use std::io::Write;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// A directory with `empty`, `m32` and a list of their digests.
fn checked_dir() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty"), b"").unwrap();
    std::fs::write(dir.path().join("m32"), msg32()).unwrap();
    let o = run_in(Some(dir.path()), &["hash", "empty", "m32"], b"");
    assert_ok(&o, "hash");
    let list = stdout(&o);
    std::fs::write(dir.path().join("sums"), &list).unwrap();
    (dir, list)
}

/// Runs `skinny args...` in `dir` with `input` on stdin, killed after 20
/// seconds: a check that never returns fails here instead of hanging the
/// test run.
fn run_bounded(dir: &std::path::Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = skinny()
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start skinny");
    let mut pipe = child.stdin.take().expect("stdin");
    pipe.write_all(input).expect("write the list");
    // EOF: whatever waits after this waits on a lock, not on input.
    drop(pipe);
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("skinny {args:?} still running after 20 s: it waits on stdin");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[test]
fn check_says_ok_for_each_and_exits_0() {
    let (dir, list) = checked_dir();
    let o = run_in(Some(dir.path()), &["hash", "--check", "sums"], b"");
    assert_ok(&o, "check");
    assert_eq!(stdout(&o), "empty: OK\nm32: OK\n");
    assert_eq!(stderr(&o), "");
    // From stdin, upper-case hex and the binary marker too.
    let shouted = list.to_uppercase().replace("  EMPTY", " *empty").replace("  M32", "  m32");
    let o = run_in(Some(dir.path()), &["hash", "-c"], shouted.as_bytes());
    assert_ok(&o, "check stdin");
    assert_eq!(stdout(&o), "empty: OK\nm32: OK\n");
    // CRLF line ends (a list edited on Windows) are line ends, as in GNU.
    let o = run_in(Some(dir.path()), &["hash", "-c"], list.replace('\n', "\r\n").as_bytes());
    assert_ok(&o, "check CRLF");
    assert_eq!(stdout(&o), "empty: OK\nm32: OK\n");
}

#[test]
fn check_finds_a_changed_file() {
    let (dir, _) = checked_dir();
    std::fs::write(dir.path().join("m32"), b"changed").unwrap();
    let o = run_in(Some(dir.path()), &["hash", "-c", "sums"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "empty: OK\nm32: FAILED\n");
    assert_eq!(stderr(&o), "skinny: WARNING: 1 computed checksum did NOT match\n");
    // The same list under another algorithm matches nothing.
    let o = run_in(Some(dir.path()), &["hash", "-a", "skinny-tk2-hash", "-c", "sums"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "empty: FAILED\nm32: FAILED\n");
    assert_eq!(stderr(&o), "skinny: WARNING: 2 computed checksums did NOT match\n");
}

/// The list of `checked_dir` with every kind of improperly formatted line,
/// a comment, an empty line and a missing file.
fn untidy_list(list: &str) -> String {
    let hex = empty_digest();
    format!("{list}garbage\n{}  short\n{}zz  nonhex\n{hex} one-space\n\n# a comment\n", &hex[..62], &hex[..62])
}

#[test]
fn malformed_lines_warn_and_fail_only_under_strict() {
    let (dir, list) = checked_dir();
    let untidy = untidy_list(&list);
    let o = run_in(Some(dir.path()), &["hash", "-c"], untidy.as_bytes());
    assert_ok(&o, "malformed lines alone");
    assert_eq!(stdout(&o), "empty: OK\nm32: OK\n");
    assert_eq!(stderr(&o), "skinny: WARNING: 4 lines are improperly formatted\n");
    let o = run_in(Some(dir.path()), &["hash", "-c", "--strict"], untidy.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o), "skinny: WARNING: 4 lines are improperly formatted\n");
    // --warn names each (line numbers count the list's every line).
    let o = run_in(Some(dir.path()), &["hash", "-c", "-w"], untidy.as_bytes());
    assert_ok(&o, "--warn");
    let said: Vec<String> =
        (3..=6).map(|n| format!("skinny: standard input: {n}: improperly formatted checksum line")).collect();
    assert_eq!(stderr(&o), format!("{}\nskinny: WARNING: 4 lines are improperly formatted\n", said.join("\n")));
}

#[test]
fn a_missing_file_fails_unless_ignored() {
    let (dir, list) = checked_dir();
    let hex = empty_digest();
    let with_gone = format!("{list}{hex}  gone\n");
    let o = run_in(Some(dir.path()), &["hash", "-c"], with_gone.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "empty: OK\nm32: OK\ngone: FAILED open or read\n");
    let err = stderr(&o);
    assert!(err.starts_with("skinny: gone: No such file or directory\n"), "{err}");
    assert!(err.ends_with("\nskinny: WARNING: 1 listed file could not be read\n"), "{err}");
    // --ignore-missing: not a word about it, exit 0.
    let o = run_in(Some(dir.path()), &["hash", "-c", "--ignore-missing"], with_gone.as_bytes());
    assert_ok(&o, "--ignore-missing");
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("empty: OK\nm32: OK\n", ""));
    // Every file missing: nothing was verified, and that fails.
    let o = run_in(Some(dir.path()), &["hash", "-c", "--ignore-missing"], format!("{hex}  gone\n").as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("", "skinny: standard input: no file was verified\n"));
    // A directory is not missing: it is unreadable, ignored or not.
    let o = run_in(Some(dir.path()), &["hash", "-c", "--ignore-missing"], format!("{list}{hex}  .\n").as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).ends_with(".: FAILED open or read\n"), "{}", stdout(&o));
}

#[test]
fn quiet_prints_failures_only_and_status_prints_nothing() {
    let (dir, _) = checked_dir();
    let o = run_in(Some(dir.path()), &["hash", "-c", "--quiet", "sums"], b"");
    assert_ok(&o, "--quiet");
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("", ""));
    let o = run_in(Some(dir.path()), &["hash", "-c", "--status", "sums"], b"");
    assert_ok(&o, "--status");
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("", ""));
    std::fs::write(dir.path().join("m32"), b"changed").unwrap();
    let o = run_in(Some(dir.path()), &["hash", "-c", "--quiet", "sums"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "m32: FAILED\n");
    assert_eq!(stderr(&o), "skinny: WARNING: 1 computed checksum did NOT match\n");
    let o = run_in(Some(dir.path()), &["hash", "-c", "--status", "sums"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!((stdout(&o).as_str(), stderr(&o).as_str()), ("", ""));
    // The last of --status, --quiet and --warn wins, as in GNU.
    let o = run_in(Some(dir.path()), &["hash", "-c", "--status", "--quiet", "sums"], b"");
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), "m32: FAILED\n"));
    let o = run_in(Some(dir.path()), &["hash", "-c", "--quiet", "--status", "sums"], b"");
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), ""));
    let o = run_in(Some(dir.path()), &["hash", "-c", "--status", "-w", "sums"], b"");
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(1), "empty: OK\nm32: FAILED\n"));
}

#[test]
fn a_list_without_digest_lines_fails_even_under_status() {
    for args in [&["hash", "-c"][..], &["hash", "-c", "--status"]] {
        let o = run(args, b"not a digest line\n# nor this\n");
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(stdout(&o), "");
        assert_eq!(stderr(&o), "skinny: standard input: no properly formatted checksum lines found\n");
    }
    let o = run(&["hash", "-c"], b"");
    assert_eq!(stderr(&o), "skinny: standard input: no properly formatted checksum lines found\n");
}

#[test]
fn each_list_is_judged_on_its_own() {
    let (dir, _) = checked_dir();
    std::fs::write(dir.path().join("junk"), "junk\n").unwrap();
    let o = run_in(Some(dir.path()), &["hash", "-c", "sums", "nolist", "junk", "sums"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "empty: OK\nm32: OK\n".repeat(2));
    assert_eq!(
        stderr(&o),
        "skinny: nolist: No such file or directory\nskinny: junk: no properly formatted checksum lines found\n"
    );
}

#[test]
fn a_list_on_stdin_naming_stdin_returns_at_once() {
    // The list is stdin: `-` in it cannot be stdin too. GNU counts the line
    // as improperly formatted; so do we, without waiting for more input.
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}  -\n", empty_digest());
    let o = run_bounded(dir.path(), &["hash", "--check"], line.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o), "skinny: standard input: no properly formatted checksum lines found\n");
    let o = run_bounded(dir.path(), &["hash", "-c", "-w", "-"], line.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("skinny: standard input: 1: improperly formatted checksum line\n"),
        "{}",
        stderr(&o)
    );
    // Among other lines it is one malformed line.
    std::fs::write(dir.path().join("empty"), b"").unwrap();
    let lines = format!("{line}{}  empty\n", empty_digest());
    let o = run_bounded(dir.path(), &["hash", "-c"], lines.as_bytes());
    assert_ok(&o, "check");
    assert_eq!(stdout(&o), "empty: OK\n");
    assert_eq!(stderr(&o), "skinny: WARNING: 1 line is improperly formatted\n");
    // A list in a file may name stdin: it is read as a file would be.
    std::fs::write(dir.path().join("list"), format!("{}  -\n", KATS[0].2.to_lowercase())).unwrap();
    let o = run_bounded(dir.path(), &["hash", "-c", "list"], &msg32());
    assert_ok(&o, "a list in a file naming stdin");
    assert_eq!(stdout(&o), "-: OK\n");
}

#[test]
fn check_only_flags_need_check_and_output_flags_refuse_it() {
    for flag in ["--status", "--quiet", "--warn", "-w", "--strict", "--ignore-missing"] {
        let o = run(&["hash", flag], b"");
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(stderr(&o).contains("--check"), "{flag}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{flag}");
    }
    for flag in ["--tag", "-z", "--zero"] {
        let o = run(&["hash", "-c", flag], b"");
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let err = stderr(&o);
        assert!(err.contains("cannot be used with") && err.contains("'--check'"), "{flag}: {err}");
    }
}
