//! `skinny selftest`'s options.

use clap::builder::RangedU64ValueParser;
use clap::Args;

/// The most random cross-checks `selftest --rounds` accepts: enough for a soak
/// test, few enough that a typo does not run for days.
pub const MAX_ROUNDS: u64 = 1000;

/// The largest `selftest --max-bytes`: each check holds a few buffers of this
/// size at once, so this keeps a run within a few GiB of memory.
pub const MAX_SELFTEST_BYTES: u64 = 256 << 20;

/// Options of `selftest`.
#[derive(Debug, Args)]
pub struct SelftestArgs {
    /// Random cross-checks per variant, mode and backend, 0 to 1000.
    #[arg(long, default_value_t = 8, value_name = "N",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_ROUNDS))]
    pub rounds: usize,

    /// Largest random input in bytes, 0 to 268435456 (256 MiB); the default keeps
    /// the run to seconds on a small machine.
    #[arg(long, default_value_t = 1 << 18, value_name = "BYTES",
          value_parser = RangedU64ValueParser::<usize>::new().range(0..=MAX_SELFTEST_BYTES))]
    pub max_bytes: usize,
}
