//! `seal` and `open` keys end to end: Bech32 recipients and identities (a typo
//! refused), the older hex forms still read, `-R` recipients files, several
//! identities a file, `--armor`, one key size for `-K` and keygen, a low-order
//! recipient as a bad argument, and the passphrase cost cap. Where `age` and
//! `age-keygen` are installed, the behaviours we chose to match are checked
//! against them (a line says when they are not).

use crate::common;

use common::{assert_ok, listing, run_in, stderr};
use skinny_seal::keygen as kg;
use skinny_seal::recipients::{X25519Identity, X25519Recipient};
use std::path::Path;
use std::process::{Command, Output};

/// The one error line of a failed command with exit status `code`.
fn one_line(o: &Output, code: i32, what: &str) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{what}: {e}");
    assert_eq!(e.lines().count(), 1, "{what}: {e}");
    assert!(e.starts_with("skinny: ") && !e.contains("panicked"), "{what}: {e}");
    e
}

/// A new identity in `dir/name`; its recipient.
fn identity(dir: &Path, name: &str) -> String {
    let o = run_in(Some(dir), &["keygen", "--x25519", "-o", name], b"");
    assert_ok(&o, "keygen --x25519");
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

fn write(dir: &Path, name: &str, content: impl AsRef<[u8]>) {
    std::fs::write(dir.join(name), content).unwrap();
}

#[test]
fn bech32_recipients_seal_and_a_typo_is_a_bad_argument() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let r = identity(d, "me.id");
    assert!(r.starts_with("skinny1") && r.len() == 65, "{r}");
    write(d, "plain", b"attack at dawn");
    assert_ok(&run_in(Some(d), &["seal", "-r", &r, "plain", "-o", "s"], b""), "seal -r");
    assert_ok(&run_in(Some(d), &["open", "-i", "me.id", "s", "-o", "back"], b""), "open -i");
    assert_eq!(std::fs::read(d.join("back")).unwrap(), b"attack at dawn");
    // One character changed, anywhere after the prefix: refused, nothing written.
    for i in [7, 30, 64] {
        let mut typo = r.clone().into_bytes();
        typo[i] = if typo[i] == b'q' { b'p' } else { b'q' };
        let typo = String::from_utf8(typo).unwrap();
        let o = run_in(Some(d), &["seal", "-r", &typo, "plain", "-o", "t"], b"");
        let e = one_line(&o, 2, "typo");
        assert!(e.contains("-r/--recipient") && e.contains("checksum"), "{e}");
        assert!(!e.contains(&typo[7..]), "never echoed: {e}");
        assert!(!d.join("t").exists());
    }
    // A low-order point is a bad argument (exit 2), in either form.
    let zero = kg::encode_recipient(&X25519Recipient::from_bytes([0; 32]));
    let old_zero = format!("{}{}", kg::X25519_PUBLIC_PREFIX, "00".repeat(32));
    for low in [zero, old_zero] {
        let e = one_line(&run_in(Some(d), &["seal", "-r", &low, "plain", "-o", "t"], b""), 2, "low order");
        assert!(e.contains("low-order"), "{e}");
        assert!(!d.join("t").exists());
    }
}

#[test]
fn the_older_hex_forms_still_open_and_seal() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let id = X25519Identity::from_bytes([0x42; 32]);
    let bytes = id.secret_bytes();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    write(d, "old.id", format!("# an identity of an earlier release\n{} {hex}\n", kg::X25519_SECRET_TYPE));
    let pubhex: String = id.recipient().to_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let old_r = format!("{}{pubhex}", kg::X25519_PUBLIC_PREFIX);
    write(d, "plain", b"old keys keep working");
    assert_ok(&run_in(Some(d), &["seal", "-r", &old_r, "plain", "-o", "s"], b""), "seal to the hex form");
    assert_ok(&run_in(Some(d), &["open", "-i", "old.id", "s", "-o", "back"], b""), "open with the hex form");
    assert_eq!(std::fs::read(d.join("back")).unwrap(), b"old keys keep working");
    // keygen -y of the old file prints the new form of the same key.
    let o = run_in(Some(d), &["keygen", "-y", "old.id"], b"");
    assert_ok(&o, "keygen -y");
    assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{}\n", kg::encode_recipient(&id.recipient())));
}

