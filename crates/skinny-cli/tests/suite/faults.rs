//! Fault injection: every command with its stdout closed (`>&-`), broken (the
//! reader gone) and full (`/dev/full`), and a seeded fuzz of argument
//! combinations. The contract: never a panic, exit codes 0, 1 or 2 only, one
//! `skinny: ` line per error, no temporary file left behind.

use crate::common;

use common::{bytes, listing, skinny, stderr};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
/// The 16-byte key of `seal` and `open`.
const KEY16: &str = "000102030405060708090a0b0c0d0e0f";

/// `plain` sealed under [`KEY16`] by the library as a version-1 file (chunks of 1 KiB).
fn sealed(plain: &[u8]) -> Vec<u8> {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let options = skinny_seal::SealOptions { chunk_log2: 10, ..Default::default() };
    let mut out = Vec::new();
    skinny_seal::hazmat::seal_v1_with_prefix(plain, &mut out, &key, &options, &[0x33; 11]).expect("seal");
    out
}

/// Each command in a small, quick form, and the input it reads.
fn commands() -> Vec<(&'static str, Vec<&'static str>, Vec<u8>)> {
    let tiny_bench = vec![
        "bench",
        "--backends",
        "cpu-serial",
        "--modes",
        "ecb",
        "--sizes",
        "16",
        "--runs",
        "1",
        "--min-run-ms",
        "0",
        "-q",
    ];
    vec![
        ("encrypt", vec!["encrypt", "-K", KEY, "--iv", IV, "-q"], bytes(1, 256 << 10)),
        ("decrypt", vec!["decrypt", "-K", KEY, "--iv", IV, "-q"], bytes(2, 256 << 10)),
        ("seal", vec!["seal", "-K", KEY16, "-q"], bytes(5, 256 << 10)),
        ("open", vec!["open", "-K", KEY16, "-q"], sealed(&bytes(6, 256 << 10))),
        ("info", vec!["info"], Vec::new()),
        ("selftest", vec!["selftest", "--rounds", "1", "--max-bytes", "64"], Vec::new()),
        ("bench", tiny_bench, Vec::new()),
        ("completions", vec!["completions", "bash"], Vec::new()),
    ]
}

/// Waits for `cmd` with `input` on stdin (written by a thread: the child may
/// stop reading early).
fn run_with_input(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd.stdin(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start");
    let mut stdin = child.stdin.take().expect("stdin");
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().expect("wait");
    writer.join().expect("writer");
    out
}

fn no_panic(o: &Output, what: &str) {
    let e = stderr(o);
    assert_ne!(o.status.code(), Some(101), "{what} panicked: {e}");
    assert!(!e.contains("panicked"), "{what} panicked: {e}");
    assert!(o.status.code().is_some(), "{what} was killed by a signal: {:?}", o.status);
}

fn one_error_line(o: &Output, what: &str, needle: &str) {
    no_panic(o, what);
    assert_eq!(o.status.code(), Some(1), "{what}: {}", stderr(o));
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: ") && e.contains(needle), "{what}: {e}");
}

#[test]
fn closed_stdout_is_one_error_line() {
    for (name, args, input) in commands() {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg("exec \"$0\" \"$@\" >&-").arg(env!("CARGO_BIN_EXE_skinny")).args(&args);
        let o = run_with_input(cmd, &input);
        one_error_line(&o, name, "stdout is closed");
    }
}

#[test]
fn broken_stdout_is_one_error_line() {
    for (name, args, input) in commands() {
        let mut cmd = skinny();
        cmd.args(&args).stdout(common::reader_gone());
        let o = run_with_input(cmd, &input);
        one_error_line(&o, name, "(broken pipe); the output is incomplete");
    }
}

#[test]
fn full_stdout_is_one_error_line() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        println!("skip: no /dev/full on this machine");
        return;
    };
    for (name, args, input) in commands() {
        let mut cmd = skinny();
        cmd.args(&args).stdout(full.try_clone().unwrap());
        let o = run_with_input(cmd, &input);
        one_error_line(&o, name, "cannot write output");
    }
    // Notices (-v) to a full stderr: dropped, never a panic; the output is fine.
    let mut cmd = skinny();
    cmd.args(["encrypt", "-K", KEY, "--iv", IV, "-v"]).stdout(Stdio::null()).stderr(full.try_clone().unwrap());
    let status = {
        let mut child = cmd.stdin(Stdio::piped()).spawn().unwrap();
        child.stdin.take().unwrap().write_all(&bytes(9, 1000)).unwrap();
        child.wait().unwrap()
    };
    assert_eq!(status.code(), Some(0), "encrypt -v 2>/dev/full: {status:?}");

    // A file output on a full device: the error, and no temporary file.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(3, 4096)).unwrap();
    let mut cmd = skinny();
    cmd.args(["encrypt", "-K", KEY, "--iv", IV, "-q", "in", "-o", "/dev/full"]).current_dir(dir.path());
    let o = run_with_input(cmd, b"");
    one_error_line(&o, "encrypt -o /dev/full", "cannot write output");
    assert_eq!(listing(dir.path()), ["in"]);
}

