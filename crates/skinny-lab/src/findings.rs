//! A run's findings as plain values: the differences and right pairs in hex,
//! the shard as `I/N`, the estimate in log2, and who counted. What is stored
//! (with the `serde` feature: serialized and read back) and shown, and what
//! [`Findings::merge`] combines.

use crate::boomerang::{Boomerang, Quartet};
use crate::differential::{Differential, Pair};
use crate::differential_linear::DifferentialLinear;
use crate::linear::{KnownPlaintext, Linear};
use crate::outcome::{Outcome, Witness};
use crate::per_key::KeyDistribution;

/// The findings of a run or of merged shards.
///
/// With the `serde` feature the field names and order are the stored form.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// What serde's message about a malformed record says was expected: the
// words the records have always been read with.
#[cfg_attr(feature = "serde", serde(expecting = "struct Report"))]
pub struct Findings {
    /// `differential`, `boomerang`, `differential-linear` or `linear`.
    pub experiment: String,
    /// The variant's name (`skinny-128-256`).
    pub cipher: String,
    /// Rounds run (from `start_round`).
    pub rounds: usize,
    /// The first round run, from 1 (records without it: 1).
    #[cfg_attr(feature = "serde", serde(default = "round_one"))]
    pub start_round: usize,
    /// Where the keys and tweakey differences are given: `master` or
    /// `start` (the start round's tweakey state; records without it: master).
    #[cfg_attr(feature = "serde", serde(default = "master"))]
    pub tk_at: String,
    /// The plaintext difference, in hex.
    pub dp: String,
    /// The ciphertext difference, in hex.
    pub dc: String,
    /// The tweakey difference of a differential, in hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dk: Option<String>,
    /// The ciphertext mask of a differential, in hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dc_mask: Option<String>,
    /// The upper trail's tweakey difference of a boomerang, in hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dk1: Option<String>,
    /// The lower trail's tweakey difference of a boomerang, in hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub dk2: Option<String>,
    /// The output linear mask of a differential-linear experiment, in hex
    /// (its `dc` is empty).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub mask: Option<String>,
    /// The cell pattern a differential's output difference must also meet
    /// (16 of `0`, `x`, `*`, cell 0 first), if it has one.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub cells: Option<String>,
    /// The input linear mask of a linear experiment, in hex (its `dp` and
    /// `dc` are empty).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub in_mask: Option<String>,
    /// The output linear mask of a linear experiment, in hex.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub out_mask: Option<String>,
    /// Queries done (this shard, or all merged).
    pub queries: u64,
    /// Queries of the whole run.
    pub queries_total: u64,
    /// A fresh key every this many queries.
    pub key_every: u64,
    /// The generator's seed.
    pub seed: u64,
    /// The shard run, as "I/N" (the first one after a merge).
    pub shard: String,
    /// The shard indices covered (one unless merged).
    pub shards: Vec<u64>,
    /// The key groups counted, `[first, end)`, when these findings are of a
    /// segment of the shard (a checkpoint's: see
    /// [`SegmentedRun`](crate::SegmentedRun)); absent: all the shard's.
    /// Such findings are never complete and do not merge with other shards.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub segment: Option<[u64; 2]>,
    /// Whether every shard of the run is in these findings.
    pub complete: bool,
    /// Stopped early: the counts cover part of the shard; such findings are
    /// a fair sample but cannot be merged.
    #[cfg_attr(feature = "serde", serde(default))]
    pub interrupted: bool,
    /// Hits.
    pub hits: u64,
    /// log2(hits / queries), `None` when there are no hits.
    pub log2_p: Option<f64>,
    /// The 95 % Clopper-Pearson interval in log2; `None` for -inf.
    pub ci95: [Option<f64>; 2],
    /// A differential-linear or linear experiment's correlation,
    /// `2 hits / queries - 1` (its hits are the pairs of even parity, or the
    /// known plaintexts whose parities agree).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub correlation: Option<f64>,
    /// The correlation's exact 95 % interval (Clopper-Pearson on the hits,
    /// mapped by `2p - 1`).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub correlation_ci95: Option<[f64; 2]>,
    /// With per-key counts: the keys' histogram and its statistics (records
    /// without it: none).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub per_key: Option<KeyDistribution>,
    /// Wall-clock seconds (summed over shards after a merge).
    pub seconds: f64,
    /// Queries per second of wall-clock time.
    pub rate_per_s: f64,
    /// What counted the queries (`cpu`, `gpu`, `gpu xN`; `mixed` after
    /// merging shards counted by different ones).
    pub backend: String,
    /// The program that counted them (version and commit): shards merge only
    /// when the same code counted them.
    #[cfg_attr(feature = "serde", serde(default))]
    pub version: String,
    /// CPU threads used (`None` on GPUs and after a merge).
    pub threads: Option<usize>,
    /// How many right pairs or quartets were asked for.
    pub show: usize,
    /// The first `show` right pairs (differential), quartets (boomerang) or
    /// known plaintexts (linear).
    pub right: Vec<HexWitness>,
}

/// One right pair or quartet, in hex.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
// As for `Findings`: the words of serde's message.
#[cfg_attr(feature = "serde", serde(expecting = "struct Right"))]
pub struct HexWitness {
    /// The query's index in the whole run.
    pub query: u64,
    /// P, P' (differential); P1 .. P4 (boomerang); P (linear).
    pub p: Vec<String>,
    /// C, C'; C1 .. C4; C.
    pub c: Vec<String>,
    /// K, K'; K1 .. K4; K.
    pub k: Vec<String>,
}

