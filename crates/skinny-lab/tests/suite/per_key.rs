//! Per-key counts: every key group's hits must equal a query-by-query
//! recomputation with the specification code (`pair_at`, `quartet_at`) on
//! both CPU paths (batches across small key groups; a cipher per group, from
//! round 1 and from later rounds), for every experiment; the histograms of
//! merged shards must equal the unsharded run's, through findings too; runs
//! that are not whole key groups are refused.

use crate::support;
use support::Rng;

use skinny::Variant;
use skinny_lab::{
    Boomerang, Common, Control, Differential, DifferentialLinear, Experiment, Findings, KeyHistogram, LabError,
    Outcome, Placement, Rig, Shard, Threads, Witness,
};

fn common(v: Variant, start: usize, rounds: usize, key_every: u64, groups: u64, seed: u64) -> Common {
    let mut c = Common::new(v, rounds, key_every * groups);
    c.start_round = start;
    c.key_every = key_every;
    c.seed = seed;
    c.show = 3;
    c.per_key = true;
    c
}

/// The histogram of the shard's groups, each query recomputed by `hit`.
fn by_hand(c: &Common, hit: impl Fn(u64) -> bool) -> KeyHistogram {
    let groups = c.shard.groups(c.groups());
    let mut pairs = std::collections::BTreeMap::<u64, u64>::new();
    for g in groups {
        let hits = c.group_queries(g).filter(|&q| hit(q)).count() as u64;
        *pairs.entry(hits).or_default() += 1;
    }
    let pairs: Vec<[u64; 2]> = pairs.into_iter().map(|(h, k)| [h, k]).collect();
    KeyHistogram::from_pairs(c.key_every, &pairs).expect("a valid histogram")
}

fn check<W: Witness>(what: &str, o: &Outcome<W>, want: &KeyHistogram) {
    let h = o.per_key.as_ref().unwrap_or_else(|| panic!("{what}: no per-key counts"));
    assert_eq!(h, want, "{what}");
    assert_eq!(h.hits(), Some(o.hits), "{what}: hits");
    assert_eq!(h.keys(), Some(o.common.shard.groups(o.common.groups()).count() as u64), "{what}: keys");
}

/// (start round, rounds, key every, groups): key groups under 256 from round
/// 1 (batches across groups, two batches or more), under 256 from round 6 (a
/// cipher per group), 256 and more (bitsliced per group, groups of several
/// batches).
const SHAPES: [(usize, usize, u64, u64); 5] =
    [(1, 2, 1, 500), (1, 3, 3, 1500), (1, 2, 17, 300), (6, 2, 5, 200), (1, 2, 5000, 2)];

#[test]
fn differential_counts_per_key_are_the_specifications() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for v in [Variant::Skinny64_64, Variant::Skinny128_256] {
        for (start, rounds, key_every, groups) in SHAPES {
            let c = common(v, start, rounds, key_every, groups, rng.next());
            let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
            let mut e = Differential::new(c, rng.sparse(bb, 1), vec![0; bb]);
            e.dk = rng.sparse(tk, 1);
            // Two compared bits: about a quarter of the pairs hit.
            e.dc_mask = rng.sparse(bb, 2);
            let o = e.run().expect("runs");
            let want = by_hand(&e.common, |q| e.pair_at(q).is_some());
            check(&format!("{v} differential {start}+{rounds}, key every {key_every}"), &o, &want);
        }
    }
}

#[test]
fn differential_linear_counts_per_key_are_the_specifications() {
    let mut rng = Rng(0x0bad_cafe_1234_5678);
    for (start, rounds, key_every, groups) in SHAPES {
        let v = Variant::Skinny64_128;
        let c = common(v, start, rounds, key_every, groups, rng.next());
        let mut e = DifferentialLinear::new(c, rng.sparse(8, 1), rng.sparse(8, 2));
        e.dk = rng.sparse(16, 1);
        let o = e.run().expect("runs");
        let want = by_hand(&e.common, |q| e.pair_at(q).is_some());
        check(&format!("differential-linear {start}+{rounds}, key every {key_every}"), &o, &want);
    }
}

