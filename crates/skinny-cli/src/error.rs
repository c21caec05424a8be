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
    /// The GPU could not be opened or failed (outside the bulk layer: `lab`).
    Gpu(String),
    /// Writing the output failed (a closed pipe, a full disk).
    Output(std::io::Error),
    /// Stopped by a signal (Ctrl-C, SIGTERM) after printing a partial result.
    Interrupted {
        /// The line to show.
        message: String,
        /// The signal, for the exit status 128 + signal.
        signal: i32,
    },
    /// The command failed and has said why already, on lines of its own (or
    /// on purpose not at all: `hash --check --status`): exit 1, no line more.
    Reported,
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Io(m) | CliError::Check(m) | CliError::Gpu(m) => f.write_str(m),
            CliError::Interrupted { message, .. } => f.write_str(message),
            CliError::Reported => f.write_str("failed (reported above)"),
            CliError::Bulk(e) => f.write_str(&bulk_message(e)),
            // A closed pipe (`skinny open sealed | head`) cut the output short:
            // whoever runs the pipeline must learn that what went through is
            // not all of it, so it is a failure like a full disk.
            CliError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe => f.write_str(
                "cannot write output: the reader of stdout went away (broken pipe); the output is incomplete",
            ),
            CliError::Output(e) => write!(f, "cannot write output: {}", reason(e)),
        }
    }
}

impl std::error::Error for CliError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CliError::Bulk(e) => Some(e),
            CliError::Output(e) => Some(e),
            CliError::Usage(_)
            | CliError::Io(_)
            | CliError::Check(_)
            | CliError::Gpu(_)
            | CliError::Interrupted { .. }
            | CliError::Reported => None,
        }
    }
}

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
        E::GpuSelection(e) => format!("--gpus: {e}"),
        // The library's wording says "1 bytes" and "a 8-byte"; these are said
        // right here.
        E::IvLength { variant, got } => {
            let block = variant.block_bytes();
            format!("{variant} needs {} IV (one block), got {}", an(block, "byte"), count(*got as u64, "byte"))
        }
        E::NotWholeBlocks { block, len } => {
            format!("input is {}, not a whole number of {block}-byte blocks", count(*len, "byte"))
        }
        other => other.to_string(),
    }
}

impl From<skinny_bulk::stream::StreamError> for CliError {
    fn from(e: skinny_bulk::stream::StreamError) -> Self {
        use skinny_bulk::stream::StreamError as S;
        match e {
            S::Read(e) => CliError::Io(format!("cannot read input: {}", reason(&e))),
            S::Write(e) => CliError::Output(e),
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
                | skinny_bulk::Error::ZeroThreads
                | skinny_bulk::Error::GpuSelection(_),
            ) => 2,
            // As a shell reports a command ended by that signal (130 for Ctrl-C).
            CliError::Interrupted { signal, .. } => 128 + signal,
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

/// Stdout was closed when the process started (`>&-`): what it should carry
/// would silently vanish.
pub fn stdout_closed() -> CliError {
    CliError::Io(STDOUT_CLOSED.into())
}

/// The words of [`stdout_closed`], shared with the output's own error.
pub const STDOUT_CLOSED: &str =
    "cannot write output: stdout is closed (use -o FILE, a pipe, or >/dev/null to discard it)";

/// `n UNIT` or `n UNITs`: "1 byte", "2 bytes".
pub fn count(n: u64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// `a n-UNIT` or `an n-UNIT` as the number is spoken: "an 8-byte", "a 16-byte",
/// "an 18-byte", "an 11-byte".
pub fn an(n: usize, unit: &str) -> String {
    let digits = n.to_string();
    let vowel =
        digits.starts_with('8') || (digits.len() % 3 == 2 && (digits.starts_with("11") || digits.starts_with("18")));
    format!("{} {n}-{unit}", if vowel { "an" } else { "a" })
}

/// Runs of this many hex digits or more may be key material (the shortest key,
/// SKINNY-64-64's, is 16 hex digits).
const KEYLIKE_HEX_DIGITS: usize = 16;

/// The commands whose command lines and messages may carry key material:
/// keys, key files, passphrases and identities, and outputs a key could be
/// typed into by mistake. The others (`hash`, `lab`, `bench`, `selftest`,
/// `info`, `completions`) take no secret, so their messages show hex as it
/// is: a digest-named file, a lab seed, a checkpoint name.
const COMMANDS_WITH_SECRETS: [&str; 5] = ["encrypt", "decrypt", "seal", "open", "keygen"];

/// `text` as a message of `command` (`None`: none named, or not one of
/// ours) shows it: masked by [`redact`] where the command may carry secrets.
pub fn shown(command: Option<&str>, text: &str) -> String {
    match command {
        Some(c) if !COMMANDS_WITH_SECRETS.contains(&c) => text.to_string(),
        _ => redact(text),
    }
}

/// `text` with every run of [`KEYLIKE_HEX_DIGITS`] or more hex digits masked.
///
/// Messages quote paths and clap quotes values; when a key lands where a path
/// or a name belongs (`--key-file KEY`, `-c KEY`, `-o KEY`), the quote would
/// print the key. No message of ours carries such a run on purpose, so masking
/// them all is safe, and simpler to trust than checking each message.
pub fn redact(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.len() >= KEYLIKE_HEX_DIGITS {
            out.push_str("<hex hidden>");
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for c in text.chars() {
        if c.is_ascii_hexdigit() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_like_hex_is_masked_and_nothing_else() {
        let key = "000102030405060708090a0b0c0d0e0f";
        let m = redact(&format!("cannot read key file /tmp/{key}: No such file"));
        assert_eq!(m, "cannot read key file /tmp/<hex hidden>: No such file");
        assert_eq!(redact("input is 1000 bytes, 16-byte blocks"), "input is 1000 bytes, 16-byte blocks");
        assert_eq!(redact("0123456789abcdeF"), "<hex hidden>");
        assert_eq!(redact("0123456789abcde"), "0123456789abcde");
    }

    #[test]
    fn only_commands_with_secrets_mask_hex() {
        let text = "cannot open 0123456789abcdef0123.ckpt";
        for c in ["seal", "open", "encrypt", "decrypt", "keygen"] {
            assert_eq!(shown(Some(c), text), "cannot open <hex hidden>.ckpt", "{c}");
        }
        assert_eq!(shown(None, text), "cannot open <hex hidden>.ckpt");
        for c in ["lab", "hash", "bench", "selftest", "info", "completions"] {
            assert_eq!(shown(Some(c), text), text, "{c}");
        }
    }

    #[test]
    fn grammar() {
        assert_eq!(count(1, "byte"), "1 byte");
        assert_eq!(count(0, "byte"), "0 bytes");
        assert_eq!(an(8, "byte"), "an 8-byte");
        assert_eq!(an(16, "byte"), "a 16-byte");
        assert_eq!(an(18, "byte"), "an 18-byte");
        assert_eq!(an(11, "byte"), "an 11-byte");
        assert_eq!(an(48, "byte"), "a 48-byte");
        assert_eq!(an(80, "byte"), "an 80-byte");
    }
}
