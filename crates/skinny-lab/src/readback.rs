//! Findings read back into the experiment and outcome they claim to be,
//! trusting nothing in them: the parameters go through the experiments' own
//! constructors and checks (as a run's do), the counts must be exactly the
//! shards' shares of the queries, and every right pair or quartet must lie in
//! its shards and be one when recomputed with the specification code.

use crate::boomerang::{Boomerang, Quartet};
use crate::cells::{CellPattern, CellPatternError};
use crate::common::Common;
use crate::differential::{Differential, Pair};
use crate::differential_linear::DifferentialLinear;
use crate::error::LabError;
use crate::findings::{Findings, HexWitness};
use crate::linear::{KnownPlaintext, Linear};
use crate::outcome::{Outcome, Witness};
use crate::per_key::{HistogramError, KeyHistogram};
use crate::shard::Shard;
use core::ops::Range;
use skinny::hazmat::partial::TweakeyAt;
use skinny::Variant;

/// A differential's findings back as the experiment and its outcome.
pub(crate) fn differential(f: &Findings) -> Result<(Differential, Outcome<Pair>), FindingsError> {
    absent(&f.dk1, "dk1", "differential")?;
    absent(&f.dk2, "dk2", "differential")?;
    absent(&f.mask, "mask", "differential")?;
    no_linear_masks(f, "differential")?;
    let mut exp = Differential::new(common(f)?, unhex(&f.dp)?, unhex(&f.dc)?);
    exp.dk = unhex(f.dk.as_deref().unwrap_or_default())?;
    exp.dc_mask = unhex(f.dc_mask.as_deref().unwrap_or_default())?;
    exp.cells = f.cells.as_deref().map(str::parse::<CellPattern>).transpose()?;
    exp.check()?;
    let o = outcome(f, &exp.common, |w| {
        let p = pair(w)?;
        confirmed(exp.pair_at(p.query).as_ref() == Some(&p), p)
    })?;
    Ok((exp, o))
}

/// A differential-linear experiment's findings back as the experiment and
/// its outcome.
pub(crate) fn differential_linear(f: &Findings) -> Result<(DifferentialLinear, Outcome<Pair>), FindingsError> {
    absent(&f.dk1, "dk1", "differential-linear")?;
    absent(&f.dk2, "dk2", "differential-linear")?;
    absent(&f.dc_mask, "dc_mask", "differential-linear")?;
    absent(&f.cells, "cells", "differential-linear")?;
    no_linear_masks(f, "differential-linear")?;
    if !f.dc.is_empty() {
        return Err(FindingsError::Field { field: "dc", experiment: "differential-linear" });
    }
    let mut exp = DifferentialLinear::new(common(f)?, unhex(&f.dp)?, unhex(f.mask.as_deref().unwrap_or_default())?);
    exp.dk = unhex(f.dk.as_deref().unwrap_or_default())?;
    exp.check()?;
    let o = outcome(f, &exp.common, |w| {
        let p = pair(w)?;
        confirmed(exp.pair_at(p.query).as_ref() == Some(&p), p)
    })?;
    Ok((exp, o))
}

/// A boomerang's findings back as the experiment and its outcome.
pub(crate) fn boomerang(f: &Findings) -> Result<(Boomerang, Outcome<Quartet>), FindingsError> {
    absent(&f.dk, "dk", "boomerang")?;
    absent(&f.dc_mask, "dc_mask", "boomerang")?;
    absent(&f.mask, "mask", "boomerang")?;
    absent(&f.cells, "cells", "boomerang")?;
    no_linear_masks(f, "boomerang")?;
    let mut exp = Boomerang::new(common(f)?, unhex(&f.dp)?, unhex(&f.dc)?);
    exp.dk1 = unhex(f.dk1.as_deref().unwrap_or_default())?;
    exp.dk2 = unhex(f.dk2.as_deref().unwrap_or_default())?;
    exp.check()?;
    let o = outcome(f, &exp.common, |w| {
        let q = quartet(w)?;
        confirmed(exp.quartet_at(q.query).as_ref() == Some(&q), q)
    })?;
    Ok((exp, o))
}

