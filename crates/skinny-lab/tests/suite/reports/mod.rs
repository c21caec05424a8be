//! Genuine reports to edit: the shards of a small differential and of a
//! small boomerang, run here and stored as the CLI stores them (JSON).

#![allow(dead_code)]

use serde_json::Value;
use skinny::Variant;
use skinny_lab::{Boomerang, Common, CountedBy, Differential, Findings, Shard};
use std::sync::OnceLock;

/// The version every report here was counted by.
pub const VERSION: &str = "test 1.0";

/// The shards of one run as reports, and more.
pub struct Reports {
    /// Shards 0, 1 and 2 of 3, then the merge of 0 and 1.
    pub parts: Vec<Value>,
    /// The unsharded run.
    pub whole: Value,
}

fn by() -> CountedBy {
    CountedBy { backend: "cpu".into(), threads: Some(2), version: VERSION.into() }
}

fn common(variant: Variant, rounds: usize, queries: u64, key_every: u64, shard: Shard) -> Common {
    let mut c = Common::new(variant, rounds, queries);
    c.key_every = key_every;
    c.seed = 5;
    c.show = 4;
    c.shard = shard;
    c
}

fn reports(run: impl Fn(Shard) -> Findings) -> Reports {
    let shards: Vec<Findings> = (0..3).map(|i| run(Shard::new(i, 3).unwrap())).collect();
    let merged01 = Findings::merge(&shards[..2], VERSION).expect("genuine shards merge");
    let mut parts: Vec<Value> = shards.iter().map(|f| serde_json::to_value(f).unwrap()).collect();
    parts.push(serde_json::to_value(&merged01).unwrap());
    Reports { parts, whole: serde_json::to_value(run(Shard::WHOLE)).unwrap() }
}

/// A 2-round SKINNY-64-128 differential masked to one cell (hits about 1/16
/// of the time), a key every 7 queries (the per-block tweakey path).
pub fn differential() -> &'static Reports {
    static R: OnceLock<Reports> = OnceLock::new();
    R.get_or_init(|| {
        reports(|shard| {
            let c = common(Variant::Skinny64_128, 2, 3000, 7, shard);
            let mut exp = Differential::new(
                c,
                hex::decode("1000000000000000").unwrap(),
                hex::decode("0000000001000000").unwrap(),
            );
            exp.dc_mask = hex::decode("000000000f000000").unwrap();
            let o = exp.run().unwrap();
            Findings::of_differential(&exp, &o, by())
        })
    })
}

/// A 3-round SKINNY-64-64 boomerang with zero differences (every quartet
/// returns), a key every 300 queries (a bitsliced cipher per key).
pub fn boomerang() -> &'static Reports {
    static R: OnceLock<Reports> = OnceLock::new();
    R.get_or_init(|| {
        reports(|shard| {
            let c = common(Variant::Skinny64_64, 3, 2000, 300, shard);
            let exp = Boomerang::new(c, vec![0; 8], vec![0; 8]);
            let o = exp.run().unwrap();
            Findings::of_boomerang(&exp, &o, by())
        })
    })
}

/// The differential above with per-key counts (3003 queries: 429 keys of 7).
pub fn per_key_differential() -> &'static Reports {
    static R: OnceLock<Reports> = OnceLock::new();
    R.get_or_init(|| {
        reports(|shard| {
            let mut c = common(Variant::Skinny64_128, 2, 3003, 7, shard);
            c.per_key = true;
            let mut exp = Differential::new(
                c,
                hex::decode("1000000000000000").unwrap(),
                hex::decode("0000000001000000").unwrap(),
            );
            exp.dc_mask = hex::decode("000000000f000000").unwrap();
            let o = exp.run().unwrap();
            Findings::of_differential(&exp, &o, by())
        })
    })
}

/// Reports as findings (each must read).
pub fn findings(parts: &[Value]) -> Vec<Findings> {
    parts.iter().map(|v| serde_json::from_value(v.clone()).expect("a report")).collect()
}
