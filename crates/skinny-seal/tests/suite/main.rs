//! `skinny-seal`'s integration tests in one binary: each module was a test binary of
//! its own, and each binary linked the whole dependency graph again. The 64 KiB stack
//! tests stay in `stack` (`.ci/run` builds that binary alone at opt-level 0); the GPU
//! suite in `gpu`.

mod common;

mod header_parser;
mod hostile;
mod round_trip;
mod v1;
mod vectors;
