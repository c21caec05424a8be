//! `--backend gpu` end to end: on a GPU, sealed files that the CPU opens
//! (and the other way round) and `skinny lab` counts equal to the CPU's;
//! without one, one error line, exit 1, nothing written.
//!
//! Runs on `skinny_test_support::gpu`'s harness, which looks for a GPU (the
//! `gpu` backend of skinny-bulk, what `--backend gpu` opens): the GPU tests
//! are ignored where none is found (failing instead under
//! `SKINNY_REQUIRE_GPU=1`), and the test of the error line is ignored where
//! one is.

mod common;

use common::{assert_ok, bytes, listing, run, run_in, stderr};
use serde_json::Value;
use skinny_bulk::backend::{self, BackendChoice, Options};
use std::path::Path;
use std::process::Output;

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
/// The header of a version-2 file with one key stanza (what `seal -K` writes).
const HEADER: usize = 31 + 3 + 64 + 32;

/// A 2-round SKINNY-64-128 differential masked to one cell (as in lab.rs):
/// counts and right pairs to compare.
const DIFF: [&str; 16] = [
    "lab",
    "differential",
    "--cipher",
    "skinny-64-128",
    "--rounds",
    "2",
    "--dp",
    "1000000000000000",
    "--dc",
    "0000000001000000",
    "--dc-mask",
    "000000000f000000",
    "--queries",
    "30000",
    "--key-every",
    "7",
];

/// The one error line of a failed command with exit status `code`.
fn one_line(o: &Output, code: i32, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{what}: {e}");
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: "), "{what}: {e}");
    assert!(!e.contains("panicked"), "{what}: {e}");
    e
}

/// `skinny lab` with `DIFF` and `extra`, its JSON report (or the failed run).
fn lab(extra: &[&str]) -> Output {
    let args: Vec<&str> = DIFF.iter().copied().chain(["--show", "4", "--json"]).chain(extra.iter().copied()).collect();
    run(&args, b"")
}

fn json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_slice(&o.stdout).unwrap()
}

/// Seals on the GPU with 16K chunks; the CPU opens the file, and the GPU
/// opens the CPU's file and refuses a flipped byte.
fn gpu_backend_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let plain = bytes(78, 300_000);
    std::fs::write(dir.path().join("in"), &plain).unwrap();
    let o = run_in(Some(dir.path()), &["seal", "-K", KEY, "-b", "gpu", "--chunk-size", "16K", "in", "-o", "g"], b"");
    assert_ok(&o, "seal on the GPU");
    let o = run_in(Some(dir.path()), &["open", "-K", KEY, "-b", "cpu", "g"], b"");
    assert_ok(&o, "CPU open of the GPU file");
    assert_eq!(o.stdout, plain);
    let o = run(&["seal", "-K", KEY, "-q", "-b", "cpu", "--chunk-size", "64K"], &plain);
    assert_ok(&o, "seal on the CPU");
    let cpu_file = o.stdout;
    std::fs::write(dir.path().join("c"), &cpu_file).unwrap();
    let o = run_in(Some(dir.path()), &["open", "-K", KEY, "-b", "gpu", "-v", "c"], b"");
    assert_ok(&o, "GPU open of the CPU file");
    assert_eq!(o.stdout, plain);
    assert!(stderr(&o).contains("on GPU"), "{}", stderr(&o));
    let mut bad = cpu_file.clone();
    bad[HEADER + 70_000] ^= 1; // chunk 1
    let e = open_must_fail_on(dir.path(), &bad, &["-b", "gpu"], "flipped byte on the GPU");
    assert!(e.contains("authentication failed") && e.contains("chunk 2"), "{e}");
}

/// `skinny lab --backend gpu` counts the same hits and right pairs as the CPU.
fn lab_on_the_gpu_counts_what_the_cpu_counts() {
    let cpu = json(&lab(&["--backend", "cpu"]));
    let gpu = json(&lab(&["--backend", "gpu"]));
    assert_eq!(gpu["backend"], "gpu");
    assert_eq!((&gpu["hits"], &gpu["right"]), (&cpu["hits"], &cpu["right"]));
}

/// Without a GPU, `--backend gpu` is one line and exit 1, with nothing
/// written: for `seal` (no file) and for `lab` (nothing on stdout).
fn without_a_gpu_the_gpu_backend_says_why_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(78, 300_000)).unwrap();
    let o = run_in(Some(dir.path()), &["seal", "-K", KEY, "-b", "gpu", "--chunk-size", "16K", "in", "-o", "g"], b"");
    let e = one_line(&o, 1, "gpu without a GPU");
    assert!(e.starts_with("skinny: --backend gpu: "), "{e}");
    assert_eq!(listing(dir.path()), ["in"]);

    let out = lab(&["--backend", "gpu"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--backend gpu"), "{err}");
}

/// Opens `sealed` (written to `dir/bad`) with extra options: one line, exit
/// 1, the folder unchanged.
fn open_must_fail_on(dir: &Path, sealed: &[u8], extra: &[&str], what: &str) -> String {
    std::fs::write(dir.join("bad"), sealed).unwrap();
    let before = listing(dir);
    let mut args = vec!["open", "-K", KEY, "-q", "bad", "-o", "out"];
    args.extend_from_slice(extra);
    let o = run_in(Some(dir), &args, b"");
    let e = one_line(&o, 1, what);
    assert_eq!(listing(dir), before, "{what}: files changed");
    e
}

skinny_test_support::gpu_test_main! {
    probe: || backend::open(BackendChoice::Gpu, &Options::default()),
    gpu: [gpu_backend_round_trips, lab_on_the_gpu_counts_what_the_cpu_counts],
    without_gpu: [without_a_gpu_the_gpu_backend_says_why_in_one_line],
}
