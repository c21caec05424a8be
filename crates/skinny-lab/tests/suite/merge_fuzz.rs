//! `Findings::merge` fuzzed with mutated genuine reports: numbers pushed to
//! extremes, fields removed, retyped or given twice, shards altered, right
//! pairs edited, strings with terminal escapes, JSON text cut or garbled.
//! Whatever comes in, the merge never panics, and whatever it accepts is
//! consistent: counts within the run, shards each once, `complete` only with
//! every query, right pairs that read back.
//!
//! Per-key reports have their histograms edited too (entries, keys, queries
//! per key): what is accepted must still split the counts it claims.
//!
//! `PROPTEST_CASES` sets the cases of each test (defaults: 60 000, 50 000
//! and 20 000, about 130 000 in all).

use crate::reports;

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use reports::{boomerang, differential, per_key_differential, Reports, VERSION};
use serde_json::{json, Value};
use skinny_lab::Findings;

fn config(default_cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(default_cases);
    Config { cases, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() }
}

const FIELDS: [&str; 28] = [
    "experiment",
    "cipher",
    "rounds",
    "dp",
    "dc",
    "dk",
    "dc_mask",
    "dk1",
    "dk2",
    "queries",
    "queries_total",
    "key_every",
    "seed",
    "shard",
    "shards",
    "complete",
    "interrupted",
    "hits",
    "log2_p",
    "ci95",
    "seconds",
    "rate_per_s",
    "backend",
    "version",
    "threads",
    "show",
    "right",
    "per_key",
];

/// A replacement for `old`, chosen by `pick` (`x`: a random number).
fn replacement(old: &Value, pick: u8, x: u64) -> Option<Value> {
    let n = old.as_u64().unwrap_or(0);
    Some(match pick % 26 {
        0 => json!(0),
        1 => json!(1),
        2 => json!(u64::MAX),
        3 => json!(u64::MAX - 1),
        4 => json!(1u64 << 63),
        5 => json!(n.wrapping_add(1)),
        6 => json!(n.wrapping_sub(1)),
        7 => json!(-1),
        8 => json!(1.5),
        9 => json!(1e308),
        10 => Value::Null,
        11 => json!(true),
        12 => json!("\u{1b}[2J\u{1b}]0;x\u{7}\r\n\u{9b}31m"),
        13 => json!([]),
        14 => json!({}),
        15 => json!(x),
        16 => json!(n.wrapping_mul(3)),
        17 => json!(format!("{}/{}", x % 5, x % 4)),
        18 => json!("ff".repeat((x % 40) as usize)),
        19 => json!([0, 0]),
        20 => json!([0, 1, 2, 3]),
        21 => json!(x % 8),
        22 => return None,
        23 => json!(n.to_string()),
        24 => json!(u32::MAX),
        _ => json!([x % 4, (x >> 8) % 4, (x >> 16) % 4]),
    })
}

/// An edit of a right pair or quartet list.
fn edit_right(right: &mut Value, pick: u8, x: u64) {
    let Some(list) = right.as_array_mut() else { return };
    if list.is_empty() {
        list.push(json!({"query": x, "p": [], "c": [], "k": []}));
        return;
    }
    let i = (x as usize) % list.len();
    match pick % 9 {
        0 => {
            list.pop();
            return;
        }
        1 => {
            let w = list[i].clone();
            list.push(w);
            return;
        }
        2 => {
            list.swap(0, i);
            return;
        }
        _ => {}
    }
    let Some(w) = list[i].as_object_mut() else { return };
    match pick % 9 {
        3 => {
            let q = w.get("query").and_then(Value::as_u64).unwrap_or(0);
            w.insert("query".into(), json!(q.wrapping_add(1 + x % 3)));
        }
        4 => {
            w.insert("query".into(), json!(x % 4000));
        }
        5 | 6 => {
            let field = ["p", "c", "k"][(x % 3) as usize];
            if let Some(vals) = w.get_mut(field).and_then(Value::as_array_mut).filter(|v| !v.is_empty()) {
                let j = (x as usize >> 4) % vals.len();
                let s = vals[j].as_str().unwrap_or("").to_string();
                let at = (x as usize >> 8) % s.len().max(1);
                let flip = |(k, c): (usize, char)| match (k == at, c) {
                    (true, '0') => '1',
                    (true, _) => '0',
                    (false, c) => c,
                };
                let flipped: String = s.chars().enumerate().map(flip).collect();
                vals[j] = json!(if pick % 9 == 5 { flipped } else { format!("{s}00") });
            }
        }
        7 => {
            w.remove(["p", "c", "k", "query"][(x % 4) as usize]);
        }
        _ => {
            w.insert("p".into(), json!(["\u{1b}[31m", "zz"]));
        }
    }
}

