//! No output ever lands where a key, identity or passphrase was read from,
//! and no input is one (issue 40, "Secrets and keys"): descriptors, stdin,
//! `/proc/self/fd/N` and `/dev/stdin` included; and `keygen` with stdout
//! closed fails instead of throwing its secret away.

use std::path::Path;
use std::process::{Command, Output};

const PASS: &[u8] = b"correct horse battery staple\n";

/// Runs `script` under `sh` in `dir`, with `$S` the skinny binary.
fn sh(dir: &Path, script: &str) -> Output {
    Command::new("sh").current_dir(dir).env("S", env!("CARGO_BIN_EXE_skinny")).args(["-c", script]).output().unwrap()
}

/// A refusal: exit 2, one line saying why, no panic.
fn refused(o: &Output, what: &str, words: &str) {
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{what}: {e}");
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: ") && e.contains(words), "{what}: {e}");
}

fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("pass.txt"), PASS).unwrap();
    std::fs::write(dir.path().join("d.txt"), b"the data").unwrap();
    let o = sh(dir.path(), "\"$S\" keygen -o my.key");
    assert!(o.status.success());
    dir
}

#[test]
fn seal_never_writes_over_the_passphrase_descriptor() {
    let dir = setup();
    let o = sh(dir.path(), "\"$S\" seal -q --passphrase-fd 3 3<pass.txt d.txt -o pass.txt");
    refused(&o, "seal -o pass.txt", "passphrase was read from");
    assert_eq!(std::fs::read(dir.path().join("pass.txt")).unwrap(), PASS);
    // Through stdout too.
    let o = sh(dir.path(), "\"$S\" seal -q --passphrase-fd 3 3<pass.txt d.txt >> pass.txt");
    refused(&o, "seal >> pass.txt", "passphrase was read from");
    assert_eq!(std::fs::read(dir.path().join("pass.txt")).unwrap(), PASS);
}

#[test]
fn open_never_writes_over_the_passphrase_descriptor() {
    let dir = setup();
    let o = sh(dir.path(), "\"$S\" seal -q --passphrase-fd 3 3<pass.txt d.txt -o d.sealed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = sh(dir.path(), "\"$S\" open -q --passphrase-fd 3 3<pass.txt d.sealed -o pass.txt");
    refused(&o, "open -o pass.txt", "passphrase was read from");
    assert_eq!(std::fs::read(dir.path().join("pass.txt")).unwrap(), PASS);
}

#[test]
fn a_key_from_stdin_is_never_the_output() {
    let dir = setup();
    let key = std::fs::read(dir.path().join("my.key")).unwrap();
    let o = sh(dir.path(), "\"$S\" seal -q --key-file - d.txt -o /proc/self/fd/0 < my.key");
    refused(&o, "-o /proc/self/fd/0", "key, identity or passphrase was read from");
    assert_eq!(std::fs::read(dir.path().join("my.key")).unwrap(), key);
}

#[test]
fn a_key_from_dev_stdin_is_never_the_input() {
    let dir = setup();
    let key = std::fs::read(dir.path().join("my.key")).unwrap();
    for name in ["/dev/stdin", "/dev/fd/0"] {
        let o = sh(dir.path(), &format!("\"$S\" seal -q --key-file {name} -o out < my.key"));
        refused(&o, name, "sealed under itself");
        assert!(!dir.path().join("out").exists(), "{name}");
        assert_eq!(std::fs::read(dir.path().join("my.key")).unwrap(), key);
    }
}

#[test]
fn keygen_with_stdout_closed_fails() {
    let dir = setup();
    for args in ["keygen", "keygen --x25519", "keygen --x25519 -o new.id"] {
        let o = sh(dir.path(), &format!("\"$S\" {args} >&-"));
        let e = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "{args}: {e}");
        assert_eq!(e.lines().count(), 1, "{args}: {e}");
        assert!(e.contains("stdout is closed"), "{args}: {e}");
    }
    assert!(!dir.path().join("new.id").exists());
}

#[test]
fn keygen_warns_when_its_secret_lands_in_a_readable_file() {
    let dir = setup();
    let o = sh(dir.path(), "umask 022; \"$S\" keygen > open.key");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{e}");
    assert!(e.contains("warning") && e.contains("others may read"), "{e}");
    let o = sh(dir.path(), "umask 077; \"$S\" keygen > closed.key");
    assert!(o.status.success() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}
