//! `skinny seal` and `skinny open` end to end: round trips at the chunk
//! boundaries for every member, and every kind of damage to a version-1 file
//! (made by `skinny_seal::hazmat::seal_v1_with_prefix`; `open` still reads
//! what earlier releases wrote: each byte
//! flipped, every truncation, swapped and spliced chunks, header changes, a
//! wrong key) failing with one line, exit status 1, and no output file left
//! or clobbered. Version 2 (what `seal` writes) has its own in v2.rs.

mod keys;
mod v2;

use crate::common;

use common::{assert_ok, bytes, listing, run, run_in, stderr};
use std::path::Path;
use std::process::Output;

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const OTHER_KEY: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
/// A version-1 header.
const HEADER: usize = 24;
/// A version-2 header with one key stanza: 31 bytes, the stanza (3 + 64), the MAC (32).
const V2_HEADER: usize = 31 + 3 + 64 + 32;

fn key_bytes() -> [u8; 16] {
    core::array::from_fn(|i| i as u8)
}

/// Seals `plain` with extra options, through stdin and stdout.
fn seal(plain: &[u8], extra: &[&str]) -> Vec<u8> {
    let mut args = vec!["seal", "-K", KEY, "-q"];
    args.extend_from_slice(extra);
    let o = run(&args, plain);
    assert_ok(&o, "seal");
    o.stdout
}

/// The one error line of a failed command with exit status `code`.
fn one_line(o: &Output, code: i32, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{what}: {e}");
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: "), "{what}: {e}");
    assert!(!e.contains("panicked"), "{what}: {e}");
    e
}

/// Opens `sealed` (written to `dir/in`) into `dir/out` with `key`: it must fail
/// with one line and exit 1, and leave the folder as it was (an `out` that
/// existed keeps its content, none is created).
fn open_must_fail(dir: &Path, sealed: &[u8], key: &str, what: &str) -> String {
    std::fs::write(dir.join("in"), sealed).unwrap();
    let before = listing(dir);
    let old = std::fs::read(dir.join("out")).ok();
    let o = run_in(Some(dir), &["open", "-K", key, "-q", "in", "-o", "out"], b"");
    let e = one_line(&o, 1, what);
    assert_eq!(listing(dir), before, "{what}: files changed");
    assert_eq!(std::fs::read(dir.join("out")).ok(), old, "{what}: output changed");
    assert!(o.stdout.is_empty(), "{what}");
    e
}

#[test]
fn round_trips_at_every_boundary_and_every_member() {
    let dir = tempfile::tempdir().unwrap();
    for member in ["m1", "m2", "m3", "m4", "m5", "m6"] {
        for n in [0usize, 1, 1023, 1024, 1025, 5 * 1024 + 3] {
            let plain = bytes(n as u64, n);
            std::fs::write(dir.path().join("plain"), &plain).unwrap();
            let o = run_in(
                Some(dir.path()),
                &["seal", "--member", member, "--chunk-size", "1K", "--key", KEY, "plain", "-o", "sealed"],
                b"",
            );
            assert_ok(&o, "seal to a file");
            let file = std::fs::read(dir.path().join("sealed")).unwrap();
            assert_eq!(file[10..12], [2, member[1..].parse::<u8>().unwrap()], "version 2, scheme id");
            // The library opens what the command sealed...
            let scheme = skinny_seal::Scheme::from_id(file[11]).unwrap();
            let options = skinny_seal::OpenOptions {
                allow_short_tag_scheme: Some(scheme).filter(|s| s.short_tag()),
                ..Default::default()
            };
            let key = skinny_seal::SymmetricKey::from_bytes(&key_bytes()).unwrap();
            let mut lib = Vec::new();
            skinny_seal::open(&file[..], &mut lib, &[&key], &options).unwrap();
            assert_eq!(lib, plain, "{member} {n}");
            // ... and the command, to a file and to stdout (a 64-bit tag named).
            let o = run_in(Some(dir.path()), &["open", "-K", KEY, "--aead", member, "sealed", "-o", "back"], b"");
            assert_ok(&o, "open to a file");
            assert_eq!(std::fs::read(dir.path().join("back")).unwrap(), plain, "{member} {n}");
            let o = run(&["open", "-K", KEY, "--aead", member], &file);
            assert_ok(&o, "open from stdin");
            assert_eq!(o.stdout, plain, "{member} {n}");
        }
    }
    assert_eq!(listing(dir.path()), ["back", "plain", "sealed"]);
}

