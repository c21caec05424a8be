//! `skinny lab linear` and `skinny lab differential --cells` end to end: the
//! JSON report's fields, merging shards, and one-line refusals of bad masks
//! and patterns.

use crate::common;

use super::args::{json_of, merge_json};
use common::run;

/// One line on stderr naming `what`, exit 2.
fn refused(args: &[&str], what: &str) {
    let out = run(args, b"");
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(what), "{what}: {err}");
}

/// One round of SKINNY-64-64 from round 2: alpha on cell 10, beta on cells 4
/// and 12, which MixColumns after ShiftRows reads back onto cell 10's S-box
/// alone (the library's tests check such correlations against the LAT; these
/// check the command).
const LINEAR: [&str; 20] = [
    "lab",
    "linear",
    "-c",
    "skinny-64-64",
    "--rounds",
    "1",
    "--start-round",
    "2",
    "--in-mask",
    "0000000000400000",
    "--out-mask",
    "0000200000002000",
    "--queries",
    "6000",
    "--key-every",
    "1",
    "--show",
    "3",
    "--backend",
    "cpu",
];

#[test]
fn the_linear_report_has_both_masks_and_the_correlation() {
    let mut a = LINEAR.to_vec();
    a.push("--json");
    let v = json_of(&a);
    assert_eq!(v["experiment"], "linear");
    assert_eq!((v["in_mask"].as_str(), v["out_mask"].as_str()), (Some("0000000000400000"), Some("0000200000002000")));
    assert_eq!((v["dp"].as_str(), v["dc"].as_str()), (Some(""), Some("")));
    let (hits, queries) = (v["hits"].as_f64().unwrap(), v["queries"].as_f64().unwrap());
    assert!((v["correlation"].as_f64().unwrap() - (2.0 * hits / queries - 1.0)).abs() < 1e-12);
    let right = v["right"].as_array().unwrap();
    assert_eq!(right.len(), 3);
    assert!(right.iter().all(|w| w["p"].as_array().unwrap().len() == 1 && w["k"].as_array().unwrap().len() == 1));
    let out = run(&LINEAR, b"");
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.starts_with("linear skinny-64-64") && table.contains("correlation"), "{table}");
    // Hits of a correlation run are not a probability of anything.
    assert!(!table.contains("log2 p"), "{table}");
}

#[test]
fn linear_shards_merge() {
    let dir = tempfile::tempdir().unwrap();
    let whole = {
        let mut a = LINEAR.to_vec();
        a.push("--json");
        json_of(&a)
    };
    let mut files = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let mut a = LINEAR.to_vec();
        a.extend(["--json", "--shard", &shard]);
        let f = dir.path().join(format!("part{i}.json"));
        std::fs::write(&f, json_of(&a).to_string()).unwrap();
        files.push(f.display().to_string());
    }
    let m = merge_json(&files);
    let merged = json_of(&m);
    assert_eq!(
        (&merged["hits"], &merged["right"], &merged["correlation"]),
        (&whole["hits"], &whole["right"], &whole["correlation"])
    );
    assert_eq!(merged["complete"], true);
}

#[test]
fn bad_masks_are_one_line_and_exit_2() {
    let mut a = LINEAR.to_vec();
    a[9] = "00000000004000";
    refused(&a, "--in-mask must be 8 bytes");
    let mut a = LINEAR.to_vec();
    a[11] = "zz00200000002000";
    refused(&a, "--out-mask: not hex");
    // No output mask at all: clap's line.
    let mut a = LINEAR.to_vec();
    a.drain(10..12);
    refused(&a, "--out-mask");
    // A linear experiment has no --dp.
    let mut a = LINEAR.to_vec();
    a.extend(["--dp", "0000000000000000"]);
    refused(&a, "--dp");
}

/// One round of SKINNY-64-64, cells 0 and 10 active (both land in column 0).
const CELLS: [&str; 14] = [
    "lab",
    "differential",
    "-c",
    "skinny-64-64",
    "--rounds",
    "1",
    "--dp",
    "1000000000100000",
    "--queries",
    "4000",
    "--backend",
    "cpu",
    "--show",
    "2",
];

#[test]
fn a_cell_pattern_alone_compares_no_bits() {
    let mut a = CELLS.to_vec();
    a.extend(["--cells", "0000 x000 x000 0000", "--json"]);
    let v = json_of(&a);
    assert_eq!(v["cells"], "0000x000x0000000");
    assert_eq!((v["dc"].as_str(), v["dc_mask"].as_str()), (Some("0000000000000000"), Some("0000000000000000")));
    let cancel = v["hits"].as_u64().unwrap();
    // Its complement (cells 0 and 12 differ) takes every other query.
    let mut a = CELLS.to_vec();
    a.extend(["--cells", "x000x000x000x000", "--json"]);
    assert_eq!(json_of(&a)["hits"].as_u64().unwrap() + cancel, 4000);
    assert!(cancel > 0 && cancel < 4000);
    // With --dc the bits default to all, as without a pattern: every cell
    // fixed, fewer or as many hits.
    let mut a = CELLS.to_vec();
    a.extend(["--cells", "0000x000x0000000", "--dc", "0000800080000000", "--json"]);
    let v = json_of(&a);
    assert_eq!(v["dc_mask"], "ffffffffffffffff");
    assert!(v["hits"].as_u64().unwrap() <= cancel);
    // Without a pattern the report has no "cells" (as before).
    let mut a = CELLS.to_vec();
    a.extend(["--dc", "0000800080000000", "--json"]);
    assert!(json_of(&a).get("cells").is_none());
}

#[test]
fn bad_patterns_are_one_line_and_exit_2() {
    let mut a = CELLS.to_vec();
    a.extend(["--cells", "0000x000"]);
    refused(&a, "16 cells of 0, x or *, got 8");
    let mut a = CELLS.to_vec();
    a.extend(["--cells", "0000x000y0000000"]);
    refused(&a, "'y' (character 9) is not 0, x or *");
    // Neither --dc nor --cells.
    refused(&CELLS, "--dc");
}
