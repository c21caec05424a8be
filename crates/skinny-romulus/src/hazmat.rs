//! Hooks for tests and benchmarks: which of `skinny`'s single-block paths this
//! crate's SKINNY-128-384+ calls run.

pub use skinny::hazmat::single::{Path, PathUnavailable};

/// Makes every SKINNY-128-384+ call of this crate, in every thread, run `path`
/// (`None`: `skinny`'s own choice, [`Path::best_for`] with the fixed part
/// expanded for it). Every path gives the same bytes; a forced path other than
/// that choice builds each call's round tweakeys first, so it is slower. For
/// tests that run the known answers on each path, and for benchmarks.
///
/// # Errors
/// [`PathUnavailable`] if this CPU cannot run `path` (nothing changes).
pub fn force_single_block_path(path: Option<Path>) -> Result<(), PathUnavailable> {
    if let Some(p) = path {
        if !p.is_available() {
            return Err(PathUnavailable(p));
        }
    }
    crate::tbc::force(path);
    Ok(())
}
