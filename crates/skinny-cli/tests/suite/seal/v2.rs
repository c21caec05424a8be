//! `skinny seal` (format v2) and `skinny open` end to end: a round trip for
//! each kind of key (a keygen key, a version-1 16-byte key, a passphrase from
//! a descriptor, X25519 recipients and identities), each refusal in one line
//! with exit status != 0 and no output file left, `--offset/--length`, a
//! version-1 file still opening, and printable plaintext shown on a terminal.

use crate::common;

use common::{assert_ok, bytes, listing, run_in, stderr};
use std::path::Path;
use std::process::Output;

/// The one error line of a failed command (exit status != 0).
fn one_line(o: &Output, what: &str) -> String {
    let e = stderr(o);
    assert_ne!(o.status.code(), Some(0), "{what}: {e}");
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: ") && !e.contains("panicked"), "{what}: {e}");
    e
}

/// Runs `args` in `dir`, which must fail in one line and leave `dir` as it
/// was (no output file): the line.
fn must_fail(dir: &Path, args: &[&str], what: &str) -> String {
    let before = listing(dir);
    let o = run_in(Some(dir), args, b"");
    let e = one_line(&o, what);
    assert_eq!(listing(dir), before, "{what}: files changed");
    assert!(o.stdout.is_empty(), "{what}");
    e
}