/// xorshift64*: reproducible choices from a seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

/// One random command line for the fuzz.
fn random_args(rng: &mut Rng) -> Vec<String> {
    const CIPHERS: &[&str] = &["skinny-64-64", "skinny-128-256", "SKINNY-128-384", " skinny-64-192", "aes", "", KEY];
    const MODES: &[&str] = &["ecb", "ctr", "cbc", "cfb", "ofb", "gcm", "CTR", ""];
    const KEYS: &[&str] = &[KEY, "0011", "00112233445566778899aabbccddeeff", "zz", "", "0", KEY];
    const IVS: &[&str] = &[IV, "0011223344556677", "00", "xyz", ""];
    const BACKENDS: &[&str] = &["cpu", "cpu-serial", "auto", "gpu", "gpu-paper", "tpu"];
    const THREADS: &[&str] = &["1", "2", "0", "1025", "-1", "x", "99999999999999999999999"];
    const OUTPUTS: &[&str] = &["out", "out2", "-", ".", "in", "/nonexistent/out", "/dev/null", "sub/"];
    const INPUTS: &[&str] = &["in", "blocks", "-", ".", "missing", "empty"];
    const KEY_FILES: &[&str] = &["k", "k8", "missing", ".", "in", "empty"];
    let mut args: Vec<String> = Vec::new();
    let cmd = rng.pick(&[
        "encrypt",
        "decrypt",
        "encrypt",
        "decrypt",
        "seal",
        "open",
        "info",
        "selftest",
        "bench",
        "completions",
        "nope",
    ]);
    args.push(cmd.into());
    match cmd {
        "seal" | "open" => {
            const KEYS16: &[&str] = &[KEY16, KEY16, "0011", KEY, "zz", ""];
            const SEAL_INPUTS: &[&str] = &["in", "sealed", "-", ".", "missing", "empty"];
            for _ in 0..rng.below(7) {
                match rng.below(10) {
                    0..=2 => args.extend(["-K".into(), rng.pick(KEYS16).into()]),
                    3 => args.extend(["--key-file".into(), rng.pick(&["k16", "k", "missing", "."]).into()]),
                    4 => args.extend(["--member".into(), rng.pick(&["m1", "M5", "m6", "m7", ""]).into()]),
                    5 => args.extend(["--chunk-size".into(), rng.pick(&["16", "64K", "3K", "1m", "x"]).into()]),
                    6 | 7 => args.extend(["-o".into(), rng.pick(OUTPUTS).into()]),
                    8 => args.push(rng.pick(&["--force", "-q", "--threads", "--bogus"]).into()),
                    _ => args.push(rng.pick(SEAL_INPUTS).into()),
                }
            }
        }
        "encrypt" | "decrypt" => {
            for _ in 0..rng.below(9) {
                match rng.below(16) {
                    0 => args.extend(["-c".into(), rng.pick(CIPHERS).into()]),
                    1 => args.extend(["-m".into(), rng.pick(MODES).into()]),
                    2 | 3 => args.extend(["-K".into(), rng.pick(KEYS).into()]),
                    4 => args.extend(["--key-file".into(), rng.pick(KEY_FILES).into()]),
                    5 | 6 => args.extend(["--iv".into(), rng.pick(IVS).into()]),
                    7 => args.push("--no-pad".into()),
                    8 => args.extend(["-b".into(), rng.pick(BACKENDS).into()]),
                    9 => args.extend(["--threads".into(), rng.pick(THREADS).into()]),
                    10 | 11 => args.extend(["-o".into(), rng.pick(OUTPUTS).into()]),
                    12 => args.push(rng.pick(&["--force", "-q", "-v", "--bogus", "--"]).into()),
                    _ => args.push(rng.pick(INPUTS).into()),
                }
            }
        }
        "selftest" => {
            args.extend(["--rounds".into(), rng.pick(&["0", "1", "1001", "x"]).into()]);
            args.extend(["--max-bytes".into(), rng.pick(&["0", "64", "-5", "999999999999"]).into()]);
        }
        "bench" => {
            // Small enough to finish at once whatever else is chosen.
            args.extend(["--sizes", "16", "--runs", "1", "--min-run-ms", "0", "-q"].map(String::from));
            args.extend(["--backends".into(), rng.pick(&["cpu-serial", "gpu", "x"]).into()]);
            args.extend(["--modes".into(), rng.pick(&["ecb", "ctr,cbc", "gcm"]).into()]);
            if rng.below(3) == 0 {
                args.extend(["--json".into(), rng.pick(&["r.json", "/nonexistent/r.json", "."]).into()]);
            }
            if rng.below(4) == 0 {
                args.extend(["--threads".into(), rng.pick(THREADS).into()]);
            }
        }
        "completions" => args.push(rng.pick(&["bash", "zsh", "fish", "elvish", "powershell", "cmd"]).into()),
        _ => {}
    }
    args
}

