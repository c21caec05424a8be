//! The lab against published SKINNY experiments: the boomerang probabilities
//! that Hadipour, Bagheri and Song measured for their related-tweakey
//! distinguishers (ToSC 2021(2), repository hadipourh/Boomerang), two
//! differential probabilities they computed (MILP) for the same distinguishers,
//! and the right quartets they published. The data, with its sources, is in
//! `tests/data/published.txt`; docs/lab-validation.md explains the mapping and
//! gives the long runs.
//!
//! Entries marked `ci = always` run here; those that need too many queries for
//! a test run (`ci = slow`) run with
//! `cargo test -p skinny-lab --release --test published -- --ignored`.
//! With the feature `cuda` and a GPU, every entry also runs on the GPU with
//! the published experiment's own query count and key schedule (ignored
//! where no GPU is found, failing then under `SKINNY_REQUIRE_GPU=1`: this
//! file runs on `skinny_test_support::gpu`'s harness).

mod support;

use std::collections::BTreeMap;

use skinny::{Skinny, Variant};
use skinny_lab::{stats, Boomerang, Common, Differential};

/// A generous level: a failure means a wrong count, not bad luck.
const ALPHA: f64 = 1e-6;

/// One `[kind name]` block of the data file.
struct Entry {
    kind: String,
    name: String,
    fields: BTreeMap<String, String>,
}

impl Entry {
    fn get(&self, key: &str) -> &str {
        self.fields.get(key).unwrap_or_else(|| panic!("{}: no {key}", self.name))
    }

    fn hex(&self, key: &str) -> Vec<u8> {
        let s = self.get(key);
        assert!(s.len().is_multiple_of(2), "{}: odd hex {key}", self.name);
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    fn variant(&self) -> Variant {
        self.get("cipher").parse().unwrap()
    }

    fn rounds(&self) -> usize {
        self.get("rounds").parse().unwrap()
    }

    fn count(&self, key: &str) -> u64 {
        parse_count(self.get(key))
    }
}

/// `123`, `2^31` or a product of those (`100*2^30`).
fn parse_count(s: &str) -> u64 {
    s.split('*')
        .map(|f| match f.trim().split_once('^') {
            Some((b, e)) => b.parse::<u64>().unwrap().pow(e.parse().unwrap()),
            None => f.trim().parse::<u64>().unwrap(),
        })
        .product()
}

fn entries() -> Vec<Entry> {
    let text = include_str!("data/published.txt");
    let mut out: Vec<Entry> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        if let Some(head) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (kind, name) = head.split_once(' ').unwrap_or_else(|| panic!("line {}: [kind name]", n + 1));
            out.push(Entry { kind: kind.to_string(), name: name.to_string(), fields: BTreeMap::new() });
            continue;
        }
        let (k, v) = line.split_once('=').unwrap_or_else(|| panic!("line {}: key = value", n + 1));
        let e = out.last_mut().unwrap_or_else(|| panic!("line {}: outside a block", n + 1));
        assert!(e.fields.insert(k.trim().to_string(), v.trim().to_string()).is_none(), "line {}: twice", n + 1);
    }
    out
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

fn common(e: &Entry) -> Common {
    let mut common = Common::new(e.variant(), e.rounds(), e.count("test_queries"));
    common.key_every = e.count("test_key_every");
    common.seed = 2021;
    common
}

/// Runs one published boomerang or differential; returns (hits, queries).
fn run(e: &Entry) -> (u64, u64) {
    if e.kind == "differential" {
        let mut d = Differential::new(common(e), e.hex("dp"), e.hex("dc"));
        d.dk = e.hex("dk");
        let r = d.run().unwrap();
        (r.hits, r.queries)
    } else {
        let mut b = Boomerang::new(common(e), e.hex("dp"), e.hex("dc"));
        b.dk1 = e.hex("dk1");
        b.dk2 = e.hex("dk2");
        let r = b.run().unwrap();
        (r.hits, r.queries)
    }
}