/// A linear experiment's findings back as the experiment and its outcome.
pub(crate) fn linear(f: &Findings) -> Result<(Linear, Outcome<KnownPlaintext>), FindingsError> {
    for (v, field) in [(&f.dk, "dk"), (&f.dc_mask, "dc_mask"), (&f.dk1, "dk1"), (&f.dk2, "dk2")] {
        absent(v, field, "linear")?;
    }
    absent(&f.mask, "mask", "linear")?;
    absent(&f.cells, "cells", "linear")?;
    if !f.dp.is_empty() {
        return Err(FindingsError::Field { field: "dp", experiment: "linear" });
    }
    if !f.dc.is_empty() {
        return Err(FindingsError::Field { field: "dc", experiment: "linear" });
    }
    let mask = |m: &Option<String>| unhex(m.as_deref().unwrap_or_default());
    let exp = Linear::new(common(f)?, mask(&f.in_mask)?, mask(&f.out_mask)?);
    exp.check()?;
    let o = outcome(f, &exp.common, |w| {
        let k = known_plaintext(w)?;
        confirmed(exp.known_plaintext_at(k.query).as_ref() == Some(&k), k)
    })?;
    Ok((exp, o))
}

/// No linear experiment's masks, which a report of another never has.
fn no_linear_masks(f: &Findings, experiment: &'static str) -> Result<(), FindingsError> {
    absent(&f.in_mask, "in_mask", experiment)?;
    absent(&f.out_mask, "out_mask", experiment)
}

/// A field of the other experiment, which a report of this one never has.
fn absent(v: &Option<String>, field: &'static str, experiment: &'static str) -> Result<(), FindingsError> {
    match v {
        Some(_) => Err(FindingsError::Field { field, experiment }),
        None => Ok(()),
    }
}

fn unhex(s: &str) -> Result<Vec<u8>, FindingsError> {
    hex::decode(s).map_err(|_| FindingsError::NotHex(s.to_string()))
}

/// The parameters, unchecked (the experiment's `check` follows), with the
/// shard the findings name.
fn common(f: &Findings) -> Result<Common, FindingsError> {
    let variant = Variant::ALL
        .into_iter()
        .find(|v| v.name() == f.cipher)
        .ok_or_else(|| FindingsError::UnknownCipher(f.cipher.clone()))?;
    let (i, n) = f.shard.split_once('/').ok_or(FindingsError::BadShard)?;
    let count: u64 = n.parse().map_err(|_| FindingsError::BadShard)?;
    let index: u64 = i.parse().map_err(|_| FindingsError::BadShard)?;
    let mut common = Common::new(variant, f.rounds, f.queries_total);
    common.key_every = f.key_every;
    common.seed = f.seed;
    common.shard = Shard::new(index, count)?;
    // Checked against the shard by the experiment's `check`.
    common.segment = f.segment.map(|[first, end]| first..end);
    common.show = f.show;
    common.per_key = f.per_key.is_some();
    common.start_round = f.start_round;
    common.tk_at = match f.tk_at.as_str() {
        "master" => TweakeyAt::Master,
        "start" => TweakeyAt::Start,
        other => return Err(FindingsError::TweakeyAt(other.to_string())),
    };
    Ok(common)
}

/// `w` if the recomputation agreed, else the error naming its query.
fn confirmed<W: Witness>(agreed: bool, w: W) -> Result<W, FindingsError> {
    if agreed {
        Ok(w)
    } else {
        Err(FindingsError::RightFalse { query: w.query() })
    }
}

