//! The GPU tests' rule. A GPU test binary has its own `main`
//! ([`gpu_test_main!`](crate::gpu_test_main), `harness = false` in the
//! crate's manifest, run by [`run_suite`] on `libtest-mimic`), which looks for
//! a GPU once, at run time:
//!
//! - a GPU found: every GPU test runs;
//! - none, and `SKINNY_REQUIRE_GPU` is not `1` (a machine without a GPU):
//!   every GPU test is **ignored**, not passed, and one line says how many
//!   and why (`skip: N GPU tests ... ignored`); `--include-ignored` runs them
//!   anyway (they then fail);
//! - none, and `SKINNY_REQUIRE_GPU=1` (the GPU machines): every GPU test
//!   runs and **fails**, saying why.
//!
//! Tests of what happens *without* a GPU (an error line, a fallback to the
//! CPU) are the other way round: they run where no GPU was found and are
//! ignored where one was. Tests that need `SKINNY_GPU_BIG=1` (a gibibyte or
//! more on the device) are ignored without it.

use libtest_mimic::{Arguments, Failed, Trial};
use std::fmt::Display;
use std::process::ExitCode;

/// Whether `SKINNY_REQUIRE_GPU=1` (the GPU machines): a missing GPU fails.
pub fn required() -> bool {
    std::env::var_os("SKINNY_REQUIRE_GPU").is_some_and(|v| v == "1")
}

/// Whether `SKINNY_GPU_BIG=1`: the tests of a gibibyte or more run.
pub fn big() -> bool {
    std::env::var_os("SKINNY_GPU_BIG").is_some_and(|v| v == "1")
}

/// Runs `open` (opening a GPU) inside a GPU test, which runs only where a GPU
/// was found (or is required).
///
/// # Panics
/// With the reason, if it fails.
pub fn open<T, E: Display>(open: impl FnOnce() -> Result<T, E>) -> T {
    open().unwrap_or_else(|e| panic!("no usable GPU: {e}"))
}

/// What a test of a GPU test binary needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// A GPU.
    Gpu,
    /// A GPU and `SKINNY_GPU_BIG=1`.
    BigGpu,
    /// No GPU (it checks what happens without one).
    NoGpu,
    /// Nothing: it runs everywhere.
    Nothing,
    /// Nothing, but too slow for a plain run: ignored like `#[ignore]`.
    Slow,
}