#[test]
fn default_chunks_through_pipes_and_key_files() {
    let dir = tempfile::tempdir().unwrap();
    let plain = bytes(9, (64 << 10) * 3 + 100);
    let hex_key = dir.path().join("key.hex");
    std::fs::write(&hex_key, format!("{KEY}\n")).unwrap();
    let raw_key = dir.path().join("key.bin");
    std::fs::write(&raw_key, key_bytes()).unwrap();
    let o = run(&["seal", "--key-file", hex_key.to_str().unwrap(), "--threads", "2"], &plain);
    assert_ok(&o, "seal");
    assert_eq!(o.stdout.len(), V2_HEADER + plain.len() + 4 * 16);
    assert_eq!(o.stdout[12], 16, "64 KiB chunks by default");
    let back = run(&["open", "--key-file", raw_key.to_str().unwrap(), "--threads", "1"], &o.stdout);
    assert_ok(&back, "open");
    assert_eq!(back.stdout, plain);
    // Two seals of the same input differ (a fresh random prefix).
    assert_ne!(seal(b"x", &[]), seal(b"x", &[]));
}

/// A version-1 file of `plain` in chunks of 16 bytes, as the old `seal` wrote
/// (M1, the nonce prefix `prefix` repeated: the old `seal` drew it at random).
fn v1_sealed_with(plain: &[u8], prefix: u8) -> Vec<u8> {
    let options = skinny_seal::SealOptions { chunk_log2: 4, ..Default::default() };
    let mut out = Vec::new();
    skinny_seal::hazmat::seal_v1_with_prefix(plain, &mut out, &key_bytes(), &options, &[prefix; 11]).unwrap();
    out
}

/// A version-1 file of `plain` in chunks of 16 bytes.
fn v1_sealed(plain: &[u8]) -> Vec<u8> {
    v1_sealed_with(plain, 0x11)
}

/// A small version-1 file: chunks of 16 bytes, three full ones and a last one of 5.
fn small() -> (Vec<u8>, Vec<u8>) {
    let plain = bytes(3, 53);
    (v1_sealed(&plain), plain)
}

#[test]
fn every_flipped_byte_fails_and_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = small();
    assert_eq!(file.len(), HEADER + 53 + 4 * 16);
    for i in 0..file.len() {
        let mut bad = file.clone();
        bad[i] ^= 0x10;
        // Half the runs with an existing output file that must stay as it was.
        if i % 2 == 0 {
            std::fs::write(dir.path().join("out"), b"keep me").unwrap();
        } else {
            let _ = std::fs::remove_file(dir.path().join("out"));
        }
        open_must_fail(dir.path(), &bad, KEY, &format!("byte {i} flipped"));
    }
}

#[test]
fn every_truncation_fails_and_boundaries_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = small();
    for cut in 0..file.len() {
        let e = open_must_fail(dir.path(), &file[..cut], KEY, &format!("cut at {cut}"));
        if cut > HEADER && (cut - HEADER).is_multiple_of(32) {
            assert!(e.contains("truncated"), "cut at {cut}: {e}");
        }
    }
}

