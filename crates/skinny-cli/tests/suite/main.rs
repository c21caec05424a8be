//! The `skinny` command's integration tests in one binary: each module was a test
//! binary of its own, and each binary linked the whole dependency graph again. The GPU
//! suite stays in `gpu` (its own `main`).

#[path = "../common/mod.rs"]
mod common;
mod lab_args;

#[cfg(feature = "bench")]
mod bench;
#[cfg(feature = "bench")]
mod bench_schemes;
mod cli;
mod errors;
mod faults;
mod hash;
mod hostile_fresh;
mod hostile_paths;
mod keygen;
mod lab;
mod lab_checkpoint;
mod lab_dl;
mod lab_linear;
mod lab_notices;
mod lab_per_key;
mod lab_trust;
mod passphrase_tty;
mod readme;
mod reliability;
mod safety;
mod seal;
mod seal_keys;
mod seal_v2;
mod secret_sources;
mod signals;
mod stream;
