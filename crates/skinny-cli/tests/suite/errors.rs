//! Bad input end to end: each case must exit non-zero with exactly one line on
//! stderr (`skinny: ...`), leave an existing output file untouched, and leave no
//! temporary file behind.

use crate::common;

use common::{bytes, library, listing, run_in, stderr};
use skinny::Variant;
use skinny_bulk::mode::{Direction, Mode};
use std::path::Path;

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
const SENTINEL: &[u8] = b"sentinel: must survive every failure";

/// A directory with `in` (1000 bytes, not whole blocks), `blocks` (64 bytes),
/// `out` (the sentinel), `hexkey` and `short.key`.
fn workdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 1000)).unwrap();
    std::fs::write(dir.path().join("blocks"), bytes(2, 64)).unwrap();
    std::fs::write(dir.path().join("out"), SENTINEL).unwrap();
    std::fs::write(dir.path().join("hexkey"), format!("{KEY}\n")).unwrap();
    std::fs::write(dir.path().join("short.key"), "0011223344\n").unwrap();
    dir
}

/// Runs `args` in a fresh work directory (stdin `stdin`) and checks the failure
/// contract; returns the one stderr line. `-o out` is the output unless the
/// case names its own.
fn fails(args: &[&str], stdin: &[u8], expect: &str) -> String {
    let dir = workdir();
    fails_in(dir.path(), args, stdin, expect)
}

fn fails_in(dir: &Path, args: &[&str], stdin: &[u8], expect: &str) -> String {
    let before = listing(dir);
    let mut full: Vec<&str> = args.to_vec();
    if !args.contains(&"-o") {
        full.extend(["-o", "out"]);
    }
    let o = run_in(Some(dir), &full, stdin);
    let err = stderr(&o);
    assert!(!o.status.success(), "{args:?} succeeded; stderr: {err}");
    assert!(o.status.code().is_some_and(|c| c == 1 || c == 2), "{args:?}: exit {:?} (a signal or panic?)", o.status);
    assert_eq!(err.lines().count(), 1, "{args:?}: not one line on stderr:\n{err}");
    assert!(err.starts_with("skinny: "), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.to_lowercase().contains(&expect.to_lowercase()), "{args:?}: expected '{expect}' in: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: wrote to stdout");
    assert_eq!(std::fs::read(dir.join("out")).unwrap(), SENTINEL, "{args:?}: output clobbered");
    assert_eq!(listing(dir), before, "{args:?}: files left behind or removed");
    err
}

/// A refusal by clap itself (names, numeric ranges): exit 2 and clap's message,
/// which names the option and what it accepts; nothing written or created.
fn refused_by_clap(args: &[&str], expect: &str) {
    let dir = workdir();
    let before = listing(dir.path());
    let mut full: Vec<&str> = args.to_vec();
    full.extend(["-o", "out"]);
    let o = run_in(Some(dir.path()), &full, b"");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: ") && err.contains(expect), "{args:?}: expected '{expect}' in: {err}");
    assert!(o.stdout.is_empty(), "{args:?}: wrote to stdout");
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), SENTINEL, "{args:?}: output clobbered");
    assert_eq!(listing(dir.path()), before, "{args:?}: files left behind or removed");
}

#[test]
fn unknown_cipher_mode_and_backend() {
    refused_by_clap(
        &["encrypt", "-c", "skinny-128-512", "-K", KEY, "--iv", IV, "in"],
        "invalid value 'skinny-128-512' for '--cipher <CIPHER>'",
    );
    refused_by_clap(
        &["encrypt", "-m", "xts", "-K", KEY, "--iv", IV, "in"],
        "[possible values: ecb, ctr, cbc, cfb, ofb]",
    );
    refused_by_clap(
        &["decrypt", "-b", "tpu", "-K", KEY, "--iv", IV, "in"],
        "invalid value 'tpu' for '--backend <BACKEND>'",
    );
}

