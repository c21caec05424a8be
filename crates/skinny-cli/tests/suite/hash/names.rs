//! Names in lists: escaped as `sha256sum` escapes them, so that none can end
//! its line or add one; `--tag` lines that say which function made them;
//! `-z`.

use super::{empty_digest, msg32, stdout, KATS};
use crate::common::{assert_ok, run, run_in, stderr};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Awkward names (each file holds `msg32`), and how a list line writes each.
const AWKWARD: [(&str, &str); 6] = [
    ("x\ny", "x\\ny"),
    ("back\\slash", "back\\\\slash"),
    ("cr\r", "cr\\r"),
    ("\\n", "\\\\n"),
    ("\r\n\\", "\\r\\n\\\\"),
    ("plain name", "plain name"),
];

/// A directory with a file for each awkward name.
fn awkward_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, _) in AWKWARD {
        std::fs::write(dir.path().join(name), msg32()).unwrap();
    }
    dir
}

/// The line `skinny hash` writes for `name` (escaped as `written`).
fn line_for(hex: &str, name: &str, written: &str) -> String {
    let mark = if name == written { "" } else { "\\" };
    format!("{mark}{hex}  {written}\n")
}

#[test]
fn awkward_names_are_escaped_and_read_back() {
    let dir = awkward_dir();
    let names: Vec<&str> = AWKWARD.iter().map(|(n, _)| *n).collect();
    let o = run_in(Some(dir.path()), &[&["hash"], &names[..]].concat(), b"");
    assert_ok(&o, "hash");
    let hex = KATS[0].2.to_lowercase();
    let want: String = AWKWARD.iter().map(|(n, w)| line_for(&hex, n, w)).collect();
    assert_eq!(stdout(&o), want);
    std::fs::write(dir.path().join("sums"), stdout(&o)).unwrap();
    // Each name comes back whole: every file found and matched.
    let o = run_in(Some(dir.path()), &["hash", "-c", "sums"], b"");
    assert_ok(&o, "check");
    let verdicts: String =
        AWKWARD.iter().map(|(n, w)| format!("{}{w}: OK\n", if n == w { "" } else { "\\" })).collect();
    assert_eq!(stdout(&o), verdicts);
    assert_eq!(stderr(&o), "");
}

#[test]
fn a_trailing_carriage_return_survives_the_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("report\r"), b"").unwrap();
    std::fs::write(dir.path().join("report"), b"another").unwrap();
    let o = run_in(Some(dir.path()), &["hash", "report\r"], b"");
    assert_ok(&o, "hash");
    assert_eq!(stdout(&o), format!("\\{}  report\\r\n", empty_digest()));
    // Checked, it is `report\r` that is read, not `report`.
    let o = run_in(Some(dir.path()), &["hash", "-c"], &o.stdout);
    assert_ok(&o, "check");
    assert_eq!(stdout(&o), "\\report\\r: OK\n");
}

#[test]
fn a_name_cannot_inject_a_line_for_another_file() {
    // The attack: a file whose name ends in a digest line for victim.bin,
    // with the digest of what the attacker will put there.
    let dir = tempfile::tempdir().unwrap();
    let forged = KATS[0].2.to_lowercase(); // the digest of msg32
    let trap = format!("z\n{forged}  victim.bin");
    std::fs::write(dir.path().join(&trap), b"").unwrap();
    std::fs::write(dir.path().join("victim.bin"), b"the real thing").unwrap();
    let o = run_in(Some(dir.path()), &["hash", &trap, "victim.bin"], b"");
    assert_ok(&o, "hash");
    let list = stdout(&o);
    assert_eq!(list.lines().count(), 2, "{list:?}");
    assert!(list.starts_with(&format!("\\{}  z\\n{forged}  victim.bin\n", empty_digest())), "{list:?}");
    // The attacker swaps the file: the check fails, and says so once.
    std::fs::write(dir.path().join("victim.bin"), msg32()).unwrap();
    let o = run_in(Some(dir.path()), &["hash", "-c"], list.as_bytes());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("\\z\\n{forged}  victim.bin: OK\nvictim.bin: FAILED\n"));
}

