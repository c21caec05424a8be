//! `skinny lab` as a new user meets it: the help's example finds its
//! differential, notices to a full stderr do not stop a run, and messages
//! show the lab's public hex (seeds, file names) as it is.

use crate::common;

use common::{run, stderr};
use std::process::{Command, Stdio};

/// The first example under `skinny lab --help`, its continuation lines
/// joined, as arguments after `skinny`.
fn help_example() -> Vec<String> {
    let out = run(&["lab", "--help"], b"");
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let mut lines = help.lines().skip_while(|l| !l.trim_start().starts_with("skinny lab differential"));
    let mut command = String::new();
    for l in lines.by_ref() {
        let l = l.trim();
        command.push_str(l.trim_end_matches('\\'));
        command.push(' ');
        if !l.ends_with('\\') {
            break;
        }
    }
    command.split_whitespace().skip(1).map(str::to_string).collect()
}

#[test]
fn the_help_example_finds_its_differential() {
    let mut args = help_example();
    assert!(args.iter().any(|a| a == "--dc"), "{args:?}");
    // The same experiment on 2^16 queries (the example's 2^24 take longer
    // than a test should).
    let q = args.iter().position(|a| a == "--queries").unwrap();
    args[q + 1] = "65536".into();
    args.push("--json".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args, b"");
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let log2_p = v["log2_p"].as_f64().expect("hits");
    assert!((log2_p + 2.0).abs() < 0.1, "the example's differential has p = 2^-2: {log2_p}");
}

#[test]
fn a_notice_to_a_full_stderr_does_not_stop_the_run() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        println!("skip: no /dev/full here");
        return;
    };
    // More threads than the machine has: the lab says it capped them.
    let out = Command::new(env!("CARGO_BIN_EXE_skinny"))
        .args(["lab", "differential", "-c", "skinny-64-64", "--rounds", "1", "--dp", "1000000000000000"])
        .args(["--dc", "8000800000008000", "--queries", "4096", "--threads", "999"])
        .stdin(Stdio::null())
        .stderr(full)
        .output()
        .unwrap();
    assert!(out.status.success(), "exit {:?}", out.status.code());
    assert!(String::from_utf8_lossy(&out.stdout).contains("hits"));
}

#[test]
fn public_hex_is_shown_as_it_is() {
    // A seed of 21 digits (too large) and a checkpoint named by 20 hex
    // digits: the lab takes no secret, so neither is masked.
    let out = run(
        &[
            "lab",
            "differential",
            "-c",
            "skinny-64-64",
            "--rounds",
            "1",
            "--dp",
            "1",
            "--dc",
            "1",
            "--queries",
            "16",
            "--seed",
            "123456789012345678901",
        ],
        b"",
    );
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(e.contains("123456789012345678901") && !e.contains("hidden"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    // A directory where the checkpoint should be: it cannot be read.
    let name = dir.path().join("0123456789abcdef0123.ckpt");
    std::fs::create_dir(&name).unwrap();
    let out = run(
        &[
            "lab",
            "differential",
            "-c",
            "skinny-64-64",
            "--rounds",
            "1",
            "--dp",
            "1000000000000000",
            "--dc",
            "8000800000008000",
            "--queries",
            "4096",
            "--checkpoint",
            name.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(e.contains("0123456789abcdef0123") && !e.contains("hidden"), "{e}");
}

#[test]
fn commands_with_secrets_still_mask_key_like_hex() {
    let key = "000102030405060708090a0b0c0d0e0f";
    let out = run(&["seal", "--key-file", key, "/dev/null"], b"");
    assert!(!out.status.success());
    let e = stderr(&out);
    assert!(!e.contains(key) && e.contains("<hex hidden>"), "{e}");
}