#[test]
fn recipients_files_and_several_identities_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = identity(d, "a.id");
    let b = identity(d, "b.id");
    let c = identity(d, "c.id");
    write(d, "team", format!("# the team\n\n{a}\r\n# {c} left\n{b}\n"));
    write(d, "more", format!("{c}\n"));
    write(d, "plain", b"for the team");
    assert_ok(&run_in(Some(d), &["seal", "-R", "team", "plain", "-o", "s"], b""), "seal -R");
    for id in ["a.id", "b.id"] {
        assert_ok(&run_in(Some(d), &["open", "-i", id, "s", "-o", &format!("{id}.out")], b""), id);
    }
    one_line(&run_in(Some(d), &["open", "-i", "c.id", "s", "-o", "c.out"], b""), 1, "commented out");
    // Several -R, and -R - from stdin when the input is named.
    assert_ok(
        &run_in(
            Some(d),
            &["seal", "-R", "team", "--recipients-file", "-", "plain", "-o", "s2"],
            format!("{c}\n").as_bytes(),
        ),
        "-R -",
    );
    assert_ok(&run_in(Some(d), &["open", "-i", "c.id", "s2", "-o", "c2.out"], b""), "c opens");
    let e = one_line(&run_in(Some(d), &["seal", "-R", "-", "-o", "s3"], b"data"), 2, "-R - with stdin input");
    assert!(e.contains("stdin"), "{e}");
    // A bad line is named by its number, never quoted.
    // The last character changed (to one it is not: a random key may end in any).
    let typo = format!("{}{}", &b[..b.len() - 1], if b.ends_with('q') { 'p' } else { 'q' });
    write(d, "bad", format!("# ok\n{a}\n{typo}\n"));
    let e = one_line(&run_in(Some(d), &["seal", "-R", "bad", "plain", "-o", "s4"], b""), 2, "bad line");
    assert!(e.contains("line 3") && e.contains("checksum") && !e.contains(&b[10..]), "{e}");
    write(d, "empty", "# nobody\n\n");
    one_line(&run_in(Some(d), &["seal", "-R", "empty", "plain", "-o", "s4"], b""), 2, "no recipient");
    assert!(!d.join("s4").exists() && !d.join("s3").exists());
    // One identity file holding several identities: each is tried.
    let both = format!(
        "{}\n{}",
        std::fs::read_to_string(d.join("a.id")).unwrap(),
        std::fs::read_to_string(d.join("c.id")).unwrap()
    );
    write(d, "both.id", both);
    assert_ok(&run_in(Some(d), &["open", "-i", "both.id", "s2", "-o", "both.out"], b""), "second identity");
    let o = run_in(Some(d), &["keygen", "-y", "both.id"], b"");
    assert_eq!(String::from_utf8(o.stdout).unwrap(), format!("{a}\n{c}\n"));
}

