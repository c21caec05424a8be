//! `skinny hash --check`: reads digest lists (`line`'s format) and checks
//! each file they name, with GNU `sha256sum --check`'s verdicts, warnings and
//! exit status.
//!
//! Each list is judged on its own, as GNU does: its verdicts on stdout
//! (`<name>: OK`, `FAILED`, `FAILED open or read`), then its `WARNING` lines
//! on stderr; it passes when it has a digest line, at least one file
//! matched, none differed and none was unreadable (and, with `--strict`,
//! no line was malformed). A malformed line alone is a warning, not a
//! failure. A list read from stdin cannot name `-` (stdin is the list
//! itself): such a line is malformed, as in GNU, and nothing waits for input.

use super::args::{HashAlgo, HashArgs};
use super::line::{Entry, Line, ListReader};
use super::{digest_path, is_stdin, notice, open, path_from_bytes, shown_name, HashError};
use crate::error::count;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// The longest line of a list that `--check` reads; a longer one is malformed
/// (a list line is a digest and a path, and this bounds the memory it takes).
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// What `--check` was asked to do, from the command line.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckOptions {
    /// The function of untagged lines, and the only one tagged lines may
    /// name (`None`: the default, and tags pick theirs).
    pub algo: Option<HashAlgo>,
    /// A listed file that does not exist is passed over in silence.
    pub ignore_missing: bool,
    /// No `OK` lines.
    pub quiet: bool,
    /// Nothing on stdout, and no `WARNING` lines.
    pub status: bool,
    /// A malformed line fails the list.
    pub strict: bool,
    /// Each malformed line is named on stderr.
    pub warn: bool,
}

impl CheckOptions {
    /// The options of `args`.
    pub fn from_args(args: &HashArgs) -> Self {
        Self {
            algo: args.algo,
            ignore_missing: args.ignore_missing,
            quiet: args.quiet,
            status: args.status,
            strict: args.strict,
            warn: args.warn,
        }
    }
}

/// What one list gave.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Tally {
    /// Lines that are not digest lines (comments and empty lines aside).
    malformed: u64,
    /// Listed files that could not be read.
    unreadable: u64,
    /// Digests that did not match.
    mismatched: u64,
    /// Whether any line was a digest line.
    formatted: bool,
    /// Whether any file matched its digest.
    matched: bool,
}

impl Tally {
    /// Whether the list passes.
    fn passed(&self, strict: bool) -> bool {
        self.formatted
            && self.matched
            && self.mismatched == 0
            && self.unreadable == 0
            && !(strict && self.malformed > 0)
    }

    /// The `WARNING` lines, in GNU's order.
    fn warnings(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if self.malformed > 0 {
            let verb = if self.malformed == 1 { "is" } else { "are" };
            lines.push(format!("WARNING: {} {verb} improperly formatted", count(self.malformed, "line")));
        }
        if self.unreadable > 0 {
            lines.push(format!("WARNING: {} could not be read", count(self.unreadable, "listed file")));
        }
        if self.mismatched > 0 {
            lines.push(format!("WARNING: {} did NOT match", count(self.mismatched, "computed checksum")));
        }
        lines
    }
}

/// Checks every list; `Ok(false)` when any failed (each failure said already).
///
/// # Errors
/// Only a failing stdout: nothing else stops the check.
pub fn check(options: &CheckOptions, lists: &[PathBuf], out: &mut impl Write) -> Result<bool, HashError> {
    let mut passed = true;
    for list in lists {
        passed &= check_list(options, list, out)?;
    }
    Ok(passed)
}

/// How a list is named in messages.
fn list_name(list: &Path) -> String {
    if is_stdin(list) {
        "standard input".to_string()
    } else {
        shown_name(&super::name_bytes(list))
    }
}

