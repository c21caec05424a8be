//! Shared by the lab's GPU tests.

/// The first GPU, or `None` after printing why not (straight to stderr, so a
/// skipped test is visible); with `SKINNY_REQUIRE_GPU=1` (the GPU machines) a
/// missing GPU is a failure instead.
#[cfg(feature = "cuda")]
pub fn gpu() -> Option<std::sync::Arc<skinny_cuda::Gpu>> {
    skinny_test_support::gpu::or_skip(skinny_cuda::Gpu::first)
}
