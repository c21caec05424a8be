//! Long runs in segments: a shard's key groups counted a consecutive range
//! at a time, the findings so far kept as a [`Checkpoint`] after each, so
//! that a run stopped (a signal, a requeued batch job, a lost machine)
//! resumes where its last segment ended, with exactly the counts and right
//! pairs of a run that never stopped. Queries are pure functions of (seed,
//! query) and keys of (seed, group), so a segment's counts do not depend on
//! when, where or after what it runs.

#[cfg(feature = "serde")]
mod file;

#[cfg(feature = "serde")]
pub use file::{CheckpointFile, CheckpointFileError, CheckpointedRun, Ended, MAX_CHECKPOINT_BYTES};

use crate::control::Control;
use crate::error::LabError;
use crate::experiment::Experiment;
use crate::findings::Findings;
use crate::merge::MergeError;
use crate::rig::Rig;
use core::ops::Range;
use std::time::Duration;

/// A shard's run saved between segments: the findings of its first key
/// groups ([`Findings::segment`] says which: from the shard's first group to
/// the group the run goes on from), with the experiment's parameters and the
/// program's version in them. With the `serde` feature this is the stored
/// form (JSON, for instance), checked in full when read back
/// ([`SegmentedRun::resume`]).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Checkpoint {
    /// What this is: [`Checkpoint::FORMAT`] (a record of another kind or
    /// format version is refused).
    pub format: String,
    /// The findings of the shard's key groups counted so far.
    pub findings: Findings,
}

impl Checkpoint {
    /// The format these checkpoints are written in.
    pub const FORMAT: &'static str = "skinny-lab checkpoint 1";

    /// The key group the run goes on from.
    pub fn next_group(&self) -> Option<u64> {
        self.findings.segment.map(|[_, end]| end)
    }
}

/// Why a checkpoint cannot be resumed from.
#[derive(Debug, thiserror::Error, Clone)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Not a checkpoint of this format.
    #[error("not a checkpoint of format {want:?} (it says {0:?})", want = Checkpoint::FORMAT)]
    Format(String),
    /// Counted by another program version: its segments would not merge.
    #[error("written by skinny {found:?}, this is {running:?}: finish it with that version or start over")]
    OtherVersion {
        /// The checkpoint's version.
        found: String,
        /// This program's.
        running: String,
    },
    /// Findings that do not read back (edited, damaged).
    #[error("its findings do not read back: {0}")]
    Findings(#[source] MergeError),
    /// A checkpoint of another experiment, seed, shard, size or `show`.
    #[error("a checkpoint of another experiment (its parameters, seed, shard or show differ from this run's)")]
    OtherExperiment,
    /// Findings of an interrupted segment, or of groups that do not start at
    /// the shard's first.
    #[error("its findings are not those of the shard's first key groups")]
    NotAPrefix,
}

/// What one [`SegmentedRun::step`] did.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Step {
    /// A segment was counted and the shard is not done: the checkpoint to
    /// keep (it replaces the one before).
    Saved(Checkpoint),
    /// The shard is done: its findings, exactly those of an uninterrupted run
    /// (seconds aside: the work of each segment, summed).
    Done(Findings),
    /// Stopped ([`Control::stop`]) during a segment: the findings of every
    /// query counted (interrupted, for show: a fair sample, not the shard),
    /// and the queries the last checkpoint holds (0: none was made), which
    /// is where a resumed run goes on from.
    Stopped {
        /// Everything counted, the stopped segment's part included.
        findings: Findings,
        /// Queries of the last checkpoint.
        saved: u64,
    },
}

/// The queries of the first segment: a short one, so that the first
/// checkpoint comes soon and the rate of the hardware is measured.
const FIRST_SEGMENT_QUERIES: u64 = 1 << 20;

/// The most a segment grows over the one before, so that one short segment
/// (measured on a busy machine) cannot make the next one very long.
const MOST_GROWTH: u64 = 16;

/// One shard of an experiment counted in consecutive segments of its key
/// groups, from its start or from a [`Checkpoint`]. Each [`step`] counts
/// one segment, sized to take about the time asked for (from the rate of
/// the one before: the first is 2^20 queries or one
/// key group; one key group is the least), and hands back the checkpoint to
/// keep. The library stores nothing itself: the caller writes each
/// checkpoint where it will find it again.
///
/// [`step`]: SegmentedRun::step
#[derive(Clone, Debug)]
pub struct SegmentedRun {
    /// The experiment, over its whole shard.
    exp: Experiment,
    /// The findings of the shard's groups before `next`.
    done: Option<Box<Findings>>,
    /// The first key group not yet counted, and the group after the shard's last.
    next: u64,
    end: u64,
    /// Key groups of the next segment.
    size: u64,
    /// About how long a segment should take.
    every: Duration,
}

impl SegmentedRun {
    /// `exp`'s shard from its first key group, in segments of about `every`
    /// (zero: one key group each).
    ///
    /// # Errors
    /// `exp`'s parameters, as its `check`.
    pub fn new(mut exp: Experiment, every: Duration) -> Result<Self, LabError> {
        exp.common_mut().segment = None;
        exp.check()?;
        let c = exp.common();
        let groups = c.shard_groups();
        let size = if every.is_zero() { 1 } else { (FIRST_SEGMENT_QUERIES / c.key_every).max(1) };
        Ok(Self { exp, done: None, next: groups.start, end: groups.end, size, every })
    }

