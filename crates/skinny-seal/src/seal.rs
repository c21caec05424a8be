//! Sealing a whole stream: the file key, salt and stanzas, the header, then
//! the payload on the engine the job places it on.

use crate::chunk::Stream;
use crate::cpu_stream;
use crate::derive::{header_key, header_mac, payload_key};
use crate::error::SealError;
use crate::file_key::FileKey;
use crate::format::{
    chunks_for, SealOptions, FLAG_CONTEXT, MAX_CHUNKS, MAX_CHUNK_LOG2, MAX_STANZAS, MIN_CHUNK_LOG2, SALT_LEN,
};
use crate::header::{header_start, Header};
use crate::placement::{check_job, Engine};
use crate::report::SealReport;
use crate::stanza::{Recipient, Stanza};
use skinny_aead::sealed::{hazmat, Job};
use skinny_exec::Placed;
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
        prefix: [0; 11],
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
    mut output: W,
    stanzas: Vec<Stanza>,
    file_key: &FileKey,
    salt: [u8; SALT_LEN],
    options: &SealOptions,
) -> Result<SealReport, SealError> {
    let (header, stream) = prepare(stanzas, file_key, salt, options)?;
    let engine = check_job(job, options.scheme).map_err(|e| match e {
        crate::placement::JobError::OneGpu => SealError::OneGpu,
        crate::placement::JobError::CpuOnly(s) => SealError::CpuOnly(s),
    })?;
    output.write_all(&header.to_bytes()).map_err(SealError::Write)?;
    let limit = options.input_len.unwrap_or(u64::MAX);
    let input = input.take(limit);
    let (chunks, plaintext_bytes, placed) = match engine {
        Engine::SkinnyAead(member) => {
            let job = job.clone().input_len(options.input_len);
            let prefix = [0u8; 11];
            let r = hazmat::seal_chunks_on(
                &job,
                input,
                output,
                &stream.key,
                member,
                stream.chunk_log2,
                &prefix[..member.prefix_len()],
                &stream.ad,
            )?;
            (r.chunks, r.plaintext_bytes, r.placed)
        }
        Engine::Cpu => {
            let threads = job.placement_asked().threads();
            let count = threads.count().unwrap_or(0);
            let (c, b) = threads
                .install(|| cpu_stream::seal(&stream, input, output))
                .map_err(|source| SealError::Engine(skinny_aead::sealed::SealedError::Threads { count, source }))??;
            (c, b, Placed { cpu_units: c, ..Placed::default() })
        }
    };
    if let Some(expected) = options.input_len {
        if plaintext_bytes != expected {
            return Err(SealError::LengthChanged { expected });
        }
    }
    Ok(SealReport {
        version: 2,
        scheme: options.scheme,
        chunk_log2: options.chunk_log2,
        chunks,
        plaintext_bytes,
        placed,
    })
}
