//! Sealing and opening a whole stream: the public entry points ([`seal`],
//! [`open`] and their `_on` forms), and the window loops that run the
//! pipeline over the input, each window on the engine the placement gives.

use super::chunks::{chunk_ops, cpu_open, cpu_seal, diagnose};
use super::error::SealedError;
use super::format::{SealOptions, HEADER_LEN, MAGIC, MAX_CHUNKS, MAX_CHUNK_LOG2, MIN_CHUNK_LOG2, PREFIX_FIELD_LEN};
use super::header::Header;
use super::placement::{open_engine, Job, Opened};
use super::report::SealedReport;
use super::windows::{reason, WindowEngine};
use skinny_exec::handover::Side;
use skinny_exec::pipeline::{self, read_full, PipelineError, Shape, Window, WriteFrom};
use skinny_exec::{Placed, WhyCpu};
use std::io::{Read, Write};
use std::vec::Vec;
use zeroize::Zeroizing;

/// Seals `reader` into `writer` as a sealed file under `key`, with a fresh
/// random nonce prefix from the operating system.
///
/// Memory: three windows of chunks (about 16 MiB each at most, or one chunk
/// when chunks are larger): one read on a thread of its own, one sealed in
/// parallel on rayon's current pool, one written on another thread.
///
/// # Errors
/// Bad options, no randomness, a read or write error, or more than
/// [`MAX_CHUNKS`] chunks. What was written before an error is incomplete.
pub fn seal<R: Read + Send, W: Write + Send>(
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
) -> Result<SealedReport, SealedError> {
    seal_on(&Job::cpu(), reader, writer, key, options)
}

/// As [`seal`], as `job` places it (on the threads it asks for).
///
/// # Errors
/// As [`seal`]; [`SealedError::Threads`]; for a GPU asked for,
/// [`SealedError::GpuChunkSize`] (chunks under 16 KiB, refused before
/// anything is written), [`SealedError::GpuSelection`] and GPU failures
/// (`auto` goes on on the CPU instead, and says why in the report).
pub fn seal_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
) -> Result<SealedReport, SealedError> {
    let mut prefix = [0u8; PREFIX_FIELD_LEN];
    let p = options.member.prefix_len();
    getrandom::fill(&mut prefix[..p]).map_err(SealedError::Random)?;
    seal_with_prefix_on(job, reader, writer, key, options, &prefix[..p])
}

/// As [`seal`], with the nonce prefix given instead of drawn at random.
///
/// **For test vectors only**: two files sealed with one key and one prefix
/// reuse nonces, which gives away the XOR of their plaintexts and allows
/// forgeries. `prefix` must be [`Member::prefix_len`](crate::Member::prefix_len) bytes (11 or 7).
///
/// # Errors
/// As [`seal`]; a prefix of the wrong length is [`SealedError::InvalidOptions`].
pub fn seal_with_prefix<R: Read + Send, W: Write + Send>(
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
    prefix: &[u8],
) -> Result<SealedReport, SealedError> {
    seal_with_prefix_on(&Job::cpu(), reader, writer, key, options, prefix)
}

/// As [`seal_with_prefix`] (**test vectors only**), as `job` places it.
///
/// # Errors
/// As [`seal_on`] and [`seal_with_prefix`].
pub fn seal_with_prefix_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    reader: R,
    writer: W,
    key: &[u8; 16],
    options: &SealOptions,
    prefix: &[u8],
) -> Result<SealedReport, SealedError> {
    if !(MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2).contains(&options.chunk_log2) {
        return Err(SealedError::InvalidOptions("the chunk size must be 2^4 to 2^24 bytes"));
    }
    let member = options.member;
    if prefix.len() != member.prefix_len() {
        return Err(SealedError::InvalidOptions("the nonce prefix has the wrong length for this member"));
    }
    let mut field = [0u8; PREFIX_FIELD_LEN];
    field[..prefix.len()].copy_from_slice(prefix);
    let header = Header { member, chunk_log2: options.chunk_log2, prefix: field };
    let key = Zeroizing::new(*key);
    on_threads(job, || {
        let opened = open_engine(job, &header, &key, header.chunk_size())?;
        seal_windows(opened, &header, &key, reader, writer)
    })
}

/// A stream of chunks as the window loops see it: the header's member, chunk
/// size and nonce prefix, the AD of every chunk, and whether it is a v1 file
/// (whose loop writes the header first and takes an empty last chunk after
/// full ones, as v1 always did).
pub(super) struct ChunkStream {
    pub header: Header,
    pub ad: Vec<u8>,
    pub v1: bool,
}

impl ChunkStream {
    fn v1(header: &Header) -> ChunkStream {
        ChunkStream { header: *header, ad: header.to_bytes().to_vec(), v1: true }
    }
}

/// Runs `work` on the threads `job` asks for.
pub(super) fn on_threads<T: Send>(
    job: &Job,
    work: impl FnOnce() -> Result<T, SealedError> + Send,
) -> Result<T, SealedError> {
    let threads = job.placement_asked().threads();
    threads.install(work).map_err(|source| SealedError::Threads { count: threads.count().unwrap_or(0), source })?
}

