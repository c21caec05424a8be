//! The execution layer under every `skinny` product: *where does this work
//! run, and how do bytes reach it*, answered once. It knows neither the
//! cipher nor CUDA; each product (raw modes, sealed files, the lab, the AEAD
//! schemes) supplies only its rule and its engines.
//!
//! - [`Placement`] (`auto`, the CPU with its [`Threads`], GPUs with a
//!   [`GpuSelection`]) and [`Placement::route`]: a product's [`Verdict`]
//!   on the run becomes one [`Route`]; nothing else decides between CPU
//!   and GPU. [`worker_pool`] is the one way the crates build thread pools
//!   (with an explicit stack size).
//! - [`pipeline`]: the one read -> work -> write pipeline (recycled, wiped
//!   buffers; windows of pieces; progress optional).
//! - [`handover`]: the one CPU-then-accelerator hand-over (start on the CPU,
//!   open the GPU in the background, take over when ready, keep it only while
//!   faster).
//! - [`payback`]: the rule that says when opening an accelerator repays, for
//!   work of unknown or known size.
//! - [`report`]: where the work went and why ([`Placed`]).
//! - [`PlacementKind`]: a placement by name (`auto`, `cpu`, `gpu`), the one
//!   spelling every face uses; [`ErrorKind`]: what an error of any product
//!   means to its caller (bad input, hardware not to be had, a failure), so
//!   that a face never looks into another crate's error variants.

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

pub mod gpus;
pub mod handover;
mod kind;
pub mod payback;
pub mod pipeline;
pub mod placement;
pub mod report;

pub use gpus::{GpuSelection, GpuSelectionError};
pub use handover::{Handover, Keep, OnFailure, Side, Standing};
pub use kind::ErrorKind;
pub use placement::{
    most_threads, worker_pool, Placement, PlacementKind, Route, Threads, Unfit, UnknownPlacement, Verdict,
    THREADS_PER_CORE, WORKER_STACK_BYTES,
};
pub use report::{Placed, WhyCpu};

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
