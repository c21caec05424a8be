//! The sources and sinks on real files: atomic replacement, refusals, what is left behind.

use super::*;
use crate::error::CliError;

fn line(e: impl Into<CliError>) -> (String, i32) {
    let e = e.into();
    (e.to_string(), e.exit_code())
}

/// The messages and exit codes that files on disk can bring about, word
/// for word.
#[test]
fn file_errors_keep_their_words_and_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    let input = at("in");
    std::fs::write(&input, b"data").unwrap();
    let source = Source::open(Some(&input)).unwrap();

    let missing = at("missing");
    let e = Source::open(Some(&missing)).err().unwrap();
    assert_eq!(line(e), (format!("cannot read input {}: No such file or directory", missing.display()), 1));
    let e = Source::open(Some(dir.path())).err().unwrap();
    assert_eq!(line(e), (format!("cannot read input {}: it is a directory", dir.path().display()), 1));

    let e = Sink::open(Some(dir.path()), &source, None, false).err().unwrap();
    assert_eq!(line(e), (format!("cannot write output {}: it is a directory", dir.path().display()), 1));
    let same = ("input and output are the same file; write to another file and rename it".to_string(), 2);
    assert_eq!(line(Sink::open(Some(&input), &source, None, true).err().unwrap()), same);
    let link = at("link");
    std::os::unix::fs::symlink(&input, &link).unwrap();
    assert_eq!(line(Sink::open(Some(&link), &source, None, true).err().unwrap()), same);

    let dangling = at("dangling");
    std::os::unix::fs::symlink(at("nowhere"), &dangling).unwrap();
    let e = Sink::open(Some(&dangling), &source, None, false).err().unwrap();
    let want = format!(
        "cannot write output {}: it is a symbolic link to a missing file; remove the link or name the file it \
         should point to",
        dangling.display()
    );
    assert_eq!(line(e), (want, 1));

    let no_dir = at("no/out");
    let e = Sink::open(Some(&no_dir), &source, None, false).err().unwrap();
    assert_eq!(line(e), (format!("cannot write output {}: No such file or directory", no_dir.display()), 1));
    let under_file = input.join("out");
    let e = Sink::open(Some(&under_file), &source, None, false).err().unwrap();
    assert_eq!(line(e), (format!("cannot write output {}: Not a directory", under_file.display()), 1));

    let out = at("out");
    std::fs::write(&out, b"old").unwrap();
    std::fs::hard_link(&out, at("out2")).unwrap();
    let e = Sink::open(Some(&out), &source, None, false).err().unwrap();
    let want = format!(
        "refusing to replace output {}: it has 1 other name (hard link) that would keep the old content; use \
         --force to replace this name only",
        out.display()
    );
    assert_eq!(line(e), (want, 1));
    std::fs::hard_link(&out, at("out3")).unwrap();
    let e = Sink::open(Some(&out), &source, None, false).err().unwrap();
    assert!(line(e).0.contains("it has 2 other names (hard links) that"));
    assert!(Sink::open(Some(&out), &source, None, true).is_ok());

    // Root may write anything, so the refusal is seen only by other users.
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
    if !root {
        let read_only = at("ro");
        std::fs::write(&read_only, b"old").unwrap();
        std::fs::set_permissions(&read_only, std::os::unix::fs::PermissionsExt::from_mode(0o444)).unwrap();
        let e = Sink::open(Some(&read_only), &source, None, false).err().unwrap();
        let want = format!(
            "refusing to replace output {}: you may not write it (it is read-only to you)",
            read_only.display()
        );
        assert_eq!(line(e), (want, 1));
    }
}

/// The output is never the key file, by any name (issue 27, item 2).
#[test]
fn the_key_file_is_never_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let at = |name: &str| dir.path().join(name);
    std::fs::write(at("in"), b"data").unwrap();
    let source = Source::open(Some(&at("in"))).unwrap();
    let key = at("my.key");
    std::fs::write(&key, "000102030405060708090a0b0c0d0e0f\n").unwrap();
    std::os::unix::fs::symlink(&key, at("link")).unwrap();
    std::fs::hard_link(&key, at("hard")).unwrap();
    let want =
        ("refusing to write the output over the key file: the key would be lost; choose another output".to_string(), 2);
    for out in ["my.key", "link", "hard", "./my.key"] {
        let e = Sink::open(Some(&dir.path().join(out)), &source, Some(&key), true).err().unwrap();
        assert_eq!(line(e), want, "{out}");
    }
    assert!(Sink::open(Some(&at("other")), &source, Some(&key), false).is_ok());
    assert_eq!(std::fs::read(&key).unwrap(), b"000102030405060708090a0b0c0d0e0f\n");
}
