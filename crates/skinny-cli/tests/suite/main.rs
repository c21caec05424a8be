//! The `skinny` command's integration tests in one binary: each module was a test
//! binary of its own, and each binary linked the whole dependency graph again. The GPU
//! suite stays in `gpu` (its own `main`).

#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "bench")]
mod bench;
mod cli;
mod errors;
mod faults;
mod hash;
mod hostile;
mod keygen;
mod lab;
mod passphrase_tty;
mod readme;
mod reliability;
mod safety;
mod seal;
mod secret_sources;
mod signals;
mod stream;