/// Runs one published boomerang or differential and checks that the published
/// probability lies in our 1 - 10^-6 interval.
fn check_probability(e: &Entry) {
    let published = e.get("published_log2_p").parse::<f64>().unwrap();
    // The run must be long enough that a cipher which never hits would fail:
    // otherwise the check would prove nothing.
    let none = stats::estimate_at(0, e.count("test_queries"), ALPHA);
    assert!(none.log2_upper < published, "{}: too few test queries", e.name);
    let (hits, queries) = run(e);
    let est = stats::estimate_at(hits, queries, ALPHA);
    let lower = est.log2_lower.unwrap_or(f64::NEG_INFINITY);
    eprintln!(
        "{}: {} of {} queries, log2 p {:.3}, 1-1e-6 interval [{lower:.3}, {:.3}], published {published}",
        e.name,
        hits,
        queries,
        est.log2_p.unwrap_or(f64::NEG_INFINITY),
        est.log2_upper
    );
    assert!(lower <= published && published <= est.log2_upper, "{}: published 2^{published} outside", e.name);
}

fn probability_entries(ci: &str) -> Vec<Entry> {
    entries().into_iter().filter(|e| e.kind != "quartet" && e.get("ci") == ci).collect()
}

fn the_data_file_is_consistent() {
    let all = entries();
    let counted = all.iter().filter(|e| e.kind == "boomerang" && e.fields.contains_key("published_hits"));
    assert!(counted.count() >= 2);
    assert!(all.iter().any(|e| e.kind == "differential"));
    assert!(all.iter().filter(|e| e.kind == "quartet").count() >= 10);
    let mut names = std::collections::BTreeSet::new();
    for e in &all {
        assert!(names.insert(e.name.clone()), "{} twice", e.name);
        assert!(matches!(e.kind.as_str(), "boomerang" | "differential" | "quartet"), "{}: kind {}", e.name, e.kind);
        assert!(!e.get("source").is_empty());
        let v = e.variant();
        assert!(e.rounds() >= 1 && e.rounds() <= v.rounds());
        for k in ["dp", "dc"] {
            assert_eq!(e.hex(k).len(), v.block_bytes(), "{} {k}", e.name);
        }
        let keys: &[&str] = if e.kind == "differential" { &["dk"] } else { &["dk1", "dk2"] };
        for &k in keys {
            assert_eq!(e.hex(k).len(), v.tweakey_bytes(), "{} {k}", e.name);
        }
        if e.kind != "quartet" {
            let p = e.get("published_log2_p").parse::<f64>().unwrap();
            assert!(p < 0.0);
            // Where the counts are known, the published log2 p is theirs, to its
            // 4 decimals.
            if e.fields.contains_key("published_hits") {
                let (h, q) = (e.count("published_hits"), e.count("published_queries"));
                assert!(((h as f64 / q as f64).log2() - p).abs() < 1e-4, "{}: {h}/{q} vs 2^{p}", e.name);
            }
            assert!(matches!(e.get("ci"), "always" | "slow"));
            assert!(e.count("test_key_every") >= 1 && e.count("test_queries") >= 1);
        }
    }
    assert!(!probability_entries("always").is_empty(), "one cheap entry at least");
    assert_eq!(parse_count("100*2^30"), 100 << 30);
}