#[test]
fn swapped_spliced_appended_and_reheaded_chunks_fail() {
    let dir = tempfile::tempdir().unwrap();
    let (file, plain) = small();
    // Another file under the same key (with its own prefix, as every file).
    let other = v1_sealed_with(&plain, 0x22);
    let chunk = |f: &[u8], i: usize| f[HEADER + 32 * i..HEADER + 32 * (i + 1)].to_vec();
    let mut swapped = file[..HEADER].to_vec();
    swapped.extend(chunk(&file, 1));
    swapped.extend(chunk(&file, 0));
    swapped.extend(&file[HEADER + 64..]);
    let e = open_must_fail(dir.path(), &swapped, KEY, "swapped");
    assert!(e.contains("authentication failed: wrong key or damaged/tampered file"), "{e}");
    let mut spliced = file.clone();
    spliced[HEADER + 32..HEADER + 64].copy_from_slice(&chunk(&other, 1));
    open_must_fail(dir.path(), &spliced, KEY, "spliced");
    let mut reheaded = other[..HEADER].to_vec();
    reheaded.extend(&file[HEADER..]);
    open_must_fail(dir.path(), &reheaded, KEY, "another file's header");
    let mut appended = file.clone();
    appended.extend(chunk(&other, 0));
    open_must_fail(dir.path(), &appended, KEY, "appended");
    let mut dropped = file[..HEADER + 32].to_vec();
    dropped.extend(&file[HEADER + 64..]);
    open_must_fail(dir.path(), &dropped, KEY, "dropped chunk");
}

#[test]
fn header_changes_and_a_wrong_key_fail() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = small();
    for (at, value) in [(0usize, b'x'), (10, 2), (11, 2), (11, 0), (12, 5), (12, 40), (13, 0), (23, 1)] {
        let mut bad = file.clone();
        bad[at] = if bad[at] == value { value ^ 1 } else { value };
        open_must_fail(dir.path(), &bad, KEY, &format!("header byte {at}"));
    }
    let e = open_must_fail(dir.path(), &file, OTHER_KEY, "wrong key");
    assert!(e.contains("authentication failed: wrong key or damaged/tampered file"), "{e}");
    assert!(!e.to_lowercase().contains(OTHER_KEY) && !e.contains(KEY), "{e}");
    let e = open_must_fail(dir.path(), b"plain text, not sealed", KEY, "not sealed");
    assert!(e.contains("not a sealed file"), "{e}");
    open_must_fail(dir.path(), b"", KEY, "empty");
}

#[test]
fn to_stdout_only_verified_chunks_come_out() {
    // Chunk 3 of 8 damaged: what came out is a prefix of the plaintext, ending
    // at a chunk boundary no later than the damaged chunk.
    let plain = bytes(4, 8 * 16);
    let mut file = v1_sealed(&plain);
    file[HEADER + 3 * 32 + 5] ^= 1;
    let o = run(&["open", "-K", KEY], &file);
    one_line(&o, 1, "damaged chunk to stdout");
    assert!(o.stdout.len() <= 3 * 16 && o.stdout.len().is_multiple_of(16), "{} bytes", o.stdout.len());
    assert_eq!(o.stdout, plain[..o.stdout.len()]);
}

#[test]
fn usage_errors_exit_2_and_create_nothing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), b"data").unwrap();
    for args in [
        vec!["seal", "in", "-o", "out"],
        vec!["seal", "-K", "0011", "in", "-o", "out"],
        vec!["seal", "-K", KEY, "--key-file", "k", "in", "-o", "out"],
        vec!["seal", "-K", KEY, "--chunk-size", "3K", "in", "-o", "out"],
        vec!["seal", "-K", KEY, "--chunk-size", "32M", "in", "-o", "out"],
        vec!["seal", "-K", KEY, "--chunk-size", "8", "in", "-o", "out"],
        vec!["seal", "-K", KEY, "--member", "m7", "in", "-o", "out"],
        vec!["open", "-K", "000102030405060708090a0b0c0d0e0f10", "in", "-o", "out"],
        vec!["open", "--chunk-size", "1K", "-K", KEY, "in", "-o", "out"],
        vec!["seal", "-K", KEY, "--chunk-size", "512", "in", "-o", "out"],
    ] {
        let o = run_in(Some(dir.path()), &args, b"");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}");
        assert_eq!(listing(dir.path()), ["in"], "{args:?}");
    }
    // Our own messages are one line; the key never appears in them.
    let o = run_in(Some(dir.path()), &["seal", "-K", "0011", "in", "-o", "out"], b"");
    let e = one_line(&o, 2, "short key");
    assert!(e.contains("16-byte key") && !e.contains("0011"), "{e}");
}