/// An edit of a per-key object: an entry's hits or keys, an entry added,
/// removed or moved, the keys or queries per key.
fn edit_per_key(per_key: &mut Value, pick: u8, x: u64) {
    let Some(obj) = per_key.as_object_mut() else { return };
    if pick % 6 >= 4 {
        let field = if pick % 6 == 4 { "keys" } else { "queries_per_key" };
        let old = obj.get(field).cloned().unwrap_or(Value::Null);
        if let Some(v) = replacement(&old, (x >> 40) as u8, x) {
            obj.insert(field.into(), v);
        }
        return;
    }
    let Some(list) = obj.get_mut("histogram").and_then(Value::as_array_mut) else { return };
    if list.is_empty() || pick % 6 == 3 {
        list.push(json!([x % 9, 1 + (x >> 8) % 3]));
        return;
    }
    let i = (x as usize) % list.len();
    match pick % 6 {
        0 => {
            list.remove(i);
        }
        1 => list.swap(0, i),
        _ => {
            let j = (x >> 16) as usize % 2;
            let old = list[i][j].clone();
            list[i][j] = replacement(&old, (x >> 24) as u8, x).unwrap_or(Value::Null);
        }
    }
}

/// One edit of a report: a field replaced or removed, the right pairs or the
/// per-key histogram edited.
fn edit(report: &mut Value, field: u8, pick: u8, x: u64) {
    let name = FIELDS[field as usize % FIELDS.len()];
    if name == "right" && pick.is_multiple_of(2) {
        edit_right(&mut report["right"], pick / 2, x);
        return;
    }
    if name == "per_key" && !pick.is_multiple_of(4) {
        edit_per_key(&mut report["per_key"], pick / 4, x);
        return;
    }
    let Some(obj) = report.as_object_mut() else { return };
    match replacement(obj.get(name).unwrap_or(&Value::Null), pick, x) {
        Some(v) => {
            obj.insert(name.to_string(), v);
        }
        None => {
            obj.remove(name);
        }
    }
}

/// The report as text, perhaps garbled: a field given twice, cut short, a
/// byte changed.
fn text(report: &Value, garble: u8, x: u64) -> String {
    let s = report.to_string();
    match garble % 8 {
        0 => format!("{{\"hits\":{},{}", x % 3, &s[1..]),
        1 => String::from_utf8_lossy(&s.as_bytes()[..(x as usize) % s.len()]).into_owned(),
        2 => {
            let mut b = s.into_bytes();
            let at = (x as usize) % b.len();
            b[at] = b" ,:{}[]\"0a-\\\x1b"[(x >> 32) as usize % 13];
            String::from_utf8_lossy(&b).into_owned()
        }
        _ => s,
    }
}