/// `skinny args` through `sh`, with `pass` (a file in `dir`) as descriptor 3.
fn with_fd3(dir: &Path, args: &[&str], pass: &str) -> Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\" 3< {pass}"))
        .arg(env!("CARGO_BIN_EXE_skinny"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap()
}

/// A folder with `plain` (5000 bytes), a keygen key `k`, an X25519 identity
/// `me.id` (its recipient returned) and another, `you.id`.
fn setup() -> (tempfile::TempDir, Vec<u8>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let plain = bytes(21, 5000);
    std::fs::write(dir.path().join("plain"), &plain).unwrap();
    assert_ok(&run_in(Some(dir.path()), &["keygen", "-o", "k"], b""), "keygen");
    let me = run_in(Some(dir.path()), &["keygen", "--x25519", "-o", "me.id"], b"");
    assert_ok(&me, "keygen --x25519");
    let you = run_in(Some(dir.path()), &["keygen", "--x25519", "-o", "you.id"], b"");
    assert_ok(&you, "keygen --x25519");
    let r = |o: Output| String::from_utf8(o.stdout).unwrap().trim().to_string();
    (dir, plain, r(me), r(you))
}

/// Seals `plain` in `dir` into `name` with `keys`, opens it with `open_keys`
/// and checks the round trip.
fn round_trip(dir: &Path, plain: &[u8], name: &str, keys: &[&str], open_keys: &[&str]) {
    let mut seal = vec!["seal", "-q", "--chunk-size", "1K", "plain", "-o", name];
    seal.extend_from_slice(keys);
    assert_ok(&run_in(Some(dir), &seal, b""), &format!("seal {keys:?}"));
    let file = std::fs::read(dir.join(name)).unwrap();
    assert_eq!(&file[..11], b"SKINNYSEAL\x02", "version 2");
    let mut open = vec!["open", "-q", name, "-o", "back"];
    open.extend_from_slice(open_keys);
    assert_ok(&run_in(Some(dir), &open, b""), &format!("open {open_keys:?}"));
    assert_eq!(std::fs::read(dir.join("back")).unwrap(), plain, "{keys:?}");
    std::fs::remove_file(dir.join("back")).unwrap();
}

#[test]
fn every_kind_of_key_round_trips() {
    let (dir, plain, me, you) = setup();
    let d = dir.path();
    round_trip(d, &plain, "a.sealed", &["--key-file", "k"], &["--key-file", "k"]);
    std::fs::write(d.join("old.key"), "000102030405060708090a0b0c0d0e0f\n").unwrap();
    round_trip(d, &plain, "b.sealed", &["--key-file", "old.key"], &["-K", "000102030405060708090a0b0c0d0e0f"]);
    round_trip(d, &plain, "c.sealed", &["-r", &me], &["-i", "me.id"]);
    round_trip(d, &plain, "d.sealed", &["-r", &me, "-r", &you], &["-i", "you.id"]);
    round_trip(d, &plain, "d2.sealed", &["-r", &you, "--key-file", "k"], &["--key-file", "k"]);
    round_trip(d, &plain, "e.sealed", &["--key-file", "k", "--aead", "romulus-m"], &["--key-file", "k"]);
    round_trip(
        d,
        &plain,
        "f.sealed",
        &["--key-file", "k", "--context", "backup 7"],
        &["--key-file", "k", "--context", "backup 7"],
    );
    // --key-file - with a named input.
    let key = std::fs::read(d.join("k")).unwrap();
    let o = run_in(Some(d), &["seal", "-q", "--key-file", "-", "plain", "-o", "g.sealed"], &key);
    assert_ok(&o, "--key-file -");
    let o = run_in(Some(d), &["open", "-q", "--key-file", "-", "g.sealed"], &key);
    assert_ok(&o, "open --key-file -");
    assert_eq!(o.stdout, plain);
    // A passphrase from descriptor 3.
    std::fs::write(d.join("pass"), "correct horse\n").unwrap();
    std::fs::write(d.join("wrong"), "wrong horse\n").unwrap();
    let o = with_fd3(d, &["seal", "-q", "--passphrase-fd", "3", "plain", "-o", "p.sealed"], "pass");
    assert_ok(&o, "seal --passphrase-fd");
    let o = with_fd3(d, &["open", "-q", "--passphrase-fd", "3", "p.sealed", "-o", "back"], "pass");
    assert_ok(&o, "open --passphrase-fd");
    assert_eq!(std::fs::read(d.join("back")).unwrap(), plain);
    std::fs::remove_file(d.join("back")).unwrap();
    let before = listing(d);
    let o = with_fd3(d, &["open", "-q", "--passphrase-fd", "3", "p.sealed", "-o", "back"], "wrong");
    let e = one_line(&o, "wrong passphrase");
    assert!(e.contains("no key given opens this file"), "{e}");
    assert_eq!(listing(d), before);
    // A passphrase with another key is refused before anything is read.
    let o = with_fd3(d, &["seal", "--passphrase-fd", "3", "--key-file", "k", "plain", "-o", "x"], "pass");
    assert!(one_line(&o, "passphrase and key").contains("only key"));
    assert_eq!(listing(d), before);
}

#[test]
fn refusals_are_one_line_and_leave_no_output() {
    let (dir, _, me, _) = setup();
    let d = dir.path();
    assert_ok(&run_in(Some(d), &["keygen", "-o", "k2"], b""), "keygen");
    let seal = |args: &[&str]| {
        let mut all = vec!["seal", "-q", "--chunk-size", "1K", "plain"];
        all.extend_from_slice(args);
        assert_ok(&run_in(Some(d), &all, b""), &format!("{args:?}"));
    };
    seal(&["--key-file", "k", "-o", "k.sealed"]);
    seal(&["-r", &me, "-o", "r.sealed"]);
    seal(&["--key-file", "k", "--context", "ctx", "-o", "c.sealed"]);
    seal(&["--key-file", "k", "--aead", "m3", "-o", "m3.sealed"]);
    let e = must_fail(d, &["open", "--key-file", "k2", "k.sealed", "-o", "out"], "wrong key");
    assert!(e.contains("no key given opens this file"), "{e}");
    must_fail(d, &["open", "--key-file", "k", "r.sealed", "-o", "out"], "missing identity");
    must_fail(d, &["open", "-i", "you.id", "r.sealed", "-o", "out"], "another identity");
    let e = must_fail(d, &["open", "--key-file", "k", "c.sealed", "-o", "out"], "missing context");
    assert!(e.contains("--context"), "{e}");
    must_fail(d, &["open", "--key-file", "k", "--context", "other", "c.sealed", "-o", "out"], "wrong context");
    let e = must_fail(d, &["open", "--key-file", "k", "m3.sealed", "-o", "out"], "64-bit tag");
    assert!(e.contains("64-bit tag") && e.contains("--aead m3"), "{e}");
    assert_ok(
        &run_in(Some(d), &["open", "-q", "--key-file", "k", "--aead", "m3", "m3.sealed", "-o", "m3.out"], b""),
        "m3",
    );
    std::fs::remove_file(d.join("m3.out")).unwrap();
    let e = must_fail(d, &["open", "--key-file", "k", "--aead", "m2", "k.sealed", "-o", "out"], "another scheme named");
    assert!(e.contains("this file uses") && e.contains("--aead m1"), "{e}");
    // To standard output too: refused from the header, before any plaintext.
    let e = must_fail(d, &["open", "--key-file", "k", "--aead", "m2", "k.sealed"], "another scheme, to stdout");
    assert!(e.contains("nothing was written"), "{e}");
    // The scheme byte relabelled (M1 to M3): refused even with --aead m3.
    let mut file = std::fs::read(d.join("k.sealed")).unwrap();
    file[11] = 3;
    std::fs::write(d.join("relabelled"), &file).unwrap();
    must_fail(d, &["open", "--key-file", "k", "--aead", "m3", "relabelled", "-o", "out"], "relabelled");
    // Truncated anywhere (header, chunk, boundary), and a flipped byte.
    let file = std::fs::read(d.join("k.sealed")).unwrap();
    for cut in [0, 20, 100, file.len() - 1025, file.len() - 1, file.len() - 16 - 904] {
        std::fs::write(d.join("cut"), &file[..cut]).unwrap();
        must_fail(d, &["open", "--key-file", "k", "cut", "-o", "out"], &format!("cut at {cut}"));
    }
    for at in (0..file.len()).step_by(97) {
        let mut bad = file.clone();
        bad[at] ^= 4;
        std::fs::write(d.join("bad"), &bad).unwrap();
        must_fail(d, &["open", "--key-file", "k", "bad", "-o", "out"], &format!("byte {at}"));
    }
    // Keys of the wrong kind, none at all, several GPUs, Romulus on a GPU.
    must_fail(d, &["seal", "--key-file", "me.id", "plain", "-o", "out"], "identity as a key");
    must_fail(d, &["seal", "plain", "-o", "out"], "no key");
    must_fail(d, &["seal", "-r", "nonsense", "plain", "-o", "out"], "bad recipient");
    must_fail(d, &["open", "k.sealed", "-o", "out"], "no identity");
    let e = must_fail(d, &["seal", "--key-file", "k", "-b", "gpu", "--gpus", "0,1", "plain", "-o", "out"], "gpus");
    assert!(e.contains("one GPU"), "{e}");
    let e =
        must_fail(d, &["seal", "--key-file", "k", "-b", "gpu", "--aead", "romulus-n", "plain", "-o", "out"], "romulus");
    assert!(e.contains("CPU only"), "{e}");
    let id = std::fs::read(d.join("me.id")).unwrap();
    let e = must_fail(d, &["open", "-i", "me.id", "r.sealed", "-o", "me.id"], "identity as output");
    assert!(e.contains("key"), "{e}");
    assert_eq!(std::fs::read(d.join("me.id")).unwrap(), id);
}

#[test]
fn ranges_match_the_whole_open_and_need_a_file() {
    let (dir, plain, _, _) = setup();
    let d = dir.path();
    assert_ok(
        &run_in(Some(d), &["seal", "-q", "--chunk-size", "1K", "--key-file", "k", "plain", "-o", "s"], b""),
        "seal",
    );
    for (offset, length) in [(0usize, 5000usize), (0, 0), (1023, 2), (1024, 1024), (4999, 1), (100, 3000), (5000, 0)] {
        let (o, l) = (offset.to_string(), length.to_string());
        let out = run_in(Some(d), &["open", "--key-file", "k", "--offset", &o, "--length", &l, "s"], b"");
        assert_ok(&out, &format!("{offset}+{length}"));
        assert_eq!(out.stdout, plain[offset..offset + length], "{offset}+{length}");
    }
    let out = run_in(Some(d), &["open", "--key-file", "k", "--length", "10", "s"], b"");
    assert_ok(&out, "--length alone");
    assert_eq!(out.stdout, plain[..10]);
    let e = must_fail(
        d,
        &["open", "--key-file", "k", "--offset", "4990", "--length", "11", "s", "-o", "out"],
        "past the end",
    );
    assert!(e.contains("--offset"), "{e}");
    let file = std::fs::read(d.join("s")).unwrap();
    let o = run_in(Some(d), &["open", "--key-file", "k", "--offset", "1", "--length", "2"], &file);
    assert!(one_line(&o, "range from a pipe").contains("seekable"));
}

#[test]
fn a_version_1_file_still_opens() {
    let dir = tempfile::tempdir().unwrap();
    let plain = bytes(5, 3000);
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let mut file = Vec::new();
    skinny_seal::hazmat::seal_v1_with_prefix(&plain[..], &mut file, &key, &Default::default(), &[0x44; 11]).unwrap();
    std::fs::write(dir.path().join("v1"), &file).unwrap();
    std::fs::write(dir.path().join("key"), key).unwrap();
    let o = run_in(Some(dir.path()), &["open", "--key-file", "key", "v1"], b"");
    assert_ok(&o, "open v1");
    assert_eq!(o.stdout, plain);
    let o = run_in(Some(dir.path()), &["open", "--key-file", "key", "--offset", "10", "--length", "2000", "v1"], b"");
    assert_ok(&o, "range of v1");
    assert_eq!(o.stdout, plain[10..2010]);
    assert_ok(&run_in(Some(dir.path()), &["keygen", "-o", "k32"], b""), "keygen");
    must_fail(dir.path(), &["open", "--key-file", "k32", "v1", "-o", "out"], "v1 with a 32-byte key");
}

/// A pseudo-terminal: the reading side (kept open) and the terminal side.
fn pty() -> (std::fs::File, std::fs::File) {
    use std::os::fd::FromRawFd;
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors into the two integers; the null
    // name, termios and size pointers are allowed.
    let rc =
        unsafe { libc::openpty(&mut master, &mut slave, std::ptr::null_mut(), std::ptr::null(), std::ptr::null()) };
    assert_eq!(rc, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    unsafe { (std::fs::File::from_raw_fd(master), std::fs::File::from_raw_fd(slave)) }
}

/// `open FILE` with stdout on a terminal: what the terminal got, and the output.
fn open_to_terminal(dir: &Path, file: &str) -> (Output, Vec<u8>) {
    use std::io::Read;
    let (mut master, tty) = pty();
    let o = common::skinny()
        .args(["open", "-q", "--key-file", "k", file])
        .current_dir(dir)
        .stdout(tty)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    let mut shown = Vec::new();
    let mut buf = [0u8; 4096];
    // The terminal side is closed: read what is buffered, until EIO.
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        shown.extend_from_slice(&buf[..n]);
    }
    (o, shown)
}

#[test]
fn printable_text_goes_to_a_terminal_and_binary_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_ok(&run_in(Some(d), &["keygen", "-o", "k"], b""), "keygen");
    std::fs::write(d.join("text"), "attack at dawn\tnow\n").unwrap();
    std::fs::write(d.join("bin"), b"\x00\x01\x02binary").unwrap();
    for name in ["text", "bin"] {
        let sealed = format!("{name}.sealed");
        assert_ok(&run_in(Some(d), &["seal", "-q", "--key-file", "k", name, "-o", &sealed], b""), "seal");
    }
    let (o, shown) = open_to_terminal(d, "text.sealed");
    assert_ok(&o, "text to a terminal");
    // The terminal turns \n into \r\n.
    assert_eq!(String::from_utf8_lossy(&shown).replace("\r\n", "\n"), "attack at dawn\tnow\n");
    let (o, shown) = open_to_terminal(d, "bin.sealed");
    assert!(one_line(&o, "binary to a terminal").contains("terminal"));
    assert!(shown.is_empty(), "{shown:?}");
}
