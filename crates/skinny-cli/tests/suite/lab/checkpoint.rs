//! `skinny lab ... --checkpoint FILE`: a run stopped by a signal after its
//! first checkpoint, started again with the same command, ends with the
//! findings of a run that never stopped (seconds aside) and removes FILE;
//! damaged checkpoints and those of another run are refused in one line and
//! left as they are.

use crate::common;

use super::args::{strs, ONE_CELL_DIFFERENTIAL};
use common::run;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The one-cell differential (hits about 1/16 of the time) in 256 key
/// groups: with `--checkpoint-every 0` a segment (and a synced checkpoint)
/// per group, so that a signal sent when the first checkpoint appears lands
/// long before the end.
fn diff() -> Vec<&'static str> {
    let rest = ["--queries", "2^20", "--key-every", "2^12", "--json", "--threads", "2"];
    [&ONE_CELL_DIFFERENTIAL[..], &rest].concat()
}

/// The options each run here may change, and their values in the run
/// checkpointed.
const DEFAULTS: [(&str, &str); 3] = [("--seed", "9"), ("--show", "4"), ("--checkpoint-every", "0")];

/// The run with `--checkpoint FILE` and `changed` options (name, value).
fn args(checkpoint: &Path, changed: &[(&str, &str)]) -> Vec<String> {
    let mut a: Vec<String> = diff().iter().map(|s| s.to_string()).collect();
    for (name, value) in DEFAULTS {
        let value = changed.iter().find(|(n, _)| *n == name).map_or(value, |(_, v)| v);
        a.extend([name.to_string(), value.to_string()]);
    }
    for (name, value) in changed.iter().filter(|(n, _)| !DEFAULTS.iter().any(|(d, _)| d == n)) {
        a.extend([name.to_string(), value.to_string()]);
    }
    a.extend(["--checkpoint".into(), checkpoint.display().to_string()]);
    a
}

fn report(stdout: &[u8]) -> Value {
    let text = String::from_utf8(stdout.to_vec()).unwrap();
    assert_eq!(text.lines().count(), 1, "one JSON object on one line: {text}");
    serde_json::from_str(&text).unwrap()
}

/// The report without the time measured.
fn timeless(mut v: Value) -> Value {
    let o = v.as_object_mut().unwrap();
    o.remove("seconds");
    o.remove("rate_per_s");
    v
}

/// The uninterrupted run's report (no checkpoint).
fn uninterrupted() -> Value {
    let mut a: Vec<&str> = diff();
    a.extend(["--seed", "9", "--show", "4"]);
    let out = run(&a, b"");
    assert!(out.status.success(), "{}", common::stderr(&out));
    report(&out.stdout)
}

#[test]
fn a_run_stopped_after_a_checkpoint_resumes_to_the_uninterrupted_findings() {
    let whole = uninterrupted();
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("shard.ckpt");
    let a = args(&ck, &[]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_skinny"))
        .args(&a)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !ck.exists() {
        assert!(child.try_wait().unwrap().is_none(), "ended before its first checkpoint");
        assert!(started.elapsed() < Duration::from_secs(60), "no checkpoint written");
        std::thread::sleep(Duration::from_millis(2));
    }
    // SIGINT where it is not inherited as ignored (a shell's background job).
    let signal = if common::ignored_here(2) { "TERM" } else { "INT" };
    let killed = Command::new("sh").arg("-c").arg(format!("kill -{signal} {}", child.id())).status().unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = common::stderr(&out);
    assert_eq!(out.status.code(), Some(if signal == "INT" { 130 } else { 143 }), "{err}");
    assert!(err.contains("the same command goes on from there"), "{err}");
    assert!(err.contains("interrupted after"), "{err}");
    // What was printed: every query counted, marked interrupted.
    let partial = report(&out.stdout);
    assert_eq!(partial["interrupted"], true);
    assert!(partial["queries"].as_u64().unwrap() < 1 << 20);
    // The checkpoint: the first key groups, whole.
    let kept: Value = serde_json::from_slice(&std::fs::read(&ck).unwrap()).unwrap();
    assert_eq!(kept["format"], "skinny-lab checkpoint 1");
    let saved = kept["findings"]["queries"].as_u64().unwrap();
    assert!(saved > 0 && saved < 1 << 20 && saved.is_multiple_of(1 << 12), "{kept}");
    assert!(err.contains(&format!("keeps the first {saved} queries")), "{err}");
    // Resumed (segments of any length: the findings do not depend on them).
    let out = run(&strs(&args(&ck, &[("--checkpoint-every", "0.05")])), b"");
    assert!(out.status.success(), "{}", common::stderr(&out));
    let resumed = report(&out.stdout);
    assert_eq!(timeless(resumed), timeless(whole));
    assert!(!ck.exists(), "the checkpoint is removed once the findings are printed");
    assert_eq!(common::listing(dir.path()), Vec::<String>::new(), "no temporary files left");
}

/// A genuine checkpoint of this run in `dir`: its first key groups, kept by
/// a run killed (SIGKILL: nothing caught) once it has written one.
fn some_checkpoint(dir: &Path) -> std::path::PathBuf {
    let ck = dir.join("genuine.ckpt");
    let mut child = Command::new(env!("CARGO_BIN_EXE_skinny"))
        .args(args(&ck, &[]))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while !ck.exists() {
        assert!(child.try_wait().unwrap().is_none(), "ended before its first checkpoint");
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    ck
}

#[test]
fn damaged_checkpoints_and_those_of_another_run_are_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let refused = |ck: &Path, extra: &[(&str, &str)], why: &str| {
        let before = std::fs::read(ck).unwrap();
        let out = run(&strs(&args(ck, extra)), b"");
        let err = common::stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--checkpoint") && err.contains(why) && err.contains("refused"), "{err}");
        assert!(out.stdout.is_empty());
        assert_eq!(std::fs::read(ck).unwrap(), before, "left as it was");
    };
    let damaged = dir.path().join("damaged.ckpt");
    std::fs::write(&damaged, b"{\"format\": \"skinny-lab checkpoint 1\", \"findings\": {\"exp").unwrap();
    refused(&damaged, &[], "not a `skinny lab` checkpoint");
    std::fs::write(&damaged, b"").unwrap();
    refused(&damaged, &[], "not a `skinny lab` checkpoint");
    let genuine = some_checkpoint(dir.path());
    refused(&genuine, &[("--seed", "10")], "another experiment");
    refused(&genuine, &[("--shard", "0/2")], "another experiment");
    refused(&genuine, &[("--show", "5")], "another experiment");
    let mut edited: Value = serde_json::from_slice(&std::fs::read(&genuine).unwrap()).unwrap();
    edited["findings"]["version"] = "0.0.1 (commit 0000000)".into();
    std::fs::write(&damaged, edited.to_string()).unwrap();
    refused(&damaged, &[], "written by skinny");
    let mut edited: Value = serde_json::from_slice(&std::fs::read(&genuine).unwrap()).unwrap();
    edited["findings"]["queries"] = 5.into();
    std::fs::write(&damaged, edited.to_string()).unwrap();
    refused(&damaged, &[], "do not read back");
    // A report is not a checkpoint.
    std::fs::write(&damaged, serde_json::to_string(&uninterrupted()).unwrap()).unwrap();
    refused(&damaged, &[], "not a `skinny lab` checkpoint");
    // --checkpoint-every alone is a usage error.
    let mut a: Vec<&str> = diff();
    a.extend(["--checkpoint-every", "1"]);
    let out = run(&a, b"");
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
}
