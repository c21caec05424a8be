//! Helpers shared by the end-to-end tests: run the real `skinny` binary as a
//! user would, and compute what it should give with the library.

#![allow(dead_code)]

use skinny::{Skinny, Variant};
use skinny_bulk::mode::{Direction, Mode};
use skinny_test_support::run::cpu_serial;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary under test: the one cargo built, or `SKINNY_BIN` where the test
/// binary was carried to a machine without that build (the GPU machines).
pub fn skinny() -> Command {
    match std::env::var_os("SKINNY_BIN") {
        Some(bin) if !bin.is_empty() => Command::new(bin),
        _ => Command::new(env!("CARGO_BIN_EXE_skinny")),
    }
}

/// Runs `skinny args...` with `stdin` piped in; returns its output.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_in(None, args, stdin)
}

/// As [`run`], in directory `dir`.
pub fn run_in(dir: Option<&Path>, args: &[&str], stdin: &[u8]) -> Output {
    let mut cmd = skinny();
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let mut child = cmd.spawn().expect("start skinny");
    let mut pipe = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    // A writer thread: the child may stop reading early (an error), and a large
    // input must not deadlock against its output.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait for skinny");
    writer.join().expect("writer thread");
    out
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts that the command succeeded, with its stderr in the message.
pub fn assert_ok(o: &Output, what: &str) {
    assert!(o.status.success(), "{what}: exit {:?}, stderr: {}", o.status.code(), stderr(o));
}

/// What the library gives: the portable backend through the streaming modes.
pub fn library(
    variant: Variant,
    mode: Mode,
    dir: Direction,
    key: &[u8],
    iv: Option<&[u8]>,
    pad: bool,
    data: &[u8],
) -> Result<Vec<u8>, skinny_bulk::Error> {
    let cipher = Skinny::new(variant, key).expect("key length");
    skinny_test_support::run::run(cpu_serial().as_ref(), &cipher, mode, dir, iv, pad, data, &[])
}

/// Deterministic pseudo-random bytes (xorshift), so a failure can be replayed.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    skinny_test_support::bytes(seed, len)
}

/// The names of the files in `dir`, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Whether this process ignores signal `sig` (Linux's /proc; false elsewhere).
pub fn ignored_here(sig: u32) -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
        .is_some_and(|mask| mask & (1 << (sig - 1)) != 0)
}

/// The writing end of a pipe whose reading end is already closed, for a
/// command's stdout: its first write fails with a broken pipe, however little
/// it writes (a reader closed after the start would race with an output small
/// enough for the pipe's buffer).
pub fn reader_gone() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    writer
}
