//! `skinny keygen`: a new symmetric key (the default) or X25519 identity,
//! written as the typed text line of [`skinny_seal::keygen`].
//!
//! To a file (`-o FILE`): created owner-only (0600), whole or not at all
//! ([`AtomicFile`]), and never over an existing file. To stdout: only when it
//! is not a terminal, or when `-o -` asks for it, so a secret does not land in a
//! terminal's scrollback by accident. For an identity, the recipient (public)
//! goes to stdout when the secret went to a file, else to stderr.

use crate::atomic::{AtomicFile, CommitError, NewFileAccess};
use crate::error::CliError;
use clap::Args;
use skinny_seal::keygen as kg;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use zeroize::Zeroizing;

/// Options of `keygen`.
#[derive(Debug, Args)]
pub struct KeygenArgs {
    /// Where the secret goes: a new file (never replaced), or `-` for stdout. Absent: stdout when it is not a
    /// terminal (a secret is printed to a terminal only with `-o -`)
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// An X25519 identity (for `seal -r RECIPIENT` and `open -i FILE`) instead of a symmetric key
    #[arg(long, conflicts_with = "recipient_of")]
    pub x25519: bool,

    /// Print the recipient of each X25519 identity in FILE, one a line (no key is made)
    #[arg(short = 'y', long, value_name = "FILE")]
    pub recipient_of: Option<PathBuf>,
}

/// Runs `skinny keygen`.
///
/// # Errors
/// The output exists or cannot be written, stdout is a terminal and `-o -` was
/// not given, the random generator failed, or (`-y`) the file is no identity.
pub fn run(a: &KeygenArgs) -> Result<(), CliError> {
    if let Some(path) = &a.recipient_of {
        let lines: Vec<String> = crate::keys::sealing::load_identities(path)?
            .iter()
            .map(|id| kg::encode_recipient(&id.recipient()))
            .collect();
        return print_line(&lines.join("\n"));
    }
    let to_stdout = match a.output.as_deref() {
        Some(p) if p == Path::new("-") => true,
        Some(_) => false,
        None if io::stdout().is_terminal() => {
            return Err(CliError::Usage(
                "keygen: stdout is a terminal; give -o FILE for a new key file, or -o - to print the secret here"
                    .into(),
            ))
        }
        None => true,
    };
    let (text, recipient): (Zeroizing<String>, Option<String>) = if a.x25519 {
        let id = kg::generate_x25519_identity().map_err(random)?;
        (kg::encode_x25519_identity(&id), Some(kg::encode_recipient(&id.recipient())))
    } else {
        (kg::encode_symmetric_key(&*kg::generate_symmetric_key().map_err(random)?), None)
    };
    if (to_stdout || a.x25519) && crate::closed_stdout::stdout_was_closed() {
        return Err(crate::error::stdout_closed());
    }
    if to_stdout {
        warn_if_others_can_read();
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|()| out.flush()).map_err(CliError::Output)?;
        if let Some(r) = recipient {
            let _ = writeln!(io::stderr(), "skinny: recipient: {r}");
        }
        return Ok(());
    }
    let path = a.output.as_deref().unwrap_or(Path::new("-"));
    write_new(path, text.as_bytes())?;
    match recipient {
        Some(r) => print_line(&r),
        None => Ok(()),
    }
}

/// Writes `bytes` to a new owner-only file at `path`, refusing an existing one.
fn write_new(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let shown = path.display();
    if path.symlink_metadata().is_ok() {
        return Err(CliError::Usage(format!("{shown} exists; keygen never replaces a file (choose another name)")));
    }
    let cannot = |e: io::Error| CliError::Io(format!("cannot write {shown}: {}", crate::error::reason(&e)));
    let mut file = AtomicFile::beside(path, NewFileAccess::OwnerOnly).map_err(cannot)?;
    file.write_all(bytes).map_err(cannot)?;
    match file.commit_new() {
        Ok(()) => Ok(()),
        Err(CommitError::Rename(e)) if e.kind() == io::ErrorKind::AlreadyExists => {
            Err(CliError::Usage(format!("{shown} exists; keygen never replaces a file (choose another name)")))
        }
        Err(CommitError::Sync(e) | CommitError::Rename(e)) => Err(cannot(e)),
    }
}

/// A secret about to go to stdout redirected into a file that group or others
/// may read (`keygen > key` under umask 022) gets a warning on stderr: the
/// file was made by the shell, not by us, so we cannot make it owner-only.
fn warn_if_others_can_read() {
    use std::os::fd::AsFd;
    use std::os::unix::fs::PermissionsExt;
    let Ok(fd) = io::stdout().as_fd().try_clone_to_owned() else { return };
    let Ok(meta) = std::fs::File::from(fd).metadata() else { return };
    if meta.is_file() && meta.permissions().mode() & 0o077 != 0 {
        let _ = writeln!(
            io::stderr(),
            "skinny: warning: writing a secret to a file that others may read; use -o FILE (made owner-only) or chmod 600 it"
        );
    }
}

/// The random generator's failure in one line.
fn random(e: impl std::fmt::Display) -> CliError {
    CliError::Io(format!("keygen: the random generator failed: {e}"))
}

fn print_line(line: &str) -> Result<(), CliError> {
    if crate::closed_stdout::stdout_was_closed() {
        return Err(crate::error::stdout_closed());
    }
    let mut out = io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).map_err(CliError::Output)
}
