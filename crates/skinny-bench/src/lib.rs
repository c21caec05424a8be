//! The benchmark harness behind `skinny bench`: the throughput of every
//! backend of `skinny-bulk` by size, the paper's experiment (its Tables 3
//! and 4, Figures 6 and 7) redone, and the AEAD and hash schemes built on
//! SKINNY, message by message and many messages per call ([`scheme`]).
//!
//! A run goes down once and comes back once:
//!
//! 1. a [`Request`] (what was asked, `None` where the [`Preset`] decides)
//!    becomes a checked [`Plan`];
//! 2. [`Bench::open`] opens its backends under a random key, and
//!    [`Bench::measure`] times every point, telling an [`Observer`] as it goes;
//! 3. the [`Report`] gives the header and tables as text, the CSV, the JSON
//!    and the charts (SVG).
//!
//! Besides: [`files::run`] times file-to-file encryption beside a plain copy,
//! and [`SideBySide`] reads saved JSON runs back, pools repeats and sets them
//! beside the paper's tables.
//!
//! The library prints nothing: text comes back as strings or goes to the
//! writer given, progress and notices to the [`Observer`]; errors are typed
//! and name no option of any command line.
//!
//! # Modules
//! - [`plan`], [`size`], [`timing`]: what is measured;
//! - [`measure`]: the timing (end to end through an engine, kernel-only
//!   through a device timer, pageable copies, cold);
//! - [`record`], [`stats`]: one point, its units, speed-ups and statistics;
//! - [`report`]: header, paper-style tables, CSV and JSON;
//! - [`chart`]: the throughput charts, and the speed-up and efficiency charts;
//! - [`saved`]: saved results read back, beside the paper's own tables;
//! - [`scheme`]: the AEAD and hash series (SKINNY-AEAD, Romulus, SKINNY-Hash),
//!   one message per call, each point beside its floor; and [`scheme::many`],
//!   batches of messages through the many-message engine beside the same
//!   messages one per call;
//! - [`files`]: file to file through the library's pipe;
//! - [`system`]: what it ran on.
//!
//! # Why no plotting or statistics crate
//! Both were weighed against the code they would replace.
//!
//! - **Charts.** `plotters` with its SVG backend needs no system fonts, but it
//!   writes every line as an anonymous `<polyline>` with whole-pixel
//!   coordinates and no grouping: the `<g class="chart">` panels and the
//!   `class="series" data-series="..."` paths that tests and scripts read in
//!   these charts would be lost, and dashed lines become runs of separate
//!   segments. What the charts need beyond axes (log axes by powers of four
//!   bytes, a caption wrapped to the width, a legend sized from its text and
//!   placed beside or below the plot, hollow markers for clipped points, the
//!   paper's line) would still be written here. It would remove perhaps half
//!   of [`chart`] and add a tree of crates, so the charts stay hand-written,
//!   in small modules (document and text, style, frame, legend, one per chart).
//! - **Statistics.** Mean, median, sample standard deviation, minimum and
//!   maximum are some forty lines ([`stats`]). `statrs`, the well-kept
//!   choice, brings `nalgebra` and `rand` 0.10 by default and `approx` and
//!   `num-traits` without them, and its median wants its data copied into its
//!   own container: as many lines to call it as to write it.

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod chart;
mod error;
pub mod files;
pub mod measure;
pub mod plan;
pub mod record;
pub mod report;
pub mod saved;
pub mod scheme;
mod session;
pub mod size;
pub mod stats;
pub mod system;
pub mod timing;

pub use error::BenchError;
pub use files::FilesError;
pub use measure::{Observer, Skipped};
pub use plan::{Directions, Plan, Preset, Request};
pub use report::Report;
pub use saved::{SavedError, SideBySide};
pub use scheme::many::{ManyBench, ManyPlan, ManyPlanError, ManyReport, ManyRequest};
pub use scheme::{SchemeBench, SchemePlan, SchemeReport, SchemeRequest};
pub use session::Bench;
pub use size::SizeError;
pub use system::Build;
pub use timing::Timing;

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
