//! Argument types and value parsers that several commands share (cipher
//! names, thread and GPU counts, numbers in a range, names read with blanks
//! around them), kept apart from the command line itself so that a command's
//! module never needs the module that declares every command.

use clap::builder::{EnumValueParser, PossibleValue, RangedU64ValueParser, TypedValueParser};
use clap::ValueEnum;
use skinny::Variant;
use skinny_bulk::backend::GpuSelection;
use std::ffi::OsStr;
use std::marker::PhantomData;

/// `--version`: the crate version and the git commit it was built from (see
/// build.rs), so a bug report or a benchmark names the exact code.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SKINNY_GIT_COMMIT"), ")");

/// The most worker threads `--threads` accepts: far above any machine's cores,
/// well below the thousands that make thread start-up alone take seconds.
pub const MAX_THREADS: usize = 1024;

/// The parser of every `--threads`: 1 to [`MAX_THREADS`].
pub fn threads_parser() -> RangedU64ValueParser<usize> {
    RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64)
}

/// The parser of every `--gpus`: `all`, a count, or a list of GPU numbers.
pub fn gpus_parser(s: &str) -> Result<GpuSelection, String> {
    s.parse::<GpuSelection>().map_err(|e| e.to_string())
}

/// A parser for a decimal number from `lo` to `hi` (finite: `inf` and `nan` are
/// refused), for options given in seconds or milliseconds.
pub fn number_in(lo: f64, hi: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => Ok(x),
        _ => Err(format!("expected a number from {lo} to {hi}")),
    }
}

/// clap's parser for a [`ValueEnum`], ignoring blanks around the name as the
/// library's own parsers did, so `--backends "cpu, gpu"` keeps working.
#[derive(Clone, Debug)]
pub struct Trimmed<E>(PhantomData<E>);

impl<E> Trimmed<E> {
    /// The parser.
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

impl<E: ValueEnum + Clone + Send + Sync + 'static> TypedValueParser for Trimmed<E> {
    type Value = E;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<E, clap::Error> {
        let value = value.to_str().map_or(value, |s| OsStr::new(s.trim()));
        EnumValueParser::<E>::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(E::value_variants().iter().filter_map(ValueEnum::to_possible_value)))
    }
}

/// `-c/--cipher`: the names are [`Variant::name`]'s (checked by a test); the
/// underscore spellings stay accepted as before, without being listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CipherName {
    /// 64-bit block, 64-bit tweakey.
    #[value(name = "skinny-64-64", alias = "skinny_64_64")]
    Skinny64_64,
    /// 64-bit block, 128-bit tweakey.
    #[value(name = "skinny-64-128", alias = "skinny_64_128")]
    Skinny64_128,
    /// 64-bit block, 192-bit tweakey.
    #[value(name = "skinny-64-192", alias = "skinny_64_192")]
    Skinny64_192,
    /// 128-bit block, 128-bit tweakey.
    #[value(name = "skinny-128-128", alias = "skinny_128_128")]
    Skinny128_128,
    /// 128-bit block, 256-bit tweakey (the paper's).
    #[value(name = "skinny-128-256", alias = "skinny_128_256")]
    Skinny128_256,
    /// 128-bit block, 384-bit tweakey.
    #[value(name = "skinny-128-384", alias = "skinny_128_384")]
    Skinny128_384,
}

impl From<CipherName> for Variant {
    fn from(c: CipherName) -> Self {
        match c {
            CipherName::Skinny64_64 => Variant::Skinny64_64,
            CipherName::Skinny64_128 => Variant::Skinny64_128,
            CipherName::Skinny64_192 => Variant::Skinny64_192,
            CipherName::Skinny128_128 => Variant::Skinny128_128,
            CipherName::Skinny128_256 => Variant::Skinny128_256,
            CipherName::Skinny128_384 => Variant::Skinny128_384,
        }
    }
}