#[test]
fn armor_round_trips_is_detected_and_refuses_tampering() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_ok(&run_in(Some(d), &["keygen", "-o", "k"], b""), "keygen");
    let data = common::bytes(7, 100_000);
    write(d, "plain", &data);
    assert_ok(&run_in(Some(d), &["seal", "--key-file", "k", "-a", "plain", "-o", "s.txt"], b""), "seal -a");
    let text = std::fs::read_to_string(d.join("s.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "-----BEGIN SKINNY SEALED FILE-----");
    assert_eq!(*lines.last().unwrap(), "-----END SKINNY SEALED FILE-----");
    assert!(lines[1..lines.len() - 2].iter().all(|l| l.len() == 64));
    assert_ok(&run_in(Some(d), &["open", "--key-file", "k", "s.txt", "-o", "back"], b""), "open armored");
    assert_eq!(std::fs::read(d.join("back")).unwrap(), data);
    // From stdin too.
    let o = run_in(Some(d), &["open", "--key-file", "k"], text.as_bytes());
    assert_ok(&o, "open armored from stdin");
    assert_eq!(o.stdout, data);
    // Tampering: the armor's form, or its content (then the sealed file's own checks).
    let tampered = [
        ("garbage after END", format!("{text}more")),
        ("a short line", text.replacen(lines[3], &lines[3][..60], 1)),
        ("no END", text.replace("-----END SKINNY SEALED FILE-----\n", "")),
        ("a changed character", text.replacen(lines[5], &format!("{}A", &lines[5][..63]), 1)),
        ("CRLF", text.replace('\n', "\r\n")),
    ];
    for (what, t) in tampered {
        if t == text {
            continue; // the character changed was already an A
        }
        write(d, "t.txt", t);
        let e = one_line(&run_in(Some(d), &["open", "--key-file", "k", "t.txt", "-o", "t.out"], b""), 1, what);
        assert!(!d.join("t.out").exists(), "{what}: {e}");
    }
    // --offset/--length need the binary form.
    let e = one_line(
        &run_in(Some(d), &["open", "--key-file", "k", "--offset", "1", "--length", "2", "s.txt", "-o", "r"], b""),
        2,
        "range of armor",
    );
    assert!(e.contains("armored"), "{e}");
    assert!(!listing(d).contains(&"r".to_string()));
}

#[test]
fn k_takes_the_size_keygen_makes_and_version_1_s() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_ok(&run_in(Some(d), &["keygen", "-o", "k"], b""), "keygen");
    let line = std::fs::read_to_string(d.join("k")).unwrap();
    let hex = line.split_whitespace().nth(1).unwrap().to_string();
    assert_eq!(hex.len(), 64);
    write(d, "plain", b"one key size");
    assert_ok(&run_in(Some(d), &["seal", "-K", &hex, "plain", "-o", "s"], b""), "seal -K 32 bytes");
    assert_ok(&run_in(Some(d), &["open", "--key-file", "k", "s", "-o", "back"], b""), "open with the file");
    assert_ok(&run_in(Some(d), &["seal", "--key-file", "k", "plain", "-o", "s2"], b""), "seal with the file");
    assert_ok(&run_in(Some(d), &["open", "-K", &hex, "s2", "-o", "back2"], b""), "open -K 32 bytes");
    // Version 1's 16-byte keys still go through -K.
    let v1 = "000102030405060708090a0b0c0d0e0f";
    assert_ok(&run_in(Some(d), &["seal", "-K", v1, "plain", "-o", "s3"], b""), "seal -K 16 bytes");
    assert_ok(&run_in(Some(d), &["open", "-K", v1, "s3", "-o", "back3"], b""), "open -K 16 bytes");
    let e = one_line(&run_in(Some(d), &["seal", "-K", &hex[..48], "plain", "-o", "s4"], b""), 2, "24 bytes");
    assert!(e.contains("32-byte key") && e.contains("16-byte key") && !e.contains(&hex[..48]), "{e}");
    assert!(!d.join("s4").exists());
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

#[test]
fn armor_may_go_to_a_terminal_binary_may_not() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_ok(&run_in(Some(d), &["keygen", "-o", "k"], b""), "keygen");
    write(d, "plain", b"short");
    let seal_to_tty = |armor: bool| {
        let (_master, tty) = pty();
        let mut cmd = common::skinny();
        cmd.current_dir(d).args(["seal", "--key-file", "k", "plain"]).stdout(tty).stderr(std::process::Stdio::piped());
        if armor {
            cmd.arg("-a");
        }
        cmd.output().unwrap()
    };
    let o = seal_to_tty(true);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = one_line(&seal_to_tty(false), 2, "binary to a terminal");
    assert!(e.contains("terminal"), "{e}");
}

/// A header whose passphrase stanza asks for 4 GiB x 64 passes of Argon2id.
fn costly_header() -> Vec<u8> {
    let mut f = b"SKINNYSEAL".to_vec();
    f.extend_from_slice(&[2, 1, 16, 0]);
    f.extend_from_slice(&[9; 16]); // payload salt
    f.extend_from_slice(&[1, 2, 0, 73]); // one stanza: kind 2, 73 bytes
    f.extend_from_slice(&(4u32 << 20).to_be_bytes());
    f.extend_from_slice(&64u32.to_be_bytes());
    f.push(1);
    f.extend_from_slice(&[7; 16 + 48]);
    f.extend_from_slice(&[0; 32]); // MAC
    f.extend_from_slice(&[0; 100]); // a chunk
    f
}

/// `open --passphrase-fd 3` of `file` with `env` set.
fn open_with_passphrase(d: &Path, file: &str, env: &[(&str, &str)]) -> Output {
    write(d, "pass", "correct horse\n");
    let mut cmd = Command::new("sh");
    cmd.current_dir(d)
        .arg("-c")
        .arg(format!("exec \"$0\" open --passphrase-fd 3 {file} -o out 3<pass"))
        .arg(common::skinny().get_program());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

#[test]
fn a_costly_passphrase_header_is_refused_fast() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "costly", costly_header());
    let started = std::time::Instant::now();
    let o = open_with_passphrase(d, "costly", &[]);
    let e = one_line(&o, 1, "costly");
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert!(e.contains("262144 MiB x passes") && e.contains("4096") && e.contains("SKINNY_PASSPHRASE_MAX_WORK"), "{e}");
    assert!(!d.join("out").exists());
    let e = one_line(&open_with_passphrase(d, "costly", &[("SKINNY_PASSPHRASE_MAX_WORK", "lots")]), 2, "bad env");
    assert!(e.contains("SKINNY_PASSPHRASE_MAX_WORK"), "{e}");
}