#[test]
fn boomerang_counts_per_key_are_the_specifications() {
    let mut rng = Rng(0x1357_9bdf_2468_ace0);
    for (start, rounds, key_every, groups) in SHAPES {
        let v = Variant::Skinny64_192;
        // One round returns often (the S-box's BCT); two rounds sometimes.
        let rounds = rounds.min(2) - usize::from(key_every == 3);
        let c = common(v, start, rounds, key_every, groups, rng.next());
        let mut e = Boomerang::new(c, rng.sparse(8, 1), rng.sparse(8, 1));
        e.dk1 = rng.sparse(24, 1);
        e.dk2 = rng.sparse(24, 1);
        let o = e.run().expect("runs");
        let want = by_hand(&e.common, |q| e.quartet_at(q).is_some());
        check(&format!("boomerang {start}+{rounds}, key every {key_every}"), &o, &want);
    }
}

fn experiments(shard: Shard) -> Vec<Experiment> {
    let v = Variant::Skinny64_64;
    let mut out: Vec<Experiment> = Vec::new();
    for (key_every, groups) in [(7u64, 900u64), (300, 31)] {
        let mut c = common(v, 1, 2, key_every, groups, 11 + key_every);
        c.shard = shard;
        let mut d = Differential::new(c.clone(), vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 1, 0, 0, 0]);
        d.dc_mask = vec![0, 0, 0, 0, 0x0f, 0, 0, 0];
        out.push(d.into());
        out.push(
            DifferentialLinear::new(c.clone(), vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 0x0c, 0, 0, 0]).into(),
        );
        c.rounds = 1;
        out.push(Boomerang::new(c, vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0x80, 0, 0, 0, 0, 0, 0, 0]).into());
    }
    out
}

fn findings(exp: &Experiment) -> Findings {
    let rig = Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(2)) }, exp.common()).expect("a pool");
    rig.run(exp, &Control::new(), "test").expect("runs")
}

#[test]
fn merged_shards_give_the_whole_runs_histogram() {
    let whole: Vec<Findings> = experiments(Shard::WHOLE).iter().map(findings).collect();
    for n in [3u64, 7] {
        let parts: Vec<Vec<Findings>> =
            (0..n).map(|i| experiments(Shard::new(i, n).unwrap()).iter().map(findings).collect()).collect();
        for (e, w) in whole.iter().enumerate() {
            let mine: Vec<Findings> = parts.iter().map(|p| p[e].clone()).collect();
            // Through JSON, as the CLI stores them.
            let mine: Vec<Findings> = mine
                .iter()
                .map(|f| serde_json::from_str(&serde_json::to_string(f).unwrap()).expect("reads back"))
                .collect();
            let merged = Findings::merge(&mine, "test").expect("merges");
            assert_eq!(merged.per_key, w.per_key, "{} in {n} shards", w.experiment);
            assert_eq!(merged.hits, w.hits);
            let d = w.per_key.as_ref().expect("per-key findings");
            assert_eq!(d.keys, w.queries / w.key_every);
            assert_eq!(d.mean_correlation.is_some(), w.experiment == "differential-linear");
        }
    }
    // Outcomes merge the same way.
    let Experiment::Differential(d) = &experiments(Shard::WHOLE)[3] else { panic!("a differential") };
    let whole = d.run().unwrap();
    let mut merged: Option<Outcome<_>> = None;
    for i in 0..4 {
        let mut part = d.clone();
        part.common.shard = Shard::new(i, 4).unwrap();
        let o = part.run().unwrap();
        merged = Some(match merged {
            None => o,
            Some(m) => m.merge(o).unwrap(),
        });
    }
    assert_eq!(merged.unwrap().per_key, whole.per_key);
}

#[test]
fn per_key_runs_need_whole_key_groups() {
    let mut c = Common::new(Variant::Skinny64_64, 2, 1000);
    c.key_every = 300;
    c.per_key = true;
    let e = Differential::new(c, vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0; 8]);
    let err = e.run().expect_err("1000 queries are not whole groups of 300");
    assert!(matches!(err, LabError::PerKeyGroups { queries: 1000, key_every: 300 }), "{err:?}");
    assert!(err.to_string().contains("multiple of key_every"), "{err}");
    // Without per-key counts the same run is fine, and has none.
    let mut e = e;
    e.common.per_key = false;
    assert_eq!(e.run().expect("runs").per_key, None);
}

#[test]
fn a_shard_without_groups_has_an_empty_histogram() {
    let mut c = common(Variant::Skinny64_64, 1, 1, 10, 2, 1);
    c.shard = Shard::new(0, 5).unwrap();
    let o = Differential::new(c, vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0; 8]).run().unwrap();
    assert_eq!((o.queries, o.per_key.as_ref().and_then(KeyHistogram::keys)), (0, Some(0)));
}
