//! Keys of the v2 sealed format (`seal`, `open`, `keygen`): the typed key
//! lines of [`skinny_seal::keygen`], version 1's 16-byte key files (raw or hex,
//! read by [`super`]'s rules), `--key-file -` from stdin, identities and
//! recipients, with a hint when a key fits another option.

use crate::error::CliError;
use skinny_seal::keygen::{self as kg, KeyTextError, SecretKey};
use std::io::Read;
use std::os::fd::AsFd;
use std::path::Path;
use zeroize::Zeroizing;

/// The bytes of a key file (`-`: stdin), at most [`super::KEY_FILE_MAX_BYTES`].
///
/// # Errors
/// Unreadable, or larger than any key file.
pub fn read_small_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let shown = if path == Path::new("-") { "stdin".to_string() } else { crate::files::shown(path) };
    let unreadable =
        |e: std::io::Error| CliError::Io(format!("cannot read key file {shown}: {}", crate::error::reason(&e)));
    let mut content = Zeroizing::new(Vec::with_capacity(128));
    if path == Path::new("-") {
        crate::files::note_secret_fd(std::io::stdin().as_fd());
        std::io::stdin().lock().take(super::KEY_FILE_MAX_BYTES + 1).read_to_end(&mut content).map_err(unreadable)?;
    } else {
        std::fs::File::open(path)
            .inspect(crate::files::note_secret_source)
            .and_then(|f| f.take(super::KEY_FILE_MAX_BYTES + 1).read_to_end(&mut content))
            .map_err(unreadable)?;
    }
    if content.len() as u64 > super::KEY_FILE_MAX_BYTES {
        return Err(CliError::Usage(format!(
            "key file {shown} is larger than {} bytes: not a key file",
            super::KEY_FILE_MAX_BYTES
        )));
    }
    Ok(content)
}

/// The symmetric key of `--key-file PATH` for `seal` and `open`: a
/// `SKINNY-SEAL-KEY-1` line (32 bytes), or a version-1 key file (16 bytes, raw
/// or hex).
///
/// # Errors
/// Unreadable, malformed, or another kind of key (with a hint to the option
/// that takes it).
pub fn load_symmetric_key(path: &Path) -> Result<Zeroizing<Vec<u8>>, CliError> {
    let content = read_small_file(path)?;
    let shown = crate::files::shown(path);
    match kg::parse_secret_key(&content) {
        Ok(SecretKey::Symmetric(k)) => Ok(Zeroizing::new(k.to_vec())),
        Ok(SecretKey::X25519(_)) => Err(CliError::Usage(format!(
            "{shown} is an X25519 identity, not a symmetric key; give it with -i/--identity"
        ))),
        Err(KeyTextError::PublicNotSecret) => Err(CliError::Usage(format!(
            "{shown} is a public X25519 recipient; seal to it with -r/--recipient (opening needs its identity, -i)"
        ))),
        Err(KeyTextError::NotKeyText) => Ok(super::decode_key_file(super::KeyKind::Aead, path, content)?),
        Err(e) => Err(CliError::Usage(format!("{shown}: {e}"))),
    }
}

/// The X25519 identities in the file at `path` (`-`: stdin): one or more,
/// each tried when opening.
///
/// # Errors
/// Unreadable, malformed, or another kind of key (with a hint).
pub fn load_identities(path: &Path) -> Result<Vec<skinny_seal::recipients::X25519Identity>, CliError> {
    let content = read_small_file(path)?;
    let shown = crate::files::shown(path);
    let keys = kg::parse_secret_keys(&content).map_err(|e| match e {
        KeyTextError::NotKeyText => CliError::Usage(format!(
            "{shown} is not an X25519 identity file (no '{}...' line; `skinny keygen --x25519` makes one)",
            kg::IDENTITY_PREFIX
        )),
        e => CliError::Usage(format!("{shown}: {e}")),
    })?;
    keys.into_iter()
        .map(|key| match key {
            SecretKey::X25519(id) => Ok(id),
            SecretKey::Symmetric(_) => Err(CliError::Usage(format!(
                "{shown} holds a symmetric key, not an X25519 identity; give it with --key-file"
            ))),
        })
        .collect()
}

/// The recipient of `-r/--recipient TEXT`.
///
/// # Errors
/// Not a recipient string, a checksum that does not match, a low-order
/// point (never echoed: it may be a pasted secret).
pub fn parse_recipient(text: &str) -> Result<skinny_seal::recipients::X25519Recipient, CliError> {
    kg::parse_recipient(text).map_err(|e| CliError::Usage(format!("-r/--recipient: {e}")))
}

/// The largest recipients file read: far more than the 64 recipients a file
/// may have.
const RECIPIENTS_FILE_MAX_BYTES: u64 = 1 << 20;

/// The recipients of `-R/--recipients-file PATH` (`-`: stdin).
///
/// # Errors
/// Unreadable, too large, or a line that is no recipient (its number, never
/// its text).
pub fn load_recipients_file(path: &Path) -> Result<Vec<skinny_seal::recipients::X25519Recipient>, CliError> {
    let shown = if path == Path::new("-") { "stdin".to_string() } else { crate::files::shown(path) };
    let unreadable =
        |e: std::io::Error| CliError::Io(format!("cannot read recipients file {shown}: {}", crate::error::reason(&e)));
    let mut content = Vec::new();
    if path == Path::new("-") {
        std::io::stdin().lock().take(RECIPIENTS_FILE_MAX_BYTES + 1).read_to_end(&mut content).map_err(unreadable)?;
    } else {
        std::fs::File::open(path)
            .and_then(|f| f.take(RECIPIENTS_FILE_MAX_BYTES + 1).read_to_end(&mut content))
            .map_err(unreadable)?;
    }
    if content.len() as u64 > RECIPIENTS_FILE_MAX_BYTES {
        return Err(CliError::Usage(format!("recipients file {shown} is larger than 1 MiB: not a recipients file")));
    }
    kg::parse_recipients_file(&content).map_err(|e| CliError::Usage(format!("recipients file {shown}: {e}")))
}
