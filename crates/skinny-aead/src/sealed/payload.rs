//! The chunk engine without the v1 header, for formats built on it (the
//! `skinny-seal` crate's v2 files): the same windows, placement and
//! CPU-then-GPU hand-over, with the key, the nonce prefix and every chunk's
//! associated data given by the caller. Reached through [`super::hazmat`].

use super::error::SealedError;
use super::format::{MAX_CHUNK_LOG2, MIN_CHUNK_LOG2, PREFIX_FIELD_LEN};
use super::header::Header;
use super::placement::{open_engine, Job};
use super::report::SealedReport;
use super::run::{on_threads, open_stream, seal_stream, ChunkStream};
use crate::member::Member;
use std::io::{Read, Write};
use zeroize::Zeroizing;

/// The stream of `member`, `chunk_log2` and `nonce_prefix`, checked.
fn stream(member: Member, chunk_log2: u8, nonce_prefix: &[u8], ad: &[u8]) -> Result<ChunkStream, SealedError> {
    if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&chunk_log2) {
        return Err(SealedError::InvalidOptions("the chunk size must be 2^4 to 2^24 bytes"));
    }
    if nonce_prefix.len() != member.prefix_len() {
        return Err(SealedError::InvalidOptions("the nonce prefix has the wrong length for this member"));
    }
    let mut prefix = [0u8; PREFIX_FIELD_LEN];
    prefix[..nonce_prefix.len()].copy_from_slice(nonce_prefix);
    Ok(ChunkStream { header: Header { member, chunk_log2, prefix }, ad: ad.to_vec(), v1: false })
}

/// Seals `reader` into `writer` as chunks only (no header): chunk `i` is
/// `member(key, nonce_prefix | i (4 bytes, big-endian) | last flag, ad,
/// plaintext_i)`, every chunk but the last `2^chunk_log2` bytes of plaintext,
/// the last 1 to `2^chunk_log2` (0 only for an empty input). Placed as
/// `job` says, as [`seal_on`](super::seal_on) is.
///
/// **Hazmat**: `key` and `nonce_prefix` must never seal two streams (nonce
/// reuse gives away plaintext XORs and allows forgeries); a format derives a
/// fresh key a file.
///
/// # Errors
/// As [`seal_on`](super::seal_on); a chunk size outside 2^4..2^24 or a
/// prefix not [`Member::prefix_len`] long is [`SealedError::InvalidOptions`].
#[allow(clippy::too_many_arguments)]
pub fn seal_chunks_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    reader: R,
    writer: W,
    key: &[u8; 16],
    member: Member,
    chunk_log2: u8,
    nonce_prefix: &[u8],
    ad: &[u8],
) -> Result<SealedReport, SealedError> {
    let stream = stream(member, chunk_log2, nonce_prefix, ad)?;
    let key = Zeroizing::new(*key);
    on_threads(job, || {
        let opened = open_engine(job, &stream.header, &key, stream.header.chunk_size())?;
        seal_stream(opened, &stream, &key, reader, writer)
    })
}

/// Opens the chunks [`seal_chunks_on`] wrote (`reader` at the first chunk)
/// into `writer`, with [`open_on`](super::open_on)'s guarantees: no byte of a
/// chunk written before its tag verified, nothing after a failing chunk. An
/// empty last chunk after full ones is refused
/// ([`SealedError::EmptyLastChunk`]; no sealer writes one).
///
/// # Errors
/// As [`open_on`](super::open_on) and [`seal_chunks_on`].
#[allow(clippy::too_many_arguments)]
pub fn open_chunks_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    reader: R,
    writer: W,
    key: &[u8; 16],
    member: Member,
    chunk_log2: u8,
    nonce_prefix: &[u8],
    ad: &[u8],
) -> Result<SealedReport, SealedError> {
    let stream = stream(member, chunk_log2, nonce_prefix, ad)?;
    let key = Zeroizing::new(*key);
    let piece = stream.header.chunk_size() + member.tag_len();
    on_threads(job, || {
        let opened = open_engine(job, &stream.header, &key, piece)?;
        open_stream(opened, &stream, &key, reader, writer)
    })
}
