//! `skinny bench` end to end: tiny sizes and two runs, so it stays fast. Checks
//! the tables, the CSV and JSON fields (JSON read with serde_json), the SVG's
//! shape, skipping of backends that cannot run here, and refusals.

mod schemes;

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn skinny(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skinny")).args(args).output().expect("run skinny")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const REQUIRED: [&str; 12] = [
    "variant",
    "mode",
    "backend",
    "timing",
    "bytes",
    "runs",
    "mean_ms",
    "median_ms",
    "min_ms",
    "gbps",
    "speedup_vs_cpu_serial",
    "efficiency_vs_cpu_serial",
];

#[test]
fn cpu_run_prints_tables_and_writes_csv_json_svg() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, json, svg) = (dir.path().join("r.csv"), dir.path().join("r.json"), dir.path().join("r.svg"));
    let out = skinny(&[
        "bench",
        "--paper",
        "--backends",
        "cpu-serial,cpu",
        "--sizes",
        "16..64",
        "--runs",
        "2",
        "--min-run-ms",
        "0.2",
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

    // Header and one paper-style table per mode.
    assert!(stdout.contains("skinny bench: skinny "), "{stdout}");
    assert!(stdout.contains("CPU: ") && stdout.contains("GPU: "), "{stdout}");
    // The machine's instruction sets and the CPU paths that ran, so figures
    // from one machine class are not read as another's.
    let cpu_line = stdout.lines().find(|l| l.starts_with("CPU: ")).unwrap();
    assert!(cpu_line.contains(" logical CPUs; ISA: ") && cpu_line.contains("; paths: bitsliced "), "{cpu_line}");
    assert!(stdout.contains("Cipher skinny-128-256; modes ecb, ctr"), "{stdout}");
    for mode in ["ECB", "CTR"] {
        assert!(stdout.contains(&format!("{mode} encrypt, skinny-128-256: cpu against cpu-serial")), "{stdout}");
    }
    assert_eq!(stdout.matches("\nSize ").count(), 2, "{stdout}");
    for size in ["16 B", "32 B", "64 B"] {
        assert_eq!(stdout.lines().filter(|l| l.starts_with(size)).count(), 2, "{size}: {stdout}");
    }
    assert!(stdout.contains("E vs cpu-serial") && stdout.contains("S vs cpu-serial") && stdout.contains("cpu Gb/s"));

    // CSV: header + 2 modes x 3 sizes x 2 backends.
    let csv = std::fs::read_to_string(&csv).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    for f in REQUIRED {
        assert!(head.contains(&f), "CSV lacks {f}: {head:?}");
    }
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 12);
    assert_eq!(head.last(), Some(&"machine"));
    let col = |name: &str| head.iter().position(|h| *h == name).unwrap();
    for r in &rows {
        assert_eq!(r.len(), head.len(), "{r:?}");
        assert_eq!(r[col("runs")], "2");
        assert!(r[col("machine")].contains(" logical CPUs; "), "{r:?}");
        assert_eq!(r[col("timing")], "end-to-end");
        let median: f64 = r[col("median_ms")].parse().unwrap();
        let gbps: f64 = r[col("gbps")].parse().unwrap();
        let bytes: f64 = r[col("bytes")].parse().unwrap();
        assert!(median > 0.0 && (gbps - bytes * 8.0 / 1e9 / (median / 1e3)).abs() <= 1e-9 * gbps.max(1.0));
        // The cpu rows carry a speed-up against cpu-serial; cpu-serial's own is empty.
        let su = r[col("speedup_vs_cpu_serial")];
        assert_eq!(su.is_empty(), r[col("backend")] == "cpu-serial", "{r:?}");
    }

    // JSON: parses, with one record per mode, backend and size.
    let json = std::fs::read_to_string(&json).unwrap();
    let v: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("bad JSON ({e}): {json}"));
    let obj = v.as_object().expect("an object");
    assert_eq!(obj["tool"], "skinny bench");
    assert!(obj.contains_key("commit") && obj.contains_key("cpu") && obj.contains_key("gpus"));
    assert_eq!(obj["gpu_found"], !stdout.contains("GPU: none"));
    assert!(obj["isa"].is_array() && obj["cpu_paths"]["bitsliced"].is_string(), "{json}");
    let recs = obj["records"].as_array().expect("records");
    assert_eq!(recs.len(), 12);
    for r in recs {
        let r = r.as_object().expect("a record");
        for f in REQUIRED {
            assert!(r.contains_key(f), "record lacks {f}");
        }
        assert_eq!(r["runs"], 2);
        assert_eq!(r["times_ms"].as_array().map(Vec::len), Some(2));
        assert!(["cpu-serial", "cpu"].contains(&r["backend"].as_str().unwrap()), "{r:?}");
        assert!([16, 32, 64].contains(&r["bytes"].as_u64().unwrap()), "{r:?}");
    }

    // SVG: one chart per mode, one path per series (2 backends) in each.
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg "), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<path class=\"series\"").count(), 4, "{svg}");
    assert_eq!(svg.matches("<g class=\"chart\">").count(), 2);
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
    assert!(svg.contains("Throughput (Gb/s") && svg.contains("Data size"));
}