#[test]
fn bad_keys() {
    let e = fails(
        &["encrypt", "-K", "zz0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "--iv", IV, "in"],
        b"",
        "not hex",
    );
    assert!(!e.contains("zz"), "the key must not be echoed: {e}");
    fails(&["encrypt", "-K", "abc", "--iv", IV, "in"], b"", "odd number of hex digits");
    let e = fails(&["encrypt", "-K", "00112233445566778899aabbccddeeff", "--iv", IV, "in"], b"", "32-byte key");
    assert!(!e.contains("00112233"), "the key must not be echoed: {e}");
    fails(&["encrypt", "-c", "skinny-64-64", "-K", KEY, "-m", "ecb", "in"], b"", "8-byte key");
    fails(&["encrypt", "--iv", IV, "in"], b"", "key is required");
    fails(&["encrypt", "-K", KEY, "--key-file", "hexkey", "--iv", IV, "in"], b"", "not both");
    fails(&["encrypt", "--key-file", "short.key", "--iv", IV, "in"], b"", "32 raw bytes or 64 hex digits");
    fails(&["encrypt", "--key-file", "no-such.key", "--iv", IV, "in"], b"", "cannot read key file");
}

#[test]
fn bad_ivs_and_padding_options() {
    fails(&["encrypt", "-K", KEY, "in"], b"", "needs an IV");
    fails(&["encrypt", "-m", "cbc", "-K", KEY, "in"], b"", "needs an IV");
    fails(&["encrypt", "-m", "ecb", "-K", KEY, "--iv", IV, "in"], b"", "takes no IV");
    fails(&["encrypt", "-K", KEY, "--iv", "00112233", "in"], b"", "16-byte IV");
    fails(&["encrypt", "-c", "skinny-64-128", "-K", KEY, "--iv", IV, "in"], b"", "16-byte key");
    fails(&["encrypt", "-c", "skinny-64-128", "-K", &KEY[..32], "--iv", IV, "in"], b"", "8-byte IV");
    fails(&["encrypt", "-K", KEY, "--iv", "0g", "in"], b"", "not hex");
    for mode in ["ctr", "cfb", "ofb"] {
        fails(&["encrypt", "-m", mode, "--no-pad", "-K", KEY, "--iv", IV, "in"], b"", "--no-pad applies only");
    }
}

#[test]
fn input_not_whole_blocks() {
    // A file of known length is refused before anything is written...
    fails(&["encrypt", "-m", "ecb", "--no-pad", "-K", KEY, "in"], b"", "not a whole number");
    fails(&["encrypt", "-m", "cbc", "--no-pad", "-K", KEY, "--iv", IV, "in"], b"", "not a whole number");
    fails(&["decrypt", "-m", "cbc", "-K", KEY, "--iv", IV, "in"], b"", "not a whole number");
    fails(&["decrypt", "-m", "ecb", "-K", KEY, "in"], b"", "not a whole number");
    // ...and a pipe at its end, after output went to the temporary file.
    let big = bytes(3, 5 << 20 | 7);
    fails(&["encrypt", "-m", "ecb", "--no-pad", "-b", "cpu", "-K", KEY], &big, "not a whole number");
    fails(&["decrypt", "-m", "cbc", "-b", "cpu", "-K", KEY, "--iv", IV], &big, "not a whole number");
}

#[test]
fn bad_padding_on_decryption() {
    let key = hex::decode(KEY).unwrap();
    let iv = hex::decode(IV).unwrap();
    // Ciphertext whose last plaintext block ends in 0x00: never valid PKCS#7.
    let mut plain = bytes(4, 6 << 20);
    let n = plain.len();
    plain[n - 1] = 0;
    for (mode, iv) in [(Mode::Ecb, None), (Mode::Cbc, Some(iv.as_slice()))] {
        let ct = library(Variant::Skinny128_256, mode, Direction::Encrypt, &key, iv, false, &plain).unwrap();
        let mut args = vec!["decrypt", "-m", mode.name(), "-b", "cpu", "-K", KEY];
        if iv.is_some() {
            args.extend(["--iv", IV]);
        }
        // From a pipe: several chunks are written to the temporary file first.
        fails(&args, &ct, "bad padding");
        // From a file.
        let dir = workdir();
        std::fs::write(dir.path().join("ct"), &ct).unwrap();
        args.push("ct");
        fails_in(dir.path(), &args, b"", "bad padding");
    }
    // An empty input has no padding block at all.
    fails(&["decrypt", "-m", "ecb", "-K", KEY], b"", "bad padding");
}

#[test]
fn unreadable_input_and_unwritable_output() {
    fails(&["encrypt", "-K", KEY, "--iv", IV, "missing-file"], b"", "cannot read input missing-file");
    fails(&["encrypt", "-K", KEY, "--iv", IV, "."], b"", "is a directory");
    let e = fails(&["encrypt", "-K", KEY, "--iv", IV, "in", "-o", "no-such-dir/out"], b"", "cannot write output");
    assert!(e.contains("no-such-dir/out"), "{e}");
    fails(&["encrypt", "-K", KEY, "--iv", IV, "in", "-o", "."], b"", "is a directory");
}

#[test]
fn same_file_as_input_and_output() {
    let dir = workdir();
    let d = dir.path();
    // The output file itself is the input (the sentinel stays).
    fails_in(d, &["encrypt", "-K", KEY, "--iv", IV, "out", "-o", "out"], b"", "same file");
    fails_in(d, &["encrypt", "-K", KEY, "--iv", IV, "out", "-o", "./out"], b"", "same file");
    std::fs::hard_link(d.join("out"), d.join("hardlink")).unwrap();
    std::os::unix::fs::symlink(d.join("out"), d.join("symlink")).unwrap();
    fails_in(d, &["encrypt", "-K", KEY, "--iv", IV, "hardlink", "-o", "out"], b"", "same file");
    fails_in(d, &["encrypt", "-K", KEY, "--iv", IV, "symlink", "-o", "out"], b"", "same file");
    fails_in(d, &["encrypt", "-K", KEY, "--iv", IV, "out", "-o", "symlink"], b"", "same file");
    // stdin redirected from the output file.
    let before = listing(d);
    let o = common::skinny()
        .current_dir(d)
        .args(["encrypt", "-K", KEY, "--iv", IV, "-o", "out"])
        .stdin(std::fs::File::open(d.join("out")).unwrap())
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("same file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(d.join("out")).unwrap(), SENTINEL);
    assert_eq!(listing(d), before);
    // stdout appending to the input file (`>>`), which would never end.
    let o = common::skinny()
        .current_dir(d)
        .args(["encrypt", "-K", KEY, "--iv", IV, "out"])
        .stdout(std::fs::OpenOptions::new().append(true).open(d.join("out")).unwrap())
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("same file"), "{}", stderr(&o));
    assert_eq!(std::fs::read(d.join("out")).unwrap(), SENTINEL);
}

#[test]
fn unusable_backends_and_threads() {
    if skinny_bulk::backend::describe_gpus().is_err() {
        fails(&["encrypt", "-b", "gpu", "-K", KEY, "--iv", IV, "in"], b"", "cannot use backend gpu");
        fails(&["encrypt", "-b", "gpu-paper", "-K", KEY, "--iv", IV, "in"], b"", "cannot use backend gpu-paper");
    }
    refused_by_clap(&["encrypt", "-b", "cpu", "--threads", "0", "-K", KEY, "--iv", IV, "in"], "0 is not in 1..=1024");
}

#[test]
fn binary_output_to_a_terminal_needs_force() {
    // `script` (util-linux) runs the command on a pseudo-terminal.
    if std::process::Command::new("script").arg("--version").output().is_err() {
        eprintln!("skip: no `script` command to give skinny a terminal");
        return;
    }
    let dir = workdir();
    let bin = env!("CARGO_BIN_EXE_skinny");
    let on_tty = |extra: &str| {
        let cmd = format!("'{bin}' encrypt -q -m ecb -K {KEY} {extra} in");
        std::process::Command::new("script").current_dir(dir.path()).args(["-qec", &cmd, "/dev/null"]).output().unwrap()
    };
    let o = on_tty("");
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(!o.status.success(), "{shown}");
    assert!(shown.contains("skinny: refusing to write binary output to a terminal"), "{shown}");
    assert_eq!(shown.trim().lines().count(), 1, "{shown}");
    let o = on_tty("--force");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}
