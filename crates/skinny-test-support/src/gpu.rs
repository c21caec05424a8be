//! The GPU tests' rule: without a usable GPU a test skips with a visible line,
//! unless `SKINNY_REQUIRE_GPU=1` (set on the GPU machines), where it fails.

use std::fmt::Display;
use std::io::Write;

/// Runs `open` (opening a GPU); its error means skip (one `skip:` line on
/// stderr, `None`), or a panic when `SKINNY_REQUIRE_GPU=1`.
///
/// # Panics
/// `open` failed and `SKINNY_REQUIRE_GPU` is `1`.
pub fn or_skip<T, E: Display>(open: impl FnOnce() -> Result<T, E>) -> Option<T> {
    match open() {
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
