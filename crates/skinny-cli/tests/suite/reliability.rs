//! The reliability fixes end to end: replacing files (permissions, owner, hard
//! links, dangling symlinks), closed pipes and closed stdout, key files and key
//! material in messages, signals, and a partly read stdin.
//!
//! Cases that need a setup this run cannot make (root, another user) print a
//! `skip: ...` line and pass.

use crate::common;

use common::{bytes, library, listing, run_in, skinny, stderr};
use skinny::Variant;
use skinny_bulk::mode::{Direction, Mode};
use std::io::{Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Stdio};

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

fn key() -> Vec<u8> {
    hex::decode(KEY).unwrap()
}

fn iv() -> Vec<u8> {
    hex::decode(IV).unwrap()
}

/// Whether this process runs as root (a file it creates is owned by uid 0).
fn running_as_root(dir: &Path) -> bool {
    let p = dir.join(".whoami");
    std::fs::write(&p, b"").unwrap();
    let root = std::fs::metadata(&p).unwrap().uid() == 0;
    std::fs::remove_file(&p).unwrap();
    root
}

fn encrypt_to(dir: &Path, out: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["encrypt", "-K", KEY, "--iv", IV, "in", "-o", out, "-q"];
    args.extend_from_slice(extra);
    run_in(Some(dir), &args, b"")
}

fn one_line(o: &std::process::Output) -> String {
    let e = stderr(o);
    assert_eq!(e.lines().count(), 1, "one line expected: {e}");
    assert!(e.starts_with("skinny: "), "{e}");
    e
}

fn no_temp_left(dir: &Path) {
    let left: Vec<String> = listing(dir).into_iter().filter(|n| n.starts_with(".skinny-")).collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn a_read_only_target_is_refused_like_cp() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    let out = dir.path().join("out");
    std::fs::write(&out, b"keep").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
    let o = encrypt_to(dir.path(), "out", &[]);
    if running_as_root(dir.path()) {
        // Root may write any file (as `cp` does): replaced, mode kept.
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o444);
        // The refusal itself, as an ordinary user.
        std::fs::write(&out, b"keep").unwrap();
        std::fs::set_permissions(dir.path().join("in"), std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
        std::os::unix::fs::chown(&out, Some(NOBODY), Some(NOBODY)).unwrap();
        let Some(o) = as_nobody(dir.path(), &["encrypt", "-K", KEY, "--iv", IV, "in", "-o", "out", "-q"]) else {
            println!("skip: running as root and no setpriv to try it as another user");
            return;
        };
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = one_line(&o);
        assert!(e.contains("refusing to replace output out"), "{e}");
        assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    } else {
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let e = one_line(&o);
        assert!(e.contains("refusing to replace output out"), "{e}");
        assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    }
    no_temp_left(dir.path());
}

/// The user and group `nobody` usually has.
const NOBODY: u32 = 65534;

/// Runs `skinny args` in `dir` as uid and gid 65534 (root only, through
/// `setpriv`), after opening `dir` to everyone; `None` without `setpriv`.
fn as_nobody(dir: &Path, args: &[&str]) -> Option<std::process::Output> {
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", env!("CARGO_BIN_EXE_skinny")])
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .ok()
        // setpriv present but not allowed (a restricted container): treated as absent.
        .filter(|o| !stderr(o).starts_with("setpriv"))
}

#[test]
fn another_users_file_is_refused_not_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    if !running_as_root(dir.path()) {
        println!("skip: a file of another user in a folder we may write needs root to set up");
        return;
    }
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    std::fs::set_permissions(dir.path().join("in"), std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = dir.path().join("out");
    // Root's file, writable by all: nobody may write it but not give a new file root's ownership.
    std::fs::write(&out, b"keep").unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o666)).unwrap();
    let Some(o) = as_nobody(dir.path(), &["encrypt", "-K", KEY, "--iv", IV, "in", "-o", "out", "-q"]) else {
        println!("skip: running as root and no setpriv to try it as another user");
        return;
    };
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = one_line(&o);
    assert!(e.contains("refusing to replace output out") && e.contains("belongs to user 0"), "{e}");
    assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    assert_eq!(std::fs::metadata(&out).unwrap().uid(), 0);
    no_temp_left(dir.path());
}

