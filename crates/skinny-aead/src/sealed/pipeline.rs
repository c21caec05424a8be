//! Sealing and opening as three overlapped stages: one thread reads the next
//! window of pieces while rayon's pool seals or opens the current one and a
//! second thread writes the one before. Done one after another (run 25 on the
//! H200 machine), reading and writing took most of a 4 GiB file's time.
//!
//! Memory stays bounded: [`DEPTH`] windows circulate (read, worked on,
//! written, then back to the reader for reuse), so the buffers are allocated
//! once and reused instead of allocated and zero-filled for every piece. Every
//! buffer is wiped when dropped (it held plaintext).

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::thread;
use std::vec::Vec;
use zeroize::Zeroizing;

/// Windows alive at once: one being read, one worked on, one being written.
const DEPTH: usize = 3;

/// A buffer that is wiped when dropped.
pub(super) type Buf = Zeroizing<Vec<u8>>;

/// Consecutive pieces of the input, and what to write for them.
pub(super) struct Window {
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
    /// Write `output` instead of `input`.
    pub from_output: bool,
}

/// How the input is cut.
pub(super) struct Shape {
    /// Bytes a piece.
    pub piece: usize,
    /// Bytes to reserve a piece (room for a tag appended in place).
    pub capacity: usize,
    /// Pieces a window (the input's last window may hold one more: the piece
    /// read ahead to learn that the input ends). The reader takes it anew for
    /// every window, so the work may change it on the way (when a GPU that was
    /// starting takes over: see `start.rs`); windows already read keep their
    /// size.
    pub window: AtomicUsize,
}

impl Shape {
    pub(super) fn new(piece: usize, capacity: usize, window: usize) -> Self {
        Self { piece, capacity, window: AtomicUsize::new(window) }
    }
}

/// Runs read -> `work` -> write over the whole input. `work` sees the windows
/// in order on the calling thread (it may use rayon inside); when it fails,
/// the first `write` pieces of that window are still written, then the run
/// stops with its error. A read error stops the run before the window it hit;
/// a write error stops it too, and wins over a later error of `work`.
pub(super) fn run<R, W, E>(
    reader: R,
    writer: W,
    shape: &Shape,
    mut work: impl FnMut(&mut Window) -> Result<(), E>,
    read_err: fn(io::Error) -> E,
    write_err: fn(io::Error) -> E,
) -> Result<(), E>
where
    R: Read + Send,
    W: Write + Send,
{
    thread::scope(|scope| {
        let (free_tx, free_rx) = sync_channel::<Window>(DEPTH);
        let (full_tx, full_rx) = sync_channel::<io::Result<Window>>(1);
        let (done_tx, done_rx) = sync_channel::<Window>(1);
        for _ in 0..DEPTH {
            let w =
                Window { input: Vec::new(), output: Vec::new(), first: 0, last: false, write: 0, from_output: false };
            // Cannot fail: the channel has room for DEPTH and its receiver is alive.
            let _ = free_tx.send(w);
        }
        let reading = scope.spawn(move || read_stage(reader, shape, &free_rx, &full_tx));
        let writing = scope.spawn(move || write_stage(writer, &done_rx, &free_tx));

        let mut outcome = Ok(());
        for message in full_rx.iter() {
            let mut window = match message {
                Ok(w) => w,
                Err(e) => {
                    outcome = Err(read_err(e));
                    break;
                }
            };
            let worked = work(&mut window);
            let last = window.last;
            if done_tx.send(window).is_err() {
                break; // the writer failed: its error is returned below
            }
            if let Err(e) = worked {
                outcome = Err(e);
                break;
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
        written.map_err(write_err)?;
        outcome
    })
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
pub(super) fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
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
/// window is started). One piece is read past
/// every window (and carried into the next) so that a window knows whether it
/// holds the input's last piece. A short piece ends the input; an empty piece
/// is kept only when the input is empty (one empty last piece).
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
        w.from_output = false;
        first += w.input.len() as u64;
        if full.send(Ok(w)).is_err() || eof {
            return;
        }
    }
}

/// Writes each window's pieces in order, then hands the window back.
fn write_stage<W: Write>(mut writer: W, done: &Receiver<Window>, free: &SyncSender<Window>) -> io::Result<()> {
    for w in done.iter() {
        let pieces = if w.from_output { &w.output } else { &w.input };
        for piece in &pieces[..w.write] {
            writer.write_all(piece)?;
        }
        // The reader may be gone (the input ended): then the window is dropped.
        let _ = free.send(w);
    }
    writer.flush()
}
