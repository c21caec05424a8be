//! Argument types and value parsers that several commands share (cipher
//! names, thread and GPU counts, numbers in a range, names read with blanks
//! around them), kept apart from the command line itself so that a command's
//! module never needs the module that declares every command.

use clap::builder::{EnumValueParser, PossibleValue, PossibleValuesParser, RangedU64ValueParser, TypedValueParser};
use clap::{Args, ValueEnum};
use skinny::Variant;
use skinny_exec::{GpuSelection, Placement, PlacementKind, Threads};
use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;

/// `--version`: the version and the git commit the code was built from, so a
/// bug report or a benchmark names the exact code; the lab's findings carry
/// the same stamp (made once, by skinny-lab).
pub const VERSION: &str = skinny_lab::stamp::STAMP;

/// The most worker threads `--threads` accepts: far above any machine's cores,
/// well below the thousands that make thread start-up alone take seconds.
pub const MAX_THREADS: usize = 1024;

/// At most this many `--threads` per core: the library's rule, the Python
/// binding's too.
pub use skinny_exec::THREADS_PER_CORE;

/// `--threads` as it runs: at most [`THREADS_PER_CORE`] per core this process
/// may use, with the notice to show when that lowered it.
pub fn capped_threads(asked: Option<usize>) -> (Option<usize>, Option<String>) {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    capped_threads_on(asked, cores)
}

fn capped_threads_on(asked: Option<usize>, cores: usize) -> (Option<usize>, Option<String>) {
    let most = cores.saturating_mul(THREADS_PER_CORE);
    match asked {
        Some(n) if n > most => (
            Some(most),
            Some(format!(
                "--threads {n} is more than {THREADS_PER_CORE} per core ({}); using {most}",
                crate::error::count(cores as u64, "core")
            )),
        ),
        other => (other, None),
    }
}

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
// Only `bench` takes such options.
#[cfg_attr(not(feature = "bench"), allow(dead_code))]
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

/// A library's name type: the value's name, as the library spells it.
pub trait LibraryName: Copy + Send + Sync + 'static {
    /// The name (listed in help and errors).
    fn library_name(self) -> &'static str;

    /// Other names the library reads for the value: accepted, not listed.
    fn library_aliases(self) -> Vec<&'static str> {
        Vec::new()
    }
}

impl LibraryName for PlacementKind {
    fn library_name(self) -> &'static str {
        self.name()
    }
}

/// Listed by the short name `skinny seal` has always taken (`m1`); the full
/// name (`skinny-aead-m1`) is accepted too.
impl LibraryName for skinny_seal::Scheme {
    fn library_name(self) -> &'static str {
        self.short_name()
    }

    fn library_aliases(self) -> Vec<&'static str> {
        Some(self.name()).filter(|&n| n != self.short_name()).into_iter().collect()
    }
}

impl LibraryName for skinny_bulk::backend::BackendChoice {
    fn library_name(self) -> &'static str {
        self.name()
    }
}

/// clap's parser of a library's name type `T` ([`LibraryName`]):
/// the command offers `values`, each with its own help, and clap checks a
/// value against their names (blanks around it ignored, as [`Trimmed`]), so
/// that the names are spelled once, by the library.
#[derive(Clone, Copy, Debug)]
pub struct Named<T: 'static> {
    values: &'static [(T, &'static str)],
}

impl<T> Named<T> {
    /// The parser offering `values` (a value and its help), in this order.
    pub const fn new(values: &'static [(T, &'static str)]) -> Self {
        Self { values }
    }
}

impl<T: LibraryName> Named<T> {
    fn possible(&self) -> impl Iterator<Item = PossibleValue> + '_ {
        self.values
            .iter()
            .map(|(v, help)| PossibleValue::new(v.library_name()).aliases(v.library_aliases()).help(*help))
    }
}

impl<T: LibraryName> TypedValueParser for Named<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let value = value.to_str().map_or(value, |s| OsStr::new(s.trim()));
        // clap's own check, so a refusal lists the names as for any option.
        let name = PossibleValuesParser::new(self.possible()).parse_ref(cmd, arg, value)?;
        let ignore_case = arg.is_some_and(clap::Arg::is_ignore_case_set);
        self.values
            .iter()
            .zip(self.possible())
            .find(|(_, possible)| possible.matches(&name, ignore_case))
            .map(|((v, _), _)| *v)
            .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.possible()))
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

/// INPUT and `-o/--output`, for the commands that stream one input into one
/// output. A command whose words differ overrides the help with `mut_arg`.
#[derive(Debug, Args)]
pub struct Io {
    /// Input file; `-` or absent means stdin.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Output file; `-` or absent means stdout. Named only once whole (written
    /// without a name where the file system allows, else to a hidden temporary
    /// file beside it), so a failure or a signal never leaves a partial output.
    #[arg(short, long, value_name = "OUTPUT")]
    pub output: Option<PathBuf>,
}

impl Io {
    /// Whether the output is stdout (absent or `-`).
    pub fn to_stdout(&self) -> bool {
        self.output.as_deref().is_none_or(|p| p.as_os_str() == "-")
    }
}