#[test]
fn a_replaced_file_keeps_its_owner_and_group() {
    let dir = tempfile::tempdir().unwrap();
    if !running_as_root(dir.path()) {
        println!("skip: keeping another user's ownership needs root to set up");
        return;
    }
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    let out = dir.path().join("out");
    std::fs::write(&out, b"old").unwrap();
    std::os::unix::fs::chown(&out, Some(4321), Some(4322)).unwrap();
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = encrypt_to(dir.path(), "out", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let m = std::fs::metadata(&out).unwrap();
    assert_eq!((m.uid(), m.gid(), m.mode() & 0o777), (4321, 4322, 0o640));
    assert_ne!(std::fs::read(&out).unwrap(), b"old");
}

#[test]
fn hard_links_need_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    std::fs::write(dir.path().join("out"), b"old").unwrap();
    std::fs::hard_link(dir.path().join("out"), dir.path().join("other")).unwrap();
    let o = encrypt_to(dir.path(), "out", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = one_line(&o);
    assert!(e.contains("1 other name") && e.contains("--force"), "{e}");
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), b"old");
    no_temp_left(dir.path());

    let o = encrypt_to(dir.path(), "out", &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let want =
        library(Variant::Skinny128_256, Mode::Ctr, Direction::Encrypt, &key(), Some(&iv()), false, &bytes(1, 100))
            .unwrap();
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), want);
    // The other name keeps the old content, as the message said.
    assert_eq!(std::fs::read(dir.path().join("other")).unwrap(), b"old");
}

#[test]
fn a_dangling_symlink_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    std::os::unix::fs::symlink("missing", dir.path().join("link")).unwrap();
    let o = encrypt_to(dir.path(), "link", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = one_line(&o);
    assert!(e.contains("symbolic link to a missing file"), "{e}");
    assert!(std::fs::symlink_metadata(dir.path().join("link")).unwrap().file_type().is_symlink());
    assert!(!dir.path().join("missing").exists());
    no_temp_left(dir.path());
}

/// Spawns `skinny args` with stdout a pipe whose reading end is closed.
fn with_broken_stdout(args: &[&str], input: &[u8]) -> std::process::Output {
    let child =
        skinny().args(args).stdin(Stdio::piped()).stdout(common::reader_gone()).stderr(Stdio::piped()).spawn().unwrap();
    feed_and_wait(child, input)
}

