//! The keys of `skinny seal` (recipients) and `skinny open` (identities) from
//! their options: `-K`/`--key-file` (a symmetric key), `--passphrase` /
//! `--passphrase-fd`, `-r/--recipient`, `-R/--recipients-file` and
//! `-i/--identity`.

use crate::args::{Io, KeyArgs};
use crate::commands::seal::args::SecretArgs;
use crate::error::{count, CliError};
use crate::keys::{self, sealing};
use crate::passphrase;
use skinny_seal::recipients::{Passphrase, PassphraseParams};
use skinny_seal::{Identity, Recipient, SymmetricKey};
use std::path::{Path, PathBuf};

/// The environment variable that raises the passphrase cost `open` runs
/// (MiB times passes; [`PassphraseParams::DEFAULT_MAX_WORK`] unless set).
pub const MAX_WORK_ENV: &str = "SKINNY_PASSPHRASE_MAX_WORK";

/// The symmetric key of `-K HEX` (32 bytes, the size keygen makes, or
/// version 1's 16) or `--key-file PATH` (a keygen key or a version-1 key
/// file; `-`: stdin, refused when stdin is the input), if either was given;
/// our copy of `-K` is wiped whatever happens.
fn symmetric(key: &mut KeyArgs, io: &Io) -> Result<Option<SymmetricKey>, CliError> {
    let bytes = match (key.key.as_deref(), key.key_file.as_deref()) {
        (None, None) => None,
        (Some(_), Some(_)) => Err(keys::KeyError::Twice)?,
        (Some(hex), None) => {
            let bytes = keys::decode_hex("--key", hex)?;
            if bytes.len() != 16 && bytes.len() != 32 {
                return Err(CliError::Usage(format!(
                    "-K/--key takes a 32-byte key (64 hex digits, the size `skinny keygen` makes) or version 1's \
                     16-byte key (32 hex digits), not {}",
                    count(bytes.len() as u64, "byte")
                )));
            }
            Some(bytes.to_vec())
        }
        (None, Some(path)) => {
            if path == Path::new("-") && io.input.as_deref().is_none_or(|p| p == Path::new("-")) {
                return Err(CliError::Usage(
                    "--key-file - reads the key from stdin, which is already the input; name the input file".into(),
                ));
            }
            Some(sealing::load_symmetric_key(path)?.to_vec())
        }
    };
    if let Some(h) = key.key.as_mut() {
        zeroize::Zeroize::zeroize(h);
    }
    let Some(mut bytes) = bytes else { return Ok(None) };
    let made = SymmetricKey::from_bytes(&bytes);
    zeroize::Zeroize::zeroize(&mut bytes);
    made.map(Some).map_err(|e| CliError::Usage(format!("the key: {e}")))
}

/// The passphrase cost `open` runs: [`MAX_WORK_ENV`] when set, else the
/// library's default cap.
fn max_work() -> Result<u64, CliError> {
    match std::env::var_os(MAX_WORK_ENV) {
        None => Ok(PassphraseParams::DEFAULT_MAX_WORK),
        Some(v) => v.to_str().and_then(|t| t.trim().parse::<u64>().ok()).filter(|&w| w > 0).ok_or_else(|| {
            CliError::Usage(format!(
                "{MAX_WORK_ENV} must be a whole number of MiB x passes (default {})",
                PassphraseParams::DEFAULT_MAX_WORK
            ))
        }),
    }
}

/// The passphrase asked for (twice on a terminal when `confirm`), if any.
fn passphrase(secret: &SecretArgs, confirm: bool) -> Result<Option<Passphrase>, CliError> {
    let source = match (secret.passphrase, secret.passphrase_fd) {
        (_, Some(fd)) => passphrase::Source::Fd(fd),
        (true, None) => passphrase::Source::Terminal,
        (false, None) => return Ok(None),
    };
    let pass = passphrase::read(&source, confirm)?;
    Ok(Some(Passphrase::new(pass.to_vec())))
}

/// Everything `seal` seals to.
pub struct Recipients(Vec<Box<dyn Recipient>>);

impl Recipients {
    /// The recipients as the library takes them.
    pub fn refs(&self) -> Vec<&dyn Recipient> {
        self.0.iter().map(|r| r.as_ref()).collect()
    }
}

/// The recipients of `seal`: a symmetric key and X25519 public keys (given
/// with `-r` or in recipients files), or a passphrase alone.
///
/// # Errors
/// None given, a passphrase with others, a key or recipient that does not
/// load.
pub fn recipients(
    key: &mut KeyArgs,
    secret: &SecretArgs,
    public: &[String],
    files: &[PathBuf],
    io: &Io,
) -> Result<Recipients, CliError> {
    let has_key = key.key.is_some() || key.key_file.is_some();
    if secret.wants_passphrase() && (has_key || !public.is_empty() || !files.is_empty()) {
        return Err(CliError::Usage(
            "a passphrase must be the file's only key: give --passphrase without --key-file, -K, -r or -R".into(),
        ));
    }
    let stdin_is_input = io.input.as_deref().is_none_or(|p| p == Path::new("-"));
    if files.iter().filter(|p| *p == Path::new("-")).count() > usize::from(!stdin_is_input) {
        return Err(CliError::Usage(
            "-R - reads recipients from stdin, which is already the input (or named twice); name the input file".into(),
        ));
    }
    let mut all: Vec<Box<dyn Recipient>> = Vec::new();
    if let Some(k) = symmetric(key, io)? {
        all.push(Box::new(k));
    }
    for text in public {
        all.push(Box::new(sealing::parse_recipient(text)?));
    }
    for path in files {
        for r in sealing::load_recipients_file(path)? {
            all.push(Box::new(r));
        }
    }
    if all.is_empty() {
        match passphrase(secret, true)? {
            Some(p) => all.push(Box::new(p)),
            None => {
                return Err(CliError::Usage(
                    "a key is required: --key-file PATH, -r/--recipient PUBLIC, -R FILE or --passphrase \
                     (`skinny keygen` makes a key file)"
                        .into(),
                ))
            }
        }
    }
    Ok(Recipients(all))
}

/// Everything `open` tries.
pub struct Identities(Vec<Box<dyn Identity>>);

impl Identities {
    /// The identities as the library takes them.
    pub fn refs(&self) -> Vec<&dyn Identity> {
        self.0.iter().map(|r| r.as_ref()).collect()
    }
}

/// The identities of `open`: a symmetric key, a passphrase, X25519 identity
/// files (any together).
///
/// # Errors
/// None given, or one that does not load.
pub fn identities(
    key: &mut KeyArgs,
    secret: &SecretArgs,
    files: &[std::path::PathBuf],
    io: &Io,
) -> Result<Identities, CliError> {
    let mut all: Vec<Box<dyn Identity>> = Vec::new();
    if let Some(k) = symmetric(key, io)? {
        all.push(Box::new(k));
    }
    for path in files {
        if path == Path::new("-") && io.input.as_deref().is_none_or(|p| p == Path::new("-")) {
            return Err(CliError::Usage(
                "-i - reads the identity from stdin, which is already the input; name the input file".into(),
            ));
        }
        for id in sealing::load_identities(path)? {
            all.push(Box::new(id));
        }
    }
    if secret.wants_passphrase() {
        let cap = max_work()?;
        if let Some(p) = passphrase(secret, false)? {
            all.push(Box::new(p.with_max_work(cap)));
        }
    }
    if all.is_empty() {
        return Err(CliError::Usage("a key is required: --key-file PATH, -i/--identity PATH or --passphrase".into()));
    }
    Ok(Identities(all))
}