    /// `exp`'s shard from `checkpoint`, run by this program (`version`).
    ///
    /// # Errors
    /// `exp`'s parameters; a checkpoint of another format, version or
    /// experiment (any parameter, the seed, the shard and `show` included),
    /// findings that do not read back (each right pair is recomputed, the
    /// counts checked against the groups they claim), or not the findings of
    /// the shard's first groups.
    pub fn resume(
        exp: Experiment,
        every: Duration,
        checkpoint: &Checkpoint,
        version: &str,
    ) -> Result<Self, ResumeError> {
        let mut run = Self::new(exp, every)?;
        if checkpoint.format != Checkpoint::FORMAT {
            return Err(CheckpointError::Format(checkpoint.format.clone()).into());
        }
        let f = &checkpoint.findings;
        if f.version != version {
            return Err(CheckpointError::OtherVersion { found: f.version.clone(), running: version.into() }.into());
        }
        let mut theirs = f.experiment().map_err(CheckpointError::Findings)?;
        let groups = theirs.common().shard_groups();
        theirs.common_mut().segment = None;
        if theirs != run.exp {
            return Err(CheckpointError::OtherExperiment.into());
        }
        if f.interrupted || groups.start != run.next {
            return Err(CheckpointError::NotAPrefix.into());
        }
        run.next = groups.end;
        run.done = Some(Box::new(f.clone()));
        Ok(run)
    }

    /// The key groups still to count.
    pub fn remaining(&self) -> Range<u64> {
        self.next..self.end
    }

    /// The experiment over the key groups still to count (for a progress
    /// bar: its `shard_queries` are the queries left).
    pub fn rest(&self) -> Experiment {
        let mut e = self.exp.clone();
        e.common_mut().segment = Some(self.remaining());
        e
    }

    /// Counts the next segment on `rig` (progress and a stop through
    /// `control`; `version` stamps the findings, as [`Rig::run`]).
    ///
    /// # Errors
    /// As [`Rig::run`]; [`LabError::Segments`] for a bug in joining.
    pub fn step(&mut self, rig: &Rig, control: &Control, version: &str) -> Result<Step, LabError> {
        // The findings stay boxed and each part of the step is a function
        // of its own: without optimisation every temporary copy of a
        // findings value takes stack, and the merge below needs much of the
        // 64 KiB a caller may have.
        let done_queries = self.done.as_ref().map_or(0, |f| f.queries);
        if self.next >= self.end {
            // Done (or an empty shard): the findings so far are the shard's.
            let all = match &self.done {
                Some(f) => f.clone(),
                None => self.whole(rig, control, version)?,
            };
            return Ok(Step::Done(*all));
        }
        let size = self.size.min(self.end - self.next);
        let found = self.segment(size, rig, control, version)?;
        let seconds = found.seconds;
        let joined = match &self.done {
            Some(d) => joined(d, &found, version)?,
            None => found,
        };
        if joined.interrupted {
            return Ok(Step::Stopped { findings: *joined, saved: done_queries });
        }
        self.next += size;
        self.size = next_size(size, seconds, self.every);
        self.done = Some(joined.clone());
        if self.next >= self.end {
            return Ok(Step::Done(*joined));
        }
        Ok(Step::Saved(Checkpoint { format: Checkpoint::FORMAT.into(), findings: *joined }))
    }

    /// The whole experiment's findings (an empty shard's).
    #[inline(never)]
    fn whole(&self, rig: &Rig, control: &Control, version: &str) -> Result<Box<Findings>, LabError> {
        rig.run(&self.exp, control, version).map(Box::new)
    }

    /// The findings of the next `size` key groups.
    #[inline(never)]
    fn segment(&self, size: u64, rig: &Rig, control: &Control, version: &str) -> Result<Box<Findings>, LabError> {
        let mut seg = self.exp.clone();
        seg.common_mut().segment = Some(self.next..self.next + size);
        rig.run(&seg, control, version).map(Box::new)
    }
}

/// `done` and the segment after it, `found`, as one findings.
#[inline(never)]
fn joined(done: &Findings, found: &Findings, version: &str) -> Result<Box<Findings>, LabError> {
    done.then(found, version).map(Box::new).map_err(|e| LabError::Segments(e.to_string()))
}

/// Key groups of the segment after one of `size` groups that took `seconds`,
/// for segments of about `every`.
fn next_size(size: u64, seconds: f64, every: Duration) -> u64 {
    let most = size.saturating_mul(MOST_GROWTH);
    if seconds <= 0.0 {
        return if every.is_zero() { 1 } else { most };
    }
    let scaled = size as f64 * every.as_secs_f64() / seconds;
    // `as` saturates: a huge ratio is capped by `most` anyway.
    (scaled as u64).clamp(1, most)
}

impl ResumeError {
    /// What the error means to the caller: a checkpoint that does not fit,
    /// or parameters refused, are bad input.
    pub fn kind(&self) -> skinny_exec::ErrorKind {
        match self {
            ResumeError::Checkpoint(_) => skinny_exec::ErrorKind::Input,
            ResumeError::Lab(e) => e.kind(),
        }
    }
}

/// Why a run cannot resume from a checkpoint: the checkpoint, or the run's
/// own parameters.
#[derive(Debug, thiserror::Error, Clone)]
#[non_exhaustive]
pub enum ResumeError {
    /// The checkpoint does not fit this run.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The run's parameters are refused (as without a checkpoint).
    #[error(transparent)]
    Lab(#[from] LabError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_grow_towards_the_time_asked_for_and_never_vanish() {
        let every = Duration::from_secs(30);
        assert_eq!(next_size(10, 3.0, every), 100);
        assert_eq!(next_size(10, 0.001, every), 160);
        assert_eq!(next_size(10, 0.0, every), 160);
        assert_eq!(next_size(10, 600.0, every), 1);
        assert_eq!(next_size(10, 1.0, Duration::ZERO), 1);
        assert_eq!(next_size(u64::MAX, 1.0, every), u64::MAX);
    }
}
