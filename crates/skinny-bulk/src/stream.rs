//! Messages that flow: [`CryptWriter`] (an `io::Write` that encrypts or
//! decrypts into another writer), [`CryptReader`] (an `io::Read` that yields the
//! processed bytes of another reader), and [`pipe`], which moves a whole
//! message from a reader to a writer with reading, processing and writing
//! overlapped on three threads (the execution layer's one pipeline,
//! [`skinny_exec::pipeline`]).
//!
//! ```
//! use skinny::{Skinny, Variant};
//! use skinny_bulk::mode::{Direction, Mode, Processor};
//! use skinny_bulk::stream::{CryptReader, CryptWriter};
//! use std::io::{Read, Write};
//!
//! let cipher = Skinny::new(Variant::Skinny128_256, &[7u8; 32]).unwrap();
//! let iv = [1u8; 16];
//! let enc = Processor::builder(&cipher, Mode::Cbc, Direction::Encrypt).iv(&iv).build().unwrap();
//! let mut w = CryptWriter::new(enc, Vec::new());
//! w.write_all(b"attack at dawn").unwrap();
//! let ciphertext = w.finish().unwrap();
//!
//! let dec = Processor::builder(&cipher, Mode::Cbc, Direction::Decrypt).iv(&iv).build().unwrap();
//! let mut plain = Vec::new();
//! CryptReader::new(dec, &ciphertext[..]).read_to_end(&mut plain).unwrap();
//! assert_eq!(plain, b"attack at dawn");
//! ```

use crate::mode::Processor;
use crate::Error;
use skinny_exec::pipeline::{self, PipelineError, Shape, Window};
use std::io::{self, Read, Write};