/// Checks one list: its verdicts, warnings and whether it passed.
fn check_list(options: &CheckOptions, list: &Path, out: &mut impl Write) -> Result<bool, HashError> {
    let shown = list_name(list);
    let mut reader = match open(list) {
        Ok(r) => BufReader::new(r),
        Err(e) => {
            notice(out, &format!("{shown}: {}", crate::error::reason(&e)))?;
            return Ok(false);
        }
    };
    let from_stdin = is_stdin(list);
    let mut lines = ListReader::default();
    let mut tally = Tally::default();
    let mut buf = Vec::new();
    for number in 1u64.. {
        buf.clear();
        let read = (&mut reader).take(MAX_LINE_BYTES).read_until(b'\n', &mut buf);
        let n = match read {
            Ok(n) => n,
            Err(e) => {
                notice(out, &format!("{shown}: read error: {}", crate::error::reason(&e)))?;
                return Ok(false);
            }
        };
        if n == 0 {
            break;
        }
        let line = if buf.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            // Too long to be a digest line: the rest of it is skipped.
            if let Err(e) = skip_line(&mut reader) {
                notice(out, &format!("{shown}: read error: {}", crate::error::reason(&e)))?;
                return Ok(false);
            }
            if buf.first() == Some(&b'#') {
                Line::Skipped
            } else {
                Line::Malformed
            }
        } else {
            lines.parse(&buf)
        };
        let entry = match line {
            Line::Skipped => continue,
            Line::Entry(e) if !(from_stdin && e.name == b"-") => usable(options, e),
            Line::Entry(_) | Line::Malformed => None,
        };
        match entry {
            Some((algo, entry)) => {
                tally.formatted = true;
                check_entry(options, algo, &entry, &mut tally, out)?;
            }
            None => {
                tally.malformed += 1;
                if options.warn {
                    notice(out, &format!("{shown}: {number}: improperly formatted checksum line"))?;
                }
            }
        }
    }
    if !tally.formatted {
        // Said even under --status, as GNU does: the list itself is wrong.
        notice(out, &format!("{shown}: no properly formatted checksum lines found"))?;
        return Ok(false);
    }
    if !options.status {
        for warning in tally.warnings() {
            notice(out, &warning)?;
        }
        if options.ignore_missing && !tally.matched {
            notice(out, &format!("{shown}: no file was verified"))?;
        }
    }
    Ok(tally.passed(options.strict))
}

/// The function an entry is checked with; `None` when its tag names
/// another than the one `-a` asked for (a malformed line, as in GNU).
fn usable(options: &CheckOptions, entry: Entry) -> Option<(HashAlgo, Entry)> {
    let algo = match (options.algo, entry.tag) {
        (Some(asked), Some(tag)) if asked != tag => return None,
        (Some(asked), _) => asked,
        (None, tag) => tag.unwrap_or(HashAlgo::DEFAULT),
    };
    Some((algo, entry))
}

/// Checks one listed file and writes its verdict.
fn check_entry(
    options: &CheckOptions,
    algo: HashAlgo,
    entry: &Entry,
    tally: &mut Tally,
    out: &mut impl Write,
) -> Result<(), HashError> {
    let digest = match path_from_bytes(&entry.name) {
        Some(path) => digest_path(algo, &path),
        None => Err(io::Error::new(io::ErrorKind::InvalidInput, "not a file name this system can have")),
    };
    let verdict = match digest {
        Err(e) if options.ignore_missing && e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            tally.unreadable += 1;
            notice(out, &format!("{}: {}", shown_name(&entry.name), crate::error::reason(&e)))?;
            "FAILED open or read"
        }
        Ok(got) if got == entry.digest => {
            tally.matched = true;
            if options.quiet {
                return Ok(());
            }
            "OK"
        }
        Ok(_) => {
            tally.mismatched += 1;
            "FAILED"
        }
    };
    if !options.status {
        out.write_all(&super::line::verdict_line(&entry.name, verdict)).map_err(HashError::Output)?;
    }
    Ok(())
}

/// Reads up to and including the next newline, keeping nothing.
fn skip_line(list: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = list.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        match buf.iter().position(|&b| b == b'\n') {
            Some(i) => {
                list.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buf.len();
                list.consume(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_gnus_lines_in_gnus_order() {
        let t = Tally { malformed: 1, unreadable: 2, mismatched: 1, formatted: true, matched: true };
        assert_eq!(
            t.warnings(),
            [
                "WARNING: 1 line is improperly formatted",
                "WARNING: 2 listed files could not be read",
                "WARNING: 1 computed checksum did NOT match"
            ]
        );
        let t = Tally { malformed: 3, mismatched: 2, ..t };
        assert_eq!(t.warnings()[0], "WARNING: 3 lines are improperly formatted");
        assert_eq!(t.warnings()[2], "WARNING: 2 computed checksums did NOT match");
    }

    #[test]
    fn a_list_passes_only_with_a_match_and_no_failure() {
        let ok = Tally { formatted: true, matched: true, ..Tally::default() };
        assert!(ok.passed(false) && ok.passed(true));
        let malformed = Tally { malformed: 1, ..ok };
        assert!(malformed.passed(false) && !malformed.passed(true));
        assert!(!Tally { unreadable: 1, ..ok }.passed(false));
        assert!(!Tally { mismatched: 1, ..ok }.passed(false));
        // Every file missing under --ignore-missing: nothing was verified.
        assert!(!Tally { matched: false, ..ok }.passed(false));
        assert!(!Tally::default().passed(false));
    }
}
