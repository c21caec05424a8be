//! `skinny lab` against a hostile user: huge runs stop promptly on SIGINT or
//! SIGTERM with a valid partial report, `--show` is bounded, and `lab merge`
//! refuses edited reports with one line (never a panic) and never lets a
//! report's text steer the terminal.

use crate::common;

use super::args::ONE_CELL_DIFFERENTIAL as DIFF;
use common::run;
use serde_json::{json, Value};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// CPU seconds `child` has used (Linux's /proc; clock ticks of 1/100 s).
fn cpu_seconds(child: &Child) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", child.id())).unwrap_or_default();
    // The fields after the command name's closing parenthesis; utime and
    // stime are the 14th and 15th of the whole line.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest.split_whitespace().map(|x| x.parse().unwrap_or(0.0)).collect();
    f.get(11).zip(f.get(12)).map_or(0.0, |(u, s)| (u + s) / 100.0)
}

/// Starts `skinny args`, waits until it is counting (it has used 0.3 s of
/// CPU), sends `signal`, and returns the time it took to exit and its output.
/// A run that does not exit within 10 s is killed and fails the test.
fn stop_latency(args: &[&str], signal: &str) -> (Duration, Output) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skinny"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while cpu_seconds(&child) < 0.3 {
        assert!(started.elapsed() < Duration::from_secs(30), "never got going");
        assert!(child.try_wait().unwrap().is_none(), "ended before the signal");
        std::thread::sleep(Duration::from_millis(20));
    }
    // The shell's built-in kill: no separate binary needed.
    let killed = Command::new("sh").arg("-c").arg(format!("kill -{signal} {}", child.id())).status().unwrap();
    assert!(killed.success());
    let sent = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if sent.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?}: still running 10 s after SIG{signal}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let latency = sent.elapsed();
    (latency, child.wait_with_output().unwrap())
}

#[test]
fn huge_runs_stop_within_seconds_with_a_partial_report() {
    let huge = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut a = DIFF.to_vec();
        a.extend_from_slice(extra);
        a.extend(["--json", "--threads", "2"]);
        a
    };
    let mut boomerang = vec!["lab", "boomerang", "-c", "skinny-64-64", "--rounds", "3"];
    boomerang.extend(["--dp", "0000000000000000", "--dc", "0000000000000000", "--queries", "1e19"]);
    boomerang.extend(["--key-every", "2^40", "--json", "--threads", "2"]);
    // SIGINT only where it is not inherited as ignored (a shell's
    // background job): there skinny rightly keeps it ignored.
    let int = if common::ignored_here(2) { "TERM" } else { "INT" };
    let cases: [(Vec<&str>, &str); 4] = [
        (huge(&["--queries", "1e19"]), int),
        (huge(&["--queries", "2^62", "--key-every", "1"]), "TERM"),
        (huge(&["--queries", "18446744073709551615", "--key-every", "3"]), "TERM"),
        (boomerang, int),
    ];
    for (args, signal) in cases {
        let (latency, out) = stop_latency(&args, signal);
        let err = String::from_utf8_lossy(&out.stderr);
        println!("SIG{signal} to {:?}: exited {:.3} s later", &args[1..], latency.as_secs_f64());
        assert!(latency < Duration::from_secs(3), "{latency:?} to stop {args:?}");
        let want = if signal == "INT" { 130 } else { 143 };
        assert_eq!(out.status.code(), Some(want), "{err}");
        assert!(err.contains("interrupted after"), "{err}");
        // The partial report: valid findings, stopped early, not complete.
        let text = String::from_utf8(out.stdout).unwrap();
        let f: skinny_lab::Findings = serde_json::from_str(&text).expect("a report");
        assert!(f.interrupted && !f.complete, "{text}");
        assert!(f.queries > 0 && f.queries < f.queries_total, "{text}");
        assert!(f.hits <= f.queries, "{text}");
    }
}

#[test]
fn show_is_bounded() {
    let mut a = DIFF.to_vec();
    a.extend(["--queries", "1000", "--show", "1025"]);
    let out = run(&a, b"");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("--show 1025") && err.contains("1024"), "{err}");
    assert!(out.stdout.is_empty());
    // The most: every hit of a run that always hits, 1024 kept.
    let all = ["lab", "differential", "-c", "skinny-64-64", "--rounds", "2", "--dp", "0000000000000000"];
    let mut a = all.to_vec();
    a.extend(["--dc", "0000000000000000", "--queries", "2^16", "--show", "1024", "--json"]);
    let out = run(&a, b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["right"].as_array().unwrap().len(), 1024);
}

/// Shard `i` of 2 of a small run, as a report.
fn shard(i: &str) -> Value {
    let mut a = DIFF.to_vec();
    a.extend(["--queries", "3000", "--key-every", "7", "--show", "3", "--shard", i, "--json"]);
    let out = run(&a, b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// `lab merge` of `reports` written to files: its output.
fn merge(reports: &[Value]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = reports
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let f = dir.path().join(format!("part{i}.json"));
            std::fs::write(&f, r.to_string()).unwrap();
            f.display().to_string()
        })
        .collect();
    let mut a = vec!["lab", "merge"];
    a.extend(files.iter().map(String::as_str));
    run(&a, b"")
}

/// One line on stderr, exit 2, nothing on stdout, no control character.
fn refused_in_one_line(out: &Output, why: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{why}: {err}");
    assert!(out.stdout.is_empty(), "{why}");
    assert_eq!(err.trim_end().lines().count(), 1, "{why}: {err}");
    assert!(!err.trim_end().chars().any(char::is_control), "{why}: {err:?}");
}

#[test]
fn edited_reports_are_refused_in_one_line() {
    let (good, other) = (shard("0/2"), shard("1/2"));
    accepted(&merge(&[good.clone(), other.clone()]));
    let queries = good["queries"].as_u64().unwrap();
    let edits: Vec<(&str, Value)> = vec![
        ("hits", json!(queries + 1)),
        ("queries", json!(u64::MAX)),
        ("shards", json!([0, 0])),
        ("shards", json!([0, 1])),
        ("queries", json!(3 * queries)),
        ("rounds", json!(999)),
        ("key_every", json!(0)),
        ("show", json!(5000)),
        ("backend", json!("cpu\u{1b}[2J\u{1b}]0;owned\u{7}")),
        ("cipher", json!("skinny\u{1b}[31m")),
    ];
    for (field, value) in edits {
        let mut r = good.clone();
        r[field] = value;
        refused_in_one_line(&merge(&[r]), field);
    }
    let mut r = other.clone();
    r["version"] = json!("\u{1b}[31m");
    refused_in_one_line(&merge(&[good.clone(), r]), "version");
    let mut r = good.clone();
    r["right"][0]["query"] = json!(2999);
    refused_in_one_line(&merge(&[r]), "a right pair outside its shard");
    // A file name with escapes, which does not exist.
    refused_in_one_line_io(&run(&["lab", "merge", "no\u{1b}[2Jsuch.json"], b""));
}

/// The merge of genuine shards, accepted.
fn accepted(out: &Output) {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

fn refused_in_one_line_io(out: &Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.trim_end().chars().any(char::is_control), "{err:?}");
    assert!(err.contains("\\u{1b}[2J"), "{err}");
}
