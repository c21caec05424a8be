//! `skinny-bulk`'s GPU suites in one binary, on skinny-test-support's GPU harness: each
//! module was a binary of its own and keeps its own probe (a test that needs a GPU is
//! ignored where its probe finds none, and fails under SKINNY_REQUIRE_GPU=1); tests are
//! named `module::test`.

mod support;

mod gpu;
mod gpu_cipher;
mod multigpu;
mod multigpu_cipher;

skinny_test_support::gpu_test_main! { groups: [gpu, gpu_cipher, multigpu, multigpu_cipher] }