/// Seals on the CPU, or on `engines`' other engine when it is ready; the
/// reader starts with windows of `window` pieces.
pub(super) fn seal_windows<G: WindowEngine, R: Read + Send, W: Write + Send>(
    opened: Opened<G>,
    header: &Header,
    key: &[u8; 16],
    reader: R,
    writer: W,
) -> Result<SealedReport, SealedError> {
    seal_stream(opened, &ChunkStream::v1(header), key, reader, writer)
}

/// As [`seal_windows`], for any [`ChunkStream`]: its AD on every chunk, and
/// the v1 header written first only for a v1 stream.
pub(super) fn seal_stream<G: WindowEngine, R: Read + Send, W: Write + Send>(
    opened: Opened<G>,
    stream: &ChunkStream,
    key: &[u8; 16],
    reader: R,
    mut writer: W,
) -> Result<SealedReport, SealedError> {
    let Opened { mut engines, window, why_cpu, accelerator } = opened;
    let header = &stream.header;
    let ad = &stream.ad[..];
    let cs = header.chunk_size();
    if stream.v1 {
        writer.write_all(&header.to_bytes()).map_err(SealedError::Write)?;
    }
    let shape = Shape::new(cs, cs + header.member.tag_len(), window);
    let mut chunks: u64 = 0;
    let mut plaintext_bytes: u64 = 0;
    let mut gpu_chunks: u64 = 0;
    let run = pipeline::run(
        reader,
        writer,
        &shape,
        |w: &mut Window| {
            let n = w.input.len();
            if w.first + n as u64 > MAX_CHUNKS {
                return Err(SealedError::TooLong);
            }
            plaintext_bytes += w.input.iter().map(|b| b.len() as u64).sum::<u64>();
            let bytes = w.input_bytes();
            let ((), side) = engines.work_with(
                Some(&shape.window),
                bytes,
                w,
                |g, w| g.seal(w, ad),
                |w| cpu_seal(header, key, ad, w),
            )?;
            if side == Side::Accelerator {
                gpu_chunks += n as u64;
            }
            w.write = n;
            chunks = w.first + n as u64;
            Ok(())
        },
        None,
    )
    .map(drop)
    .map_err(into_sealed);
    let counts = Counts { chunks, plaintext_bytes, gpu_chunks };
    finish_run(Opened { engines, window, why_cpu, accelerator }, run, header, counts)
}

/// Reads the header, then verifies and decrypts every chunk of a sealed file
/// from `reader` into `writer`.
///
/// No byte of a chunk reaches `writer` before that chunk's tag verified, and
/// chunks are written in order; when a chunk fails, the chunks before it are
/// written (they verified) and nothing after. The member and chunk size come
/// from the header. Threads as for [`seal`]; memory as for [`seal`] and as
/// much again for the plaintext, which is kept apart from the ciphertext.
///
/// # Errors
/// Not a sealed file, an unknown version, a damaged header, truncation,
/// data after the last chunk, a chunk that does not verify (wrong key or a
/// changed file), or a read or write error.
pub fn open<R: Read + Send, W: Write + Send>(
    reader: R,
    writer: W,
    key: &[u8; 16],
) -> Result<SealedReport, SealedError> {
    open_on(&Job::cpu(), reader, writer, key)
}

/// As [`open`], as `job` places it, with the same guarantees (no byte of a chunk
/// written before its tag verified, nothing after a failing chunk) and the
/// same errors: a failing chunk is diagnosed (cut at a chunk boundary, or
/// damaged) by the CPU code whichever engine found it.
///
/// # Errors
/// As [`open`] and [`seal_on`] ([`SealedError::GpuChunkSize`]: a file
/// with chunks under 16 KiB, nothing written).
pub fn open_on<R: Read + Send, W: Write + Send>(
    job: &Job,
    mut reader: R,
    writer: W,
    key: &[u8; 16],
) -> Result<SealedReport, SealedError> {
    let mut hb = [0u8; HEADER_LEN];
    let n = read_full(&mut reader, &mut hb).map_err(SealedError::Read)?;
    if n < HEADER_LEN {
        let m = n.min(MAGIC.len());
        return Err(if n > 0 && hb[..m] == MAGIC[..m] { SealedError::TruncatedInside } else { SealedError::NotSealed });
    }
    let header = Header::parse(&hb)?;
    let key = Zeroizing::new(*key);
    let piece = header.chunk_size() + header.member.tag_len();
    on_threads(job, || {
        let opened = open_engine(job, &header, &key, piece)?;
        open_windows(opened, &header, &key, reader, writer)
    })
}

/// Opens on the CPU, or on `engines`' other engine when it is ready; the
/// reader starts with windows of `window` pieces.
pub(super) fn open_windows<G: WindowEngine, R: Read + Send, W: Write + Send>(
    opened: Opened<G>,
    header: &Header,
    key: &[u8; 16],
    reader: R,
    writer: W,
) -> Result<SealedReport, SealedError> {
    open_stream(opened, &ChunkStream::v1(header), key, reader, writer)
}