/// The findings' outcome under `common` (checked): shards, counts, seconds,
/// `complete` and right pairs (each read and confirmed by `witness`) all
/// consistent with the parameters. Interrupted findings read back as such
/// (queries at most their shards' share), for [`Outcome::merge`] to refuse
/// with any other part.
fn outcome<W: Witness>(
    f: &Findings,
    common: &Common,
    witness: impl Fn(&HexWitness) -> Result<W, FindingsError>,
) -> Result<Outcome<W>, FindingsError> {
    let shards = shards(f, common.shard)?;
    if !common.whole_shard() && shards.len() != 1 {
        return Err(FindingsError::SegmentOfShards);
    }
    // Each shard's queries: the run's definition of its share.
    let ranges: Vec<Range<u64>> = shards
        .iter()
        .map(|&s| {
            let mut c = common.clone();
            c.shard = s;
            c.shard_queries()
        })
        .collect();
    let share = ranges
        .iter()
        .try_fold(0u64, |sum, r| sum.checked_add(r.end - r.start))
        .ok_or(FindingsError::Share { queries: f.queries, share: None })?;
    // A stopped run did part of its shards' queries (and cannot be merged
    // with others: `Outcome::merge` refuses it).
    let fits = if f.interrupted { f.queries <= share } else { f.queries == share };
    if !fits {
        return Err(FindingsError::Share { queries: f.queries, share: Some(share) });
    }
    if f.hits > f.queries {
        return Err(FindingsError::Hits { hits: f.hits, queries: f.queries });
    }
    if !(f.seconds.is_finite() && f.seconds >= 0.0) {
        return Err(FindingsError::Seconds);
    }
    let per_key = match &f.per_key {
        None => None,
        Some(d) => Some(KeyHistogram::read_back(d, common.key_every, f.queries, f.hits, f.interrupted)?),
    };
    let complete = !f.interrupted && common.whole_shard() && shards.len() as u64 == common.shard.count;
    if f.complete != complete {
        return Err(FindingsError::Complete { claimed: f.complete });
    }
    if !known_backend(&f.backend) {
        return Err(FindingsError::Backend(f.backend.clone()));
    }
    // The first `show` hits: as many as were asked for, or all of them.
    let want = f.hits.min(common.show as u64);
    if f.right.len() as u64 != want {
        return Err(FindingsError::RightCount { got: f.right.len(), want });
    }
    let mut right = Vec::with_capacity(f.right.len());
    let mut last: Option<u64> = None;
    for w in &f.right {
        if last.is_some_and(|l| w.query <= l) {
            return Err(FindingsError::RightOrder);
        }
        last = Some(w.query);
        // The ranges are in order, as the shards are.
        let i = ranges.partition_point(|r| r.end <= w.query);
        if !ranges.get(i).is_some_and(|r| r.contains(&w.query)) {
            return Err(FindingsError::RightOutside { query: w.query });
        }
        right.push(witness(w)?);
    }
    Ok(Outcome {
        common: common.clone(),
        shards,
        queries: f.queries,
        hits: f.hits,
        right,
        seconds: f.seconds,
        per_key,
        interrupted: f.interrupted,
    })
}

/// The shards listed, in order, each once, each of `named`'s count, the
/// first being `named`.
fn shards(f: &Findings, named: Shard) -> Result<Vec<Shard>, FindingsError> {
    let mut indices = f.shards.clone();
    indices.sort_unstable();
    if let Some(w) = indices.windows(2).find(|w| w[0] == w[1]) {
        return Err(FindingsError::DuplicateShard { index: w[0] });
    }
    let shards = indices.iter().map(|&i| Shard::new(i, named.count)).collect::<Result<Vec<_>, _>>()?;
    match shards.first() {
        None => Err(FindingsError::NoShards),
        Some(&first) if first != named => Err(FindingsError::ShardNotFirst),
        Some(_) => Ok(shards),
    }
}

/// What counts queries: `cpu`, `gpu`, `gpu xN` (N >= 2), or `mixed`.
fn known_backend(b: &str) -> bool {
    match b.strip_prefix("gpu x") {
        Some(n) => n.bytes().all(|c| c.is_ascii_digit()) && n.parse::<u32>().is_ok_and(|n| n >= 2),
        None => matches!(b, "cpu" | "gpu" | "mixed"),
    }
}

/// `n` values of a right pair or quartet, from hex.
fn bytes(v: &[String], n: usize) -> Result<Vec<Vec<u8>>, FindingsError> {
    if v.len() != n {
        return Err(FindingsError::WitnessValues { got: v.len(), want: n });
    }
    v.iter().map(|s| unhex(s)).collect()
}

fn pair(w: &HexWitness) -> Result<Pair, FindingsError> {
    let two = |v: &[String]| -> Result<[Vec<u8>; 2], FindingsError> {
        bytes(v, 2)?.try_into().map_err(|_| FindingsError::WitnessValues { got: v.len(), want: 2 })
    };
    let ([p, p2], [c, c2], [k, k2]) = (two(&w.p)?, two(&w.c)?, two(&w.k)?);
    Ok(Pair { query: w.query, p, p2, c, c2, k, k2 })
}

fn known_plaintext(w: &HexWitness) -> Result<KnownPlaintext, FindingsError> {
    let one = |v: &[String]| -> Result<Vec<u8>, FindingsError> {
        bytes(v, 1)?.pop().ok_or(FindingsError::WitnessValues { got: v.len(), want: 1 })
    };
    Ok(KnownPlaintext { query: w.query, p: one(&w.p)?, c: one(&w.c)?, k: one(&w.k)? })
}

