//! `skinny hash`: 256-bit digests of files in `sha256sum`'s format
//! (`<64 hex>  <name>`), and `--check` of such lists, over Romulus-H and the
//! two SKINNY-Hash members.
//!
//! Files are read in 64 KiB pieces, so memory does not grow with them. Several
//! files are hashed at once on worker threads (`spread`), their lines
//! printed in the order given. A file that cannot be read is reported on its
//! own line and the others are still done; the command then fails (exit 1)
//! once all are, as `sha256sum` does.

pub mod args;
pub mod spread;

use crate::error::{count, reason, redact, CliError};
use args::{HashAlgo, HashArgs};
use skinny_romulus::digest::Digest;
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes read from a file at a time.
const READ_BYTES: usize = 64 * 1024;

/// Bytes in every digest offered.
const DIGEST_BYTES: usize = 32;

/// The longest line of a list that `--check` reads; a longer one is malformed
/// (a list line is a digest and a path, and this bounds the memory it takes).
const MAX_LINE_BYTES: u64 = 64 * 1024;

/// The words of [`HashError::StdoutClosed`]: the shared ones offer `-o
/// FILE`, which `hash` does not have.
const STDOUT_CLOSED: &str = "cannot write output: stdout is closed (hash writes to stdout only: use a pipe, \
                             > FILE, or >/dev/null to discard it)";

/// What stops `skinny hash` in its own terms; turned into a [`CliError`]
/// where it leaves the command.
#[derive(Debug)]
pub enum HashError {
    /// Stdout was closed when the process started (`>&-`): the digests or
    /// verdicts would vanish. Worded for `hash`, which has no `-o`.
    StdoutClosed,
    /// Writing the digests or the verdicts failed (a closed pipe, a full disk).
    Output(io::Error),
    /// Some files (or lists) could not be read; each was reported already.
    Unreadable {
        /// How many.
        files: u64,
    },
    /// `--check` found digests that differ, files it could not read, or lines
    /// it could not parse.
    CheckFailed(Tally),
    /// `--check` read lists with no digest line in them at all.
    NoDigestLines,
}

/// What `--check` counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Digests that did not match.
    pub mismatched: u64,
    /// Listed files (or lists) that could not be read.
    pub unreadable: u64,
    /// Lines that are not `<64 hex>  <name>` or `<64 hex> *<name>`.
    pub malformed: u64,
    /// Lines checked (matching or not).
    pub checked: u64,
}

impl std::fmt::Display for HashError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HashError::Output(e) => write!(f, "cannot write output: {}", reason(e)),
            HashError::StdoutClosed => f.write_str(STDOUT_CLOSED),
            HashError::Unreadable { files } => write!(f, "{} could not be read", count(*files, "file")),
            HashError::NoDigestLines => f.write_str("no properly formatted digest lines found"),
            HashError::CheckFailed(t) => {
                let mut parts = Vec::new();
                if t.malformed > 0 {
                    let verb = if t.malformed == 1 { "is" } else { "are" };
                    parts.push(format!("{} {verb} improperly formatted", count(t.malformed, "line")));
                }
                if t.unreadable > 0 {
                    parts.push(format!("{} could not be read", count(t.unreadable, "listed file")));
                }
                if t.mismatched > 0 {
                    parts.push(format!("{} did NOT match", count(t.mismatched, "computed checksum")));
                }
                write!(f, "WARNING: {}", parts.join("; "))
            }
        }
    }
}

impl std::error::Error for HashError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            HashError::Output(e) => Some(e),
            HashError::StdoutClosed
            | HashError::Unreadable { .. }
            | HashError::CheckFailed(_)
            | HashError::NoDigestLines => None,
        }
    }
}

impl From<HashError> for CliError {
    fn from(e: HashError) -> Self {
        match e {
            HashError::Output(e) => CliError::Output(e),
            e @ (HashError::StdoutClosed | HashError::Unreadable { .. }) => CliError::Io(e.to_string()),
            e @ (HashError::CheckFailed(_) | HashError::NoDigestLines) => CliError::Check(e.to_string()),
        }
    }
}

