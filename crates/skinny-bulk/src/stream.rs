//! Messages that flow: [`CryptWriter`] (an `io::Write` that encrypts or
//! decrypts into another writer), [`CryptReader`] (an `io::Read` that yields the
//! processed bytes of another reader), and [`pipe`], which moves a whole
//! message from a reader to a writer with reading, processing and writing
//! overlapped on three threads.
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
use std::io::{self, Read, Write};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

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
#[derive(Clone, Debug)]
pub struct PipeOptions {
    /// Bytes per read and per call into the engine (default: the engine's
    /// [`Processor::preferred_chunk`]), rounded to whole blocks.
    pub chunk_bytes: Option<usize>,
    /// Buffers in flight (at least 3: one being read, one being processed, one
    /// being written; default 4). Memory use is about `buffers` x `chunk_bytes`.
    pub buffers: usize,
}

impl Default for PipeOptions {
    fn default() -> Self {
        Self { chunk_bytes: None, buffers: 4 }
    }
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

/// What the reader thread hands on.
enum Filled {
    Data(Vec<u8>),
    End,
    Failed(io::Error),
}

/// Moves a whole message from `reader` through `processor` to `writer`, with
/// reading, processing and writing overlapped: a reader thread fills recycled
/// buffers, this thread processes them in place (the backend spreads the work
/// over its cores or its GPU), a writer thread writes them out. Memory stays
/// at a few buffers whatever the length. `progress` is called with the input
/// bytes of each processed buffer.
///
/// On error nothing more is written, the writer is dropped, and the error says
/// which side failed. A reader blocked in `read` (a silent pipe) is left to
/// finish on its own.
///
/// # Errors
/// [`StreamError::Read`], [`StreamError::Write`], or the mode's or backend's
/// [`StreamError::Cipher`].
pub fn pipe<R, W>(
    processor: Processor,
    reader: R,
    writer: W,
    opts: &PipeOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<PipeReport<W>, StreamError>
where
    R: Read + Send + 'static,
    W: Write + Send + 'static,
{
    let block = processor.block_bytes();
    let chunk = opts.chunk_bytes.unwrap_or_else(|| processor.preferred_chunk()).max(block) / block * block;
    let buffers = opts.buffers.max(3);
    let (free_tx, free_rx) = sync_channel::<Vec<u8>>(buffers);
    let (full_tx, full_rx) = sync_channel::<Filled>(buffers);
    let (out_tx, out_rx) = sync_channel::<Vec<u8>>(buffers);
    for _ in 0..buffers {
        // Room for one block of padding after a full chunk.
        free_tx.send(Vec::with_capacity(chunk + block)).map_err(|_| StreamError::Read(thread_gone()))?;
    }
    let _reader = std::thread::Builder::new()
        .name("skinny-read".into())
        .spawn(move || read_loop(reader, chunk, &free_rx, &full_tx))
        .map_err(StreamError::Read)?;
    let recycle = free_tx.clone();
    let writer = std::thread::Builder::new()
        .name("skinny-write".into())
        .spawn(move || write_loop(writer, &out_rx, &recycle))
        .map_err(StreamError::Write)?;

    let processed = process_loop(processor, &full_rx, &out_tx, progress);
    drop(out_tx);
    drop(free_tx);
    let written = writer.join().unwrap_or_else(|_| Err(thread_gone()));
    match (processed, written) {
        // A write error first: the processing loop stops when the writer does.
        (_, Err(e)) => Err(StreamError::Write(e)),
        (Err(e), Ok(_)) => Err(e),
        (Ok((bytes, engine)), Ok(writer)) => Ok(PipeReport { writer, bytes, engine }),
    }
}

fn thread_gone() -> io::Error {
    io::Error::other("a pipeline thread stopped unexpectedly")
}

fn read_loop<R: Read>(mut reader: R, chunk: usize, free: &Receiver<Vec<u8>>, full: &SyncSender<Filled>) {
    while let Ok(mut buf) = free.recv() {
        buf.clear();
        // read_to_end on a Take reads into the spare capacity without zeroing it
        // first, retries on EINTR, and stops at `chunk` bytes or the end.
        match (&mut reader).take(chunk as u64).read_to_end(&mut buf) {
            Err(e) => {
                let _ = full.send(Filled::Failed(e));
                return;
            }
            Ok(_) if buf.is_empty() => {
                let _ = full.send(Filled::End);
                return;
            }
            Ok(_) => {
                let short = buf.len() < chunk;
                if full.send(Filled::Data(buf)).is_err() {
                    return;
                }
                if short {
                    let _ = full.send(Filled::End);
                    return;
                }
            }
        }
    }
}

fn write_loop<W: Write>(mut writer: W, out: &Receiver<Vec<u8>>, free: &SyncSender<Vec<u8>>) -> io::Result<W> {
    while let Ok(buf) = out.recv() {
        writer.write_all(&buf)?;
        // The processing side may have stopped; the buffer is then just dropped.
        let _ = free.send(buf);
    }
    writer.flush()?;
    Ok(writer)
}

/// Processes buffers as they come, one behind the reader: a buffer is known to
/// be the last (and so gets its padding added or checked) only when the reader
/// has said the input ended.
fn process_loop(
    mut processor: Processor,
    full: &Receiver<Filled>,
    out: &SyncSender<Vec<u8>>,
    progress: &mut dyn FnMut(u64),
) -> Result<(u64, Option<String>), StreamError> {
    let mut held: Option<Vec<u8>> = None;
    let mut total = 0u64;
    loop {
        match full.recv().map_err(|_| StreamError::Read(thread_gone()))? {
            Filled::Data(buf) => {
                total += buf.len() as u64;
                if let Some(mut prev) = held.replace(buf) {
                    processor.apply_in_place(&mut prev)?;
                    let n = prev.len() as u64;
                    if out.send(prev).is_err() {
                        return Err(StreamError::Write(thread_gone()));
                    }
                    progress(n);
                }
            }
            Filled::End => break,
            Filled::Failed(e) => return Err(StreamError::Read(e)),
        }
    }
    let mut last = held.unwrap_or_default();
    let n = last.len() as u64;
    processor.end_in_place(&mut last)?;
    let engine = processor.engine_report();
    if !last.is_empty() && out.send(last).is_err() {
        return Err(StreamError::Write(thread_gone()));
    }
    progress(n);
    Ok((total, engine))
}
