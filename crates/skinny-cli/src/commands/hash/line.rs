//! The lines of a digest list in GNU coreutils' format (`sha256sum`'s), both
//! ways: written by `skinny hash`, read back by `--check`.
//!
//! Written: `<hex>  <name>`, or with `--tag` `<Tag> (<name>) = <hex>`. A
//! name with a backslash, newline or carriage return is escaped (`\\`, `\n`,
//! `\r`) and its line starts with a backslash, so no name can end its line
//! early or add one; with `-z` lines end in NUL and names are written as
//! they are, as GNU does.
//!
//! Read: what `sha256sum` reads, with our tags in place of `SHA256`: leading
//! blanks are skipped, a leading backslash means the name is escaped, the
//! line ends at `\n` or `\r\n` (so a name's own trailing CR must be escaped,
//! as it is when we write it), `#` starts a comment and an empty line is
//! skipped. Untagged lines are `<hex>  <name>` or `<hex> *<name>`, or the
//! BSD `md5 -r` form `<hex> <name>`; a list's first untagged line decides
//! between the two, as in GNU, so that a name starting with a blank or `*`
//! cannot be read two ways.

use super::args::HashAlgo;
use super::DIGEST_BYTES;

/// Hex digits in a digest.
const HEX_DIGITS: usize = 2 * DIGEST_BYTES;

/// How `skinny hash` writes its lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// `<Tag> (<name>) = <hex>` (`--tag`).
    pub tagged: bool,
    /// NUL-terminated lines, names as they are (`-z`).
    pub zero: bool,
}

/// Whether `name` needs escaping in a newline-terminated line.
fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|b| matches!(b, b'\\' | b'\n' | b'\r'))
}

/// Appends `name`, escaped where `escape`.
pub(super) fn push_name(line: &mut Vec<u8>, name: &[u8], escape: bool) {
    if !escape {
        line.extend_from_slice(name);
        return;
    }
    for &b in name {
        match b {
            b'\\' => line.extend_from_slice(b"\\\\"),
            b'\n' => line.extend_from_slice(b"\\n"),
            b'\r' => line.extend_from_slice(b"\\r"),
            _ => line.push(b),
        }
    }
}

/// One line of `skinny hash`'s output, with its terminator.
pub fn digest_line(algo: HashAlgo, digest: &[u8; DIGEST_BYTES], name: &[u8], style: Style) -> Vec<u8> {
    let escape = !style.zero && needs_escape(name);
    let mut line = Vec::with_capacity(HEX_DIGITS + 2 * name.len() + 24);
    if escape {
        line.push(b'\\');
    }
    let hex = hex::encode(digest);
    if style.tagged {
        line.extend_from_slice(algo.tag().as_bytes());
        line.extend_from_slice(b" (");
        push_name(&mut line, name, escape);
        line.extend_from_slice(b") = ");
        line.extend_from_slice(hex.as_bytes());
    } else {
        line.extend_from_slice(hex.as_bytes());
        line.extend_from_slice(b"  ");
        push_name(&mut line, name, escape);
    }
    line.push(if style.zero { 0 } else { b'\n' });
    line
}

/// One line of `--check`'s verdicts: `<name>: <verdict>`, the name escaped
/// as in [`digest_line`].
pub fn verdict_line(name: &[u8], verdict: &str) -> Vec<u8> {
    let escape = needs_escape(name);
    let mut line = Vec::with_capacity(2 * name.len() + verdict.len() + 4);
    if escape {
        line.push(b'\\');
    }
    push_name(&mut line, name, escape);
    line.extend_from_slice(b": ");
    line.extend_from_slice(verdict.as_bytes());
    line.push(b'\n');
    line
}

/// A line of a list that names a file and its digest.
#[derive(Debug, PartialEq, Eq)]
pub struct Entry {
    /// The function a tagged line names (`None`: untagged).
    pub tag: Option<HashAlgo>,
    /// The digest it expects.
    pub digest: [u8; DIGEST_BYTES],
    /// The file's name, unescaped.
    pub name: Vec<u8>,
}

/// What one line of a list is.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A comment or an empty line: nothing to check, nothing wrong.
    Skipped,
    /// A file to check.
    Entry(Entry),
    /// Not a digest line ("improperly formatted").
    Malformed,
}

/// Which untagged form a list has shown so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Untagged {
    /// No untagged line yet.
    #[default]
    Unknown,
    /// `<hex>  <name>` or `<hex> *<name>`.
    Standard,
    /// `<hex> <name>` (BSD `md5 -r`).
    Reversed,
}

/// Reads the lines of one list, remembering its untagged form.
#[derive(Debug, Default)]
pub struct ListReader {
    untagged: Untagged,
}

