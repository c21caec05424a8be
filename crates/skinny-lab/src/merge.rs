//! Merging the findings of a run's shards: each read back into an
//! [`Outcome`] and combined with [`Outcome::merge`], which checks that they
//! are shards of one experiment.

use crate::boomerang::{Boomerang, Quartet};
use crate::common::Common;
use crate::differential::{Differential, Pair};
use crate::error::LabError;
use crate::findings::{CountedBy, Findings, HexWitness};
use crate::outcome::{Outcome, Witness};
use crate::shard::Shard;
use skinny::Variant;

/// Why findings could not be merged. `part` is the index of the findings
/// concerned in the list given to [`Findings::merge`].
#[derive(Debug, thiserror::Error, Clone)]
#[non_exhaustive]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no findings to merge")]
    Empty,
    /// A part of another experiment (kind or differences) than part 0.
    #[error("part {part}: a different experiment from part 0")]
    OtherExperiment {
        /// The part.
        part: usize,
    },
    /// A part counted by another program version than part 0.
    #[error("part {part}: counted by {version:?}, part 0 by {first:?}")]
    OtherVersion {
        /// The part.
        part: usize,
        /// Its version.
        version: String,
        /// Part 0's version.
        first: String,
    },
    /// A part that cannot be read back into counts or merged with the parts
    /// before it.
    #[error("part {part}: {source}")]
    Part {
        /// The part.
        part: usize,
        /// What is wrong with it.
        #[source]
        source: FindingsError,
    },
    /// Part 0's experiment is neither `differential` nor `boomerang`.
    #[error("unknown experiment {0:?}")]
    UnknownExperiment(String),
    /// A difference that is not hex.
    #[error("not hex in a report: {0:?}")]
    NotHex(String),
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
        /// Values a pair (2) or quartet (4) has.
        want: usize,
    },
    /// A value of a right pair that is not hex.
    #[error("not hex: {0:?}")]
    NotHex(String),
    /// A shard out of range, or an outcome that does not merge.
    #[error(transparent)]
    Lab(#[from] LabError),
}

impl Findings {
    /// The findings of all of `parts` together: counts and seconds summed,
    /// the earliest right pairs kept, counted by `parts`' common backend (or
    /// `mixed`) and recorded as merged by `version`.
    ///
    /// # Errors
    /// [`MergeError`]: no parts, parts of different experiments or versions,
    /// a part that does not read back or does not merge (a shard twice, an
    /// interrupted run).
    pub fn merge(parts: &[Findings], version: &str) -> Result<Findings, MergeError> {
        let first = parts.first().ok_or(MergeError::Empty)?;
        for (part, r) in parts.iter().enumerate() {
            let same = r.experiment == first.experiment
                && r.dp == first.dp
                && r.dc == first.dc
                && r.dk == first.dk
                && r.dc_mask == first.dc_mask
                && r.dk1 == first.dk1
                && r.dk2 == first.dk2;
            if !same {
                return Err(MergeError::OtherExperiment { part });
            }
            if r.version != first.version {
                return Err(MergeError::OtherVersion {
                    part,
                    version: r.version.clone(),
                    first: first.version.clone(),
                });
            }
        }
        // Backends count the same queries, so shards may come from different ones.
        let backend =
            if parts.iter().all(|r| r.backend == first.backend) { first.backend.clone() } else { "mixed".into() };
        let by = CountedBy { backend, threads: None, version: version.into() };
        let unhex = |s: &str| hex::decode(s).map_err(|_| MergeError::NotHex(s.to_string()));
        match first.experiment.as_str() {
            "differential" => {
                let o = merged(parts, pair)?;
                let mut exp = Differential::new(o.common.clone(), unhex(&first.dp)?, unhex(&first.dc)?);
                exp.dk = unhex(first.dk.as_deref().unwrap_or_default())?;
                exp.dc_mask = unhex(first.dc_mask.as_deref().unwrap_or_default())?;
                Ok(Findings::of_differential(&exp, &o, by))
            }
            "boomerang" => {
                let o = merged(parts, quartet)?;
                let mut exp = Boomerang::new(o.common.clone(), unhex(&first.dp)?, unhex(&first.dc)?);
                exp.dk1 = unhex(first.dk1.as_deref().unwrap_or_default())?;
                exp.dk2 = unhex(first.dk2.as_deref().unwrap_or_default())?;
                Ok(Findings::of_boomerang(&exp, &o, by))
            }
            other => Err(MergeError::UnknownExperiment(other.to_string())),
        }
    }