/// Runs `skinny hash`.
///
/// # Errors
/// Unwritable output; files that could not be read (after the others were
/// hashed); with `--check`, any digest that differs or line that is malformed.
pub fn run(a: &HashArgs) -> Result<(), CliError> {
    if crate::closed_stdout::stdout_was_closed() {
        return Err(HashError::StdoutClosed.into());
    }
    let stdin = [PathBuf::from("-")];
    let files = if a.files.is_empty() { &stdin[..] } else { &a.files[..] };
    let mut out = io::BufWriter::new(io::stdout().lock());
    let result = if a.check {
        check(a.algo, files, &mut out)
    } else {
        hash(a.algo, files, spread::workers_for(files, a.threads), &mut out)
    };
    // A write error that the buffer held back is still an error.
    let flushed = out.flush().map_err(HashError::Output);
    result.and(flushed).map_err(CliError::from)
}

/// Prints `<hex>  <name>` for each file, in order, hashing on `workers` threads.
fn hash(algo: HashAlgo, files: &[PathBuf], workers: usize, out: &mut impl Write) -> Result<(), HashError> {
    let mut unreadable = 0;
    spread::in_order(
        files,
        workers,
        |path| digest_path(algo, path),
        |path, result| {
            match result {
                Ok(digest) => {
                    let line = [hex::encode(digest).as_bytes(), b"  ", &name_bytes(path), b"\n"].concat();
                    out.write_all(&line).map_err(HashError::Output)?;
                }
                Err(e) => {
                    unreadable += 1;
                    warn(path, &e);
                }
            }
            Ok(())
        },
    )?;
    if unreadable > 0 {
        return Err(HashError::Unreadable { files: unreadable });
    }
    Ok(())
}

/// Reads each list and checks the files it names.
fn check(algo: HashAlgo, lists: &[PathBuf], out: &mut impl Write) -> Result<(), HashError> {
    let mut tally = Tally::default();
    for list in lists {
        let reader = match open(list) {
            Ok(r) => BufReader::new(r),
            Err(e) => {
                tally.unreadable += 1;
                warn(list, &e);
                continue;
            }
        };
        if let Err(e) = check_list(algo, reader, out, &mut tally) {
            match e {
                ListError::Output(e) => return Err(HashError::Output(e)),
                ListError::Read(e) => {
                    tally.unreadable += 1;
                    warn(list, &e);
                }
            }
        }
    }
    if tally.checked == 0 && tally.unreadable == 0 {
        return Err(HashError::NoDigestLines);
    }
    if tally.mismatched + tally.unreadable + tally.malformed > 0 {
        return Err(HashError::CheckFailed(tally));
    }
    Ok(())
}

/// Why one list stopped: reading it, or writing the verdicts.
enum ListError {
    Read(io::Error),
    Output(io::Error),
}

/// Checks the lines of one list.
fn check_list(
    algo: HashAlgo,
    mut list: impl BufRead,
    out: &mut impl Write,
    tally: &mut Tally,
) -> Result<(), ListError> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut list).take(MAX_LINE_BYTES).read_until(b'\n', &mut line).map_err(ListError::Read)?;
        if n == 0 {
            return Ok(());
        }
        if line.last() != Some(&b'\n') && n as u64 == MAX_LINE_BYTES {
            // Too long: malformed, and the rest of it is skipped.
            tally.malformed += 1;
            skip_line(&mut list).map_err(ListError::Read)?;
            continue;
        }
        let Some((expected, name)) = parse_line(&line) else {
            if !line.starts_with(b"#") {
                tally.malformed += 1;
            }
            continue;
        };
        tally.checked += 1;
        let Some(path) = path_from_bytes(name) else {
            tally.malformed += 1;
            continue;
        };
        let verdict: &[u8] = match digest_path(algo, &path) {
            Ok(got) if got == expected => b": OK\n",
            Ok(_) => {
                tally.mismatched += 1;
                b": FAILED\n"
            }
            Err(e) => {
                tally.unreadable += 1;
                warn(&path, &e);
                b": FAILED open or read\n"
            }
        };
        out.write_all(&[name, verdict].concat()).map_err(ListError::Output)?;
    }
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