impl ListReader {
    /// Parses `line` (with or without its `\n`).
    pub fn parse(&mut self, line: &[u8]) -> Line {
        if line.first() == Some(&b'#') {
            return Line::Skipped;
        }
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return Line::Skipped;
        }
        let line = trim_blanks(line);
        let (escaped, line) = match line.strip_prefix(b"\\") {
            Some(rest) => (true, rest),
            None => (false, line),
        };
        let parsed = match tag_prefix(line) {
            Some((algo, rest)) => tagged(algo, rest),
            None => self.untagged(line),
        };
        let Some((tag, digest, name)) = parsed else { return Line::Malformed };
        let name = if escaped { unescape(name) } else { Some(name.to_vec()) };
        match name {
            // A NUL cannot be in a file's name.
            Some(name) if !name.contains(&0) => Line::Entry(Entry { tag, digest, name }),
            _ => Line::Malformed,
        }
    }

    /// `<hex>  <name>`, `<hex> *<name>` or `<hex> <name>`, as GNU tells them apart.
    fn untagged<'a>(&mut self, line: &'a [u8]) -> Option<(Option<HashAlgo>, [u8; DIGEST_BYTES], &'a [u8])> {
        // The digest, one blank, and a name of at least one byte.
        if line.len() < HEX_DIGITS + 2 {
            return None;
        }
        let end = line.iter().position(|b| is_blank(*b))?;
        let digest = digest_from_hex(&line[..end])?;
        let after = &line[end + 1..];
        let name = if after.len() == 1 || !matches!(after[0], b' ' | b'*') {
            // Refused in a list that began in the standard form: a name
            // that starts with a blank must not read as another name there.
            if self.untagged == Untagged::Standard {
                return None;
            }
            self.untagged = Untagged::Reversed;
            after
        } else if self.untagged == Untagged::Reversed {
            after
        } else {
            self.untagged = Untagged::Standard;
            &after[1..]
        };
        Some((None, digest, name))
    }
}

/// The function whose tag starts `line`, and what follows the tag.
fn tag_prefix(line: &[u8]) -> Option<(HashAlgo, &[u8])> {
    HashAlgo::ALL.into_iter().find_map(|algo| {
        let tag = algo.tag().as_bytes();
        let head = line.get(..tag.len())?;
        head.eq_ignore_ascii_case(tag).then(|| (algo, &line[tag.len()..]))
    })
}

/// The rest of `<Tag> (<name>) = <hex>` after the tag: the name runs to the
/// last `)`, so a name may hold `)` itself.
fn tagged(algo: HashAlgo, rest: &[u8]) -> Option<(Option<HashAlgo>, [u8; DIGEST_BYTES], &[u8])> {
    let rest = rest.strip_prefix(b" ").unwrap_or(rest);
    let rest = rest.strip_prefix(b"(")?;
    let close = rest.iter().rposition(|&b| b == b')')?;
    let (name, after) = (&rest[..close], &rest[close + 1..]);
    let after = trim_blanks(after).strip_prefix(b"=")?;
    let digest = digest_from_hex(trim_blanks(after))?;
    Some((Some(algo), digest, name))
}

/// Exactly 64 hex digits, in either case.
fn digest_from_hex(digits: &[u8]) -> Option<[u8; DIGEST_BYTES]> {
    if digits.len() != HEX_DIGITS {
        return None;
    }
    let mut digest = [0u8; DIGEST_BYTES];
    hex::decode_to_slice(digits, &mut digest).ok()?;
    Some(digest)
}

