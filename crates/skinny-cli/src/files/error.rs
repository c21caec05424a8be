//! What stops opening the input or the output, or committing the output,
//! each with its source.

use crate::error::{count, reason, CliError, STDOUT_CLOSED};
use std::io;
use std::path::{Path, PathBuf};

/// `path` for a one-line message: as named, but each control character (a
/// newline, an escape sequence's start, a C1 control) escaped as Rust writes
/// it (`\n`, `\u{1b}`), so that a hostile file name can neither break the
/// message into lines nor steer the terminal.
pub(crate) fn shown(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// What stops [`Source`](super::Source) or [`Sink`](super::Sink). Turned into
/// a [`CliError`] where it leaves the module: writing binary to a terminal and
/// writing over the input are usage errors (exit 2), the rest I/O errors
/// (exit 1).
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The input cannot be opened or looked at.
    #[error("cannot read input {}: {}", shown(path), reason(source))]
    InputUnreadable {
        /// The input as named.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The input is a directory.
    #[error("cannot read input {}: it is a directory", shown(path))]
    InputIsDirectory {
        /// The input as named.
        path: PathBuf,
    },
    /// Stdin was closed when the process started (`<&-`), and no INPUT was
    /// named: it is not an empty input.
    #[error("cannot read input: stdin is closed (name INPUT, use a pipe, or </dev/null for an empty input)")]
    StdinClosed,
    /// Stdout was closed when the process started (`>&-`).
    #[error("{}", STDOUT_CLOSED)]
    StdoutClosed,
    /// Binary output to a terminal without `--force`.
    #[error("refusing to write binary output to a terminal; use -o FILE, a pipe, or --force")]
    Terminal,
    /// The output is the input (the same name, a link, the same stream).
    #[error("input and output are the same file; write to another file and rename it")]
    SameFile,
    /// The output is the key file (the same name, a link, the same stream):
    /// the only copy of the key would become ciphertext under it.
    #[error("refusing to write the output over the key file: the key would be lost; choose another output")]
    KeyFile,
    /// The output is a file a key, identity or passphrase of this run was
    /// read from (a descriptor, stdin, `/proc/self/fd/N`, any name).
    #[error("refusing to write the output where a key, identity or passphrase was read from: it would be lost; choose another output")]
    SecretSource,
    /// The input is a file a key, identity or passphrase of this run was
    /// read from: the secret would be sealed under itself.
    #[error("the input is where a key, identity or passphrase was read from: it would be sealed under itself; name another input")]
    InputIsSecret,
    /// Stdout could not be taken for writing.
    #[error("cannot write output: {}", reason(.0))]
    Stdout(#[source] io::Error),
    /// The output cannot be looked at, or a special file opened.
    #[error("cannot write output {}: {}", shown(path), reason(source))]
    OutputUnwritable {
        /// The output as named.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The output is a directory.
    #[error("cannot write output {}: it is a directory", shown(path))]
    OutputIsDirectory {
        /// The output as named.
        path: PathBuf,
    },
    /// The output is a symbolic link to nothing: which of writing through it
    /// and replacing it is meant, the user decides.
    #[error(
        "cannot write output {}: it is a symbolic link to a missing file; remove the link or name the file it should \
         point to",
        shown(path)
    )]
    DanglingSymlink {
        /// The output as named.
        path: PathBuf,
    },
    /// The temporary file beside the output cannot be created or looked at.
    #[error("cannot write output {}: {}", shown(path), reason(source))]
    TempFile {
        /// The output as named.
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The output is a file this user could not write in place.
    #[error("refusing to replace output {}: {}", shown(path), not_writable(source))]
    NotWritable {
        /// The output as named.
        path: PathBuf,
        /// Why it cannot be opened for writing.
        #[source]
        source: io::Error,
    },
    /// The output has other hard links, which would keep the old content.
    #[error(
        "refusing to replace output {}: it has {} (hard {}) that would keep the old content; use --force to \
         replace this name only",
        shown(path),
        count(*others, "other name"),
        if *others == 1 { "link" } else { "links" }
    )]
    HardLinks {
        /// The output as named.
        path: PathBuf,
        /// Its other names.
        others: u64,
    },
    /// The new file cannot keep the owner of the file it would replace.
    #[error(
        "refusing to replace output {}: it belongs to user {uid} and group {gid}, and the new file cannot keep that \
         ({}); write elsewhere, or as its owner",
        shown(path),
        reason(source)
    )]
    Owner {
        /// The output as named.
        path: PathBuf,
        /// Its owner.
        uid: u32,
        /// Its group.
        gid: u32,
        /// Why the new file cannot have them.
        #[source]
        source: io::Error,
    },
    /// Flushing or syncing the output failed.
    #[error("cannot write output: {}", reason(.0))]
    Flush(#[source] io::Error),
    /// The finished temporary file could not be renamed over the output.
    #[error("cannot write output {}: {}", shown(path), reason(source))]
    Rename {
        /// The file replaced (where a symlink pointed).
        path: PathBuf,
        /// Why.
        #[source]
        source: io::Error,
    },
}

