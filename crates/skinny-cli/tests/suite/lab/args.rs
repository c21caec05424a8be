//! What the `skinny lab` tests share: the one-cell differential most of them
//! run, the one JSON report of a run, and the `lab merge` command line.

use crate::common::run;
use serde_json::Value;

/// A 2-round SKINNY-64-128 differential masked to one cell, without
/// `--queries`: hits about 1/16 of the time, so there are counts and right
/// pairs to compare.
pub const ONE_CELL_DIFFERENTIAL: [&str; 12] = [
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
];

/// The report of `skinny ARGS`, which must succeed and print one JSON object
/// on one line.
pub fn json_of(args: &[&str]) -> Value {
    let out = run(args, b"");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "one JSON object on one line");
    serde_json::from_str(&text).unwrap()
}

/// Owned arguments borrowed, as [`run`] and [`json_of`] take them.
pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// `skinny lab merge --json FILES...`.
pub fn merge_json(files: &[String]) -> Vec<&str> {
    let mut m = vec!["lab", "merge", "--json"];
    m.extend(files.iter().map(String::as_str));
    m
}
