//! Merging the findings of a run's shards: each read back, trusting nothing
//! in it, into its experiment and [`Outcome`] (see `readback`), and combined
//! with [`Outcome::merge`], which checks that they are disjoint shards of one
//! experiment and sums with checked arithmetic.

use crate::experiment::Experiment;
use crate::findings::{CountedBy, Findings};
use crate::outcome::{Outcome, Witness};
use crate::readback::{self, FindingsError};

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
    /// Part 0's experiment is not `differential`, `boomerang`,
    /// `differential-linear` or `linear`.
    #[error("unknown experiment {0:?}")]
    UnknownExperiment(String),
    /// A difference or mask that is not hex.
    #[error("not hex in a report: {0:?}")]
    NotHex(String),
    /// Every shard is here but the queries do not add up to the run's (the
    /// parts' checks make this impossible: a bug if seen).
    #[error("the shards' {queries} queries are not the run's {total}")]
    Unaccounted {
        /// The queries of all parts.
        queries: u64,
        /// The run's queries.
        total: u64,
    },
}

impl Findings {
    /// The findings of all of `parts` together: counts and seconds summed,
    /// the earliest right pairs kept, counted by `parts`' common backend (or
    /// `mixed`) and recorded as merged by `version`.
    ///
    /// Nothing in the parts is trusted: each is read back through the
    /// experiment's constructor and checks, its queries must be its shards'
    /// share of the run, its hits at most its queries, its right pairs the
    /// first `show` hits, in its shards and confirmed by the specification
    /// code; sums are checked; the result is complete only when every shard,
    /// and so every query, is in it.
    ///
    /// # Errors
    /// [`MergeError`]: no parts, parts of different experiments or versions,
    /// a part that does not read back or does not merge (a shard twice, an
    /// interrupted run with other parts, counts that do not fit the
    /// parameters). Interrupted findings alone read back as they are.
    pub fn merge(parts: &[Findings], version: &str) -> Result<Findings, MergeError> {
        combine(parts, version, Join::Shards).map(|(_, f)| f)
    }

    /// The findings of consecutive segments of one shard's key groups
    /// ([`Findings::segment`]): `self`, groups `a..b`, then `next`, groups
    /// `b..c`, as the findings of `a..c` (whole, without a segment, once that
    /// is the shard), exactly what one run of `a..c` finds. Both are read
    /// back trusting nothing, as for [`Findings::merge`]; the backend and
    /// threads are kept where both parts agree.
    ///
    /// # Errors
    /// As [`Findings::merge`], and parts that are not consecutive segments
    /// of one shard, or a first part that was interrupted.
    pub fn then(&self, next: &Findings, version: &str) -> Result<Findings, MergeError> {
        let (_, mut f) = combine(&[self.clone(), next.clone()], version, Join::Segments)?;
        // One shard's run in pieces, on the same hardware unless resumed elsewhere.
        f.threads = self.threads.filter(|_| self.threads == next.threads);
        Ok(f)
    }

    /// The experiment these findings are of, read back trusting nothing (as
    /// one part of [`Findings::merge`]), with the segment they cover.
    pub(crate) fn experiment(&self) -> Result<Experiment, MergeError> {
        combine(core::slice::from_ref(self), &self.version, Join::Shards).map(|(e, _)| e)
    }
}

/// How parts are combined: disjoint shards, or consecutive segments of one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Join {
    Shards,
    Segments,
}

/// The experiment of `parts` and their findings together, combined as `join` says.
fn combine(parts: &[Findings], version: &str, join: Join) -> Result<(Experiment, Findings), MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    for (part, r) in parts.iter().enumerate() {
        let same = r.experiment == first.experiment
            && r.start_round == first.start_round
            && r.tk_at == first.tk_at
            && r.dp == first.dp
            && r.dc == first.dc
            && r.dk == first.dk
            && r.dc_mask == first.dc_mask
            && r.dk1 == first.dk1
            && r.dk2 == first.dk2
            && r.mask == first.mask
            && r.cells == first.cells
            && r.in_mask == first.in_mask
            && r.out_mask == first.out_mask;
        if !same {
            return Err(MergeError::OtherExperiment { part });
        }
        if r.version != first.version {
            return Err(MergeError::OtherVersion { part, version: r.version.clone(), first: first.version.clone() });
        }
    }
    // Backends count the same queries, so shards may come from different
    // ones (each backend was checked as the parts were read).
    let backend = if parts.iter().all(|r| r.backend == first.backend) { first.backend.clone() } else { "mixed".into() };
    let by = CountedBy { backend, threads: None, version: version.into() };
    // The differences, the same in every part (checked above).
    for d in [
        Some(&first.dp),
        Some(&first.dc),
        first.dk.as_ref(),
        first.dc_mask.as_ref(),
        first.dk1.as_ref(),
        first.dk2.as_ref(),
        first.mask.as_ref(),
        first.in_mask.as_ref(),
        first.out_mask.as_ref(),
    ]
    .into_iter()
    .flatten()
    {
        hex::decode(d).map_err(|_| MergeError::NotHex(d.clone()))?;
    }
    match first.experiment.as_str() {
        "differential" => kind(parts, join, readback::differential, Findings::of_differential, by),
        "boomerang" => kind(parts, join, readback::boomerang, Findings::of_boomerang, by),
        "differential-linear" => kind(parts, join, readback::differential_linear, Findings::of_differential_linear, by),
        "linear" => kind(parts, join, readback::linear, Findings::of_linear, by),
        other => Err(MergeError::UnknownExperiment(other.to_string())),
    }
}

/// The parts of one kind of experiment (each read back by `read`) merged, as
/// the experiment (with the merged parameters) and its findings (`findings`).
/// A function of its own rather than one block a kind in [`combine`], so
/// that a call holds one kind's values on its stack, not every kind's (the
/// difference at opt-level 0 is tens of KiB).
fn kind<E: Into<Experiment>, W: Witness>(
    parts: &[Findings],
    join: Join,
    read: impl Fn(&Findings) -> Result<(E, Outcome<W>), FindingsError>,
    findings: impl Fn(&E, &Outcome<W>, CountedBy) -> Findings,
    by: CountedBy,
) -> Result<(Experiment, Findings), MergeError> {
    let (exp, o) = merged(parts, join, read)?;
    let f = findings(&exp, &o, by);
    let mut exp: Experiment = exp.into();
    *exp.common_mut() = o.common.clone();
    Ok((exp, f))
}

/// Part 0's experiment and the outcomes of all `parts` (each read back by
/// `read`), merged in order.
fn merged<E, W: Witness>(
    parts: &[Findings],
    join: Join,
    read: impl Fn(&Findings) -> Result<(E, Outcome<W>), FindingsError>,
) -> Result<(E, Outcome<W>), MergeError> {
    let mut acc: Option<(E, Outcome<W>)> = None;
    for (part, r) in parts.iter().enumerate() {
        let bad = |source: FindingsError| MergeError::Part { part, source };
        let (exp, o) = read(r).map_err(bad)?;
        acc = Some(match acc {
            None => (exp, o),
            Some((e, a)) => {
                let joined = match join {
                    Join::Shards => a.merge(o),
                    Join::Segments => a.then(o),
                };
                (e, joined.map_err(|e| bad(e.into()))?)
            }
        });
    }
    let (exp, o) = acc.ok_or(MergeError::Empty)?;
    if o.is_complete() && !o.interrupted && o.queries != o.common.queries {
        return Err(MergeError::Unaccounted { queries: o.queries, total: o.common.queries });
    }
    Ok((exp, o))
}