/// `<64 hex>  <name>` or `<64 hex> *<name>` (hex in either case; a trailing
/// `\n` or `\r\n` is not part of the name) as the digest and the name.
fn parse_line(line: &[u8]) -> Option<([u8; DIGEST_BYTES], &[u8])> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let hex_len = 2 * DIGEST_BYTES;
    let (digits, rest) = (line.get(..hex_len)?, line.get(hex_len..)?);
    let name = rest.strip_prefix(b"  ").or_else(|| rest.strip_prefix(b" *"))?;
    if name.is_empty() {
        return None;
    }
    let mut digest = [0u8; DIGEST_BYTES];
    hex::decode_to_slice(digits, &mut digest).ok()?;
    Some((digest, name))
}

/// The digest of the file at `path` (`-`: stdin), read in pieces.
fn digest_path(algo: HashAlgo, path: &Path) -> io::Result<[u8; DIGEST_BYTES]> {
    let mut reader = open(path)?;
    match algo {
        HashAlgo::RomulusH => digest_reader::<skinny_romulus::RomulusH>(&mut reader),
        HashAlgo::SkinnyTk3Hash => digest_reader::<skinny_hash::SkinnyTk3Hash>(&mut reader),
        HashAlgo::SkinnyTk2Hash => digest_reader::<skinny_hash::SkinnyTk2Hash>(&mut reader),
    }
}

/// The file at `path`, or stdin for `-`.
fn open(path: &Path) -> io::Result<Box<dyn Read>> {
    if path.as_os_str() == "-" {
        // A closed stdin (`<&-`) is no empty input: its digest would be a lie.
        if crate::closed_stdout::stdin_was_closed() {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "stdin is closed (give a file, or a pipe)"));
        }
        Ok(Box::new(io::stdin().lock()))
    } else {
        Ok(Box::new(File::open(path)?))
    }
}

/// `D`'s digest of everything `reader` gives.
fn digest_reader<D: Digest>(reader: &mut dyn Read) -> io::Result<[u8; DIGEST_BYTES]> {
    let mut hasher = D::new();
    let mut buf = vec![0u8; READ_BYTES];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let digest = hasher.finalize();
    digest.as_slice().try_into().map_err(|_| io::Error::other("the digest is not 32 bytes"))
}

/// Reports a file that could not be read (a notice: a failing stderr is
/// ignored, the exit status still tells).
fn warn(path: &Path, e: &io::Error) {
    let _ = writeln!(io::stderr(), "skinny: {}", redact(&format!("{}: {}", path.display(), reason(e))));
}

/// The name as given, byte for byte where the platform allows.
fn name_bytes(path: &Path) -> Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Cow::Borrowed(path.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        Cow::Owned(path.to_string_lossy().into_owned().into_bytes())
    }
}

/// The path a list names (`None`: not a name this platform can have).
fn path_from_bytes(name: &[u8]) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Some(PathBuf::from(std::ffi::OsStr::from_bytes(name)))
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(name).ok().map(PathBuf::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_parsed_as_sha256sum_writes_them() {
        let hex = "ab".repeat(32);
        assert_eq!(parse_line(format!("{hex}  a b\n").as_bytes()), Some(([0xab; 32], &b"a b"[..])));
        assert_eq!(parse_line(format!("{}  x\r\n", hex.to_uppercase()).as_bytes()), Some(([0xab; 32], &b"x"[..])));
        assert_eq!(parse_line(format!("{hex} *bin").as_bytes()), Some(([0xab; 32], &b"bin"[..])));
        for bad in [
            format!("{hex} x"),
            format!("{hex}  "),
            format!("{}  x", &hex[..62]),
            format!("{hex}ab  x"),
            format!("{}zz  x", &hex[..62]),
            String::new(),
            "é".repeat(40),
        ] {
            assert_eq!(parse_line(bad.as_bytes()), None, "{bad:?}");
        }
    }

    #[test]
    fn the_summary_is_one_line_with_counts() {
        let t = Tally { mismatched: 1, unreadable: 2, malformed: 1, checked: 3 };
        let e = CliError::from(HashError::CheckFailed(t));
        assert_eq!(
            e.to_string(),
            "WARNING: 1 line is improperly formatted; 2 listed files could not be read; 1 computed checksum did NOT match"
        );
        assert_eq!(e.exit_code(), 1);
        assert_eq!(CliError::from(HashError::Unreadable { files: 1 }).exit_code(), 1);
    }
}
