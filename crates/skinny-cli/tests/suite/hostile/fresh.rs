//! Hostile cases that scripts/hostile/fresh.sh once found failing: each now
//! refused or handled, with one line.

use crate::common;

use common::{bytes, run_in, skinny, stderr};
use std::process::Stdio;

const KEY: &str = "000102030405060708090a0b0c0d0e0f";

/// `skinny hash <&-`: a closed stdin is no empty input (it printed the digest
/// of nothing and exited 0).
#[test]
fn hash_refuses_a_closed_stdin() {
    let bin = skinny().get_program().to_owned();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" hash <&-")
        .arg(&bin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{e}");
    assert!(o.stdout.is_empty(), "a digest was printed");
    assert!(e.contains("stdin is closed"), "{e}");
}

/// `skinny lab merge /dev/zero` read without end (4.9 GB resident after a
/// minute); a report file over 64 MiB is refused.
#[test]
fn lab_merge_refuses_an_endless_file() {
    let o = run_in(None, &["lab", "merge", "/dev/zero"], b"");
    let e = stderr(&o);
    assert_ne!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("larger than 64 MiB"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e:?}");
}

/// `lab --threads 1024` on a small machine ran 36-39x slower than on its
/// cores; it is capped at 4 a core with a notice, as the other commands are.
#[test]
fn lab_threads_are_capped_with_a_notice() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = (cores * 4 + 1).to_string();
    let o = run_in(
        None,
        &[
            "lab",
            "differential",
            "-b",
            "cpu",
            "-c",
            "skinny-64-64",
            "--rounds",
            "2",
            "--dp",
            "0000000000000001",
            "--dc",
            "0000000000000000",
            "--queries",
            "1024",
            "--threads",
            &threads,
            "--json",
        ],
        b"",
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("more than 4 per core"), "{e}");
}

/// With RUST_MIN_STACK at 64 KiB, rayon's global pool (seal without
/// --threads) aborted a 10 MB seal; the command gives its pool the workers'
/// stack.
#[test]
fn seal_does_not_take_its_pool_stack_from_rust_min_stack() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(7, 10 << 20)).unwrap();
    let o = skinny()
        .current_dir(dir.path())
        .env("RUST_MIN_STACK", "65536")
        .args(["seal", "-K", KEY, "in", "-o", "in.sealed"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let o = skinny()
        .current_dir(dir.path())
        .env("RUST_MIN_STACK", "65536")
        .args(["open", "-K", KEY, "in.sealed", "-o", "back"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(dir.path().join("back")).unwrap() == bytes(7, 10 << 20));
}
