//! `skinny bench --aead / --hash` end to end: tiny sizes and two runs, so it
//! stays fast. Checks the tables, the CSV and JSON records (JSON read with
//! serde_json), the chart's shape, and refusals. Speed is never asserted.

use serde_json::Value;
use std::process::{Command, Output};

fn skinny(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skinny")).args(args).output().expect("run skinny")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn aead_and_hash_series_print_tables_and_write_csv_json_svg() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, json, svg) = (dir.path().join("s.csv"), dir.path().join("s.json"), dir.path().join("s.svg"));
    let out = skinny(&[
        "bench",
        "--aead",
        "romulus-n,skinny-aead-m6",
        "--hash",
        "skinny-tk2-hash",
        "--sizes",
        "16,64",
        "--runs",
        "2",
        "--min-run-ms",
        "0.1",
        "-q",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {}", text(&out.stderr));
    assert!(stdout.contains("Schemes romulus-n, skinny-aead-m6, skinny-tk2-hash; one message per call"), "{stdout}");
    for title in ["AEAD seal, one message per call", "AEAD open, one message per call", "Hash MiB/s by message size"] {
        assert_eq!(stdout.matches(&format!("\n{title}\n")).count(), 1, "{title}: {stdout}");
    }
    // Romulus-N at 64 bytes: 5 calls of 40 rounds, in the seal and the open table.
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("romulus-n") && l.contains("64 B")).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(rows.iter().all(|r| r.split_whitespace().skip(6).take(2).eq(["5", "200"])), "{rows:?}");

    // CSV: header + (2 AEAD x 2 operations + 1 hash) x 2 sizes.
    let csv = std::fs::read_to_string(&csv).unwrap();
    let head = csv.lines().next().unwrap();
    assert!(head.starts_with("family,algorithm,operation,route,cipher,bytes,runs,reps,"), "{head}");
    assert_eq!(csv.lines().count(), 1 + 10, "{csv}");

    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["report"], "schemes");
    let records = v["records"].as_array().unwrap();
    assert_eq!(records.len(), 10);
    for r in records {
        assert_eq!(r["runs"], 2);
        assert_eq!(r["route"], "single");
        assert!(r["mib_s"].as_f64().unwrap() > 0.0 && r["ns_per_byte"].as_f64().unwrap() > 0.0, "{r}");
        let floor = r["tbc_calls"].as_u64().unwrap() * r["rounds_per_call"].as_u64().unwrap();
        assert_eq!(r["floor_rounds"].as_u64(), Some(floor));
        assert_eq!(r["times_ms"].as_array().unwrap().len(), 2);
    }

    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<g class=\"chart\"").count(), 3);
    assert!(svg.contains("data-series=\"skinny-aead-m6\"") && svg.contains("MiB/s"), "{svg}");

    // The cipher bench's reader refuses a scheme report in one line.
    let out = skinny(&["bench", "--from-json", json.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!((out.status.code(), stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("a report of the AEAD and hash series"), "{stderr}");
}

#[test]
fn bad_scheme_options_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("s.json");
    let json = json.to_str().unwrap();
    // Names and conflicts are refused by clap (its message starts with one
    // line that says what is wrong); sizes by the command, in one line.
    let cases: [(&[&str], &str); 6] = [
        (&["--aead", "romulus-h"], "unknown AEAD scheme 'romulus-h' (expected skinny-aead-m1, "),
        (&["--hash", "sha256"], "unknown hash function 'sha256'"),
        (&["--aead", "all", "--modes", "ctr"], "'--aead <LIST>' cannot be used with '--modes <LIST>'"),
        (&["--hash", "all", "--paper"], "cannot be used with '--paper'"),
        (&["--hash", "all", "--sizes", "0", "--json", json], "message sizes start at 1 byte"),
        (&["--aead", "all", "--sizes", "16,2x"], "bad size suffix in '2x'"),
    ];
    for (args, msg) in cases {
        let out = skinny(&[&["bench"], args].concat());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.contains(msg), "{args:?}: {stderr}");
        if !stderr.starts_with("error: ") {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(!std::path::Path::new(json).exists());
}

#[test]
fn many_series_prints_tables_and_writes_csv_json() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, json) = (dir.path().join("m.csv"), dir.path().join("m.json"));
    let out = skinny(&[
        "bench",
        "--many",
        "romulus-n,skinny-aead-m1",
        "--sizes",
        "16,64",
        "--messages",
        "40",
        "--threads",
        "2",
        "--backend",
        "cpu,gpu",
        "--runs",
        "2",
        "--min-run-ms",
        "0.1",
        "-q",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    assert!(
        stdout.contains(
            "Many messages per call: schemes romulus-n, skinny-aead-m1; backends cpu, gpu; 2 threads; 40 messages per batch"
        ),
        "{stdout}"
    );
    for op in ["seal", "open"] {
        let title = format!("\nAEAD {op}, many messages per call (2 threads), beside one message per call\n");
        assert_eq!(stdout.matches(&title).count(), 1, "{stdout}");
    }
    // Romulus-N at 64 bytes on the CPU engine: 5 calls of 40 rounds, in the seal and the open table.
    let rows: Vec<&str> =
        stdout.lines().filter(|l| l.starts_with("romulus-n") && l.contains(" 64 B ") && l.contains(" cpu ")).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(rows.iter().all(|r| r.split_whitespace().skip(11).take(2).eq(["5", "200"])), "{rows:?}");
    // SKINNY-AEAD has no GPU kernels: skipped, on stderr and under the tables, never a figure.
    assert!(stderr.contains("skinny: bench: GPU: not available"), "{stderr}");
    assert!(stdout.contains("GPU: not available"), "{stdout}");

    let csv = std::fs::read_to_string(&csv).unwrap();
    let head = csv.lines().next().unwrap();
    assert!(head.starts_with("algorithm,operation,route,backend,ran_on,cipher,bytes,messages,"), "{head}");
    // 2 schemes x 2 operations x 2 sizes on the CPU (and Romulus-N on a GPU where there is one).
    assert_eq!(csv.lines().filter(|l| l.contains(",many,cpu,cpu,")).count(), 8, "{csv}");

    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["report"], "many");
    assert_eq!(v["plan"]["messages"], serde_json::json!([40, 40]));
    let records = v["records"].as_array().unwrap();
    assert!(records.iter().all(|r| r["backend"] != "gpu" || r["algorithm"] == "romulus-n"), "{v}");
    for r in records {
        assert_eq!((r["runs"].as_u64(), r["messages"].as_u64(), r["threads"].as_u64()), (Some(2), Some(40), Some(2)));
        assert!(r["ratio"].as_f64().unwrap() > 0.0 && r["gb_s"].as_f64().unwrap() > 0.0, "{r}");
        let floor = r["tbc_calls"].as_u64().unwrap() * r["rounds_per_call"].as_u64().unwrap();
        assert_eq!(r["floor_rounds"].as_u64(), Some(floor));
    }
    assert!(!v["skipped"].as_array().unwrap().is_empty());

    let out = skinny(&["bench", "--from-json", json.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!((out.status.code(), stderr.lines().count()), (Some(2), 1), "{stderr}");
    assert!(stderr.contains("a report of the many-message series"), "{stderr}");
}

#[test]
fn bad_many_options_are_refused_before_anything_runs() {
    let cases: [(&[&str], &str); 7] = [
        (&["--many", "romulus-x"], "unknown AEAD scheme 'romulus-x' (expected skinny-aead-m1, "),
        (&["--many", "romulus-t"], "the many-message engine has no romulus-t"),
        (&["--many", "all", "--aead", "all"], "cannot be used with"),
        (&["--many", "all", "--plot", "m.svg"], "cannot be used with"),
        (&["--backend", "cpu"], "required arguments were not provided"),
        (&["--many", "all", "--backend", "tpu"], "unknown backend 'tpu' (expected cpu, gpu or auto)"),
        (&["--many", "romulus-n", "--sizes", "0"], "message sizes start at 1 byte"),
    ];
    for (args, msg) in cases {
        let out = skinny(&[&["bench"], args].concat());
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.lines().next().unwrap_or_default().contains(msg), "{args:?}: {stderr}");
        if !stderr.starts_with("error: ") {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