fn quartet(w: &HexWitness) -> Result<Quartet, FindingsError> {
    let four = |v: &[String]| -> Result<[Vec<u8>; 4], FindingsError> {
        bytes(v, 4)?.try_into().map_err(|_| FindingsError::WitnessValues { got: v.len(), want: 4 })
    };
    Ok(Quartet { query: w.query, p: four(&w.p)?, c: four(&w.c)?, k: four(&w.k)? })
}

/// Why findings cannot be read back into an [`Outcome`], or merged.
#[derive(Debug, thiserror::Error, Clone)]
#[non_exhaustive]
pub enum FindingsError {
    /// A cipher name no variant has.
    #[error("unknown cipher {0:?}")]
    UnknownCipher(String),
    /// A shard that is not `I/N`.
    #[error("bad shard")]
    BadShard,
    /// No shard listed.
    #[error("no shards")]
    NoShards,
    /// A right pair or quartet with the wrong number of values.
    #[error("a right pair with {got} values, not {want}")]
    WitnessValues {
        /// Values given.
        got: usize,
        /// Values a known plaintext (1), pair (2) or quartet (4) has.
        want: usize,
    },
    /// A difference, mask or value of a right pair that is not hex.
    #[error("not hex: {0:?}")]
    NotHex(String),
    /// A field of the other experiment (`dk1` in a differential's findings).
    #[error("a {experiment} report has no {field}")]
    Field {
        /// The field.
        field: &'static str,
        /// The experiment the findings are of.
        experiment: &'static str,
    },
    /// A shard listed twice.
    #[error("shard {index} is listed twice")]
    DuplicateShard {
        /// The shard's index.
        index: u64,
    },
    /// The shard named (`I/N`) is not the first of those listed.
    #[error("the shard named is not the first of the shards listed")]
    ShardNotFirst,
    /// Queries other than the listed shards' share of the run.
    #[error("{queries} queries, but its shards hold {}", share.map_or_else(|| "more than 2^64 - 1".into(), |s| s.to_string()))]
    Share {
        /// The queries claimed.
        queries: u64,
        /// The shards' queries (`None`: more than a `u64` holds).
        share: Option<u64>,
    },
    /// More hits than queries.
    #[error("{hits} hits in {queries} queries")]
    Hits {
        /// Hits claimed.
        hits: u64,
        /// Queries claimed.
        queries: u64,
    },
    /// Seconds that are negative or not finite.
    #[error("seconds must be a finite number, at least 0")]
    Seconds,
    /// `complete` that its shards contradict.
    #[error("says complete: {claimed}, which its shards contradict")]
    Complete {
        /// What it claims.
        claimed: bool,
    },
    /// A backend no program writes.
    #[error("unknown backend {0:?}")]
    Backend(String),
    /// Not the first `show` hits' right pairs: too many or too few.
    #[error("{got} right pairs or quartets, where its show and hits call for {want}")]
    RightCount {
        /// Given.
        got: usize,
        /// min(show, hits).
        want: u64,
    },
    /// Right pairs out of query order, or one twice.
    #[error("right pairs or quartets out of query order, or repeated")]
    RightOrder,
    /// A right pair of a query outside the shards listed.
    #[error("the right pair or quartet of query {query} lies outside its shards")]
    RightOutside {
        /// Its query.
        query: u64,
    },
    /// A right pair that the specification code does not give for its query.
    #[error("the right pair or quartet of query {query} is not what its query gives")]
    RightFalse {
        /// Its query.
        query: u64,
    },
    /// A segment of key groups in findings of more than one shard.
    #[error("a segment of key groups in the findings of several shards")]
    SegmentOfShards,
    /// A `tk_at` other than `master` or `start`.
    #[error("tk_at must be master or start, not {0:?}")]
    TweakeyAt(String),
    /// Per-key findings that do not fit their counts or parameters.
    #[error("per-key counts: {0}")]
    PerKey(#[from] HistogramError),
    /// A differential's cell pattern that is not one.
    #[error(transparent)]
    Cells(#[from] CellPatternError),
    /// A shard out of range, or an outcome that does not merge.
    #[error(transparent)]
    Lab(#[from] LabError),
}