/// `age` or `age-keygen`, if installed.
fn tool(name: &str) -> Option<std::path::PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|p| p.join(name)).find(|p| p.is_file())
}

/// Where age is installed, the rules we chose to match are age's: a
/// recipients file's comments and blank lines, several identities a file,
/// the armor's line width and its BEGIN/END shape, a warning (in our own
/// words) for a secret written to a readable file.
#[test]
fn behaviours_matched_with_age() {
    let (Some(age), Some(age_keygen)) = (tool("age"), tool("age-keygen")) else {
        println!("skip: age and age-keygen are not installed; the age comparisons did not run");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let ours = identity(d, "me.id");
    let keygen = |out: &str| {
        let o = Command::new(&age_keygen).current_dir(d).args(["-o", out]).output().unwrap();
        assert!(o.status.success());
        let o = Command::new(&age_keygen).current_dir(d).args(["-y", out]).output().unwrap();
        String::from_utf8(o.stdout).unwrap().trim().to_string()
    };
    let theirs = keygen("age.id");
    let theirs2 = keygen("age2.id");
    write(d, "plain", b"matched");
    // The same recipients-file layout: comments, blank lines, CRLF, accepted by both.
    for layout in ["# c\n\n{r}\n", "{r}\r\n# c\r\n", "#{r}\n{r}\n"] {
        write(d, "ours", layout.replace("{r}", &ours));
        write(d, "theirs", layout.replace("{r}", &theirs));
        let a = Command::new(&age).current_dir(d).args(["-R", "theirs", "-o", "a.age", "plain"]).output().unwrap();
        let o = run_in(Some(d), &["seal", "-R", "ours", "plain", "-o", "o.sealed", "--force"], b"");
        assert_eq!(a.status.success(), o.status.success(), "{layout:?}: {}", stderr(&o));
        let _ = std::fs::remove_file(d.join("o.sealed"));
    }
    // Several identities in one file: both try each.
    let both = format!(
        "{}{}",
        std::fs::read_to_string(d.join("age.id")).unwrap(),
        std::fs::read_to_string(d.join("age2.id")).unwrap()
    );
    write(d, "age-both.id", both);
    let a = Command::new(&age).current_dir(d).args(["-r", &theirs2, "-o", "b.age", "plain"]).output().unwrap();
    assert!(a.status.success());
    let a = Command::new(&age).current_dir(d).args(["-d", "-i", "age-both.id", "b.age"]).output().unwrap();
    assert!(a.status.success(), "age tries each identity of a file");
    // Armor: the same width and the same shape of BEGIN/END lines.
    let a = Command::new(&age).current_dir(d).args(["-a", "-r", &theirs, "plain"]).output().unwrap();
    let theirs_text = String::from_utf8(a.stdout).unwrap();
    let o = run_in(Some(d), &["seal", "-a", "-r", &ours, "plain"], b"");
    let ours_text = String::from_utf8(o.stdout).unwrap();
    let widths = |t: &str| t.lines().map(str::len).max().unwrap_or(0);
    let data_width = |t: &str| t.lines().filter(|l| !l.starts_with("-----")).map(str::len).max().unwrap_or(0);
    assert_eq!(data_width(&theirs_text), data_width(&ours_text));
    assert!(widths(&ours_text) <= 64);
    assert!(theirs_text.starts_with("-----BEGIN ") && ours_text.starts_with("-----BEGIN "));
    // The readable-file warning: both warn, in their own words.
    let f = std::fs::File::create(d.join("readable")).unwrap();
    let mut perms = f.metadata().unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
    std::fs::set_permissions(d.join("readable"), perms).unwrap();
    let a = Command::new(&age_keygen).stdout(f.try_clone().unwrap()).output().unwrap();
    let o = common::skinny().arg("keygen").stdout(f).output().unwrap();
    assert!(!a.stderr.is_empty(), "age-keygen warns");
    let ours_warning = String::from_utf8_lossy(&o.stderr);
    assert!(ours_warning.contains("skinny: warning: writing a secret to a file that others may read"));
    assert_ne!(String::from_utf8_lossy(&a.stderr).trim(), ours_warning.trim());
}