/// Writes `input` to the child's stdin from a thread (so a child that stops
/// reading cannot block the test) and waits for it.
fn feed_and_wait(mut child: std::process::Child, input: &[u8]) -> std::process::Output {
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn a_closed_pipe_fails_encrypt_and_decrypt_with_one_line() {
    // The reader took part of the output and left (`| head -c 100`): a
    // pipeline must not take that part for the whole.
    for cmd in ["encrypt", "decrypt"] {
        let o = with_broken_stdout(&[cmd, "-K", KEY, "--iv", IV, "-q"], &bytes(3, 1 << 20));
        assert_eq!(o.status.code(), Some(1), "{cmd}: {}", stderr(&o));
        let e = one_line(&o);
        assert!(e.contains("broken pipe"), "{cmd}: {e}");
    }
}

/// Runs `skinny args` through `sh` with stdout closed (`>&-`).
pub fn with_closed_stdout(dir: &Path, args: &[&str], input: &[u8]) -> std::process::Output {
    let child = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(env!("CARGO_BIN_EXE_skinny"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    feed_and_wait(child, input)
}

#[test]
fn a_closed_stdout_is_an_error_not_a_silent_success() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["encrypt", "-K", KEY, "--iv", IV, "-q"][..],
        &["decrypt", "-K", KEY, "--iv", IV, "-q"],
        &["info"],
        &["completions", "bash"],
        &["selftest", "--rounds", "0", "--max-bytes", "64"],
    ] {
        let o = with_closed_stdout(dir.path(), args, b"some input");
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        let e = one_line(&o);
        assert!(e.contains("stdout is closed"), "{args:?}: {e}");
    }
    // With -o FILE, stdout is not needed.
    std::fs::write(dir.path().join("in"), b"abc").unwrap();
    let o = with_closed_stdout(dir.path(), &["encrypt", "-K", KEY, "--iv", IV, "-q", "in", "-o", "out"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn key_file_rule_hex_always_wins() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    // xxd -p style: two lines with inner spaces.
    std::fs::write(dir.path().join("k"), format!("{} {}\n{}\n", &KEY[..20], &KEY[20..32], &KEY[32..])).unwrap();
    let o = run_in(Some(dir.path()), &["encrypt", "--key-file", "k", "--iv", IV, "in", "-o", "out"], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let want =
        library(Variant::Skinny128_256, Mode::Ctr, Direction::Encrypt, &key(), Some(&iv()), false, &bytes(1, 100))
            .unwrap();
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), want);

    // 32 hex digits are 32 bytes, a raw SKINNY-128-256 key's length: hex, too short.
    std::fs::write(dir.path().join("half"), &KEY[..32]).unwrap();
    let o = run_in(Some(dir.path()), &["encrypt", "--key-file", "half", "--iv", IV, "in", "-o", "out2"], b"");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = one_line(&o);
    assert!(e.contains("16 bytes of hex, needs 32"), "{e}");
    assert!(!e.contains(&KEY[..16]), "{e}");
    assert!(!dir.path().join("out2").exists());
}

#[test]
fn key_material_in_the_wrong_place_is_never_echoed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    let cases: [&[&str]; 7] = [
        &["encrypt", "--key-file", KEY, "--iv", IV, "in", "-o", "out"],
        &["encrypt", "-c", KEY, "-K", KEY, "--iv", IV, "in", "-o", "out"],
        &["encrypt", "--threads", KEY, "-K", KEY, "--iv", IV, "in", "-o", "out"],
        &["encrypt", "-K", KEY, "--iv", IV, "in", "-o", &format!("/nonexistent/{KEY}")],
        &["encrypt", "-m", KEY, "-K", KEY, "--iv", IV, "in", "-o", "out"],
        &["encrypt", "-K", KEY, "--iv", IV, KEY, "-o", "out"],
        &["decrypt", KEY, KEY, "-K", KEY],
    ];
    for args in cases {
        let o = run_in(Some(dir.path()), args, b"");
        assert!(matches!(o.status.code(), Some(1 | 2)), "{args:?}: {:?}", o.status);
        let e = stderr(&o);
        assert!(!e.is_empty(), "{args:?}");
        for piece in [&KEY[..16], &KEY[16..32], &KEY[32..48], &KEY[48..]] {
            assert!(!e.contains(piece), "{args:?} echoed key material: {e}");
        }
    }
}

#[test]
fn a_partly_read_stdin_is_checked_from_where_it_stands() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("in");
    let mut content = b"skip!".to_vec();
    let blocks = bytes(5, 64);
    content.extend_from_slice(&blocks);
    std::fs::write(&p, &content).unwrap();
    let mut file = std::fs::File::open(&p).unwrap();
    file.seek(SeekFrom::Start(5)).unwrap();
    let o = skinny()
        .args(["encrypt", "-m", "ecb", "--no-pad", "-K", KEY, "-q", "-o", "out"])
        .current_dir(dir.path())
        .stdin(Stdio::from(file))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let want = library(Variant::Skinny128_256, Mode::Ecb, Direction::Encrypt, &key(), None, false, &blocks).unwrap();
    assert_eq!(std::fs::read(dir.path().join("out")).unwrap(), want);

    // 64 bytes from offset 5: 59 left, refused up front, nothing written.
    let p2 = dir.path().join("in2");
    std::fs::write(&p2, &blocks).unwrap();
    let mut file = std::fs::File::open(&p2).unwrap();
    file.seek(SeekFrom::Start(5)).unwrap();
    let o = skinny()
        .args(["encrypt", "-m", "ecb", "--no-pad", "-K", KEY, "-q", "-o", "out2"])
        .current_dir(dir.path())
        .stdin(Stdio::from(file))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("input is 59 bytes"), "{}", stderr(&o));
    assert!(!dir.path().join("out2").exists());
}
