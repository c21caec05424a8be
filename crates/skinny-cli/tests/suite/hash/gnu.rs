//! The format against the real `sha256sum` (GNU coreutils), where it is
//! installed: the same names written the same way, and the same list lines
//! accepted, refused and judged the same way. The digests differ, so lines
//! are compared with each tool's own digest put in; each test says that it
//! is skipped where `sha256sum` is missing.

use super::stdout;
use crate::common::run_in;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// `sha256sum args...` in `dir` with `input` on stdin, or `None` (said on
/// stderr) where it is not installed or is not GNU's.
fn sha256sum(dir: &Path, args: &[&str], input: &[u8]) -> Option<Output> {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    let installed = *INSTALLED.get_or_init(|| {
        let version = Command::new("sha256sum").arg("--version").output();
        version.is_ok_and(|v| String::from_utf8_lossy(&v.stdout).contains("GNU coreutils"))
    });
    if !installed {
        eprintln!("skipped: GNU sha256sum is not installed");
        return None;
    }
    let mut child = Command::new("sha256sum")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sha256sum");
    std::io::Write::write_all(&mut child.stdin.take().expect("stdin"), input).expect("write");
    Some(child.wait_with_output().expect("sha256sum"))
}

/// Every file of these tests holds this; `OTHER` is in none of them.
const CONTENT: &[u8] = b"same";
const OTHER: &[u8] = b"other";

/// Names both tools must write alike (GNU escapes `\`, newline and CR).
const NAMES: [&str; 9] = ["plain", "a b", "x\ny", "b\\c", "cr\r", "\\", "\r\n", " lead", "*star"];

fn dir_with_names() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for name in NAMES {
        std::fs::write(dir.path().join(name), CONTENT).unwrap();
    }
    dir
}

/// The 64 hex digits of `data` under `tool` (`skinny` or `sha256sum`).
fn hex_of(dir: &Path, tool: &str, data: &[u8]) -> String {
    let o = if tool == "skinny" {
        run_in(Some(dir), &["hash"], data)
    } else {
        sha256sum(dir, &[], data).expect("checked installed")
    };
    stdout(&o)[..64].to_string()
}

#[test]
fn names_are_written_as_sha256sum_writes_them() {
    let dir = dir_with_names();
    for flags in [&[][..], &["--tag"], &["-z"], &["--tag", "-z"]] {
        let args: Vec<&str> = flags.iter().copied().chain(NAMES).collect();
        let Some(gnu) = sha256sum(dir.path(), &args, b"") else { return };
        let ours = run_in(Some(dir.path()), &[&["hash"], &args[..]].concat(), b"");
        assert!(gnu.status.success() && ours.status.success(), "{flags:?}");
        // Ours with GNU's digest and tag in place of our own.
        let ours = String::from_utf8(ours.stdout)
            .unwrap()
            .replace(&hex_of(dir.path(), "skinny", CONTENT), &hex_of(dir.path(), "sha256sum", CONTENT))
            .replace("Romulus-H (", "SHA256 (");
        assert_eq!(ours, String::from_utf8(gnu.stdout).unwrap(), "{flags:?}");
    }
}

/// What a check said, reduced to what both tools must agree on: the exit
/// status, each verdict (name unescaped), the numbers of the lines `--warn`
/// called improperly formatted, and the summary lines.
#[derive(Debug, PartialEq, Eq)]
struct Judgement {
    code: Option<i32>,
    verdicts: Vec<(Vec<u8>, String)>,
    malformed: Vec<u64>,
    summary: Vec<String>,
}

fn judgement(o: &Output, program: &str) -> Judgement {
    let mut verdicts = Vec::new();
    for line in o.stdout.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let at = line.windows(2).rposition(|w| w == b": ").expect("a verdict line");
        let (name, verdict) = (&line[..at], String::from_utf8_lossy(&line[at + 2..]).into_owned());
        // GNU 9.1 escapes only names with a newline in its verdicts, later
        // versions (and we) any name that needs it: compare names unescaped.
        let name = match name.strip_prefix(b"\\") {
            Some(escaped) => {
                unescape(escaped).unwrap_or_else(|| panic!("{program}: {:?}", String::from_utf8_lossy(line)))
            }
            None => name.to_vec(),
        };
        verdicts.push((name, verdict));
    }
    let mut malformed = Vec::new();
    let mut summary = Vec::new();
    let prefix = format!("{program}: ");
    for line in String::from_utf8_lossy(&o.stderr).lines() {
        let line = line.strip_prefix(&prefix).unwrap_or(line);
        if let Some(head) =
            line.split(": improperly formatted").next().filter(|_| line.contains("improperly formatted "))
        {
            malformed.push(head.rsplit(": ").next().and_then(|n| n.parse().ok()).expect("a line number"));
        } else if line.starts_with("WARNING: ") || line.ends_with("no properly formatted checksum lines found") {
            // GNU quotes a list name with a blank ('standard input'); we do not.
            summary.push(line.replace('\'', ""));
        }
    }
    Judgement { code: o.status.code(), verdicts, malformed, summary }
}

fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut bytes = name.iter();
    while let Some(&b) = bytes.next() {
        out.push(match (b != b'\\').then_some(b) {
            Some(b) => b,
            None => match bytes.next()? {
                b'n' => b'\n',
                b'r' => b'\r',
                b'\\' => b'\\',
                _ => return None,
            },
        });
    }
    Some(out)
}

/// Lists, one per case: `{H}` is the tool's digest of every file, `{X}` a
/// digest that matches none, `{T}` the tag (`SHA256` or `Romulus-H`).
const LISTS: [&str; 22] = [
    "{H}  plain\n{H} *a b\n",
    "{H} plain\n{H}  lead\n{H} *star\n",
    "{H}  plain\n{H} plain\n{H}\tplain\n",
    "   \t{H}  plain\n{H}  plain\r\n\n#{H}  comment\n  #{H}  not a comment\n",
    // No name that starts with a backslash unless escaped: GNU 9.1 writes
    // such a verdict raw, later versions escaped.
    "\\{H}  x\\ny\n\\{H}  b\\\\c\n\\{H}  cr\\r\n\\{H}  \\r\\n\n",
    "{H}  b\\c\n{H}  x\\ny\n",
    "\\{H}  bad\\escape\n\\{H}  trailing\\\n{H}  plain\n",
    "{H}\n{H} \n{H}  \n",
    "garbage\n{H}0  plain\n{H}  plain\n",
    "{X}  plain\n{H}  a b\n",
    "{X}  plain\n{X}  a b\n",
    "{H}  missing\n{H}  plain\n",
    "{H}  missing\n{H}  gone\n",
    "{T} (plain) = {H}\n{T}(a b)={H}\n{T} (b\\c) =  {H}\n",
    "\\{T} (x\\ny) = {H}\n\\{T} (cr\\r) = {H}\n{T} (plain) {H}\n",
    "{T} (plain) = {X}\n{T} (a (b) c) = {H}\n",
    "{H}  plain\n{T} (a b) = {H}\n{H} plain\n",
    "junk only\n",
    "",
    "{H}  .\n",
    "{H}  plain\n{H}  -\n",
    "{H}  plain\r\r\n",
];

#[test]
fn lists_are_judged_as_sha256sum_judges_them() {
    let dir = dir_with_names();
    std::fs::write(dir.path().join("plain\r"), OTHER).unwrap();
    if sha256sum(dir.path(), &["--version"], b"").is_none() {
        return;
    }
    let digests = |tool| (hex_of(dir.path(), tool, CONTENT), hex_of(dir.path(), tool, OTHER));
    let (gnu, ours) = (digests("sha256sum"), digests("skinny"));
    for flags in [&["-w"][..], &["-w", "--strict"], &["--ignore-missing"], &["--quiet"], &["--status"]] {
        for list in LISTS {
            let mut judged = Vec::new();
            for (tool, tag, (same, other)) in [("sha256sum", "SHA256", &gnu), ("skinny", "Romulus-H", &ours)] {
                let text = list.replace("{H}", same).replace("{X}", other).replace("{T}", tag);
                let args: Vec<&str> = ["-c"].into_iter().chain(flags.iter().copied()).collect();
                // The list from a file and from stdin (where `-` may not be named).
                for from_file in [true, false] {
                    std::fs::write(dir.path().join("list"), &text).unwrap();
                    let args: Vec<&str> = args.iter().copied().chain(from_file.then_some("list")).collect();
                    let input = if from_file { &b""[..] } else { text.as_bytes() };
                    let o = if tool == "skinny" {
                        run_in(Some(dir.path()), &[&["hash"], &args[..]].concat(), input)
                    } else {
                        match sha256sum(dir.path(), &args, input) {
                            Some(o) => o,
                            None => return,
                        }
                    };
                    judged.push(judgement(&o, tool));
                }
            }
            assert_eq!(judged[2], judged[0], "from a file, {flags:?}: {list:?}");
            assert_eq!(judged[3], judged[1], "from stdin, {flags:?}: {list:?}");
        }
    }
}
