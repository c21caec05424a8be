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

/// The `main` of a GPU test binary: looks for a GPU with `probe` (once,
/// not for `--list`), then runs `tests` (name, function, what it needs) as
/// the module docs say, with libtest's command line (filters, `--skip`,
/// `--test-threads`, `--include-ignored`, `--list`, ...).
pub fn run_suite<E: Display>(probe: impl FnOnce() -> Result<(), E>, tests: &[(&'static str, fn(), Needs)]) -> ExitCode {
    let args = Arguments::from_args();
    let missing = if args.list { None } else { probe().err().map(|e| e.to_string()) };
    let required = required();
    let gpu_tests = tests.iter().filter(|t| matches!(t.2, Needs::Gpu | Needs::BigGpu)).count();
    match &missing {
        Some(why) if required => {
            eprintln!("no usable GPU, and SKINNY_REQUIRE_GPU=1: {why}; the {gpu_tests} GPU tests fail");
        }
        Some(why) if gpu_tests > 0 => eprintln!(
            "skip: {gpu_tests} GPU tests of {} ignored: no usable GPU: {why} \
             (SKINNY_REQUIRE_GPU=1 makes that a failure)",
            binary_name()
        ),
        _ => {}
    }
    let trials = tests
        .iter()
        .map(|&(name, run, needs)| {
            let ignored = match needs {
                Needs::Gpu => missing.is_some() && !required,
                Needs::BigGpu => !big() || (missing.is_some() && !required),
                Needs::NoGpu => missing.is_none(),
                Needs::Nothing => false,
                Needs::Slow => true,
            };
            let no_gpu = matches!(needs, Needs::Gpu | Needs::BigGpu).then(|| missing.clone()).flatten();
            Trial::test(name, move || match no_gpu {
                Some(why) if required => Err(Failed::from(format!("no usable GPU, and SKINNY_REQUIRE_GPU=1: {why}"))),
                _ => {
                    run();
                    Ok(())
                }
            })
            .with_ignored_flag(ignored)
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
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
#[macro_export]
macro_rules! gpu_test_main {
    (
        probe: $probe:expr,
        gpu: [$($gpu:ident),* $(,)?]
        $(, big_gpu: [$($big:ident),* $(,)?])?
        $(, without_gpu: [$($none:ident),* $(,)?])?
        $(, anywhere: [$($any:ident),* $(,)?])?
        $(, slow: [$($slow:ident),* $(,)?])?
        $(,)?
    ) => {
        fn main() -> ::std::process::ExitCode {
            use $crate::gpu::Needs;
            $crate::gpu::run_suite(
                || ($probe)().map(|_| ()),
                &[
                    $((stringify!($gpu), $gpu as fn(), Needs::Gpu),)*
                    $($((stringify!($big), $big as fn(), Needs::BigGpu),)*)?
                    $($((stringify!($none), $none as fn(), Needs::NoGpu),)*)?
                    $($((stringify!($any), $any as fn(), Needs::Nothing),)*)?
                    $($((stringify!($slow), $slow as fn(), Needs::Slow),)*)?
                ],
            )
        }
    };
}