/// An escaped name: `\\`, `\n` and `\r` stand for a backslash, a newline and
/// a carriage return; any other backslash makes the line malformed.
fn unescape(name: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(name.len());
    let mut bytes = name.iter();
    while let Some(&b) = bytes.next() {
        out.push(if b == b'\\' {
            match bytes.next()? {
                b'\\' => b'\\',
                b'n' => b'\n',
                b'r' => b'\r',
                _ => return None,
            }
        } else {
            b
        });
    }
    Some(out)
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn trim_blanks(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|b| !is_blank(*b)).unwrap_or(s.len());
    &s[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEX: &str = "abababababababababababababababababababababababababababababababab";

    fn entry(tag: Option<HashAlgo>, name: &[u8]) -> Line {
        Line::Entry(Entry { tag, digest: [0xab; 32], name: name.to_vec() })
    }

    /// Each line read by a fresh reader (no form decided yet).
    fn parse(line: &str) -> Line {
        ListReader::default().parse(line.as_bytes())
    }

    #[test]
    fn written_lines_read_back_for_every_awkward_name() {
        let names: [&[u8]; 8] =
            [b"a b", b"x\ny", b"back\\slash", b"cr\r", b"\r\n\\", b"*star", b" lead", b"a) = 00 (b"];
        for tagged in [false, true] {
            for algo in HashAlgo::ALL {
                for name in names {
                    let line = digest_line(algo, &[0xab; 32], name, Style { tagged, zero: false });
                    assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1, "{line:?}");
                    let want = entry(tagged.then_some(algo), name);
                    assert_eq!(ListReader::default().parse(&line), want, "{line:?}");
                }
            }
        }
    }

    #[test]
    fn lines_are_written_as_sha256sum_writes_them() {
        let plain = Style::default();
        let d = [0xab; 32];
        assert_eq!(digest_line(HashAlgo::RomulusH, &d, b"a b", plain), format!("{HEX}  a b\n").into_bytes());
        assert_eq!(
            digest_line(HashAlgo::RomulusH, &d, b"x\ny\\\r", plain),
            format!("\\{HEX}  x\\ny\\\\\\r\n").into_bytes()
        );
        let tag = Style { tagged: true, zero: false };
        assert_eq!(
            digest_line(HashAlgo::SkinnyTk2Hash, &d, b"a\nb", tag),
            format!("\\SKINNY-tk2-Hash (a\\nb) = {HEX}\n").into_bytes()
        );
        let zero = Style { tagged: false, zero: true };
        assert_eq!(digest_line(HashAlgo::RomulusH, &d, b"x\ny", zero), format!("{HEX}  x\ny\0").into_bytes());
        assert_eq!(verdict_line(b"x\ny", "OK"), b"\\x\\ny: OK\n");
        assert_eq!(verdict_line(b"plain", "FAILED"), b"plain: FAILED\n");
    }

    #[test]
    fn lines_are_read_as_sha256sum_reads_them() {
        let up = HEX.to_uppercase();
        for (line, want) in [
            (format!("{HEX}  a b\n"), entry(None, b"a b")),
            (format!("{up}  x\r\n"), entry(None, b"x")),
            (format!("{HEX} *bin"), entry(None, b"bin")),
            (format!("  \t{HEX}  lead"), entry(None, b"lead")),
            (format!("{HEX}  trail \t"), entry(None, b"trail \t")),
            (format!("{HEX} one-space"), entry(None, b"one-space")),
            (format!("{HEX}\ttab"), entry(None, b"tab")),
            (format!("{HEX}  "), entry(None, b" ")),
            (format!("\\{HEX}  a\\\\b\\nc\\rd"), entry(None, b"a\\b\nc\rd")),
            (format!("{HEX}  a\\nb"), entry(None, b"a\\nb")),
            (format!("Romulus-H (a (b) c) = {HEX}"), entry(Some(HashAlgo::RomulusH), b"a (b) c")),
            (format!("ROMULUS-H(x)={HEX}"), entry(Some(HashAlgo::RomulusH), b"x")),
            (format!("skinny-tk3-hash (x) =  {up}\r\n"), entry(Some(HashAlgo::SkinnyTk3Hash), b"x")),
            (format!("\\SKINNY-tk2-Hash (\\\\) = {HEX}"), entry(Some(HashAlgo::SkinnyTk2Hash), b"\\")),
            (format!("Romulus-H () = {HEX}"), entry(Some(HashAlgo::RomulusH), b"")),
            ("# {HEX}  comment".to_string(), Line::Skipped),
            ("\n".to_string(), Line::Skipped),
            ("\r\n".to_string(), Line::Skipped),
        ] {
            assert_eq!(parse(&line), want, "{line:?}");
        }
        for bad in [
            HEX.to_string(),
            format!("{HEX} "),
            format!("{}  x", &HEX[..62]),
            format!("{HEX}ab  x"),
            format!("{}zz  x", &HEX[..62]),
            format!("\\{HEX}  a\\tb"),
            format!("\\{HEX}  a\\"),
            format!("{HEX}  a\0b"),
            format!("SHA256 (x) = {HEX}"),
            format!("Romulus-H x = {HEX}"),
            format!("Romulus-H (x) {HEX}"),
            format!("Romulus-H (x) = {HEX}0"),
            format!("Romulus-Hx (x) = {HEX}"),
            " # not a comment".to_string(),
            "garbage".to_string(),
            "é".repeat(40),
        ] {
            assert_eq!(parse(&bad), Line::Malformed, "{bad:?}");
        }
    }

    #[test]
    fn the_first_untagged_line_fixes_the_form_of_a_list() {
        // Standard first: a one-blank line is refused, a tagged one is not.
        let mut list = ListReader::default();
        assert_eq!(list.parse(format!("{HEX}  a").as_bytes()), entry(None, b"a"));
        assert_eq!(list.parse(format!("{HEX} b").as_bytes()), Line::Malformed);
        assert_eq!(list.parse(format!("Romulus-H (c) = {HEX}").as_bytes()), entry(Some(HashAlgo::RomulusH), b"c"));
        assert_eq!(list.parse(format!("{HEX} *d").as_bytes()), entry(None, b"d"));
        // Reversed first: what follows the one blank is all name.
        let mut list = ListReader::default();
        assert_eq!(list.parse(format!("{HEX} a").as_bytes()), entry(None, b"a"));
        assert_eq!(list.parse(format!("{HEX}  b").as_bytes()), entry(None, b" b"));
        assert_eq!(list.parse(format!("{HEX} *c").as_bytes()), entry(None, b"*c"));
    }
}
