//! `skinny lab ... --per-key` end to end, for each experiment: the JSON
//! report's `per_key` object, the table's summary, shards merged into the
//! whole run's histogram, and a one-line refusal of queries that are not
//! whole key groups.

use crate::common;

use super::args::{json_of, merge_json};
use common::run;
use serde_json::Value;

/// Two rounds of SKINNY-64-64, 40 keys of 300 queries each, per experiment.
fn args(experiment: &str) -> Vec<&str> {
    let mut a = vec!["lab", experiment, "-c", "skinny-64-64", "--dp", "1000000000000000"];
    a.extend(match experiment {
        "differential" => ["--rounds", "2", "--dc", "0000000100000000", "--dc-mask", "0000000f00000000"],
        "boomerang" => ["--rounds", "1", "--dc", "8000000000000000", "--dk1", "0000000000000000"],
        _ => ["--rounds", "2", "--mask", "0000000c00000000", "--dk", "0000000000000000"],
    });
    a.extend(["--queries", "12000", "--key-every", "300", "--seed", "5", "--backend", "cpu", "--per-key"]);
    a
}

#[test]
fn every_experiment_reports_its_keys() {
    for e in ["differential", "boomerang", "differential-linear"] {
        let mut a = args(e);
        a.push("--json");
        let v = json_of(&a);
        let pk = &v["per_key"];
        assert_eq!((pk["keys"].as_u64(), pk["queries_per_key"].as_u64()), (Some(40), Some(300)), "{e}");
        let hist = pk["histogram"].as_array().unwrap();
        let keys: u64 = hist.iter().map(|p| p[1].as_u64().unwrap()).sum();
        let hits: u64 = hist.iter().map(|p| p[0].as_u64().unwrap() * p[1].as_u64().unwrap()).sum();
        assert_eq!((keys, Some(hits)), (40, v["hits"].as_u64()), "{e}");
        for field in ["zero_hit_share", "zero_hit_expected", "mean_hits", "variance_hits", "dispersion_df"] {
            assert!(pk[field].is_number(), "{e}: {field}");
        }
        assert_eq!(pk["mean_correlation"].is_number(), e == "differential-linear", "{e}");
        // The table's summary.
        let out = run(&args(e), b"");
        assert!(out.status.success());
        let table = String::from_utf8(out.stdout).unwrap();
        assert!(table.contains("per key     40 keys of 300 queries") && table.contains("dispersion  "), "{table}");
        assert_eq!(table.contains("per-key c"), e == "differential-linear", "{table}");
    }
    // Without the flag, no per_key at all.
    let mut a: Vec<&str> = args("differential").into_iter().filter(|&x| x != "--per-key").collect();
    a.push("--json");
    assert!(json_of(&a).get("per_key").is_none());
}

#[test]
fn shards_merge_into_the_whole_histogram() {
    let dir = tempfile::tempdir().unwrap();
    let mut whole = args("differential");
    whole.push("--json");
    let whole = json_of(&whole);
    let mut files = Vec::new();
    for i in 0..3 {
        let shard = format!("{i}/3");
        let mut a = args("differential");
        a.extend(["--json", "--shard", &shard]);
        let f = dir.path().join(format!("part-{i}.json"));
        std::fs::write(&f, json_of(&a).to_string()).unwrap();
        files.push(f.display().to_string());
    }
    let m = merge_json(&files);
    let merged = json_of(&m);
    assert_eq!(merged["per_key"], whole["per_key"]);
    // A forged histogram is refused, in one line, naming the part.
    let mut forged: Value = serde_json::from_str(&std::fs::read_to_string(&files[1]).unwrap()).unwrap();
    forged["per_key"]["histogram"][0][1] = Value::from(forged["per_key"]["histogram"][0][1].as_u64().unwrap() + 1);
    std::fs::write(&files[1], forged.to_string()).unwrap();
    let out = run(&m, b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("per-key") && err.contains("part-1.json"), "{err}");
}

#[test]
fn queries_that_are_not_whole_key_groups_are_refused() {
    let a: Vec<&str> = args("boomerang").into_iter().map(|x| if x == "12000" { "12001" } else { x }).collect();
    let out = run(&a, b"");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("whole key groups") && err.contains("12001"), "{err}");
}