fn fuzz_dir(dir: &Path) {
    std::fs::write(dir.join("in"), bytes(7, 1000)).unwrap();
    std::fs::write(dir.join("blocks"), bytes(8, 4096)).unwrap();
    std::fs::write(dir.join("empty"), b"").unwrap();
    std::fs::write(dir.join("k"), format!("{KEY}\n")).unwrap();
    std::fs::write(dir.join("k8"), "0001020304050607").unwrap();
    std::fs::write(dir.join("k16"), KEY16).unwrap();
    std::fs::write(dir.join("sealed"), sealed(&bytes(9, 3000))).unwrap();
}

#[test]
fn random_command_lines_never_panic_and_leave_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    fuzz_dir(dir.path());
    let mut rng = Rng(0x5eed_2026_0001);
    let started = Instant::now();
    let mut runs = 0;
    // A fixed count, with a time cap so a slow machine stays within CI's patience.
    while runs < 2000 && started.elapsed() < Duration::from_secs(30) {
        let args = random_args(&mut rng);
        let mut cmd = skinny();
        cmd.args(&args).current_dir(dir.path()).stdout(Stdio::piped());
        let o = run_with_input(cmd, &bytes(runs, 300));
        let what = format!("run {runs}: skinny {args:?}");
        no_panic(&o, &what);
        assert!(matches!(o.status.code(), Some(0..=2)), "{what}: exit {:?}, {}", o.status.code(), stderr(&o));
        if !o.status.success() {
            assert!(stderr(&o).starts_with("skinny: ") || stderr(&o).starts_with("error: "), "{what}: {}", stderr(&o));
        }
        let left: Vec<String> = listing(dir.path()).into_iter().filter(|n| n.starts_with(".skinny-")).collect();
        assert!(left.is_empty(), "{what}: temporary files left: {left:?}");
        runs += 1;
    }
    println!("{runs} command lines in {:?}", started.elapsed());
    assert!(runs >= 100, "only {runs} command lines ran in the time allowed");
}
