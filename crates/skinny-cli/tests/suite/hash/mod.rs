//! End to end: `skinny hash` against the libraries' KATs, in GNU
//! coreutils' format (`names`: escaping, tags, `-z`), `--check` with GNU's
//! verdicts, flags and exit codes (`check`), and both against the real
//! `sha256sum` where it is installed (`gnu`).

use crate::common;

mod check;
mod gnu;
mod names;

use common::{assert_ok, run, run_in, stderr};

/// The KAT message of 32 bytes: 00 01 .. 1f.
fn msg32() -> Vec<u8> {
    (0u8..32).collect()
}

/// (algorithm, digest of the empty message, digest of `msg32`), from
/// crates/skinny-romulus/tests/kat/romulus-h.txt (Count 1 and 33) and
/// crates/skinny-hash/tests/kat/skinnyhash{tk3,tk2}/LWC_HASH_KAT_256.txt
/// (Count 1 and 33): the official KATs.
const KATS: [(&str, &str, &str); 3] = [
    (
        "romulus-h",
        "249B3F4370030B979F230CE05029361085766858879B31044742AFC4CDE6B5AB",
        "DBCC730F87714847B73014D98E9DC7D68DEBE2C9153F355390B79D35AD039FF6",
    ),
    (
        "skinny-tk3-hash",
        "15C81E6EB26ED692B51CF10A3FE186718C7AA6745CCEB7C82FF63F915F91E27B",
        "A784C0BC9D25EAA0B7F668D8AD65305F7B5129340FBE1A14FA8BF26F14F710DB",
    ),
    (
        "skinny-tk2-hash",
        "5DC460677EBA0DF3B48C60E949097A6C5D58E1C9ECF97C6FE89212B4B91F246F",
        "0B9B40297FCF226A1A32E5E811F9969B49A68EA2C7888B0F0C7A8EC2FCB0BB23",
    ),
];

/// The Romulus-H digest of the empty message, in lower case (what the
/// tests' empty files give by default).
fn empty_digest() -> String {
    KATS[0].1.to_lowercase()
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

#[test]
fn digests_of_stdin_are_the_kats() {
    for (algo, empty, m32) in KATS {
        let o = run(&["hash", "--algo", algo], b"");
        assert_ok(&o, algo);
        assert_eq!(stdout(&o), format!("{}  -\n", empty.to_lowercase()), "{algo}");
        let o = run(&["hash", "-a", algo, "-"], &msg32());
        assert_ok(&o, algo);
        assert_eq!(stdout(&o), format!("{}  -\n", m32.to_lowercase()), "{algo}");
    }
}

#[test]
fn romulus_h_is_the_default() {
    let o = run(&["hash"], &msg32());
    assert_ok(&o, "hash");
    assert_eq!(stdout(&o), format!("{}  -\n", KATS[0].2.to_lowercase()));
}

#[test]
fn several_files_one_line_each_in_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty"), b"").unwrap();
    std::fs::write(dir.path().join("m 32"), msg32()).unwrap();
    for (algo, empty, m32) in KATS {
        let o = run_in(Some(dir.path()), &["hash", "-a", algo, "m 32", "empty", "-"], &msg32());
        assert_ok(&o, algo);
        let (empty, m32) = (empty.to_lowercase(), m32.to_lowercase());
        assert_eq!(stdout(&o), format!("{m32}  m 32\n{empty}  empty\n{m32}  -\n"), "{algo}");
    }
}

#[test]
fn a_large_file_streams_to_the_same_digest_as_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let data = common::bytes(7, 300_000);
    std::fs::write(dir.path().join("big"), &data).unwrap();
    let from_file = run_in(Some(dir.path()), &["hash", "big"], b"");
    let from_stdin = run(&["hash"], &data);
    assert_ok(&from_file, "file");
    let (file, stdin) = (stdout(&from_file), stdout(&from_stdin));
    assert_eq!(file.split_once("  ").unwrap().0, stdin.split_once("  ").unwrap().0);
}

#[test]
fn an_unreadable_file_is_reported_and_the_others_still_hashed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a"), b"").unwrap();
    let o = run_in(Some(dir.path()), &["hash", "missing", "a", "."], b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{}  a\n", KATS[0].1.to_lowercase()));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 3, "{err}");
    assert!(lines[0].starts_with("skinny: missing: ") && lines[1].starts_with("skinny: .: "), "{err}");
    assert_eq!(lines[2], "skinny: 2 files could not be read");
}

#[test]
fn usage_errors_exit_2_and_help_has_an_example() {
    let o = run(&["hash", "--algo", "sha256"], b"");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("invalid value 'sha256'"), "{}", stderr(&o));
    let o = run(&["hash", "--help"], b"");
    assert_ok(&o, "help");
    let help = stdout(&o);
    assert!(help.contains("skinny hash --check sums.txt") && help.contains("skinny-tk2-hash"), "{help}");
    for flag in ["--tag", "--zero", "--ignore-missing", "--quiet", "--status", "--strict", "--warn", "docs/hash.md"] {
        assert!(help.contains(flag), "{flag}: {help}");
    }
}

#[test]
fn a_closed_stdout_is_one_line_that_offers_no_output_option() {
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(env!("CARGO_BIN_EXE_skinny"))
        .args(["hash", "-"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run skinny");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "skinny: cannot write output: stdout is closed (hash writes to stdout only: use a pipe, > FILE, or \
         >/dev/null to discard it)\n"
    );
}

#[test]
fn files_hashed_on_threads_print_as_one_thread_does() {
    let dir = tempfile::tempdir().unwrap();
    // Earlier files are larger, so later ones finish first on other threads;
    // every seventh is missing, and stdin comes in the middle.
    let mut names: Vec<String> = (0..30).map(|i| format!("f{i:02}")).collect();
    for (i, name) in names.iter().enumerate() {
        if i % 7 != 3 {
            std::fs::write(dir.path().join(name), common::bytes(i as u64, (30 - i) * 30_000)).unwrap();
        }
    }
    std::fs::write(dir.path().join("empty"), b"").unwrap();
    names.insert(12, "-".into());
    names.push("empty".into());
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let serial = run_in(Some(dir.path()), &[&["hash", "--threads", "1"], &names[..]].concat(), &msg32());
    assert_eq!(serial.status.code(), Some(1), "{}", stderr(&serial));
    let lines = stdout(&serial);
    assert_eq!(lines.lines().count(), names.len() - 4);
    assert!(lines.contains(&format!("{}  -\n", KATS[0].2.to_lowercase())), "{lines}");
    assert!(lines.ends_with(&format!("{}  empty\n", KATS[0].1.to_lowercase())), "{lines}");
    assert!(stderr(&serial).ends_with("skinny: 4 files could not be read\n"), "{}", stderr(&serial));
    for threads in [&["--threads", "4"][..], &[]] {
        let spread = run_in(Some(dir.path()), &[&["hash"], threads, &names[..]].concat(), &msg32());
        assert_eq!(spread.status.code(), Some(1), "{threads:?}");
        assert_eq!(stdout(&spread), lines, "{threads:?}");
        assert_eq!(stderr(&spread), stderr(&serial), "{threads:?}");
    }
}
