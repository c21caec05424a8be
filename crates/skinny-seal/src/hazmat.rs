//! Calls that break the format's guarantees when misused, for test vectors
//! and cross-checks: sealing with a given file key and salts (a file key or
//! payload salt used twice makes two files share a payload key and nonces),
//! the derivations by themselves, and version-1 files sealed with a given
//! nonce prefix (what the version-1 test vectors and old files are made of).

use crate::error::SealError;
use crate::file_key::FileKey;
use crate::format::{SealOptions, HEADER_START_LEN, SALT_LEN};
use crate::header::v1::V1Header;
use crate::report::SealReport;
use crate::seal::{flags, seal_prepared, seal_stream};
use crate::stanza::Stanza;
use crate::stream::{Job, Nonces, Stream};
use crate::symmetric::{SymmetricKey, KEY_STANZA_SALT_LEN};
use crate::writer::SealWriter;
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

/// Seals `input` into `output` as a version-1 file (what earlier releases
/// wrote; this crate writes version 2) under the raw 16-byte `key`, with the
/// nonce prefix given, on the CPU: `options.scheme` a SKINNY-AEAD member,
/// `options.chunk_log2` 4 to 24, no context; `prefix` the member's nonce
/// length - 5 bytes (11 or 7).
///
/// **For test vectors and old files only**: two files sealed with one key and
/// one prefix reuse nonces, which gives away the XOR of their plaintexts and
/// allows forgeries; and version 1 has no key commitment.
///
/// # Errors
/// [`SealError::InvalidOptions`] for a Romulus scheme, a chunk size out of
/// range, a context or a prefix of the wrong length; as
/// [`seal`](crate::seal) for the payload.
pub fn seal_v1_with_prefix<R: Read + Send, W: Write + Send>(
    input: R,
    output: W,
    key: &[u8; 16],
    options: &SealOptions,
    prefix: &[u8],
) -> Result<SealReport, SealError> {
    seal_v1_with_prefix_on(&Job::cpu(), input, output, key, options, prefix)
}

/// As [`seal_v1_with_prefix`] (**test vectors and old files only**), placed
/// as `job` says.
///
/// # Errors
/// As [`seal_v1_with_prefix`] and [`seal_on`](crate::seal_on).
pub fn seal_v1_with_prefix_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    input: R,
    output: W,
    key: &[u8; 16],
    options: &SealOptions,
    prefix: &[u8],
) -> Result<SealReport, SealError> {
    if options.context.is_some() {
        return Err(SealError::InvalidOptions("version 1 binds no context"));
    }
    let header = V1Header::new(options.scheme, options.chunk_log2, prefix).map_err(SealError::InvalidOptions)?;
    let bytes = header.to_bytes();
    let stream = Stream {
        scheme: header.scheme,
        key: Zeroizing::new(*key),
        nonces: Nonces::new(header.scheme, header.prefix),
        ad: bytes.to_vec(),
        chunk_log2: header.chunk_log2,
        v1: true,
        data_start: bytes.len() as u64,
    };
    seal_stream(job, &stream, &bytes, input, output, options.input_len)
}