fn published_right_quartets_hold() {
    let mut n = 0;
    for e in entries().iter().filter(|e| e.kind == "quartet") {
        let (v, r) = (e.variant(), e.rounds());
        let (dp, dc, dk1, dk2) = (e.hex("dp"), e.hex("dc"), e.hex("dk1"), e.hex("dk2"));
        let p: Vec<Vec<u8>> = (1..=4).map(|i| e.hex(&format!("p{i}"))).collect();
        let c: Vec<Vec<u8>> = (1..=4).map(|i| e.hex(&format!("c{i}"))).collect();
        let k: Vec<Vec<u8>> = (1..=4).map(|i| e.hex(&format!("k{i}"))).collect();
        let name = &e.name;
        // The boomerang's shape: the keys, the pairs and the ciphertext shifts.
        assert_eq!(xor(&k[0], &k[1]), dk1, "{name}: k2 = k1 ^ dk1");
        assert_eq!(xor(&k[0], &k[2]), dk2, "{name}: k3 = k1 ^ dk2");
        assert_eq!(xor(&k[1], &k[3]), dk2, "{name}: k4 = k2 ^ dk2");
        assert_eq!(xor(&p[0], &p[1]), dp, "{name}: p2 = p1 ^ dp");
        assert_eq!(xor(&c[0], &c[2]), dc, "{name}: c3 = c1 ^ dc");
        assert_eq!(xor(&c[1], &c[3]), dc, "{name}: c4 = c2 ^ dc");
        // Our reduced-round cipher: each pi encrypts to ci under ki, and back.
        for i in 0..4 {
            let cipher = Skinny::with_rounds(v, &k[i], r).unwrap();
            let mut b = p[i].clone();
            cipher.encrypt_block(&mut b);
            assert_eq!(b, c[i], "{name}: E_k{}(p{}) with {r} rounds", i + 1, i + 1);
            cipher.decrypt_block(&mut b);
            assert_eq!(b, p[i], "{name}: D_k{}(c{})", i + 1, i + 1);
        }
        // So the quartet returns: D_k3(c1 ^ dc) ^ D_k4(c2 ^ dc) = dp.
        assert_eq!(xor(&p[2], &p[3]), dp, "{name}: p4 = p3 ^ dp");
        n += 1;
    }
    assert_eq!(n, 14);
}

fn published_probabilities_cheap() {
    for e in probability_entries("always") {
        check_probability(&e);
    }
}

// Ignored (`slow` below): 2^25 to 2^32 queries each, minutes in a release build.
fn published_probabilities_slow() {
    for e in probability_entries("slow") {
        check_probability(&e);
    }
}

/// Every published probability on the GPU, at the published experiment's
/// size (its queries and keys), against the published figure.
#[cfg(feature = "cuda")]
fn published_probabilities_at_full_size_on_the_gpu() {
    let g = support::gpu();
    let control = skinny_lab::Control::new();
    for e in entries().into_iter().filter(|e| e.kind != "quartet") {
        let mut c = common(&e);
        if e.fields.contains_key("published_queries") {
            c.queries = e.count("published_queries");
        }
        let (hits, queries, seconds) = if e.kind == "differential" {
            let mut d = Differential::new(c, e.hex("dp"), e.hex("dc"));
            d.dk = e.hex("dk");
            let r = d.run_gpu(&g, &control).unwrap();
            (r.hits, r.queries, r.seconds)
        } else {
            let mut b = Boomerang::new(c, e.hex("dp"), e.hex("dc"));
            b.dk1 = e.hex("dk1");
            b.dk2 = e.hex("dk2");
            let r = b.run_gpu(&g, &control).unwrap();
            (r.hits, r.queries, r.seconds)
        };
        let published = e.get("published_log2_p").parse::<f64>().unwrap();
        let est = stats::estimate_at(hits, queries, ALPHA);
        let lower = est.log2_lower.unwrap_or(f64::NEG_INFINITY);
        eprintln!(
            "published on the GPU: {}: {hits} of {queries} queries in {seconds:.2} s, log2 p {:.3}, \
             1-1e-6 interval [{lower:.3}, {:.3}], published {published}",
            e.name,
            est.log2_p.unwrap_or(f64::NEG_INFINITY),
            est.log2_upper
        );
        assert!(lower <= published && published <= est.log2_upper, "{}: published 2^{published} outside", e.name);
    }
}

#[cfg(feature = "cuda")]
skinny_test_support::gpu_test_main! {
    probe: skinny_cuda::Gpu::first,
    gpu: [published_probabilities_at_full_size_on_the_gpu],
    anywhere: [the_data_file_is_consistent, published_right_quartets_hold, published_probabilities_cheap],
    slow: [published_probabilities_slow],
}

#[cfg(not(feature = "cuda"))]
skinny_test_support::gpu_test_main! {
    probe: || Err::<(), _>("built without the `cuda` feature"),
    gpu: [],
    anywhere: [the_data_file_is_consistent, published_right_quartets_hold, published_probabilities_cheap],
    slow: [published_probabilities_slow],
}