#[test]
fn unusable_backend_is_skipped_visibly() {
    let out = skinny(&[
        "bench",
        "--backends",
        "cpu,gpu,gpu-paper",
        "--sizes",
        "32",
        "--runs",
        "2",
        "--min-run-ms",
        "0.1",
        "--modes",
        "ctr",
    ]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Without a GPU both GPU backends are skipped with one line each (with one
    // they run, and the table shows them instead).
    let gpu_found = !text(&out.stdout).contains("GPU: none");
    if !gpu_found {
        assert_eq!(stderr.lines().filter(|l| l.starts_with("skinny: bench: skipping gpu")).count(), 2, "{stderr}");
        assert!(text(&out.stdout).contains("Skipped gpu:"));
    }
    assert!(text(&out.stdout).contains("CTR encrypt, skinny-128-256: cpu"));
}

#[test]
fn every_backend_unusable_is_an_error() {
    // gpu-paper runs only SKINNY-128-256, so with another variant it cannot run
    // anywhere: the run fails with one line, whatever the machine.
    let out = skinny(&["bench", "-c", "skinny-64-128", "--backends", "gpu-paper", "--sizes", "64", "--runs", "1"]);
    assert!(!out.status.success());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("no requested backend can run here"), "{stderr}");
    assert!(stderr.lines().any(|l| l.starts_with("skinny: bench: skipping gpu-paper")), "{stderr}");
}

#[test]
fn decrypt_and_other_variants() {
    let out = skinny(&[
        "bench",
        "-c",
        "skinny-64-192",
        "--backends",
        "cpu-serial",
        "--sizes",
        "8,24",
        "--runs",
        "1",
        "--min-run-ms",
        "0.1",
        "--modes",
        "ecb",
        "--decrypt",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("ECB encrypt, skinny-64-192: cpu-serial"), "{stdout}");
    assert!(stdout.contains("ECB decrypt, skinny-64-192: cpu-serial"), "{stdout}");
    assert!(stdout.lines().any(|l| l.starts_with("24 B")));
}

#[test]
fn bad_arguments_are_refused_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("chart.png");
    let csv = dir.path().join("r.csv");
    // Names and numbers are refused by clap (its own multi-line message); the rest
    // by the command, in one line.
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--plot".into(), png.display().to_string(), "--csv".into(), csv.display().to_string()], "SVG only"),
        (vec!["--sizes".into(), "8".into()], "whole number of 16-byte blocks"),
        (vec!["--modes".into(), "cbc".into()], "[possible values: ecb, ctr]"),
        (vec!["--backends".into(), "cpu,tpu".into()], "invalid value 'tpu' for '--backends <LIST>'"),
        (vec!["--backends".into(), "auto".into()], "[possible values: cpu-serial, cpu, gpu-paper, gpu]"),
        (vec!["--runs".into(), "0".into()], "--runs"),
        (vec!["-c".into(), "skinny-128-512".into()], "invalid value 'skinny-128-512' for '--cipher <CIPHER>'"),
        (vec!["--json".into(), dir.path().join("no/such/dir/r.json").display().to_string()], "does not exist"),
    ];
    for (args, msg) in cases {
        let mut all = vec!["bench".to_string()];
        if !args.contains(&"--sizes".to_string()) {
            all.extend(["--sizes".to_string(), "16".into()]);
        }
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let out = skinny(&refs);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(msg), "{all:?}: {stderr}");
        if !stderr.starts_with("error: ") {
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
        assert!(out.stdout.is_empty());
    }
    assert!(!Path::new(&png).exists() && !Path::new(&csv).exists());
}

