//! The one seal loop and the one open loop of every scheme and both format
//! versions: the execution layer's pipeline over the input (one thread reads
//! the next window while this one works and another writes the last), each
//! window on the engine the placement gives (the CPU's chunk codec on
//! rayon's pool, or a GPU), and the end-of-stream rules applied to what the
//! engine verified.

use super::engine::{reason, Engines, WindowEngine};
use super::payload::Stream;
use super::placement::{open_engine, Job, Opened};
use crate::error::{EngineError, OpenError, SealError};
use crate::format::MAX_CHUNKS;
use crate::report::SealReport;
use skinny_exec::handover::Side;
use skinny_exec::pipeline::{self, PipelineError, Shape, Window, WriteFrom};
use skinny_exec::{Placed, WhyCpu};
use std::io::{self, Read, Write};
use std::sync::atomic::AtomicUsize;
use zeroize::Zeroizing;

/// Runs `work` on the threads `job` asks for.
fn on_threads<T: Send, E: From<EngineError> + Send>(
    job: &Job,
    work: impl FnOnce() -> Result<T, E> + Send,
) -> Result<T, E> {
    let threads = job.placement_asked().threads();
    let count = threads.count().unwrap_or(0);
    threads.install(work).map_err(|source| EngineError::Threads { count, source })?
}

/// Seals `reader` into `writer` as `stream`'s chunks, after `header` (written
/// once the engines are had, so a GPU that cannot serve the file leaves the
/// output empty), placed as `job` says.
///
/// Memory: three windows of chunks (about 16 MiB each at most, or one chunk
/// when chunks are larger): one read, one sealed, one written.
pub(crate) fn seal<R: Read + Send, W: Write + Send>(
    job: &Job,
    stream: &Stream,
    header: &[u8],
    reader: R,
    writer: W,
) -> Result<SealReport, SealError> {
    on_threads(job, || {
        let opened = open_engine(job, stream, stream.chunk_size())?;
        seal_windows(opened, stream, header, reader, writer)
    })
}

/// The seal loop on `opened`'s engines.
pub(super) fn seal_windows<G: WindowEngine, R: Read + Send, W: Write + Send>(
    opened: Opened<G>,
    stream: &Stream,
    header: &[u8],
    reader: R,
    mut writer: W,
) -> Result<SealReport, SealError> {
    let ad = &stream.ad[..];
    writer.write_all(header).map_err(SealError::Write)?;
    // Chunks of plaintext in, each with room for its tag.
    let piece_and_capacity = (stream.chunk_size(), stream.piece());
    run_windows(opened, stream, piece_and_capacity, reader, writer, |engines, window, counts, w| {
        let n = w.input.len();
        if w.first + n as u64 > MAX_CHUNKS {
            return Err(SealError::TooLong);
        }
        let bytes = w.input_bytes();
        counts.plaintext_bytes += bytes;
        let ((), side) = engines.work_with(
            Some(window),
            bytes,
            w,
            |g, w| g.seal(w, ad),
            |w| {
                stream.seal_window(w);
                Ok(())
            },
        )?;
        if side == Side::Accelerator {
            counts.gpu_chunks += n as u64;
        }
        w.write_all_in_place();
        counts.chunks = w.first + n as u64;
        Ok(())
    })
}

/// Opens `stream`'s chunks from `reader` (at the first chunk) into `writer`,
/// placed as `job` says.
///
/// No byte of a chunk reaches `writer` before that chunk's tag verified, and
/// chunks are written in order; when a chunk fails, the chunks before it are
/// written (they verified) and nothing after. A failing chunk is diagnosed
/// (cut at a chunk boundary, or damaged) by the CPU code whichever engine
/// found it. Memory as for [`seal`], and as much again for the plaintext,
/// which is kept apart from the ciphertext.
pub(crate) fn open<R: Read + Send, W: Write + Send>(
    job: &Job,
    stream: &Stream,
    reader: R,
    writer: W,
) -> Result<SealReport, OpenError> {
    on_threads(job, || {
        let opened = open_engine(job, stream, stream.piece())?;
        open_windows(opened, stream, reader, writer)
    })
}