/// As [`open_windows`], for any [`ChunkStream`] (its AD; `reader` at its
/// first chunk); a v2 stream refuses an empty last chunk after full ones.
pub(super) fn open_stream<G: WindowEngine, R: Read + Send, W: Write + Send>(
    opened: Opened<G>,
    stream: &ChunkStream,
    key: &[u8; 16],
    reader: R,
    writer: W,
) -> Result<SealedReport, SealedError> {
    let Opened { mut engines, window, why_cpu, accelerator } = opened;
    let header = &stream.header;
    let hb = &stream.ad[..];
    let (_, open_fn) = chunk_ops(header.member);
    let tag = header.member.tag_len();
    let piece = header.chunk_size() + tag;
    let shape = Shape::new(piece, piece, window);
    let mut chunks: u64 = 0;
    let mut plaintext_bytes: u64 = 0;
    let mut gpu_chunks: u64 = 0;
    let run = pipeline::run(
        reader,
        writer,
        &shape,
        |w: &mut Window| {
            let n = w.input.len();
            w.from = WriteFrom::Output;
            if w.first + n as u64 > MAX_CHUNKS {
                return Err(SealedError::TooLong);
            }
            // A last piece too short to hold a tag (or nothing after the
            // header): the file was cut inside a chunk. The whole chunks
            // before it are opened and released as usual (none of them is the
            // last, so all take f = 0), then the run stops: both engines
            // release exactly the chunks that verify, whatever their windows.
            let cut = w.last && w.input[n - 1].len() < tag;
            if cut {
                w.input.truncate(n - 1);
                w.last = false;
                if n == 1 {
                    w.write = 0;
                    return Err(SealedError::TruncatedInside);
                }
            }
            let n = w.input.len();
            while w.output.len() < n {
                w.output.push(Zeroizing::new(Vec::with_capacity(header.chunk_size())));
            }
            let (first, last) = (w.first, w.last);
            let bytes = w.input_bytes();
            let (results, side) = engines.work_with(
                Some(&shape.window),
                bytes,
                w,
                |g, w| g.open(w, hb),
                |w| Ok(cpu_open(header, key, hb, w)),
            )?;
            let mut verified = results.iter().take_while(|&&ok| ok).count();
            // An empty last chunk after full ones is never written (the
            // writer ends on a full chunk instead): v2 refuses it, releasing
            // only the full chunks before it.
            let empty_last = !stream.v1 && last && verified == n && first + n as u64 > 1 && w.output[n - 1].is_empty();
            if empty_last {
                verified -= 1;
            }
            w.write = verified;
            plaintext_bytes += w.output[..verified].iter().map(|b| b.len() as u64).sum::<u64>();
            chunks = first + verified as u64;
            if side == Side::Accelerator {
                gpu_chunks += verified as u64;
            }
            if empty_last {
                return Err(SealedError::EmptyLastChunk { chunk: first + verified as u64 });
            }
            if verified < n {
                let index = first + verified as u64;
                return Err(diagnose(header, open_fn, key, hb, index, last && verified + 1 == n, &w.input[verified]));
            }
            if cut {
                return Err(SealedError::TruncatedInside);
            }
            Ok(())
        },
        None,
    )
    .map(drop)
    .map_err(into_sealed);
    let counts = Counts { chunks, plaintext_bytes, gpu_chunks };
    finish_run(Opened { engines, window, why_cpu, accelerator }, run, header, counts)
}

/// What a run's window loop counted.
struct Counts {
    /// Chunks written or verified.
    chunks: u64,
    /// Plaintext bytes read or written.
    plaintext_bytes: u64,
    /// Of `chunks`, those the GPU did.
    gpu_chunks: u64,
}

/// Ends a run: waits for a GPU start still under way, then returns the run's
/// own error first (it is the CPU's), then the start's, else the report of
/// `counts` with what the engines said: the GPU opened (read once the start
/// has ended: the CPU may finish a run before the GPU is ready), one that
/// could not be had (the run went on without it), one left for being slower.
fn finish_run<G: WindowEngine>(
    opened: Opened<G>,
    run: Result<(), SealedError>,
    header: &Header,
    counts: Counts,
) -> Result<SealedReport, SealedError> {
    let Opened { engines, why_cpu, accelerator, .. } = opened;
    let outcome = engines.finish();
    run?;
    let outcome = outcome?;
    let Counts { chunks, plaintext_bytes, gpu_chunks } = counts;
    let mut placed = Placed {
        cpu_units: chunks - gpu_chunks,
        accelerator_units: gpu_chunks,
        accelerator: accelerator.get().cloned(),
        why_cpu,
        left: outcome.left,
    };
    if let Some(failure) = &outcome.failure {
        placed.why_cpu = Some(WhyCpu::Unavailable(reason(failure)));
        placed.accelerator = None;
    }
    Ok(SealedReport { header: *header, chunks, plaintext_bytes, placed })
}

/// The pipeline's error as the format's: which side failed, or the work's own.
fn into_sealed(e: PipelineError<SealedError>) -> SealedError {
    match e {
        PipelineError::Read(e) => SealedError::Read(e),
        PipelineError::Write(e) => SealedError::Write(e),
        PipelineError::Work(e) => e,
    }
}
