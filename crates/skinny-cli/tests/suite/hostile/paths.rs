//! A file name holding control characters (a newline, a terminal escape) is
//! shown escaped in every message about the input, the output or the key
//! file: the message stays one line and cannot steer the terminal (found by
//! scripts/hostile/fresh.sh: `-o $'nope\e[2J/x\ny'` printed the escape and
//! broke the message in two).

use crate::common;

use common::{bytes, run_in, stderr};

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const TWEAKEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const IV: &str = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/// A name in a folder that does not exist: escape, newline, bell, C1 CSI.
const HOSTILE: &str = "no\u{1b}[2J such/x\ny\u{7}\u{9b}31m";

#[test]
fn control_characters_in_paths_are_escaped_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("in"), bytes(1, 100)).unwrap();
    let cases: [&[&str]; 5] = [
        &["seal", "-K", KEY, "in", "-o", HOSTILE],
        &["encrypt", "-K", TWEAKEY, "--iv", IV, "in", "-o", HOSTILE],
        &["seal", "-K", KEY, HOSTILE, "-o", "out"],
        &["open", "-K", KEY, HOSTILE, "-o", "out"],
        &["seal", "--key-file", HOSTILE, "in", "-o", "out"],
    ];
    for args in cases {
        let o = run_in(Some(dir.path()), args, b"");
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert_eq!(e.lines().count(), 1, "{args:?}: {e:?}");
        assert!(!e.trim_end_matches('\n').chars().any(char::is_control), "{args:?}: {e:?}");
        assert!(e.contains(r"no\u{1b}[2J such/x\ny\u{7}\u{9b}31m"), "{args:?}: {e:?}");
    }
}
