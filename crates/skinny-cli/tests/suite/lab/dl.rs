//! `skinny lab differential-linear` and `--start-round` / `--tk-at` end to
//! end: the JSON report's fields, merging shards, and one-line refusals.

use crate::common;

use super::args::{json_of, merge_json};
use common::run;

/// One round of SKINNY-64-64 from round 3, cell 0 active, a mask on cell 1
/// (no difference there after one round): every pair has even parity.
const DL: [&str; 18] = [
    "lab",
    "differential-linear",
    "-c",
    "skinny-64-64",
    "--rounds",
    "1",
    "--start-round",
    "3",
    "--dp",
    "3000000000000000",
    "--mask",
    "0f00000000000000",
    "--queries",
    "5000",
    "--key-every",
    "1",
    "--show",
    "2",
];

#[test]
fn the_report_has_the_correlation_and_the_start_round() {
    let mut a = DL.to_vec();
    a.extend(["--json", "--backend", "cpu"]);
    let v = json_of(&a);
    assert_eq!(v["experiment"], "differential-linear");
    assert_eq!(v["start_round"], 3);
    assert_eq!(v["tk_at"], "master");
    assert_eq!(v["mask"], "0f00000000000000");
    assert_eq!(v["dc"], "");
    assert_eq!(v["hits"], 5000);
    assert_eq!(v["correlation"], 1.0);
    assert_eq!(v["correlation_ci95"][1], 1.0);
    assert_eq!(v["right"].as_array().unwrap().len(), 2);
    // The table says the same.
    let out = run(&DL, b"");
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("from round 3") && table.contains("correlation"), "{table}");
}

#[test]
fn shards_merge() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    for i in 0..2 {
        let shard = format!("{i}/2");
        let mut a = DL.to_vec();
        a.extend(["--json", "--tk-at", "start", "--shard", &shard]);
        let v = json_of(&a);
        assert_eq!(v["tk_at"], "start");
        let f = dir.path().join(format!("part{i}.json"));
        std::fs::write(&f, v.to_string()).unwrap();
        files.push(f.display().to_string());
    }
    let m = merge_json(&files);
    let merged = json_of(&m);
    assert_eq!((merged["hits"].as_u64(), merged["complete"].as_bool()), (Some(5000), Some(true)));
    assert_eq!(merged["start_round"], 3);
}

#[test]
fn rounds_past_the_cipher_are_one_line_and_exit_2() {
    let mut a = DL.to_vec();
    a[7] = "32";
    a[5] = "2";
    let out = run(&a, b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("round 32"), "{err}");
    // A mask of the wrong length.
    let mut a = DL.to_vec();
    a[11] = "0f";
    let out = run(&a, b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--mask"));
}