/// Why a stream stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StreamError {
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Read(#[source] io::Error),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
    /// The mode or the backend refused (bad padding, not whole blocks, a device
    /// error...).
    #[error(transparent)]
    Cipher(#[from] Error),
}

impl From<PipelineError<Error>> for StreamError {
    fn from(e: PipelineError<Error>) -> Self {
        match e {
            PipelineError::Read(e) => StreamError::Read(e),
            PipelineError::Write(e) => StreamError::Write(e),
            PipelineError::Work(e) => StreamError::Cipher(e),
        }
    }
}

/// A bulk error as an `io::Error` (kind `InvalidData` for what the data is to
/// blame for); the original is its inner error.
fn io_error(e: Error) -> io::Error {
    let kind = match e {
        Error::BadPadding | Error::NotWholeBlocks { .. } | Error::PartialBlockNotLast => io::ErrorKind::InvalidData,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, e)
}

/// Encrypts or decrypts everything written to it into `inner`. Call
/// [`CryptWriter::finish`] at the end: it processes the last block (padding
/// included) and gives `inner` back. Dropped without `finish`, the output is
/// incomplete.
pub struct CryptWriter<W: Write> {
    processor: Option<Processor>,
    inner: W,
    out: Vec<u8>,
}

impl<W: Write> CryptWriter<W> {
    /// Wraps `inner`.
    pub fn new(processor: Processor, inner: W) -> Self {
        Self { processor: Some(processor), inner, out: Vec::new() }
    }

    /// Ends the message, flushes and returns the inner writer.
    ///
    /// # Errors
    /// The mode's final check (padding, whole blocks), or a write error.
    pub fn finish(mut self) -> Result<W, StreamError> {
        self.out.clear();
        if let Some(p) = self.processor.take() {
            p.finish(&mut self.out)?;
        }
        self.inner.write_all(&self.out).map_err(StreamError::Write)?;
        self.inner.flush().map_err(StreamError::Write)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for CryptWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let p = self.processor.as_mut().ok_or_else(|| io::Error::other("the stream is finished"))?;
        self.out.clear();
        p.update(buf, &mut self.out).map_err(io_error)?;
        self.inner.write_all(&self.out)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Yields the encryption or decryption of everything read from `inner`; the
/// end of `inner` ends the message (padding checked or added there). A failed
/// check is an `io::Error` whose inner error is the [`Error`].
pub struct CryptReader<R: Read> {
    processor: Option<Processor>,
    inner: R,
    input: Vec<u8>,
    out: Vec<u8>,
    pos: usize,
}

impl<R: Read> CryptReader<R> {
    /// Wraps `inner`.
    pub fn new(processor: Processor, inner: R) -> Self {
        Self { processor: Some(processor), inner, input: Vec::new(), out: Vec::new(), pos: 0 }
    }

    /// The inner reader.
    pub fn into_inner(self) -> R {
        self.inner
    }
}

impl<R: Read> Read for CryptReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.out.len() {
            let Some(p) = self.processor.as_mut() else { return Ok(0) };
            self.out.clear();
            self.pos = 0;
            let chunk = p.preferred_chunk().min(1 << 20);
            self.input.clear();
            (&mut self.inner).take(chunk as u64).read_to_end(&mut self.input)?;
            if self.input.is_empty() {
                if let Some(p) = self.processor.take() {
                    p.finish(&mut self.out).map_err(io_error)?;
                }
            } else {
                p.update(&self.input, &mut self.out).map_err(io_error)?;
            }
        }
        let n = buf.len().min(self.out.len() - self.pos);
        buf[..n].copy_from_slice(&self.out[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// How [`pipe`] runs.
#[derive(Clone, Debug, Default)]
pub struct PipeOptions {
    /// Bytes per read and per call into the engine (default: the engine's
    /// [`Processor::preferred_chunk`]), rounded to whole blocks. Memory use is
    /// about [`pipeline::DEPTH`] + 1 times this: one buffer being read, one
    /// processed, one written, and the one read ahead to learn where the
    /// input ends.
    pub chunk_bytes: Option<usize>,
}

/// What [`pipe`] did.
#[derive(Debug)]
pub struct PipeReport<W> {
    /// The writer, flushed.
    pub writer: W,
    /// Input bytes.
    pub bytes: u64,
    /// What the engine did ([`Processor::engine_report`]), if there was one.
    pub engine: Option<String>,
}

/// Moves a whole message from `reader` through `processor` to `writer`, with
/// reading, processing and writing overlapped: a reader thread fills recycled
/// buffers (wiped when dropped), this thread processes them in place (the
/// backend spreads the work over its cores or its GPU), a writer thread writes
/// them out. Memory stays at a few buffers whatever the length. `progress`, if
/// given, is called with the input bytes of each processed buffer.
///
/// The reader reads one buffer ahead, so the last one is known to be the last
/// (and gets its padding added or checked) without a second pass.
///
/// On error nothing more is written, the writer is dropped, and the error says
/// which side failed. The threads are scoped, as the sealed files' have always
/// been: a reader blocked in `read` (a silent pipe) is waited for before this
/// returns; a caller that must not wait hands in a reader that returns on its
/// own.
///
/// # Errors
/// [`StreamError::Read`], [`StreamError::Write`], or the mode's or backend's
/// [`StreamError::Cipher`].
pub fn pipe<R, W>(
    mut processor: Processor,
    reader: R,
    writer: W,
    opts: &PipeOptions,
    progress: Option<&mut dyn FnMut(u64)>,
) -> Result<PipeReport<W>, StreamError>
where
    R: Read + Send,
    W: Write + Send,
{
    let block = processor.block_bytes();
    let chunk = opts.chunk_bytes.unwrap_or_else(|| processor.preferred_chunk()).max(block) / block * block;
    // One piece a window; room for one block of padding after a full piece.
    let shape = Shape::new(chunk, chunk + block, 1);
    let mut bytes = 0u64;
    let work = |window: &mut Window| {
        bytes += window.input_bytes();
        process_window(&mut processor, window)
    };
    let writer = pipeline::run(reader, writer, &shape, work, progress)?;
    Ok(PipeReport { writer, bytes, engine: processor.engine_report() })
}

/// Processes a window's pieces in place, in order; the input's last piece
/// ends the message (padding added or checked). On failure the pieces done
/// before it are still written.
fn process_window(processor: &mut Processor, window: &mut Window) -> Result<(), Error> {
    let count = window.input.len();
    window.write_all_in_place();
    window.write = 0;
    for (i, piece) in window.input.iter_mut().enumerate() {
        if window.last && i + 1 == count {
            processor.end_in_place(piece)?;
        } else {
            processor.apply_in_place(piece)?;
        }
        window.write = i + 1;
    }
    Ok(())
}