#[test]
fn a_failed_seal_keeps_the_existing_output() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out"), b"old").unwrap();
    let o = run_in(Some(dir.path()), &["seal", "-K", KEY, "missing", "-o", "out"], b"");
    one_line(&o, 1, "missing input");
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), b"old");
    assert_eq!(listing(dir.path()), ["out"]);
}

#[test]
fn a_signal_during_open_leaves_no_file_and_the_old_output() {
    use std::io::Write;
    use std::process::Stdio;
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let ignored = status
        .lines()
        .find_map(|l| l.strip_prefix("SigIgn:"))
        .and_then(|m| u64::from_str_radix(m.trim(), 16).ok())
        .is_some_and(|m| m & (1 << (15 - 1)) != 0);
    if ignored {
        println!("skip: SIGTERM is ignored in this test's environment");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("out"), b"old").unwrap();
    let file = seal(&bytes(8, 1 << 20), &["--chunk-size", "1K"]);
    // A named temporary file, as on a file system without O_TMPFILE (where
    // there is one, nothing is named before it is whole: tests/signals.rs).
    let mut child = common::skinny()
        .args(["open", "-K", KEY, "-q", "-o", "out"])
        .env("SKINNY_NAMED_TEMP_FILES", "1")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    // Half the file, then the pipe stays open: `open` is mid-stream, with
    // verified chunks in its temporary file.
    stdin.write_all(&file[..file.len() / 2]).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !listing(dir.path()).iter().any(|n| n.starts_with(".skinny-")) {
        assert!(std::time::Instant::now() < deadline, "no temporary file appeared");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    let killed = std::process::Command::new("sh").arg("-c").arg(format!("kill -TERM {}", child.id())).status().unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    drop(stdin);
    // Ended by the signal itself (a shell shows 128 + 15).
    assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(15), "{status:?}");
    assert_eq!(listing(dir.path()), ["out"]);
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), b"old");
}

/// `--backend`: `gpu` with chunks under 16K is a usage error (exit 2, one line,
/// no output) to seal and to open, with or without a GPU; `auto` says with
/// `-v` why it stayed on the CPU; `cpu` and `auto` open what the other sealed.
#[test]
fn backends_choose_and_refuse_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let plain = bytes(77, 100_000);
    std::fs::write(dir.path().join("in"), &plain).unwrap();
    let o = run_in(Some(dir.path()), &["seal", "-K", KEY, "-b", "gpu", "--chunk-size", "4K", "in", "-o", "out"], b"");
    let e = one_line(&o, 2, "gpu, 4K chunks");
    assert!(e.contains("16K") && e.contains("--backend cpu"), "{e}");
    assert_eq!(listing(dir.path()), ["in"]);

    let small_chunks = seal(&plain, &["--chunk-size", "4K", "-b", "cpu"]);
    std::fs::write(dir.path().join("sealed"), &small_chunks).unwrap();
    let o = run_in(Some(dir.path()), &["open", "-K", KEY, "-b", "gpu", "sealed", "-o", "out"], b"");
    let e = one_line(&o, 2, "open on gpu, 4K chunks");
    assert!(e.contains("this file's chunks are 4096 bytes"), "{e}");
    assert_eq!(listing(dir.path()), ["in", "sealed"]);

    let o = run_in(Some(dir.path()), &["open", "-K", KEY, "-v", "sealed", "-o", "out"], b"");
    assert_ok(&o, "auto open, 4K chunks");
    assert!(stderr(&o).contains("auto: chunks under 16K; using the CPU"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), plain);

    let o = run_in(Some(dir.path()), &["seal", "-K", KEY, "-v", "in", "-o", "auto.sealed"], b"");
    assert_ok(&o, "auto seal");
    assert!(stderr(&o).contains("auto: input under 512 MiB; using the CPU"), "{}", stderr(&o));
    let o = run_in(Some(dir.path()), &["open", "-K", KEY, "-b", "cpu", "auto.sealed"], b"");
    assert_ok(&o, "cpu open");
    assert_eq!(o.stdout, plain);
}
