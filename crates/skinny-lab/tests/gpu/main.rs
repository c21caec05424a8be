//! `skinny-lab`'s GPU suites in one binary, on skinny-test-support's GPU harness: each
//! module was a binary of its own and keeps its own probe (a test that needs a GPU is
//! ignored where its probe finds none, and fails under SKINNY_REQUIRE_GPU=1); tests are
//! named `module::test`. `published` (CPU tests beside one GPU test, built without the
//! `cuda` feature too) stays a binary of its own.

#[path = "../support/mod.rs"]
mod support;

mod gpu;
mod gpu_linear;
mod gpu_pairs;
mod gpu_per_key;
mod gpu_start_round;

skinny_test_support::gpu_test_main! { groups: [gpu, gpu_linear, gpu_pairs, gpu_per_key, gpu_start_round] }
