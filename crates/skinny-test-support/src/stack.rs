//! The stack check of the crates' `tests/stack.rs`: every public call runs on a
//! thread of [`LIMIT`] bytes of stack, each in a child process of its own, so
//! that an overflow (which aborts the whole process) fails the test with the
//! call's name instead of killing the test binary.
//!
//! A test file lists its calls as [`Case`]s and has one `#[test]` that hands
//! them to [`check`]. Run alone, that test starts the test binary again once
//! per case (`SKINNY_STACK_CASE` names it); the child runs the case on a
//! thread of `SKINNY_STACK_BYTES` (default [`LIMIT`]) and the parent reports
//! every case whose child failed.
//!
//! With `SKINNY_STACK_MEASURE=1` the parent also finds, by binary search over
//! the thread's stack size, the least stack each case runs on (to 1 KiB,
//! thread start-up included) and writes it to stderr (past the test
//! harness's capture); `SKINNY_STACK_ONLY=TEXT` keeps the cases whose name
//! contains `TEXT`.

use std::io::Write;
use std::process::Command;

/// The most stack a public call may need: 64 KiB, in every build profile.
pub const LIMIT: usize = 64 * 1024;

/// One public call to check.
pub struct Case {
    /// What the call is, as the failure names it.
    pub name: String,
    /// The call (with its inputs made inside, as a user's code would).
    pub run: Box<dyn Fn() + Send + Sync>,
}

impl Case {
    /// A case named `name` running `run`.
    pub fn new(name: impl Into<String>, run: impl Fn() + Send + Sync + 'static) -> Self {
        Case { name: name.into(), run: Box::new(run) }
    }
}

const CASE_VAR: &str = "SKINNY_STACK_CASE";
const BYTES_VAR: &str = "SKINNY_STACK_BYTES";
const MEASURE_VAR: &str = "SKINNY_STACK_MEASURE";
const ONLY_VAR: &str = "SKINNY_STACK_ONLY";

/// Runs every case in a child process on a [`LIMIT`]-byte stack and panics
/// naming those that failed; in a child, runs the one case it names.
/// `test_name` is the `#[test]` function's name (the child runs only it).
pub fn check(test_name: &str, cases: Vec<Case>) {
    if let Ok(name) = std::env::var(CASE_VAR) {
        let bytes = std::env::var(BYTES_VAR).ok().and_then(|b| b.parse().ok()).unwrap_or(LIMIT);
        run_here(cases, &name, bytes);
        return;
    }
    let mut failed = Vec::new();
    let measure = std::env::var_os(MEASURE_VAR).is_some();
    let only = std::env::var(ONLY_VAR).unwrap_or_default();
    let cases: Vec<Case> = cases.into_iter().filter(|c| c.name.contains(&only)).collect();
    for case in &cases {
        if let Err(why) = run_child(test_name, &case.name, LIMIT) {
            failed.push(format!("{}: {why}", case.name));
        }
        if measure {
            let kib = match least_stack(test_name, &case.name) {
                None => "over 64 MiB".into(),
                Some(FLOOR) => "at the floor".into(),
                Some(b) => format!("{} KiB", b / 1024),
            };
            let _ = writeln!(std::io::stderr(), "stack: {:<70} {kib:>12}", case.name);
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} calls do not run on {} KiB of stack:\n  {}",
        failed.len(),
        cases.len(),
        LIMIT / 1024,
        failed.join("\n  ")
    );
}

/// The case named `name` on a thread of `bytes` of stack, here.
fn run_here(cases: Vec<Case>, name: &str, bytes: usize) {
    let case = cases.into_iter().find(|c| c.name == name).unwrap_or_else(|| panic!("no stack case named {name}"));
    let thread = std::thread::Builder::new().name(name.into()).stack_size(bytes).spawn(move || (case.run)());
    thread.expect("a thread starts").join().expect("the call returns");
}

/// The case in a child process on `bytes` of stack: Ok, or how it ended.
fn run_child(test_name: &str, case: &str, bytes: usize) -> Result<(), String> {
    let out = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([test_name, "--exact", "--include-ignored", "--nocapture", "--test-threads=1"])
        .env(CASE_VAR, case)
        .env(BYTES_VAR, bytes.to_string())
        .output()
        .expect("the test binary starts again");
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
    Err(format!("{} ({last})", out.status))
}

/// The smallest stack asked for. std raises a request below the thread's
/// minimum (glibc's `PTHREAD_STACK_MIN`, 16 KiB, plus the thread-local
/// storage) to that minimum, so a call that runs on this much runs on the
/// least stack any thread has: measured, it reads "at the floor".
const FLOOR: usize = 8 << 10;

/// The least stack (to 1 KiB) on which the case runs, if 64 MiB are enough;
/// [`FLOOR`] if it runs on the thread's minimum.
fn least_stack(test_name: &str, case: &str) -> Option<usize> {
    let (mut fails, mut runs) = (FLOOR, 64 << 20);
    if run_child(test_name, case, runs).is_err() {
        return None;
    }
    if run_child(test_name, case, FLOOR).is_ok() {
        return Some(FLOOR);
    }
    while runs - fails > 1024 {
        let mid = (fails + runs) / 2 / 1024 * 1024;
        if run_child(test_name, case, mid).is_ok() {
            runs = mid;
        } else {
            fails = mid;
        }
    }
    Some(runs)
}
