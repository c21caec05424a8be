//! Shared by the lab's GPU tests.

/// The first GPU, or `None` after printing why not (straight to stderr, so a
/// skipped test is visible); with `SKINNY_REQUIRE_GPU=1` (the GPU machines) a
/// missing GPU is a failure instead.
#[cfg(feature = "cuda")]
pub fn gpu() -> Option<std::sync::Arc<skinny_lab::gpu::Gpu>> {
    use std::io::Write;
    match skinny_lab::gpu::Gpu::first() {
        Ok(g) => Some(g),
        Err(e) => {
            if std::env::var_os("SKINNY_REQUIRE_GPU").is_some_and(|v| v == "1") {
                panic!("no usable GPU, and SKINNY_REQUIRE_GPU=1: {e}");
            }
            let _ = std::io::stderr().write_all(format!("skip: no usable GPU: {e}\n").as_bytes());
            None
        }
    }
}