#[test]
fn files_mode_times_file_to_file_beside_a_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_skinny"))
        .args(["bench", "--files", "--sizes", "4K,64K", "--runs", "1", "--backends", "cpu", "-c", "skinny-64-128"])
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}{}", out, text(&o.stderr));
    assert!(out.contains("file to file"), "{out}");
    assert!(out.lines().next().is_some_and(|l| l.starts_with("# CPU: ") && l.contains("; ISA: ")), "{out}");
    let header = out.lines().find(|l| l.contains("copy ms")).expect("a header line");
    assert!(header.contains("cpu ms") && header.contains("auto ms"), "{header}");
    let rows: Vec<&str> = out.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit())).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].trim_start().starts_with("4096") && rows[1].trim_start().starts_with("65536"), "{out}");
    // Its temporary folder is gone afterwards.
    assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    // The file-to-file table writes no --json.
    let o = skinny(&["bench", "--files", "--json", "x.json"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Two CPU runs saved as JSON, read back pooled beside the committed
/// transcription of the paper's tables: Markdown tables and both charts, no
/// measurement.
#[test]
fn from_json_pools_repeats_beside_the_paper() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..2 {
        let json = dir.path().join(format!("r{i}.json"));
        let out = skinny(&[
            "bench",
            "--paper",
            "--backends",
            "cpu-serial,cpu",
            "--sizes",
            "16..32",
            "--runs",
            "2",
            "--min-run-ms",
            "0.2",
            "-q",
            "--json",
            json.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "stderr: {}", text(&out.stderr));
        files.push(json.display().to_string());
    }
    let paper = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/paper-tables.csv");
    let (plot, speedup) = (dir.path().join("t.svg"), dir.path().join("e.svg"));
    let out = skinny(&[
        "bench",
        "--from-json",
        &files.join(","),
        "--paper-tables",
        paper,
        "--plot",
        plot.to_str().unwrap(),
        "--speedup-plot",
        speedup.to_str().unwrap(),
    ]);
    let md = text(&out.stdout);
    assert!(out.status.success(), "stdout: {md}\nstderr: {}", text(&out.stderr));
    assert!(md.contains("### ECB speed-up E: the paper's Table 3 beside ours"), "{md}");
    assert!(md.contains("### CTR efficiency S (%): the paper's Table 4 beside ours"), "{md}");
    // The paper's 16 B ECB row as transcribed, and our cpu-serial pooled: 2 files x 2 runs.
    let row = md.lines().find(|l| l.starts_with("| 16 B | 0.08~ | 0.28~ |")).expect(&md);
    assert!(row.contains(" (4) |"), "{row}");
    // Sizes the run did not measure still show the paper's row.
    assert!(md.lines().any(|l| l.starts_with("| 64 MiB | 93934.64~ | 140? | 667.90~ | - |")), "{md}");
    for p in [&plot, &speedup] {
        let svg = std::fs::read_to_string(p).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    }
    let svg = std::fs::read_to_string(&speedup).unwrap();
    assert!(svg.contains("data-series=\"paper (GTX TITAN X, its Tables 3-4) ecb\""), "{svg}");
    assert!(svg.contains("data-series=\"cpu ctr\""), "{svg}");

    // Measuring options do not mix with it, and a missing file is one line.
    let out = skinny(&["bench", "--from-json", &files[0], "--json", "x.json"]);
    assert!(!out.status.success());
    let out = skinny(&["bench", "--from-json", "/nonexistent/r.json"]);
    assert!(!out.status.success() && text(&out.stderr).contains("cannot read"), "{}", text(&out.stderr));
}
