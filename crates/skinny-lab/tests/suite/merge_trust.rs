//! `Findings::merge` trusts nothing in the reports it is given: each edit a
//! hostile tester made to genuine reports is refused with its own error, and
//! none panics.

use crate::reports;

use reports::{boomerang, differential, findings, VERSION};
use serde_json::{json, Value};
use skinny_lab::{Findings, FindingsError, LabError, MergeError};

/// The merge of `parts`, its error's cause for a part (`Part`'s source).
fn merge(parts: &[Value]) -> Result<Findings, MergeError> {
    Findings::merge(&findings(parts), VERSION)
}

/// The cause of refusing `parts`, which must be refused.
fn refused(parts: &[Value]) -> FindingsError {
    match merge(parts) {
        Err(MergeError::Part { source, .. }) => source,
        other => panic!("not refused as a part: {other:?}"),
    }
}

#[test]
fn genuine_shards_merge_into_the_whole_run() {
    for r in [differential(), boomerang()] {
        let m = merge(&r.parts[..3]).unwrap();
        assert!(m.complete);
        let m = serde_json::to_value(&m).unwrap();
        for key in ["queries", "hits", "right", "log2_p", "ci95", "complete"] {
            assert_eq!(m[key], r.whole[key], "{key}");
        }
        // An earlier merge merges again, and the merge of a merge reads back.
        let again = merge(&[r.parts[3].clone(), r.parts[2].clone()]).unwrap();
        assert_eq!(serde_json::to_value(&again).unwrap()["hits"], r.whole["hits"]);
        assert!(merge(&[serde_json::to_value(&again).unwrap()]).is_ok());
    }
}

#[test]
fn more_hits_than_queries_is_refused_not_a_panic() {
    let mut p = differential().parts[0].clone();
    p["hits"] = json!(p["queries"].as_u64().unwrap() + 1);
    assert!(matches!(refused(&[p]), FindingsError::Hits { .. }));
}

#[test]
fn counts_that_would_wrap_are_refused() {
    let r = differential();
    let (mut a, mut b) = (r.parts[0].clone(), r.parts[1].clone());
    a["queries"] = json!(u64::MAX);
    a["hits"] = json!(0);
    a["right"] = json!([]);
    b["queries"] = json!(32768);
    assert!(matches!(refused(&[a.clone(), b]), FindingsError::Share { .. }));
    // Even with the run's total raised to match the claim.
    a["queries_total"] = json!(u64::MAX);
    assert!(merge(&[a, r.parts[1].clone()]).is_err());
}

#[test]
fn a_shard_twice_within_or_across_reports_is_refused() {
    let r = differential();
    let mut p = r.parts[0].clone();
    p["shards"] = json!([0, 0]);
    assert!(matches!(refused(&[p]), FindingsError::DuplicateShard { index: 0 }));
    // Shard 0 in the merge of 0 and 1, and on its own.
    assert!(matches!(refused(&[r.parts[3].clone(), r.parts[0].clone()]), FindingsError::Lab(LabError::Merge(_))));
}

#[test]
fn a_shard_claiming_more_than_its_share_is_refused() {
    let r = differential();
    // Shard 0's file edited to claim every shard (and then some).
    let mut p = r.parts[0].clone();
    p["shards"] = json!([0, 1, 2]);
    p["complete"] = json!(true);
    assert!(matches!(refused(&[p.clone()]), FindingsError::Share { .. }));
    p["shards"] = json!([0, 1, 2, 3]);
    assert!(matches!(refused(&[p]), FindingsError::Lab(LabError::Shard { .. })));
    // Three times its queries.
    let mut p = r.parts[1].clone();
    p["queries"] = json!(3 * p["queries"].as_u64().unwrap());
    assert!(matches!(refused(&[r.parts[0].clone(), p]), FindingsError::Share { .. }));
    // `complete` claimed by a part that is not.
    let mut p = r.parts[1].clone();
    p["complete"] = json!(true);
    assert!(matches!(refused(&[p]), FindingsError::Complete { claimed: true }));
}

