//! Typed errors of the command line, each shown as one line on stderr.

use std::fmt;

/// Everything that can stop a command. `main` prints it as `skinny: <message>`
/// and exits non-zero.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or bad input given by the user.
    Usage(String),
    /// Reading or writing failed.
    Io(String),
    /// The cipher or mode layer refused (padding, lengths, backend failure).
    Bulk(skinny_bulk::Error),
    /// A self-test or check failed.
    Check(String),
    /// Writing a report to stdout failed (a closed pipe, a full disk).
    Output(std::io::Error),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Io(m) | CliError::Check(m) => f.write_str(m),
            CliError::Bulk(e) => f.write_str(&bulk_message(e)),
            CliError::Output(e) => write!(f, "cannot write output: {}", reason(e)),
        }
    }
}

impl std::error::Error for CliError {}

impl From<skinny_bulk::Error> for CliError {
    fn from(e: skinny_bulk::Error) -> Self {
        CliError::Bulk(e)
    }
}

/// A bulk-layer error in the command line's words: the library names no
/// options, so the hint about which flag to change is added here.
fn bulk_message(e: &skinny_bulk::Error) -> String {
    use skinny_bulk::Error as E;
    match e {
        E::IvRequired { mode } => format!("{mode} mode needs an IV (--iv HEX, one block)"),
        E::IvNotAllowed => "ECB mode takes no IV; remove --iv".into(),
        E::PaddingNotApplicable { mode } => format!("--no-pad applies only to ecb and cbc ({mode} never pads)"),
        E::ZeroThreads => "--threads must be at least 1".into(),
        other => other.to_string(),
    }
}

impl From<skinny_bulk::stream::StreamError> for CliError {
    fn from(e: skinny_bulk::stream::StreamError) -> Self {
        use skinny_bulk::stream::StreamError as S;
        match e {
            S::Read(e) => CliError::Io(format!("cannot read input: {}", reason(&e))),
            S::Write(e) => CliError::Io(format!("cannot write output: {}", reason(&e))),
            S::Cipher(e) => CliError::Bulk(e),
            other => CliError::Io(other.to_string()),
        }
    }
}

impl CliError {
    /// The process exit code: 2 for usage errors (as clap), 1 for the rest.
    pub fn exit_code(&self) -> i32 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Bulk(
                skinny_bulk::Error::IvRequired { .. }
                | skinny_bulk::Error::IvNotAllowed
                | skinny_bulk::Error::IvLength { .. }
                | skinny_bulk::Error::PaddingNotApplicable { .. }
                | skinny_bulk::Error::ZeroThreads,
            ) => 2,
            _ => 1,
        }
    }
}

/// An I/O error's reason without the trailing ` (os error N)`, for messages.
pub fn reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

impl CliError {
    /// Whether the reader of stdout went away (a closed pipe): `main` then ends
    /// quietly with success instead of reporting it.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
