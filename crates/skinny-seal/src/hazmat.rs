//! Calls that break the format's guarantees when misused, for test vectors
//! and cross-checks: sealing with a given file key and salts (a file key or
//! payload salt used twice makes two files share a payload key and nonces),
//! and the derivations by themselves.

use crate::error::SealError;
use crate::file_key::FileKey;
use crate::format::{SealOptions, HEADER_START_LEN, SALT_LEN};
use crate::report::SealReport;
use crate::seal::{flags, seal_prepared};
use crate::stanza::Stanza;
use crate::symmetric::{SymmetricKey, KEY_STANZA_SALT_LEN};
use crate::writer::SealWriter;
use skinny_aead::sealed::Job;
use std::io::{Read, Write};
use zeroize::Zeroizing;

/// The header's fixed start (the AD of every stanza's wrap) of a file sealed
/// with `options` and `payload_salt`.
pub fn header_start(options: &SealOptions, payload_salt: &[u8; SALT_LEN]) -> [u8; HEADER_START_LEN] {
    crate::header::header_start(options.scheme, options.chunk_log2, flags(options), payload_salt)
}

/// `key`'s stanza for `file_key` with the stanza salt given (drawn at random
/// by [`Recipient::wrap`](crate::Recipient::wrap)).
pub fn key_stanza_with_salt(
    key: &SymmetricKey,
    file_key: &FileKey,
    header_start: &[u8],
    stanza_salt: &[u8; KEY_STANZA_SALT_LEN],
) -> Stanza {
    key.stanza_with_salt(file_key, header_start, stanza_salt)
}

/// Seals as [`seal`](crate::seal) does, with the stanzas, file key and
/// payload salt given instead of drawn: the same inputs give the same file.
///
/// # Errors
/// As [`seal`](crate::seal).
pub fn seal_with_salt_and_file_key<R: Read + Send, W: Write + Send>(
    input: R,
    output: W,
    stanzas: Vec<Stanza>,
    file_key: &FileKey,
    payload_salt: [u8; SALT_LEN],
    options: &SealOptions,
) -> Result<SealReport, SealError> {
    seal_with_salt_and_file_key_on(&Job::cpu(), input, output, stanzas, file_key, payload_salt, options)
}

/// As [`seal_with_salt_and_file_key`], placed as `job` says.
///
/// # Errors
/// As [`seal_on`](crate::seal_on).
pub fn seal_with_salt_and_file_key_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    input: R,
    output: W,
    stanzas: Vec<Stanza>,
    file_key: &FileKey,
    payload_salt: [u8; SALT_LEN],
    options: &SealOptions,
) -> Result<SealReport, SealError> {
    seal_prepared(job, input, output, stanzas, file_key, payload_salt, options)
}

/// A [`SealWriter`] with the stanzas, file key and payload salt given.
///
/// # Errors
/// As [`SealWriter::new`].
pub fn seal_writer_with_salt_and_file_key<W: Write>(
    output: W,
    stanzas: Vec<Stanza>,
    file_key: &FileKey,
    payload_salt: [u8; SALT_LEN],
    options: &SealOptions,
) -> Result<SealWriter<W>, SealError> {
    SealWriter::with_stanzas(output, stanzas, file_key, payload_salt, options)
}

/// `K_header` of a file key and payload salt.
pub fn header_key(file_key: &FileKey, payload_salt: &[u8; SALT_LEN]) -> Zeroizing<[u8; 32]> {
    crate::derive::header_key(file_key, payload_salt)
}

/// `K_payload` of a file key, payload salt, scheme, flags and context (the
/// context counts only when flag bit 0 is set).
pub fn payload_key(
    file_key: &FileKey,
    payload_salt: &[u8; SALT_LEN],
    scheme: crate::Scheme,
    flags: u8,
    context: &[u8],
) -> Zeroizing<[u8; 16]> {
    crate::derive::payload_key(file_key, payload_salt, scheme, flags, context)
}