/// Why a file cannot be opened for writing; a permission refusal in words
/// that say it is the file's, not the tool's.
fn not_writable(e: &io::Error) -> String {
    if e.kind() == io::ErrorKind::PermissionDenied {
        "you may not write it (it is read-only to you)".to_string()
    } else {
        reason(e)
    }
}

impl From<FileError> for CliError {
    fn from(e: FileError) -> Self {
        match e {
            FileError::Terminal
            | FileError::SameFile
            | FileError::KeyFile
            | FileError::SecretSource
            | FileError::InputIsSecret => CliError::Usage(e.to_string()),
            FileError::InputUnreadable { .. }
            | FileError::StdinClosed
            | FileError::InputIsDirectory { .. }
            | FileError::StdoutClosed
            | FileError::Stdout(_)
            | FileError::OutputUnwritable { .. }
            | FileError::OutputIsDirectory { .. }
            | FileError::DanglingSymlink { .. }
            | FileError::TempFile { .. }
            | FileError::NotWritable { .. }
            | FileError::HardLinks { .. }
            | FileError::Owner { .. }
            | FileError::Flush(_)
            | FileError::Rename { .. } => CliError::Io(e.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The words and exit codes of what a test cannot easily bring about
    /// (a terminal, another owner, a failing rename), as they were written
    /// before these errors were typed.
    #[test]
    fn file_errors_keep_their_words_and_exit_codes() {
        let path = || PathBuf::from("/o/out");
        let denied = || io::Error::from(io::ErrorKind::PermissionDenied);
        let line = |e: FileError| {
            let e = CliError::from(e);
            (e.to_string(), e.exit_code())
        };
        let cases = [
            (
                FileError::StdoutClosed,
                "cannot write output: stdout is closed (use -o FILE, a pipe, or >/dev/null to discard it)",
                1,
            ),
            (
                FileError::StdinClosed,
                "cannot read input: stdin is closed (name INPUT, use a pipe, or </dev/null for an empty input)",
                1,
            ),
            (
                FileError::KeyFile,
                "refusing to write the output over the key file: the key would be lost; choose another output",
                2,
            ),
            (FileError::Terminal, "refusing to write binary output to a terminal; use -o FILE, a pipe, or --force", 2),
            (FileError::Stdout(denied()), "cannot write output: permission denied", 1),
            (FileError::Flush(io::Error::from_raw_os_error(28)), "cannot write output: No space left on device", 1),
            (
                FileError::Rename { path: path(), source: io::Error::from_raw_os_error(18) },
                "cannot write output /o/out: Invalid cross-device link",
                1,
            ),
            (
                FileError::TempFile { path: path(), source: io::Error::from_raw_os_error(13) },
                "cannot write output /o/out: Permission denied",
                1,
            ),
            (
                FileError::NotWritable { path: path(), source: denied() },
                "refusing to replace output /o/out: you may not write it (it is read-only to you)",
                1,
            ),
            (
                FileError::NotWritable { path: path(), source: io::Error::from_raw_os_error(30) },
                "refusing to replace output /o/out: Read-only file system",
                1,
            ),
            (
                FileError::Owner { path: path(), uid: 1000, gid: 100, source: io::Error::from_raw_os_error(1) },
                "refusing to replace output /o/out: it belongs to user 1000 and group 100, and the new file cannot \
                 keep that (Operation not permitted); write elsewhere, or as its owner",
                1,
            ),
        ];
        for (e, want, code) in cases {
            assert!(
                std::error::Error::source(&e).is_some()
                    == !matches!(
                        e,
                        FileError::StdoutClosed | FileError::StdinClosed | FileError::KeyFile | FileError::Terminal
                    )
            );
            assert_eq!(line(e), (want.to_string(), code));
        }
    }
}
