//! The GPU tests' rule: without a usable GPU a test skips with a visible line,
//! unless `SKINNY_REQUIRE_GPU=1` (set on the GPU machines), where it fails.

use std::fmt::Display;
use std::io::Write;

/// A test that cannot run for want of a GPU (`reason`): one `skip:` line,
/// written straight to stderr (the harness does not capture it, so the skip is
/// visible).
///
/// # Panics
/// When `SKINNY_REQUIRE_GPU` is `1` (the GPU machines): there a missing GPU is
/// a failure.
pub fn skip(reason: impl Display) {
    if std::env::var_os("SKINNY_REQUIRE_GPU").is_some_and(|v| v == "1") {
        panic!("no usable GPU, and SKINNY_REQUIRE_GPU=1: {reason}");
    }
    let _ = std::io::stderr().write_all(format!("skip: no usable GPU: {reason}\n").as_bytes());
}

/// Runs `open` (opening a GPU); its error is a [`skip`] (and `None`).
///
/// # Panics
/// As [`skip`].
pub fn or_skip<T, E: Display>(open: impl FnOnce() -> Result<T, E>) -> Option<T> {
    open().map_err(skip).ok()
}
