//! Sealing a whole stream: the file key, salt and stanzas, the header, then
//! the payload on the engine the job places it on.

use crate::derive::{header_key, header_mac, payload_key};
use crate::error::SealError;
use crate::file_key::FileKey;
use crate::format::PREFIX_LEN;
use crate::format::{
    chunks_for, SealOptions, FLAG_CONTEXT, MAX_CHUNKS, MAX_CHUNK_LOG2, MAX_STANZAS, MIN_CHUNK_LOG2, SALT_LEN,
};
use crate::header::{header_start, Header};
use crate::report::SealReport;
use crate::stanza::{Recipient, Stanza};
use crate::stream::{self, check_job, Job, JobError, Nonces, Stream};
use std::io::{Read, Write};

/// Seals `input` into `output` for `recipients` on the CPU (rayon's pool):
/// a fresh file key and payload salt, a stanza for each recipient, the header
/// and its MAC, then the chunks.
///
/// Memory: three windows of chunks (about 16 MiB each at most).
///
/// # Errors
/// Bad options, no or too many recipients, a passphrase with others, no
/// randomness, a read or write error, more than 2^32 chunks (before anything
/// is written when `options.input_len` is given). What was written before an
/// error is an incomplete file that never opens.
pub fn seal<R: Read + Send, W: Write + Send>(
    input: R,
    output: W,
    recipients: &[&dyn Recipient],
    options: &SealOptions,
) -> Result<SealReport, SealError> {
    seal_on(&Job::cpu(), input, output, recipients, options)
}

/// As [`seal`], placed as `job` says: the CPU with its threads, or one GPU
/// (feature `cuda`; SKINNY-AEAD schemes only, chunks of 16 KiB or more; a GPU
/// selection naming more than one GPU is refused with [`SealError::OneGpu`]:
/// a file runs on one GPU, whose link is faster than a file's path). The
/// bytes are the same wherever the chunks run.
///
/// # Errors
/// As [`seal`]; [`SealError::CpuOnly`] for a GPU asked for Romulus;
/// [`SealError::Engine`] for the engine's (threads, GPU).
pub fn seal_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    input: R,
    output: W,
    recipients: &[&dyn Recipient],
    options: &SealOptions,
) -> Result<SealReport, SealError> {
    check_options(options)?;
    if recipients.is_empty() {
        return Err(SealError::NoRecipients);
    }
    if recipients.len() > MAX_STANZAS {
        return Err(SealError::TooManyRecipients);
    }
    if recipients.len() > 1 && recipients.iter().any(|r| r.must_be_alone()) {
        return Err(SealError::PassphraseNotAlone);
    }
    let file_key = FileKey::random().map_err(SealError::Random)?;
    let mut salt = [0u8; SALT_LEN];
    getrandom::fill(&mut salt).map_err(SealError::Random)?;
    let start = header_start(options.scheme, options.chunk_log2, flags(options), &salt);
    let stanzas = recipients.iter().map(|r| r.wrap(&file_key, &start)).collect::<Result<Vec<_>, _>>()?;
    seal_prepared(job, input, output, stanzas, &file_key, salt, options)
}

/// The header's flags for `options`.
pub(crate) fn flags(options: &SealOptions) -> u8 {
    if options.context.is_some() {
        FLAG_CONTEXT
    } else {
        0
    }
}

/// Checks `options` (chunk size; the chunk count when the length is known).
pub(crate) fn check_options(options: &SealOptions) -> Result<(), SealError> {
    if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&options.chunk_log2) {
        return Err(SealError::InvalidOptions("the chunk size must be 2^10 to 2^24 bytes"));
    }
    if let Some(len) = options.input_len {
        if chunks_for(len, options.chunk_log2) > MAX_CHUNKS {
            return Err(SealError::TooLong);
        }
    }
    Ok(())
}

/// The header (with its MAC) and the payload's stream of a new file.
pub(crate) fn prepare(
    stanzas: Vec<Stanza>,
    file_key: &FileKey,
    salt: [u8; SALT_LEN],
    options: &SealOptions,
) -> Result<(Header, Stream), SealError> {
    check_options(options)?;
    if stanzas.is_empty() || stanzas.len() > MAX_STANZAS {
        return Err(SealError::InvalidOptions("a header holds 1 to 64 stanzas"));
    }
    let flags = flags(options);
    let mut header =
        Header { scheme: options.scheme, chunk_log2: options.chunk_log2, flags, salt, stanzas, mac: [0; 32] };
    header.mac = header_mac(&header_key(file_key, &salt), &header.authenticated_bytes());
    let context = options.context.as_deref().unwrap_or_default();
    let stream = Stream {
        scheme: options.scheme,
        key: payload_key(file_key, &salt, options.scheme, flags, context),
        nonces: Nonces::new(options.scheme, [0; PREFIX_LEN]),
        ad: header.mac.to_vec(),
        chunk_log2: options.chunk_log2,
        v1: false,
        data_start: header.len() as u64,
    };
    Ok((header, stream))
}

/// Seals with the stanzas, file key and salt given (what [`seal_on`] draws).
pub(crate) fn seal_prepared<R: Read + Send, W: Write + Send>(
    job: &Job,
    input: R,
    output: W,
    stanzas: Vec<Stanza>,
    file_key: &FileKey,
    salt: [u8; SALT_LEN],
    options: &SealOptions,
) -> Result<SealReport, SealError> {
    let (header, stream) = prepare(stanzas, file_key, salt, options)?;
    seal_stream(job, &stream, &header.to_bytes(), input, output, options.input_len)
}

/// Seals `input` into `output` as `header` and `stream`'s chunks, placed as
/// `job` says (checked before anything is written); with `input_len`, the
/// input must be exactly that long.
pub(crate) fn seal_stream<R: Read + Send, W: Write + Send>(
    job: &Job,
    stream: &Stream,
    header: &[u8],
    input: R,
    output: W,
    input_len: Option<u64>,
) -> Result<SealReport, SealError> {
    check_job(job, stream.scheme).map_err(|e| match e {
        JobError::OneGpu => SealError::OneGpu,
        JobError::CpuOnly(s) => SealError::CpuOnly(s),
    })?;
    // A length given with the options is the one `auto` weighs; else the job's.
    let job = match input_len {
        Some(_) => job.clone().input_len(input_len),
        None => job.clone(),
    };
    let input = input.take(input_len.unwrap_or(u64::MAX));
    let report = stream::seal(&job, stream, header, input, output)?;
    if let Some(expected) = input_len {
        if report.plaintext_bytes != expected {
            return Err(SealError::LengthChanged { expected });
        }
    }
    Ok(report)
}