/// What a merge that was accepted must be.
fn consistent(parts: &[Findings], m: &Findings) {
    let total: u128 = parts.iter().map(|p| u128::from(p.queries)).sum();
    assert_eq!(u128::from(m.queries), total, "queries are the parts' sum");
    assert_eq!(m.hits as u128, parts.iter().map(|p| u128::from(p.hits)).sum::<u128>(), "hits are the parts' sum");
    assert!(
        m.hits <= m.queries && m.queries <= m.queries_total,
        "{} hits {} queries of {}",
        m.hits,
        m.queries,
        m.queries_total
    );
    assert!(m.shards.windows(2).all(|w| w[0] < w[1]), "shards each once, in order");
    let n: u64 = m.shard.split_once('/').and_then(|(_, n)| n.parse().ok()).expect("I/N");
    assert!(m.shards.iter().all(|&s| s < n));
    assert_eq!(m.complete, !m.interrupted && m.shards.len() as u64 == n, "complete means every shard");
    if m.complete {
        assert_eq!(m.queries, m.queries_total, "complete means every query");
    }
    assert!(!m.interrupted || parts.len() == 1, "an interrupted run merges with nothing");
    assert_eq!(m.right.len() as u64, m.hits.min(m.show as u64));
    assert_eq!(m.version, VERSION);
    if let Some(d) = &m.per_key {
        // The histogram splits the counts: its keys the groups, its hits the
        // hits (a stopped run's, the groups it finished: at most those).
        let keys: u128 = d.histogram.iter().map(|e| u128::from(e[1])).sum();
        let hits: u128 = d.histogram.iter().map(|e| u128::from(e[0]) * u128::from(e[1])).sum();
        assert_eq!((d.queries_per_key, d.keys as u128), (m.key_every, keys));
        let (queries, found) = (keys * u128::from(m.key_every), (u128::from(m.queries), u128::from(m.hits)));
        if m.interrupted {
            assert!(queries <= found.0 && hits <= found.1);
        } else {
            assert_eq!((queries, hits), found);
        }
        assert!(d.histogram.windows(2).all(|w| w[0][0] < w[1][0]) && d.histogram.iter().all(|e| e[1] > 0));
    }
    // What the merge wrote reads back and merges again to itself.
    let again = Findings::merge(std::slice::from_ref(m), VERSION).expect("a merge's findings read back");
    assert_eq!((again.queries, again.hits, &again.right), (m.queries, m.hits, &m.right));
    assert_eq!(again.per_key, m.per_key);
}

/// Parts chosen from `r` by `pick`, each edited by the edits aimed at it,
/// merged: never a panic; consistent when accepted.
fn fuzz(r: &Reports, pick: &[u8], edits: &[(u8, u8, u8, u64)], garble: Option<(u8, u8, u64)>) {
    let mut parts: Vec<Value> = pick.iter().map(|&i| r.parts[i as usize % r.parts.len()].clone()).collect();
    for &(at, field, how, x) in edits {
        let k = at as usize % parts.len();
        edit(&mut parts[k], field, how, x);
    }
    let mut texts: Vec<String> = parts.iter().map(Value::to_string).collect();
    if let Some((at, how, x)) = garble {
        let k = at as usize % parts.len();
        texts[k] = text(&parts[k], how, x);
    }
    let Ok(findings) = texts.iter().map(|t| serde_json::from_str::<Findings>(t)).collect::<Result<Vec<_>, _>>() else {
        return;
    };
    let merged = Findings::merge(&findings, VERSION);
    if let Ok(m) = &merged {
        consistent(&findings, m);
    }
    // Unedited disjoint shards always merge.
    let disjoint = {
        let mut seen: Vec<u64> = findings.iter().flat_map(|f| f.shards.clone()).collect();
        seen.sort_unstable();
        seen.windows(2).all(|w| w[0] != w[1])
    };
    if edits.is_empty() && garble.is_none() && disjoint {
        assert!(merged.is_ok(), "{merged:?}");
    }
}

fn edits() -> impl Strategy<Value = Vec<(u8, u8, u8, u64)>> {
    prop::collection::vec(any::<(u8, u8, u8, u64)>(), 0..4)
}

proptest! {
    #![proptest_config(config(60_000))]
    #[test]
    fn mutated_differential_reports(
        pick in prop::collection::vec(0u8..4, 1..5),
        edits in edits(),
        garble in prop::option::weighted(0.2, any::<(u8, u8, u64)>()),
    ) {
        fuzz(differential(), &pick, &edits, garble);
    }
}

proptest! {
    #![proptest_config(config(50_000))]
    #[test]
    fn mutated_boomerang_reports(
        pick in prop::collection::vec(0u8..4, 1..5),
        edits in edits(),
        garble in prop::option::weighted(0.2, any::<(u8, u8, u64)>()),
    ) {
        fuzz(boomerang(), &pick, &edits, garble);
    }
}

proptest! {
    #![proptest_config(config(20_000))]
    #[test]
    fn mutated_per_key_reports(
        pick in prop::collection::vec(0u8..4, 1..5),
        edits in edits(),
        garble in prop::option::weighted(0.2, any::<(u8, u8, u64)>()),
    ) {
        fuzz(per_key_differential(), &pick, &edits, garble);
    }
}
