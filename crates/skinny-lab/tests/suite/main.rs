//! `skinny-lab`'s integration tests in one binary: each module was a test binary of its
//! own, and each binary linked the whole dependency graph again. Apart: `stack` (the 64
//! KiB stack tests, with a global thread pool of small stacks; `.ci/run` builds that
//! binary alone at opt-level 0), `published` (its own `main`: CPU tests beside one GPU
//! test) and `gpu` (the GPU suites).
//!
//! The merge's tests need this crate's `serde` feature (on here through the dev-
//! dependency on this crate; from the .crate, `cargo test --features serde`).

#[cfg(feature = "serde")]
mod reports;
#[path = "../support/mod.rs"]
mod support;

mod cells;
mod differential_linear;
mod experiments;
mod findings;
mod linear;
#[cfg(feature = "serde")]
mod merge_fuzz;
#[cfg(feature = "serde")]
mod merge_trust;
mod per_key;
mod per_key_stats;
mod published_key_dependence;
mod published_start_round;
#[cfg(feature = "serde")]
mod segments;
mod small_key_groups;
mod start_round;
mod stop;
