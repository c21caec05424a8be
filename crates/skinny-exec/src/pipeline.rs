//! The one read -> work -> write pipeline: one thread reads the next window
//! of pieces while the caller's thread works on the current one (spreading it
//! over cores or handing it to a GPU) and a second thread writes the one
//! before. Every product that moves a stream (raw modes, sealed files) runs
//! through [`run`].
//!
//! Memory stays bounded: [`DEPTH`] windows circulate (read, worked on,
//! written, then back to the reader for reuse), so buffers are allocated once
//! and reused instead of allocated and zero-filled for every piece. Every
//! buffer is wiped when dropped (it may have held plaintext).
//!
//! One piece is read past every window, so that the work knows whether a
//! window holds the input's last piece (padding, a final tag) without a
//! second pass. The threads are scoped: a reader blocked inside `read` (a
//! silent pipe) is waited for when the run ends early; a caller that must not
//! wait hands in a reader that returns on its own.

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;
use zeroize::Zeroizing;

/// Windows alive at once: one being read, one worked on, one being written.
pub const DEPTH: usize = 3;

/// A buffer that is wiped when dropped.
pub type Buf = Zeroizing<Vec<u8>>;

/// Consecutive pieces of the input, and what to write for them.
#[derive(Debug, Default)]
pub struct Window {
    /// The pieces as read: `piece` bytes each, but the input's last may be
    /// shorter (or empty, when the whole input is).
    pub input: Vec<Buf>,
    /// Buffers for work that does not write in place (kept for reuse; may
    /// hold more than `input`).
    pub output: Vec<Buf>,
    /// The index of the first piece in the whole input.
    pub first: u64,
    /// Whether the input ends with this window.
    pub last: bool,
    /// How many pieces to write: set by the work (all, or those before a
    /// failure).
    pub write: usize,
    /// Which buffers the writer writes.
    pub from: WriteFrom,
}

/// Which of a window's buffers hold what is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WriteFrom {
    /// The work was done in place.
    #[default]
    Input,
    /// The work wrote into [`Window::output`].
    Output,
}

impl Window {
    /// Input bytes in the window.
    pub fn input_bytes(&self) -> u64 {
        self.input.iter().map(|b| b.len() as u64).sum()
    }

    /// Marks every input piece to be written as it now is (in place).
    pub fn write_all_in_place(&mut self) {
        self.write = self.input.len();
        self.from = WriteFrom::Input;
    }
}

/// How the input is cut.
#[derive(Debug)]
pub struct Shape {
    /// Bytes a piece.
    pub piece: usize,
    /// Bytes to reserve a piece (room for what the work appends in place: a
    /// tag, a padding block).
    pub capacity: usize,
    /// Pieces a window (the input's last window may hold one more: the piece
    /// read ahead to learn that the input ends). The reader takes it anew for
    /// every window, so the work may change it on the way (when an
    /// accelerator takes over: see [`crate::handover`]); windows already read
    /// keep their size.
    pub window: AtomicUsize,
}