#[test]
fn parameters_are_checked_as_a_run_checks_them() {
    let r = differential();
    let edits: [(&str, Value); 6] = [
        ("rounds", json!(999)),
        ("key_every", json!(0)),
        ("show", json!(1 << 20)),
        ("dp", json!("10")),
        ("dk", json!("zz")),
        ("cipher", json!("skinny-64-\u{1b}[2J")),
    ];
    for (field, value) in edits {
        let mut p = r.parts[0].clone();
        p[field] = value;
        let e = merge(&[p]);
        assert!(
            matches!(
                e,
                Err(MergeError::NotHex(_))
                    | Err(MergeError::Part { source: FindingsError::Lab(_) | FindingsError::UnknownCipher(_), .. })
            ),
            "{field}: {e:?}"
        );
    }
    let mut p = r.parts[0].clone();
    p["dk1"] = json!("00");
    assert!(matches!(refused(&[p]), FindingsError::Field { field: "dk1", .. }));
    let mut p = r.parts[0].clone();
    p["backend"] = json!("cpu\u{1b}[31m");
    assert!(matches!(refused(&[p]), FindingsError::Backend(_)));
    let mut p = r.parts[0].clone();
    p["seconds"] = json!(-1.0);
    assert!(matches!(refused(&[p]), FindingsError::Seconds));
}

#[test]
fn right_pairs_must_be_the_first_hits_of_their_shard_and_true() {
    let r = differential();
    let p = &r.parts[1];
    // A right pair moved outside shard 1 (into shard 0's queries).
    let mut q = p.clone();
    q["right"][0]["query"] = json!(0);
    assert!(matches!(refused(&[q]), FindingsError::RightOutside { query: 0 } | FindingsError::RightOrder));
    let mut q = p.clone();
    let last = q["right"].as_array().unwrap().len() - 1;
    q["right"][last]["query"] = json!(2999);
    assert!(matches!(refused(&[q]), FindingsError::RightOutside { query: 2999 }));
    // A pair edited: its ciphertext, its key, its query (still in the shard).
    for (field, at) in [("c", 1), ("k", 0), ("p", 1)] {
        let mut q = p.clone();
        let v = q["right"][0][field][at].as_str().unwrap().to_string();
        let flipped = if v.starts_with('0') { v.replacen('0', "1", 1) } else { format!("0{}", &v[1..]) };
        q["right"][0][field][at] = json!(flipped);
        assert!(matches!(refused(&[q]), FindingsError::RightFalse { .. }), "{field}");
    }
    let mut q = p.clone();
    let at = q["right"][0]["query"].as_u64().unwrap();
    q["right"][0]["query"] = json!(at + 1);
    assert!(matches!(refused(&[q]), FindingsError::RightFalse { .. } | FindingsError::RightOrder));
    // One dropped, one twice.
    let mut q = p.clone();
    q["right"].as_array_mut().unwrap().pop();
    assert!(matches!(refused(&[q]), FindingsError::RightCount { .. }));
    let mut q = p.clone();
    let first = q["right"][0].clone();
    q["right"].as_array_mut().unwrap()[1] = first;
    assert!(matches!(refused(&[q]), FindingsError::RightOrder));
    // A boomerang's quartet edited.
    let mut q = boomerang().parts[0].clone();
    q["right"][2]["p"][3] = json!("0000000000000001");
    assert!(matches!(refused(&[q]), FindingsError::RightFalse { .. }));
}

#[test]
fn an_interrupted_run_stands_alone_only_and_within_its_share() {
    let r = differential();
    let mut p = r.parts[0].clone();
    p["interrupted"] = json!(true);
    p["complete"] = json!(false);
    let alone = merge(std::slice::from_ref(&p)).unwrap();
    assert!(alone.interrupted && !alone.complete);
    assert!(matches!(refused(&[p.clone(), r.parts[1].clone()]), FindingsError::Lab(LabError::Merge(_))));
    p["queries"] = json!(p["queries"].as_u64().unwrap() + 1);
    assert!(matches!(refused(&[p]), FindingsError::Share { .. }));
}