/// The open loop on `opened`'s engines.
pub(super) fn open_windows<G: WindowEngine, R: Read + Send, W: Write + Send>(
    opened: Opened<G>,
    stream: &Stream,
    reader: R,
    writer: W,
) -> Result<SealReport, OpenError> {
    let ad = &stream.ad[..];
    let piece = stream.piece();
    run_windows(opened, stream, (piece, piece), reader, writer, |engines, window, counts, w| {
        let n = w.input.len();
        w.from = WriteFrom::Output;
        if w.first + n as u64 > MAX_CHUNKS {
            return Err(OpenError::TooLong);
        }
        // A last piece too short to hold a tag (or nothing after the
        // header): the stream was cut inside a chunk. The whole chunks
        // before it are opened and released as usual (none of them is the
        // last, so all take flag 0), then the run stops: every engine
        // releases exactly the chunks that verify, whatever its windows.
        let cut = w.last && stream.cut(w.input[n - 1].len());
        if cut {
            w.input.truncate(n - 1);
            w.last = false;
            if n == 1 {
                return Err(OpenError::TruncatedInside);
            }
        }
        let n = w.input.len();
        while w.output.len() < n {
            w.output.push(Zeroizing::new(Vec::with_capacity(stream.chunk_size())));
        }
        let (first, last) = (w.first, w.last);
        let bytes = w.input_bytes();
        let (results, side) =
            engines.work_with(Some(window), bytes, w, |g, w| g.open(w, ad), |w| Ok(stream.open_window(w)))?;
        let mut verified = results.iter().take_while(|&&ok| ok).count();
        let failed = if verified < n {
            let index = first + verified as u64;
            Some(stream.diagnose(index, last && verified + 1 == n, &w.input[verified]))
        } else if last {
            // The last chunk verified: the end-of-stream rule on it (a
            // chunk it refuses is not released).
            let at = n - 1;
            let refused = stream.check_last(first + at as u64, &w.output[at]).err();
            if refused.is_some() {
                verified = at;
            }
            refused
        } else {
            None
        };
        w.write = verified;
        counts.plaintext_bytes += w.output[..verified].iter().map(|b| b.len() as u64).sum::<u64>();
        counts.chunks = first + verified as u64;
        if side == Side::Accelerator {
            counts.gpu_chunks += verified as u64;
        }
        match failed {
            Some(e) => Err(e),
            None if cut => Err(OpenError::TruncatedInside),
            None => Ok(()),
        }
    })
}

/// What both loops share: the pipeline over `reader` in pieces of `piece`
/// bytes (`capacity` reserved each) and windows of `opened.window` pieces,
/// `work` on each window with the engines, the window size the reader takes
/// and the run's counts, then [`finish`].
fn run_windows<G: WindowEngine, R: Read + Send, W: Write + Send, E: LoopError>(
    opened: Opened<G>,
    stream: &Stream,
    (piece, capacity): (usize, usize),
    reader: R,
    writer: W,
    mut work: impl FnMut(&mut Engines<G>, &AtomicUsize, &mut Counts, &mut Window) -> Result<(), E>,
) -> Result<SealReport, E> {
    let Opened { mut engines, window, why_cpu, accelerator } = opened;
    let shape = Shape::new(piece, capacity, window);
    let mut counts = Counts::default();
    let run = pipeline::run(reader, writer, &shape, |w| work(&mut engines, &shape.window, &mut counts, w), None)
        .map(drop)
        .map_err(|e| match e {
            PipelineError::Read(e) => E::read(e),
            PipelineError::Write(e) => E::write(e),
            PipelineError::Work(e) => e,
        });
    finish(Opened { engines, window, why_cpu, accelerator }, run, stream, counts)
}

/// A loop's error: what the engines' errors and a failed read or write of
/// the pipeline become.
trait LoopError: From<EngineError> {
    fn read(e: io::Error) -> Self;
    fn write(e: io::Error) -> Self;
}

impl LoopError for SealError {
    fn read(e: io::Error) -> Self {
        SealError::Read(e)
    }
    fn write(e: io::Error) -> Self {
        SealError::Write(e)
    }
}

impl LoopError for OpenError {
    fn read(e: io::Error) -> Self {
        OpenError::Read(e)
    }
    fn write(e: io::Error) -> Self {
        OpenError::Write(e)
    }
}

/// What a run's window loop counted.
#[derive(Default)]
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
fn finish<G: WindowEngine, E: From<EngineError>>(
    opened: Opened<G>,
    run: Result<(), E>,
    stream: &Stream,
    counts: Counts,
) -> Result<SealReport, E> {
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
    Ok(SealReport {
        version: stream.version(),
        scheme: stream.scheme,
        chunk_log2: stream.chunk_log2,
        chunks,
        plaintext_bytes,
        placed,
    })
}
