//! The version findings are stamped with, one for every program built from
//! one commit: [`Findings::merge`](crate::Findings::merge) and
//! [`SegmentedRun::resume`](crate::SegmentedRun::resume) take only findings
//! of one version, so the CLI and the Python module take theirs from here,
//! and shards counted by either merge with each other.

/// The crate's version (the workspace's: every crate of it shares one).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The git commit the crate was built from (short hash), or `unknown`
/// outside a git checkout.
pub const COMMIT: &str = env!("SKINNY_GIT_COMMIT");

/// Version and commit as findings carry them: `0.1.0 (commit 1a2b3c4)`.
pub const STAMP: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SKINNY_GIT_COMMIT"), ")");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stamp_is_the_version_and_the_commit() {
        assert_eq!(STAMP, format!("{VERSION} (commit {COMMIT})"));
        assert!(!COMMIT.is_empty() && !COMMIT.contains(char::is_whitespace));
    }
}