#[test]
fn sha256sums_escaped_lines_are_read() {
    // What `sha256sum` writes for these names, with our digests in it.
    let dir = awkward_dir();
    let hex = KATS[0].2.to_lowercase();
    let list = format!("\\{hex}  x\\ny\n\\{hex} *back\\\\slash\n\\{hex}  \\\\n\n");
    let o = run_in(Some(dir.path()), &["hash", "-c"], list.as_bytes());
    assert_ok(&o, "check");
    assert_eq!(stdout(&o), "\\x\\ny: OK\n\\back\\\\slash: OK\n\\\\\\n: OK\n");
    // An unescaped line takes its backslashes as they are.
    std::fs::write(dir.path().join("a\\nb"), msg32()).unwrap();
    let o = run_in(Some(dir.path()), &["hash", "-c"], format!("{hex}  a\\nb\n").as_bytes());
    assert_ok(&o, "unescaped");
    // A backslash before anything but `\`, `n` or `r`, or at the end, is malformed.
    let bad = format!("\\{hex}  a\\tb\n\\{hex}  a\\\n{hex}  plain name\n");
    let o = run_in(Some(dir.path()), &["hash", "-c", "-w"], bad.as_bytes());
    assert_ok(&o, "the good line");
    assert_eq!(stdout(&o), "plain name: OK\n");
    assert!(stderr(&o).ends_with("skinny: WARNING: 2 lines are improperly formatted\n"), "{}", stderr(&o));
}

#[test]
fn tagged_lines_name_the_function_that_made_them() {
    let dir = awkward_dir();
    let mut all = String::new();
    for (i, (algo, _, m32)) in KATS.into_iter().enumerate() {
        let o = run_in(Some(dir.path()), &["hash", "--tag", "-a", algo, "plain name", "x\ny"], b"");
        assert_ok(&o, algo);
        let tag = ["Romulus-H", "SKINNY-tk3-Hash", "SKINNY-tk2-Hash"][i];
        let hex = m32.to_lowercase();
        assert_eq!(stdout(&o), format!("{tag} (plain name) = {hex}\n\\{tag} (x\\ny) = {hex}\n"), "{algo}");
        all.push_str(&stdout(&o));
    }
    // One list of all three: without -a, each line's tag picks its function.
    let o = run_in(Some(dir.path()), &["hash", "-c"], all.as_bytes());
    assert_ok(&o, "mixed list");
    assert_eq!(stdout(&o), "plain name: OK\n\\x\\ny: OK\n".repeat(3));
    // With -a, lines tagged with another function are improperly formatted.
    let o = run_in(Some(dir.path()), &["hash", "-c", "-a", "skinny-tk3-hash"], all.as_bytes());
    assert_ok(&o, "-a skinny-tk3-hash");
    assert_eq!(stdout(&o), "plain name: OK\n\\x\\ny: OK\n");
    assert_eq!(stderr(&o), "skinny: WARNING: 4 lines are improperly formatted\n");
    // Tags are read in any case; blanks around `=` as GNU allows.
    let hex = KATS[1].2;
    let o = run_in(Some(dir.path()), &["hash", "-c"], format!("SKINNY-TK3-HASH(plain name)={hex}\n").as_bytes());
    assert_ok(&o, "upper-case tag");
}

#[test]
fn zero_ends_lines_with_nul_and_leaves_names_alone() {
    let dir = awkward_dir();
    let hex = KATS[0].2.to_lowercase();
    let o = run_in(Some(dir.path()), &["hash", "-z", "x\ny", "back\\slash"], b"");
    assert_ok(&o, "-z");
    assert_eq!(o.stdout, format!("{hex}  x\ny\0{hex}  back\\slash\0").into_bytes());
    let o = run_in(Some(dir.path()), &["hash", "--zero", "--tag", "cr\r"], b"");
    assert_ok(&o, "-z --tag");
    assert_eq!(o.stdout, format!("Romulus-H (cr\r) = {hex}\0").into_bytes());
}

#[test]
fn names_that_are_not_utf8_are_kept_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9\n");
    std::fs::write(dir.path().join(name), b"").unwrap();
    let o = crate::common::skinny()
        .current_dir(dir.path())
        .arg("hash")
        .arg(name)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("run skinny");
    assert_ok(&o, "hash");
    assert_eq!(o.stdout, [format!("\\{}  ", empty_digest()).as_bytes(), b"caf\xe9\\n\n"].concat());
    let o = run_in(Some(dir.path()), &["hash", "-c"], &o.stdout);
    assert_ok(&o, "check");
    assert_eq!(o.stdout, b"\\caf\xe9\\n: OK\n");
    assert!(Path::new(&dir.path().join(name)).exists());
    // Messages about such a name stay one line each.
    let missing = [format!("{}  gone\\n", empty_digest()).as_bytes(), b"\n"].concat();
    let o = run(&["hash", "-c"], &[b"\\".as_slice(), &missing].concat());
    assert_eq!(stderr(&o).lines().next(), Some("skinny: gone\\n: No such file or directory"));
}
