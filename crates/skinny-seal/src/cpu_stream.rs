//! A whole stream on the CPU by the chunk code of [`Stream`]: windows of
//! chunks sealed or opened in parallel on rayon's pool while one thread reads
//! the next window and another writes the last (the execution layer's
//! pipeline), as skinny-aead's engine does for SKINNY-AEAD. Romulus payloads
//! run here.

use crate::chunk::Stream;
use crate::error::{OpenError, SealError};
use crate::format::MAX_CHUNKS;
use rayon::prelude::*;
use skinny_exec::pipeline::{self, PipelineError, Shape, Window, WriteFrom};
use std::io::{Read, Write};
use zeroize::Zeroizing;

/// Memory for a window of chunks in flight is kept near this (at least one chunk).
const WINDOW_BYTES: usize = 16 << 20;

fn window(piece: usize) -> usize {
    (2 * rayon::current_num_threads().max(1)).min((WINDOW_BYTES / piece).max(1))
}

/// Seals `reader` into `writer` (chunks only): chunks and plaintext bytes.
pub(crate) fn seal(
    stream: &Stream,
    reader: impl Read + Send,
    writer: impl Write + Send,
) -> Result<(u64, u64), SealError> {
    let cs = stream.chunk_size();
    let shape = Shape::new(cs, stream.piece(), window(cs));
    let (mut chunks, mut bytes) = (0u64, 0u64);
    pipeline::run(
        reader,
        writer,
        &shape,
        |w: &mut Window| {
            let (first, last, n) = (w.first, w.last, w.input.len());
            if first + n as u64 > MAX_CHUNKS {
                return Err(SealError::TooLong);
            }
            bytes += w.input_bytes();
            w.input.par_iter_mut().enumerate().for_each(|(i, buf)| {
                stream.seal_chunk(first + i as u64, last && i + 1 == n, buf);
            });
            w.write_all_in_place();
            chunks = first + n as u64;
            Ok(())
        },
        None,
    )
    .map_err(|e| match e {
        PipelineError::Read(e) => SealError::Read(e),
        PipelineError::Write(e) => SealError::Write(e),
        PipelineError::Work(e) => e,
    })?;
    Ok((chunks, bytes))
}

/// Opens the chunks of `reader` into `writer`, releasing only verified chunks,
/// in order, nothing after a failure: chunks and plaintext bytes.
pub(crate) fn open(
    stream: &Stream,
    reader: impl Read + Send,
    writer: impl Write + Send,
) -> Result<(u64, u64), OpenError> {
    let piece = stream.piece();
    let tag = stream.scheme.tag_len();
    let shape = Shape::new(piece, piece, window(piece));
    let (mut chunks, mut bytes) = (0u64, 0u64);
    pipeline::run(
        reader,
        writer,
        &shape,
        |w: &mut Window| {
            w.from = WriteFrom::Output;
            let n = w.input.len();
            if w.first + n as u64 > MAX_CHUNKS {
                w.write = 0;
                return Err(OpenError::Engine(skinny_aead::sealed::SealedError::TooLong));
            }
            // A last piece too short for a tag: cut inside a chunk; the whole
            // chunks before it are opened and released first.
            let cut = w.last && w.input[n - 1].len() < tag;
            if cut {
                w.input.truncate(n - 1);
                w.last = false;
            }
            let n = w.input.len();
            while w.output.len() < n {
                w.output.push(Zeroizing::new(Vec::with_capacity(stream.chunk_size())));
            }
            let (first, last) = (w.first, w.last);
            let results: Vec<Result<(), OpenError>> = w
                .input
                .par_iter()
                .zip(w.output[..n].par_iter_mut())
                .enumerate()
                .map(|(i, (chunk, out))| stream.open_checked(first + i as u64, last && i + 1 == n, chunk, out))
                .collect();
            let verified = results.iter().take_while(|r| r.is_ok()).count();
            w.write = verified;
            bytes += w.output[..verified].iter().map(|b| b.len() as u64).sum::<u64>();
            chunks = first + verified as u64;
            if let Some(Err(e)) = results.into_iter().nth(verified) {
                return Err(e);
            }
            if cut {
                return Err(OpenError::TruncatedInside);
            }
            Ok(())
        },
        None,
    )
    .map_err(|e| match e {
        PipelineError::Read(e) => OpenError::Read(e),
        PipelineError::Write(e) => OpenError::Write(e),
        PipelineError::Work(e) => e,
    })?;
    Ok((chunks, bytes))
}