/// One group of a GPU test binary of several (a former binary of its own, now
/// a module): its own probe and its tests. Made by
/// [`gpu_test_group!`](crate::gpu_test_group) in the module, run by
/// [`gpu_test_main!`](crate::gpu_test_main)`{ groups: [...] }` in the binary.
pub struct Group {
    /// Looks for what the group's GPU tests need (the reason when missing).
    pub probe: fn() -> Result<(), String>,
    /// Name, function, and what it needs, as [`run_suite`] takes them.
    pub tests: Vec<(&'static str, fn(), Needs)>,
}

/// The `main` of a GPU test binary: looks for a GPU with `probe` (once,
/// not for `--list`), then runs `tests` (name, function, what it needs) as
/// the module docs say, with libtest's command line (filters, `--skip`,
/// `--test-threads`, `--include-ignored`, `--list`, ...).
pub fn run_suite<E: Display>(probe: impl FnOnce() -> Result<(), E>, tests: &[(&'static str, fn(), Needs)]) -> ExitCode {
    let args = Arguments::from_args();
    let missing = if args.list { None } else { probe().err().map(|e| e.to_string()) };
    let tests = tests.iter().map(|&(name, run, needs)| (name.to_owned(), run, needs)).collect();
    run_sets(&args, vec![(missing, tests)])
}

/// The `main` of a GPU test binary of several [`Group`]s: each group's probe
/// runs once (not for `--list`) and decides for its own tests, as in
/// [`run_suite`]; each test is named `group::test`, as libtest names a test
/// in a module.
pub fn run_groups(groups: Vec<(&'static str, Group)>) -> ExitCode {
    let args = Arguments::from_args();
    let sets = groups
        .into_iter()
        .map(|(group, g)| {
            let missing = if args.list { None } else { (g.probe)().err() };
            let tests =
                g.tests.into_iter().map(|(name, run, needs)| (format!("{group}::{name}"), run, needs)).collect();
            (missing, tests)
        })
        .collect();
    run_sets(&args, sets)
}

/// Tests named in full, with what they need.
type Tests = Vec<(String, fn(), Needs)>;

/// Runs sets of tests, each with why its probe found no GPU (`None`: found,
/// or not looked for).
fn run_sets(args: &Arguments, sets: Vec<(Option<String>, Tests)>) -> ExitCode {
    let required = required();
    for (why, gpu_tests) in gpu_tests_by_reason(&sets) {
        if required {
            eprintln!("no usable GPU, and SKINNY_REQUIRE_GPU=1: {why}; the {gpu_tests} GPU tests fail");
        } else if gpu_tests > 0 {
            eprintln!(
                "skip: {gpu_tests} GPU tests of {} ignored: no usable GPU: {why} \
                 (SKINNY_REQUIRE_GPU=1 makes that a failure)",
                binary_name()
            );
        }
    }
    let trials = sets
        .into_iter()
        .flat_map(|(missing, tests)| {
            tests.into_iter().map(move |(name, run, needs)| {
                let ignored = match needs {
                    Needs::Gpu => missing.is_some() && !required,
                    Needs::BigGpu => !big() || (missing.is_some() && !required),
                    Needs::NoGpu => missing.is_none(),
                    Needs::Nothing => false,
                    Needs::Slow => true,
                };
                let no_gpu = matches!(needs, Needs::Gpu | Needs::BigGpu).then(|| missing.clone()).flatten();
                Trial::test(name, move || match no_gpu {
                    Some(why) if required => {
                        Err(Failed::from(format!("no usable GPU, and SKINNY_REQUIRE_GPU=1: {why}")))
                    }
                    _ => {
                        run();
                        Ok(())
                    }
                })
                .with_ignored_flag(ignored)
            })
        })
        .collect();
    libtest_mimic::run(args, trials).exit_code()
}

/// Each reason a probe gave for finding no GPU, once, in the order first
/// given, with the number of GPU tests it stops: one skip line for a binary
/// whose groups all miss the GPU for the same reason.
fn gpu_tests_by_reason(sets: &[(Option<String>, Tests)]) -> Vec<(String, usize)> {
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for (missing, tests) in sets {
        let Some(why) = missing else { continue };
        let n = tests.iter().filter(|t| matches!(t.2, Needs::Gpu | Needs::BigGpu)).count();
        match reasons.iter_mut().find(|(w, _)| w == why) {
            Some((_, count)) => *count += n,
            None => reasons.push((why.clone(), n)),
        }
    }
    reasons
}

/// This test binary's file name without cargo's hash (for the skip line).
fn binary_name() -> String {
    let exe = std::env::args().next().unwrap_or_default();
    let file = std::path::Path::new(&exe).file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    match file.rsplit_once('-') {
        Some((name, hash)) if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => name.to_owned(),
        _ => file,
    }
}

/// The `main` of a GPU test binary (see [`run_suite`]): `probe` finds a GPU
/// (`Result<_, impl Display>`), then lists of test functions by what they
/// need, each list optional after `gpu`:
///
/// ```ignore
/// skinny_test_support::gpu_test_main! {
///     probe: || Gpu::first().map(drop),
///     gpu: [a_test, another],
///     big_gpu: [a_gibibyte_test],
///     without_gpu: [the_error_without_a_gpu],
///     anywhere: [a_test_that_needs_nothing],
///     slow: [a_test_ignored_like_with_the_ignore_attribute],
/// }
/// ```
///
/// Or the `main` of a binary of several groups (see [`run_groups`]): modules
/// that each hold a [`gpu_test_group!`](crate::gpu_test_group), every group
/// with its own probe, so that one binary is linked where there were several:
///
/// ```ignore
/// mod gpu_cipher;
/// mod multigpu;
///
/// skinny_test_support::gpu_test_main! { groups: [gpu_cipher, multigpu] }
/// ```
#[macro_export]
macro_rules! gpu_test_main {
    (groups: [$($group:ident),+ $(,)?] $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            $crate::gpu::run_groups(::std::vec![$((stringify!($group), $group::gpu_tests())),+])
        }
    };
    (probe: $probe:expr, $($lists:tt)*) => {
        fn main() -> ::std::process::ExitCode {
            $crate::gpu::run_suite(|| ($probe)().map(|_| ()), &$crate::__gpu_test_list!($($lists)*))
        }
    };
}

/// One group of a GPU test binary of several, in its module: the same
/// `probe` and lists as [`gpu_test_main!`](crate::gpu_test_main)'s, made
/// into the module's `gpu_tests()`, which the binary's
/// `gpu_test_main! { groups: [...] }` runs.
///
/// ```ignore
/// skinny_test_support::gpu_test_group! {
///     probe: Gpu::first,
///     gpu: [a_test, another],
/// }
/// ```
#[macro_export]
macro_rules! gpu_test_group {
    (probe: $probe:expr, $($lists:tt)*) => {
        /// This group's probe and tests, for the binary's `gpu_test_main!`.
        pub(crate) fn gpu_tests() -> $crate::gpu::Group {
            $crate::gpu::Group {
                probe: || ($probe)().map(|_| ()).map_err(|e| e.to_string()),
                tests: ::std::vec::Vec::from($crate::__gpu_test_list!($($lists)*)),
            }
        }
    };
}

/// The tests of [`gpu_test_main!`](crate::gpu_test_main) and
/// [`gpu_test_group!`](crate::gpu_test_group) by what they need: an array of
/// (name, function, [`Needs`]).
#[doc(hidden)]
#[macro_export]
macro_rules! __gpu_test_list {
    (
        gpu: [$($gpu:ident),* $(,)?]
        $(, big_gpu: [$($big:ident),* $(,)?])?
        $(, without_gpu: [$($none:ident),* $(,)?])?
        $(, anywhere: [$($any:ident),* $(,)?])?
        $(, slow: [$($slow:ident),* $(,)?])?
        $(,)?
    ) => {
        [
            $((stringify!($gpu), $gpu as fn(), $crate::gpu::Needs::Gpu),)*
            $($((stringify!($big), $big as fn(), $crate::gpu::Needs::BigGpu),)*)?
            $($((stringify!($none), $none as fn(), $crate::gpu::Needs::NoGpu),)*)?
            $($((stringify!($any), $any as fn(), $crate::gpu::Needs::Nothing),)*)?
            $($((stringify!($slow), $slow as fn(), $crate::gpu::Needs::Slow),)*)?
        ]
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nothing() {}

    #[test]
    fn groups_missing_the_gpu_for_one_reason_give_one_count() {
        let tests = |needs: &[Needs]| needs.iter().map(|&n| (String::new(), nothing as fn(), n)).collect();
        let sets = vec![
            (Some("no driver".to_owned()), tests(&[Needs::Gpu, Needs::BigGpu, Needs::Nothing])),
            (None, tests(&[Needs::Gpu])),
            (Some("no driver".to_owned()), tests(&[Needs::Gpu, Needs::NoGpu])),
            (Some("no device".to_owned()), tests(&[Needs::Slow])),
        ];
        assert_eq!(gpu_tests_by_reason(&sets), [("no driver".to_owned(), 3), ("no device".to_owned(), 0)]);
    }
}