/// `-K/--key` and `--key-file`. Either may be given, not both (the command
/// says so in one line); the words are those of the 16-byte AEAD key, and a
/// command with another key overrides them with `mut_arg`.
#[derive(Debug, Args)]
pub struct KeyArgs {
    /// The 16-byte key in hex (32 hex digits).
    // Not `conflicts_with`: giving both is reported by the command in one line.
    #[arg(short = 'K', long, value_name = "HEX")]
    pub key: Option<String>,

    /// A file holding the 16-byte key as hex (whitespace ignored) or as raw bytes.
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,
}

/// `--threads` and `--gpus`: how much of the machine a run may use. The
/// `--backend` beside them is each command's own (their choices differ).
#[derive(Debug, Args)]
pub struct PlacementArgs {
    /// Worker threads (default: all cores); more than 4 per core are lowered
    /// to 4 per core, with a notice.
    #[arg(long, value_name = "N", value_parser = threads_parser())]
    pub threads: Option<usize>,

    /// GPUs of the gpu and auto backends: all, a count N (the first N), or GPU
    /// numbers such as 0,2.
    #[arg(long, default_value = "all", value_name = "all|N|LIST", value_parser = gpus_parser)]
    pub gpus: GpuSelection,
}

impl PlacementArgs {
    /// The execution layer's placement for `on`, with these threads (absent:
    /// all cores) and GPUs.
    pub fn placement(&self, on: PlacementKind) -> Placement {
        on.with(Threads::from_count(self.threads), self.gpus.clone())
    }
}

/// `--force`, `-q/--quiet` and `-v/--verbose`: how the output is delivered
/// and how much the run says about it.
#[derive(Debug, Args)]
pub struct Delivery {
    /// Write binary output to a terminal even so, and replace an output file
    /// that has other hard links (they keep the old content).
    #[arg(long)]
    pub force: bool,

    /// No progress bar.
    #[arg(short, long)]
    pub quiet: bool,

    /// Say which engine did the work and, for `auto`, why it used no GPU.
    #[arg(short, long)]
    pub verbose: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::num::NonZeroUsize;

    #[test]
    fn placement_takes_threads_and_gpus_as_given() {
        let p = PlacementArgs { threads: Some(3), gpus: GpuSelection::First(2) };
        let three = Threads::Exactly(NonZeroUsize::new(3).unwrap());
        assert_eq!(p.placement(PlacementKind::Cpu), Placement::Cpu { threads: three });
        assert_eq!(p.placement(PlacementKind::Gpu), Placement::Gpu { threads: three, gpus: GpuSelection::First(2) });
        let all = PlacementArgs { threads: None, gpus: GpuSelection::All };
        assert_eq!(all.placement(PlacementKind::Auto), Placement::default());
    }

    #[test]
    fn named_values_are_the_librarys_names_with_the_commands_help() {
        const KINDS: &[(PlacementKind, &str)] = &[(PlacementKind::Gpu, "on a GPU"), (PlacementKind::Cpu, "here")];
        let cmd = clap::Command::new("t")
            .arg(clap::Arg::new("b").long("backend").value_parser(Named::new(KINDS)))
            .arg(clap::Arg::new("c").long("case").ignore_case(true).value_parser(Named::new(KINDS)));
        let get = |args: &[&str]| {
            cmd.clone().try_get_matches_from([&["t"], args].concat()).map(|m| {
                let one = |id| m.get_one::<PlacementKind>(id).copied();
                one("b").or(one("c"))
            })
        };
        assert_eq!(get(&["--backend", " gpu "]).unwrap(), Some(PlacementKind::Gpu));
        assert_eq!(get(&["--case", "CPU"]).unwrap(), Some(PlacementKind::Cpu));
        assert!(get(&["--backend", "CPU"]).is_err());
        let e = get(&["--backend", "auto"]).unwrap_err().to_string();
        assert!(
            e.contains("invalid value 'auto' for '--backend <b>'") && e.contains("[possible values: gpu, cpu]"),
            "{e}"
        );
        let names: Vec<_> = Named::new(KINDS)
            .possible()
            .map(|v| (v.get_name().to_string(), v.get_help().map(ToString::to_string)))
            .collect();
        assert_eq!(names, [("gpu".into(), Some("on a GPU".into())), ("cpu".into(), Some("here".into()))]);
    }

    #[test]
    fn threads_are_capped_at_four_per_core_with_a_notice() {
        assert_eq!(capped_threads_on(None, 2), (None, None));
        assert_eq!(capped_threads_on(Some(8), 2), (Some(8), None));
        let (n, notice) = capped_threads_on(Some(1024), 2);
        assert_eq!(n, Some(8));
        assert_eq!(notice.unwrap(), "--threads 1024 is more than 4 per core (2 cores); using 8");
        assert_eq!(capped_threads_on(Some(5), 1).1.unwrap(), "--threads 5 is more than 4 per core (1 core); using 4");
    }
}
