//! Differential (with truncated differences), boomerang, differential-linear
//! and linear experiments on reduced-round SKINNY, from any start round.
//!
//! An experiment draws queries from a seeded counter-based generator
//! ([`rng::CounterRng`]): the plaintext of query `q` depends on (seed, q) only,
//! and the key of key group `g` (queries `g * key_every ..`) on (seed, g) only.
//! So a run's counts do not depend on the number of threads, on how the work is
//! batched, or on how it is split into shards ([`Shard`]): shards are
//! contiguous ranges of key groups, and [`Outcome::merge`] of all of a run's
//! shards equals the unsharded run, right pairs included.
//!
//! The work runs on the current rayon pool (install one to choose the thread
//! count). With `key_every` of a few hundred or more it encrypts with
//! [`skinny::BitslicedSkinny`], whose round tweakey masks are built once per
//! key, so that cost disappears. Smaller key groups (down to a fresh key per
//! query, `key_every = 1`) run in batches that cut across the groups, each block
//! with its own tweakey ([`skinny::hazmat::bitsliced::PerBlockTweakeys`]: the
//! tweakey schedule runs bitsliced beside the rounds), so no query pays for a
//! key schedule of its own.
//!
//! Constant time is not a goal here: everything handled is public random data.
//! The library never prints; [`stats`] turns counts into estimates.
//!
//! The rooms:
//! - [`Differential`] (a cell pattern too: [`CellPattern`]), [`Boomerang`],
//!   [`DifferentialLinear`] and [`Linear`] (any: [`Experiment`]) with their
//!   parameters ([`Common`], [`Shard`]; rounds from any start round,
//!   [`TweakeyAt`]), their CPU runs, and each hit recomputed with the
//!   specification code ([`Differential::pair_at`],
//!   [`Boomerang::quartet_at`], [`DifferentialLinear::pair_at`],
//!   [`Linear::known_plaintext_at`]);
//! - [`Outcome`]: what a run found, merged across shards; [`Control`]:
//!   progress and a stop from another thread;
//! - [`Rig`]: where the queries are counted ([`Placement`]; `auto`'s rule,
//!   [`gpu_repays`], defined once here), which runs an experiment into its
//!   [`Findings`] (plain values, with the `serde` feature serializable), and
//!   [`Findings::merge`] for the findings of shards;
//! - [`SegmentedRun`]: a shard counted in segments of its key groups, each
//!   ending in a [`Checkpoint`] that a stopped run resumes from, with the
//!   counts of a run that never stopped ([`Outcome::then`], [`Findings::then`]);
//!   with `serde`, `CheckpointedRun`: the same from and to a checkpoint
//!   file (`CheckpointFile`: read bounded, replaced atomically), the one
//!   way the CLI and the Python module keep checkpoints;
//! - `gpu` (feature `cuda`): the same experiments on NVIDIA GPUs, the lab
//!   kernels' tables and launches;
//! - [`per_key`]: with [`Common::per_key`], every key group's hits as a
//!   [`KeyHistogram`] (merged exactly) and its statistics
//!   ([`KeyDistribution`]: keys without a hit, a dispersion test against one
//!   key-averaged probability, per-key correlations);
//! - [`rng`]: the counter-based generator; [`stats`]: estimates and exact
//!   intervals; [`stamp`]: the version findings are stamped with, one for
//!   every program built from one commit;
//! - [`keyrecovery`]: partial decryption of the last rounds under guessed
//!   round-tweakey cells, and a count of key candidates from right pairs;
//! - [`tables`]: the S-boxes' exact tables (DDT, LAT, BCT, DLCT, UBCT, LBCT,
//!   EBCT, DDLCT) and their exports for CP, SAT and MILP models.

// The unsafe calls (kernel launches in `gpu`) are allowed where they are made.
// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "cuda"), forbid(unsafe_code))]
#![cfg_attr(feature = "cuda", deny(unsafe_code))]
#![warn(missing_docs)]

mod boomerang;
mod cells;
pub mod characteristic;
mod checkpoint;
mod common;
mod control;
mod cpu;
mod differential;
mod differential_linear;
mod error;
mod experiment;
mod findings;
#[cfg(feature = "cuda")]
pub mod gpu;
pub mod keyrecovery;
mod linear;
mod merge;
mod outcome;
pub mod pairs;
pub mod per_key;
mod readback;
mod rig;
pub mod rng;
mod shard;
pub mod stamp;
pub mod stats;
pub mod tables;
mod xor;

pub use boomerang::{Boomerang, Quartet};
pub use cells::{CellCondition, CellPattern, CellPatternError};
pub use checkpoint::{Checkpoint, CheckpointError, ResumeError, SegmentedRun, Step};
#[cfg(feature = "serde")]
pub use checkpoint::{CheckpointFile, CheckpointFileError, CheckpointedRun, Ended, MAX_CHECKPOINT_BYTES};
pub use common::{Common, MAX_SHOW};
pub use control::Control;
pub use differential::{Differential, Pair};
pub use differential_linear::DifferentialLinear;
pub use error::{GpuFailure, LabError};
pub use experiment::Experiment;
pub use findings::{CountedBy, Findings, HexWitness};
pub use linear::{KnownPlaintext, Linear};
pub use merge::MergeError;
pub use outcome::{Outcome, Witness};
pub use per_key::{HistogramError, KeyDistribution, KeyHistogram};
pub use readback::FindingsError;
pub use rig::{gpu_repays, verdict, Rig, RigError, AUTO_GPU_QUERIES};
pub use shard::Shard;
pub use skinny::hazmat::partial::TweakeyAt;
pub use skinny_exec::{GpuSelection, Placement, Threads};

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