    /// These findings back as the outcome they were made from (its right
    /// pairs or quartets read by `witness`).
    fn outcome<W: Witness>(
        &self,
        witness: impl Fn(&HexWitness) -> Result<W, FindingsError>,
    ) -> Result<Outcome<W>, FindingsError> {
        let variant = Variant::ALL
            .into_iter()
            .find(|v| v.name() == self.cipher)
            .ok_or_else(|| FindingsError::UnknownCipher(self.cipher.clone()))?;
        let (i, n) = self.shard.split_once('/').ok_or(FindingsError::BadShard)?;
        let count: u64 = n.parse().map_err(|_| FindingsError::BadShard)?;
        let index: u64 = i.parse().map_err(|_| FindingsError::BadShard)?;
        let mut shards = Vec::new();
        for &s in &self.shards {
            shards.push(Shard::new(s, count)?);
        }
        if shards.is_empty() {
            return Err(FindingsError::NoShards);
        }
        let mut common = Common::new(variant, self.rounds, self.queries_total);
        common.key_every = self.key_every;
        common.seed = self.seed;
        common.shard = Shard::new(index, count)?;
        common.show = self.show;
        let right = self.right.iter().map(witness).collect::<Result<Vec<W>, FindingsError>>()?;
        Ok(Outcome {
            common,
            shards,
            queries: self.queries,
            hits: self.hits,
            right,
            seconds: self.seconds,
            interrupted: self.interrupted,
        })
    }
}

/// The outcomes of all `parts`, merged in order.
fn merged<W: Witness>(
    parts: &[Findings],
    witness: impl Fn(&HexWitness) -> Result<W, FindingsError> + Copy,
) -> Result<Outcome<W>, MergeError> {
    let mut acc: Option<Outcome<W>> = None;
    for (part, r) in parts.iter().enumerate() {
        let bad = |source: FindingsError| MergeError::Part { part, source };
        let o = r.outcome(witness).map_err(bad)?;
        acc = Some(match acc {
            None => o,
            Some(a) => a.merge(o).map_err(|e| bad(e.into()))?,
        });
    }
    acc.ok_or(MergeError::Empty)
}

/// `n` values of a right pair or quartet, from hex.
fn bytes(v: &[String], n: usize) -> Result<Vec<Vec<u8>>, FindingsError> {
    if v.len() != n {
        return Err(FindingsError::WitnessValues { got: v.len(), want: n });
    }
    v.iter().map(|s| hex::decode(s).map_err(|_| FindingsError::NotHex(s.clone()))).collect()
}

fn pair(w: &HexWitness) -> Result<Pair, FindingsError> {
    let two = |v: &[String]| -> Result<[Vec<u8>; 2], FindingsError> {
        bytes(v, 2)?.try_into().map_err(|_| FindingsError::WitnessValues { got: v.len(), want: 2 })
    };
    let ([p, p2], [c, c2], [k, k2]) = (two(&w.p)?, two(&w.c)?, two(&w.k)?);
    Ok(Pair { query: w.query, p, p2, c, c2, k, k2 })
}

fn quartet(w: &HexWitness) -> Result<Quartet, FindingsError> {
    let four = |v: &[String]| -> Result<[Vec<u8>; 4], FindingsError> {
        bytes(v, 4)?.try_into().map_err(|_| FindingsError::WitnessValues { got: v.len(), want: 4 })
    };
    Ok(Quartet { query: w.query, p: four(&w.p)?, c: four(&w.c)?, k: four(&w.k)? })
}
