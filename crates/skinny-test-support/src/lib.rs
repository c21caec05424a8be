//! Helpers shared by the workspace's tests, so that each is written once:
//!
//! - [`textbook`]: the five modes written out from their definitions over
//!   single-block encryption, an independent reference for the mode code;
//! - [`rng`]: seeded, replayable bytes, and random keys and bytes from any
//!   `rand` generator;
//! - [`run`]: a [`Processor`](skinny_bulk::mode::Processor) built from
//!   (cipher, mode, direction, IV, padding, backend) and run over a whole message;
//! - [`gpu`]: the GPU test binaries' harness: a GPU test is ignored where no
//!   GPU is found, and fails there under `SKINNY_REQUIRE_GPU=1`;
//! - [`stack`]: every public call on a 64 KiB stack, each in a child process.
//!
//! Test vectors are not here: they stay with the tests that use them.

pub mod gpu;
pub mod rng;
pub mod run;
pub mod stack;
pub mod textbook;

pub use rng::bytes;