impl Shape {
    /// Pieces of `piece` bytes (`capacity` reserved each), `window` a window.
    pub fn new(piece: usize, capacity: usize, window: usize) -> Self {
        Self { piece: piece.max(1), capacity: capacity.max(piece), window: AtomicUsize::new(window.max(1)) }
    }
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError<E> {
    /// Reading the input failed.
    #[error("cannot read input: {0}")]
    Read(#[source] io::Error),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Write(#[source] io::Error),
    /// The work failed.
    #[error(transparent)]
    Work(E),
}

/// Runs read -> `work` -> write over the whole input and returns the writer,
/// flushed. `work` sees the windows in order on the calling thread (it may
/// use rayon inside); when it fails, the first `write` pieces of that window
/// are still written, then the run stops with its error. A read error stops
/// the run before the window it hit; a write error stops it too, and wins over
/// a later error of `work`. `progress`, if given, is told the input bytes of
/// each window once it is worked on.
///
/// # Errors
/// [`PipelineError::Read`], [`PipelineError::Write`] or the work's own.
pub fn run<R, W, E>(
    reader: R,
    writer: W,
    shape: &Shape,
    mut work: impl FnMut(&mut Window) -> Result<(), E>,
    mut progress: Option<&mut dyn FnMut(u64)>,
) -> Result<W, PipelineError<E>>
where
    R: Read + Send,
    W: Write + Send,
{
    thread::scope(|scope| {
        let (free_tx, free_rx) = sync_channel::<Window>(DEPTH);
        let (full_tx, full_rx) = sync_channel::<io::Result<Window>>(1);
        let (done_tx, done_rx) = sync_channel::<Window>(1);
        for _ in 0..DEPTH {
            // Cannot fail: the channel has room for DEPTH and its receiver is alive.
            let _ = free_tx.send(Window::default());
        }
        let reading = thread::Builder::new()
            .name("skinny-read".into())
            .stack_size(crate::WORKER_STACK_BYTES)
            .spawn_scoped(scope, move || read_stage(reader, shape, &free_rx, &full_tx))
            .map_err(PipelineError::Read)?;
        let writing = thread::Builder::new()
            .name("skinny-write".into())
            .stack_size(crate::WORKER_STACK_BYTES)
            .spawn_scoped(scope, move || write_stage(writer, &done_rx, &free_tx))
            .map_err(PipelineError::Write)?;

        let mut outcome = Ok(());
        for message in full_rx.iter() {
            let mut window = match message {
                Ok(w) => w,
                Err(e) => {
                    outcome = Err(PipelineError::Read(e));
                    break;
                }
            };
            let bytes = window.input_bytes();
            let worked = work(&mut window);
            let last = window.last;
            if done_tx.send(window).is_err() {
                break; // the writer failed: its error is returned below
            }
            if let Err(e) = worked {
                outcome = Err(PipelineError::Work(e));
                break;
            }
            if let Some(p) = progress.as_mut() {
                p(bytes);
            }
            if last {
                break;
            }
        }
        // Closing our ends lets both stages finish: the writer after what was
        // handed to it, the reader at its next hand-over.
        drop(done_tx);
        drop(full_rx);
        let written = writing.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        reading.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        let writer = written.map_err(PipelineError::Write)?;
        outcome.map(|()| writer)
    })
}

/// Reads until `buf` is full or the input ends (retrying on EINTR); returns
/// the bytes read.
///
/// # Errors
/// The reader's.
pub fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Fills free windows with `shape.window` pieces each (as it is when the
/// window is started), carrying the piece read past each window into the
/// next. A short piece ends the input; an empty piece is kept only when the
/// input is empty (one empty last piece).
fn read_stage<R: Read>(mut reader: R, shape: &Shape, free: &Receiver<Window>, full: &SyncSender<io::Result<Window>>) {
    let mut carried: Option<Buf> = None;
    let mut first: u64 = 0;
    let mut eof = false;
    while let Ok(mut w) = free.recv() {
        let mut spare: Vec<Buf> = std::mem::take(&mut w.input);
        w.input.extend(carried.take());
        // Any size is correct; the ordering only bounds how late a change is seen.
        let window = shape.window.load(Ordering::Acquire).max(1);
        while !eof && w.input.len() < window + 1 {
            let mut buf = spare.pop().unwrap_or_else(|| Zeroizing::new(Vec::with_capacity(shape.capacity)));
            // Zero-fills only what the buffer never held.
            buf.resize(shape.piece, 0);
            let n = match read_full(&mut reader, &mut buf) {
                Ok(n) => n,
                Err(e) => {
                    let _ = full.send(Err(e));
                    return;
                }
            };
            buf.truncate(n);
            if n < shape.piece {
                eof = true;
                if n == 0 && !(first == 0 && w.input.is_empty()) {
                    break;
                }
            }
            w.input.push(buf);
        }
        if !eof {
            carried = w.input.pop();
        }
        w.first = first;
        w.last = eof;
        w.write = 0;
        w.from = WriteFrom::Input;
        first += w.input.len() as u64;
        if full.send(Ok(w)).is_err() || eof {
            return;
        }
    }
}

/// Writes each window's pieces in order, then hands the window back.
fn write_stage<W: Write>(mut writer: W, done: &Receiver<Window>, free: &SyncSender<Window>) -> io::Result<W> {
    for w in done.iter() {
        let pieces = match w.from {
            WriteFrom::Output => &w.output,
            WriteFrom::Input => &w.input,
        };
        for piece in &pieces[..w.write] {
            writer.write_all(piece)?;
        }
        // The reader may be gone (the input ended): then the window is dropped.
        let _ = free.send(w);
    }
    writer.flush()?;
    Ok(writer)
}

#[cfg(test)]
mod tests;