/// Who counted a run's queries, for its findings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountedBy {
    /// What counted them (`cpu`, `gpu`, `gpu xN`).
    pub backend: String,
    /// CPU threads used, if on the CPU.
    pub threads: Option<usize>,
    /// The program that counted them (version and commit).
    pub version: String,
}

impl Findings {
    /// The findings of a differential's outcome.
    pub fn of_differential(exp: &Differential, o: &Outcome<Pair>, by: CountedBy) -> Self {
        let mut f = base("differential", o, &exp.dp, &exp.dc, by);
        f.dk = Some(hex::encode(&exp.dk));
        f.dc_mask = Some(hex::encode(&exp.dc_mask));
        f.cells = exp.cells.map(|p| p.to_string());
        f.right = o
            .right
            .iter()
            .map(|p| HexWitness {
                query: p.query,
                p: vec![hex::encode(&p.p), hex::encode(&p.p2)],
                c: vec![hex::encode(&p.c), hex::encode(&p.c2)],
                k: vec![hex::encode(&p.k), hex::encode(&p.k2)],
            })
            .collect();
        f
    }

    /// The findings of a boomerang's outcome.
    pub fn of_boomerang(exp: &Boomerang, o: &Outcome<Quartet>, by: CountedBy) -> Self {
        let mut f = base("boomerang", o, &exp.dp, &exp.dc, by);
        f.dk1 = Some(hex::encode(&exp.dk1));
        f.dk2 = Some(hex::encode(&exp.dk2));
        let enc = |v: &[Vec<u8>; 4]| v.iter().map(hex::encode).collect::<Vec<_>>();
        f.right =
            o.right.iter().map(|q| HexWitness { query: q.query, p: enc(&q.p), c: enc(&q.c), k: enc(&q.k) }).collect();
        f
    }
}

impl Findings {
    /// The findings of a differential-linear outcome: its pairs kept are the
    /// first of even parity.
    pub fn of_differential_linear(exp: &DifferentialLinear, o: &Outcome<Pair>, by: CountedBy) -> Self {
        let mut f = base("differential-linear", o, &exp.dp, &[], by);
        f.dk = Some(hex::encode(&exp.dk));
        f.mask = Some(hex::encode(&exp.mask));
        let c = o.correlation();
        f.correlation = c.correlation;
        f.correlation_ci95 = Some(c.interval);
        f.right = o.right.iter().map(pair_hex).collect();
        f
    }
}

impl Findings {
    /// The findings of a linear outcome: its hits kept are the first known
    /// plaintexts whose parities agree (`p`, `c` and `k` one value each).
    pub fn of_linear(exp: &Linear, o: &Outcome<KnownPlaintext>, by: CountedBy) -> Self {
        let mut f = base("linear", o, &[], &[], by);
        f.in_mask = Some(hex::encode(&exp.in_mask));
        f.out_mask = Some(hex::encode(&exp.out_mask));
        let c = o.correlation();
        f.correlation = c.correlation;
        f.correlation_ci95 = Some(c.interval);
        f.right = o
            .right
            .iter()
            .map(|w| HexWitness {
                query: w.query,
                p: vec![hex::encode(&w.p)],
                c: vec![hex::encode(&w.c)],
                k: vec![hex::encode(&w.k)],
            })
            .collect();
        f
    }
}

/// One pair in hex.
fn pair_hex(p: &Pair) -> HexWitness {
    HexWitness {
        query: p.query,
        p: vec![hex::encode(&p.p), hex::encode(&p.p2)],
        c: vec![hex::encode(&p.c), hex::encode(&p.c2)],
        k: vec![hex::encode(&p.k), hex::encode(&p.k2)],
    }
}

/// The fields all findings have, from an outcome.
fn base<W: Witness>(experiment: &str, o: &Outcome<W>, dp: &[u8], dc: &[u8], by: CountedBy) -> Findings {
    let c = &o.common;
    let e = o.estimate();
    Findings {
        experiment: experiment.into(),
        cipher: c.variant.name().into(),
        rounds: c.rounds,
        start_round: c.start_round,
        tk_at: c.tk_at.name().into(),
        dp: hex::encode(dp),
        dc: hex::encode(dc),
        dk: None,
        dc_mask: None,
        dk1: None,
        dk2: None,
        mask: None,
        cells: None,
        in_mask: None,
        out_mask: None,
        queries: o.queries,
        queries_total: c.queries,
        key_every: c.key_every,
        seed: c.seed,
        shard: format!("{}/{}", c.shard.index, c.shard.count),
        shards: o.shards.iter().map(|s| s.index).collect(),
        segment: (!c.whole_shard()).then(|| {
            let g = c.shard_groups();
            [g.start, g.end]
        }),
        complete: o.is_complete() && !o.interrupted,
        interrupted: o.interrupted,
        hits: o.hits,
        log2_p: e.log2_p,
        ci95: [e.log2_lower, Some(e.log2_upper)],
        correlation: None,
        correlation_ci95: None,
        per_key: o.per_key.as_ref().map(|h| h.distribution(is_correlation(experiment))),
        seconds: o.seconds,
        rate_per_s: o.rate(),
        backend: by.backend,
        version: by.version,
        threads: by.threads,
        show: c.show,
        right: Vec::new(),
    }
}

/// Whether an experiment's hits are pairs of even parity (its findings give
/// correlations, and per-key correlations).
fn is_correlation(experiment: &str) -> bool {
    matches!(experiment, "differential-linear" | "linear")
}

/// The start round of records written before there was one.
#[cfg(feature = "serde")]
fn round_one() -> usize {
    1
}

/// Where the tweakeys of records written before there was a choice were given.
#[cfg(feature = "serde")]
fn master() -> String {
    "master".into()
}
