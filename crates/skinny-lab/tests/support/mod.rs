//! Shared by the lab's GPU tests.

/// The first GPU, in a GPU test (which runs only where one was found, or
/// is required: `skinny_test_support::gpu`).
#[cfg(feature = "cuda")]
pub fn gpu() -> std::sync::Arc<skinny_cuda::Gpu> {
    skinny_test_support::gpu::open(skinny_cuda::Gpu::first)
}
