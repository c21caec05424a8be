//! `skinny selftest`, `info` and the report commands end to end, and what
//! they do when their output fails (a reader gone, a full disk).

use crate::common;

use common::{assert_ok, run, stderr};

#[test]
fn selftest_passes_and_reports_each_backend() {
    let o = run(&["selftest", "--rounds", "2", "--max-bytes", "5000"], b"");
    assert_ok(&o, "selftest");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("spec vectors: 6/6 ok"), "{out}");
    // The schemes the README recommends (`seal`, `hash`): their known answers
    // on every path, the many-message engine's too.
    for line in [
        "aead known answers (Romulus-N/-M/-T, SKINNY-AEAD M1-M6, single messages): 324/324 ok",
        "hash known answers (Romulus-H, SKINNY-tk2-Hash, SKINNY-tk3-Hash): 36/36 ok",
        "romulus known answers, single-block path portable-u64: 108/108 ok",
        "many-message engine, portable-u64 path, with lockstep groups: 288/288 ok",
        "many-message engine, portable-u64 path, lanes only: 288/288 ok",
    ] {
        assert!(out.contains(line), "missing {line}: {out}");
    }
    assert!(out.lines().any(|l| l.starts_with("cpu: ") && l.contains(" 0 mismatches")), "{out}");
    for gpu in ["gpu-paper", "gpu"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{gpu}: ")) || l.starts_with(&format!("skip: {gpu}: "))),
            "{gpu} neither checked nor skipped: {out}"
        );
    }
    assert!(out.contains("selftest passed"), "{out}");
}

#[test]
fn info_lists_cpu_gpus_and_every_backend() {
    let o = run(&["info"], b"");
    assert_ok(&o, "info");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with(&format!("skinny {}", env!("CARGO_PKG_VERSION"))), "{out}");
    for line in [
        "cpu: ",
        "logical cores: ",
        "cpu features: ",
        "bitsliced paths: portable-u64 yes",
        "single-block paths: portable-u64 yes",
        "gpu support: ",
        "backends:",
    ] {
        assert!(out.contains(line), "missing {line}: {out}");
    }
    // Without a usable GPU, auto is described as the CPU it is, not as GPUs
    // opened in the background.
    let auto = out.lines().find(|l| l.starts_with("  auto ")).unwrap();
    if out.contains("gpus: none") {
        assert!(auto.contains("no usable GPU here") && !auto.contains("opened in the background"), "{auto}");
    }
    assert!(out.contains("gpu") && (out.contains("gpus: none") || out.contains("gpu 0: ")), "{out}");
    for b in ["auto", "cpu-serial", "cpu", "gpu-paper", "gpu"] {
        assert!(out.lines().any(|l| l.starts_with(&format!("  {b} "))), "backend {b} missing: {out}");
    }
    // Backend lines are the indented ones under "backends:".
    let paper = out.lines().find(|l| l.starts_with("  gpu-paper ")).unwrap();
    assert!(paper.contains("NOT constant time"), "{paper}");
    let cpu = out.lines().find(|l| l.starts_with("  cpu ")).unwrap();
    assert!(cpu.contains("usable") && cpu.contains("constant time"), "{cpu}");
}

/// Runs `skinny args...` with stdout a pipe whose reading end is closed (as
/// `| head -c1` does once it has its byte).
fn with_reader_gone(args: &[&str]) -> std::process::Output {
    common::skinny()
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(common::reader_gone())
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("run skinny")
}

/// Runs `skinny args...` with stdout on /dev/full: every write fails with ENOSPC.
fn with_stdout_full(args: &[&str]) -> std::process::Output {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    common::skinny().args(args).stdin(std::process::Stdio::null()).stdout(full).output().expect("run skinny")
}

/// The report commands, kept small and fast.
const REPORTS: [&[&str]; 5] = [
    &["info"],
    &["selftest", "--rounds", "0", "--max-bytes", "64"],
    &["bench", "--backends", "cpu-serial", "--modes", "ecb", "--sizes", "16", "--runs", "1", "--min-run-ms", "0", "-q"],
    &["completions", "bash"],
    &["hash"],
];

#[test]
fn a_reader_that_goes_away_is_one_line_and_exit_1() {
    for args in REPORTS {
        let o = with_reader_gone(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o),
            "skinny: cannot write output: the reader of stdout went away (broken pipe); the output is incomplete\n",
            "{args:?}"
        );
    }
}

#[test]
fn a_full_stdout_is_one_line_and_exit_1() {
    for args in REPORTS {
        let o = with_stdout_full(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), "skinny: cannot write output: No space left on device\n", "{args:?}");
    }
}

#[test]
fn bench_writes_its_files_even_when_stdout_fails() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let csv = dir.path().join("r.csv");
    let mut args: Vec<&str> = REPORTS[2].to_vec();
    let (j, c) = (json.to_str().unwrap(), csv.to_str().unwrap());
    args.extend(["--json", j, "--csv", c]);
    let o = with_stdout_full(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&json).unwrap().contains("\"records\""));
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 2);
    std::fs::remove_file(&json).unwrap();
    let o = with_reader_gone(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("broken pipe"), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&json).unwrap().contains("\"records\""));
    assert_eq!(common::listing(dir.path()), ["r.csv", "r.json"]);
}
