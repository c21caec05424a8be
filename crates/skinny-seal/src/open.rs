//! Opening: the header read once and checked (v1 or v2), the file key found
//! and the header MAC verified, then the payload on the engine the job
//! places it on.

use crate::derive::{header_key, mac_matches, payload_key};
use crate::error::OpenError;
use crate::format::PREFIX_LEN;
use crate::format::{OpenOptions, MAGIC};
use crate::header::v1::{self, V1Header};
use crate::header::Header;
use crate::report::SealReport;
use crate::scheme::Scheme;
use crate::stanza::Identity;
use crate::stream::{self, check_job, Job, JobError, Nonces, Stream};
use skinny_exec::pipeline::read_full;
use std::io::{Read, Write};

/// Opens a sealed file (version 2, or version 1 under a raw 16-byte key) from
/// `input` into `output` with the first of `identities` that opens a stanza,
/// on the CPU.
///
/// No byte of a chunk reaches `output` before that chunk verified, chunks are
/// written in order, and nothing after a failing chunk; a file whose header
/// does not check writes nothing.
///
/// # Errors
/// One [`OpenError`] a cause: not a sealed file, a non-canonical header, no
/// identity opening a stanza, a header MAC that does not verify (wrong key or
/// a changed header), a 64-bit-tag scheme not named in `options`, a context
/// missing or not expected, truncation, extra data, a changed chunk or the
/// wrong context, an empty last chunk after full ones, I/O.
pub fn open<R: Read + Send, W: Write + Send>(
    input: R,
    output: W,
    identities: &[&dyn Identity],
    options: &OpenOptions,
) -> Result<SealReport, OpenError> {
    open_on(&Job::cpu(), input, output, identities, options)
}

/// As [`open`], placed as `job` says (as [`seal_on`](crate::seal_on): one
/// GPU at most, SKINNY-AEAD schemes only), with the same guarantees.
///
/// # Errors
/// As [`open`]; [`OpenError::OneGpu`], [`OpenError::CpuOnly`],
/// [`OpenError::Engine`].
pub fn open_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    mut input: R,
    output: W,
    identities: &[&dyn Identity],
    options: &OpenOptions,
) -> Result<SealReport, OpenError> {
    let stream = read_header(&mut input, identities, options)?;
    check_job(job, stream.scheme).map_err(|e| match e {
        JobError::OneGpu => OpenError::OneGpu,
        JobError::CpuOnly(s) => OpenError::CpuOnly(s),
    })?;
    stream::open(job, &stream, input, output)
}

/// Reads and checks the header from `r` (left at the first chunk; each
/// version's header read once) and finds the payload's key: the file's
/// [`Stream`].
pub(crate) fn read_header(
    r: &mut impl Read,
    identities: &[&dyn Identity],
    options: &OpenOptions,
) -> Result<Stream, OpenError> {
    let mut first = [0u8; 11];
    let n = read_full(r, &mut first).map_err(OpenError::Read)?;
    let m = n.min(MAGIC.len());
    if first[..m] != MAGIC[..m] || n == 0 {
        return Err(OpenError::NotSealed);
    }
    if n < first.len() {
        return Err(OpenError::TruncatedHeader);
    }
    match first[10] {
        1 => read_v1(&first, r, identities, options),
        2 => read_v2(&first, r, identities, options),
        v => Err(OpenError::UnsupportedVersion(v)),
    }
}

/// The scheme the caller expects, if it named one; the policy on 64-bit tags:
/// such a scheme only when named.
fn check_scheme(scheme: Scheme, options: &OpenOptions) -> Result<(), OpenError> {
    if let Some(expected) = options.expect_scheme.filter(|&e| e != scheme) {
        return Err(OpenError::OtherScheme { expected, found: scheme });
    }
    if scheme.short_tag() && options.allow_short_tag_scheme != Some(scheme) {
        return Err(OpenError::ShortTagScheme(scheme));
    }
    Ok(())
}

fn read_v1(
    first: &[u8; 11],
    r: &mut impl Read,
    identities: &[&dyn Identity],
    options: &OpenOptions,
) -> Result<Stream, OpenError> {
    let mut hb = [0u8; v1::HEADER_LEN];
    hb[..11].copy_from_slice(first);
    let n = read_full(r, &mut hb[11..]).map_err(OpenError::Read)?;
    if n < hb.len() - 11 {
        return Err(OpenError::TruncatedHeader);
    }
    let header = V1Header::parse(&hb)?;
    check_scheme(header.scheme, options)?;
    if options.context.is_some() {
        return Err(OpenError::ContextNotBound);
    }
    let key = identities.iter().find_map(|i| i.v1_key()).ok_or(OpenError::V1NeedsRawKey)?;
    Ok(Stream {
        scheme: header.scheme,
        key,
        nonces: Nonces::new(header.scheme, header.prefix),
        ad: hb.to_vec(),
        chunk_log2: header.chunk_log2,
        v1: true,
        data_start: v1::HEADER_LEN as u64,
    })
}

fn read_v2(
    first: &[u8; 11],
    r: &mut impl Read,
    identities: &[&dyn Identity],
    options: &OpenOptions,
) -> Result<Stream, OpenError> {
    let header = Header::read_after_version(first, r)?;
    check_scheme(header.scheme, options)?;
    match (header.context_bound(), options.context.is_some()) {
        (true, false) => return Err(OpenError::ContextRequired),
        (false, true) => return Err(OpenError::ContextNotBound),
        _ => {}
    }
    let start = header.start();
    let mut file_key = None;
    'find: for id in identities {
        for s in &header.stanzas {
            if let Some(fk) = id.unwrap(s, &start)? {
                file_key = Some(fk);
                break 'find;
            }
        }
    }
    let file_key = file_key.ok_or(OpenError::NoMatchingIdentity)?;
    // The first stanza that opens decides: a file whose header MAC fails under
    // its file key is refused, whatever other stanzas hold (key commitment).
    if !mac_matches(&header_key(&file_key, &header.salt), &header.authenticated_bytes(), &header.mac) {
        return Err(OpenError::HeaderMac);
    }
    let context = options.context.as_deref().unwrap_or_default();
    Ok(Stream {
        scheme: header.scheme,
        key: payload_key(&file_key, &header.salt, header.scheme, header.flags, context),
        nonces: Nonces::new(header.scheme, [0; PREFIX_LEN]),
        ad: header.mac.to_vec(),
        chunk_log2: header.chunk_log2,
        v1: false,
        data_start: header.len() as u64,
    })
}
