//! `skinny keygen` end to end: the typed key lines, owner-only files that are
//! never replaced, no secret on a terminal unasked, the recipient printed, and
//! the hints when a key is given to an option that takes another kind.

use crate::common;

use common::{assert_ok, listing, run, run_in, stderr};
use std::os::unix::fs::PermissionsExt;

/// The one error line of a failed command with exit status `code`.
fn one_line(o: &std::process::Output, code: i32, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{what}: {e}");
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: ") && !e.contains("panicked"), "{what}: {e}");
    e
}

#[test]
fn symmetric_key_file_is_owner_only_typed_and_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_in(Some(dir.path()), &["keygen", "-o", "k"], b"");
    assert_ok(&o, "keygen");
    assert!(o.stdout.is_empty(), "nothing printed for a symmetric key");
    let path = dir.path().join("k");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("SKINNY-SEAL-KEY-1 ") && text.len() == 83, "{text:?}");
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    // A second keygen to the same name fails and leaves the first key.
    let o = run_in(Some(dir.path()), &["keygen", "-o", "k"], b"");
    let e = one_line(&o, 2, "overwrite");
    assert!(e.contains("exists"), "{e}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert_eq!(listing(dir.path()), ["k"]);
    // Named temporary files (file systems without O_TMPFILE) refuse too.
    let mut cmd = common::skinny();
    cmd.current_dir(dir.path()).env("SKINNY_NAMED_TEMP_FILES", "1").args(["keygen", "-o", "k2"]);
    assert!(cmd.output().unwrap().status.success());
    assert_eq!(listing(dir.path()), ["k", "k2"]);
    assert_ne!(std::fs::read_to_string(dir.path().join("k2")).unwrap(), text);
}

#[test]
fn identity_prints_its_recipient_and_y_reads_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_in(Some(dir.path()), &["keygen", "--x25519", "-o", "me.id"], b"");
    assert_ok(&o, "keygen --x25519");
    let recipient = String::from_utf8(o.stdout).unwrap();
    assert!(recipient.starts_with("skinny1") && recipient.ends_with('\n'), "{recipient}");
    let id = std::fs::read_to_string(dir.path().join("me.id")).unwrap();
    assert!(id.contains("\nSKINNY-SECRET-KEY-1") && id.contains(recipient.trim()), "{id}");
    let o = run_in(Some(dir.path()), &["keygen", "-y", "me.id"], b"");
    assert_ok(&o, "keygen -y");
    assert_eq!(String::from_utf8(o.stdout).unwrap(), recipient);
    // -y of a symmetric key says which option takes it.
    assert_ok(&run_in(Some(dir.path()), &["keygen", "-o", "sym"], b""), "keygen");
    let e = one_line(&run_in(Some(dir.path()), &["keygen", "-y", "sym"], b""), 2, "-y sym");
    assert!(e.contains("symmetric key") && e.contains("--key-file"), "{e}");
}

#[test]
fn stdout_only_when_not_a_terminal_or_asked() {
    // Piped stdout (the tests' own): the key goes there, the recipient to stderr.
    let o = run(&["keygen"], b"");
    assert_ok(&o, "keygen to a pipe");
    assert!(String::from_utf8(o.stdout).unwrap().starts_with("SKINNY-SEAL-KEY-1 "));
    let o = run(&["keygen", "--x25519", "-o", "-"], b"");
    assert_ok(&o, "keygen -o -");
    assert!(String::from_utf8_lossy(&o.stdout).contains("\nSKINNY-SECRET-KEY-1"));
    assert!(stderr(&o).starts_with("skinny: recipient: skinny1"), "{}", stderr(&o));
    // Two keys are never the same.
    assert_ne!(run(&["keygen"], b"").stdout, run(&["keygen"], b"").stdout);
}

/// A pseudo-terminal: the reading side (kept open) and the terminal side,
/// which `isatty` calls a terminal.
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

#[test]
fn keygen_to_a_terminal_is_refused_unless_asked() {
    let (_master, tty) = pty();
    let o = common::skinny().arg("keygen").stdout(tty).stderr(std::process::Stdio::piped()).output().unwrap();
    let e = one_line(&o, 2, "keygen to a terminal");
    assert!(e.contains("-o -"), "{e}");
}

#[test]
fn keygen_options_are_checked() {
    let o = run(&["keygen", "--x25519", "-y", "x"], b"");
    let e = stderr(&o);
    assert!(o.status.code() == Some(2) && e.lines().count() == 1 && e.contains("cannot be used with"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let e = one_line(&run_in(Some(dir.path()), &["keygen", "-o", "no/such/dir/k"], b""), 1, "no dir");
    assert!(e.contains("cannot write"), "{e}");
    assert_eq!(listing(dir.path()), Vec::<String>::new());
}

#[test]
fn keys_for_another_command_get_a_hint() {
    let dir = tempfile::tempdir().unwrap();
    assert_ok(&run_in(Some(dir.path()), &["keygen", "-o", "sealkey"], b""), "keygen");
    let e = one_line(&run_in(Some(dir.path()), &["encrypt", "--key-file", "sealkey"], b"x"), 2, "seal key to encrypt");
    assert!(e.contains("sealed-file key") && e.contains("skinny seal"), "{e}");
    assert!(!e.contains("SKINNY-SEAL-KEY-1 "), "{e}");
    std::fs::write(dir.path().join("k16"), "000102030405060708090a0b0c0d0e0f\n").unwrap();
    let e = one_line(&run_in(Some(dir.path()), &["encrypt", "--key-file", "k16"], b"x"), 2, "16-byte key to encrypt");
    assert!(e.contains("`skinny seal` key") && e.contains("-c skinny-128-128"), "{e}");
}
