//! The gateway: one thread reads frames off the UDP socket, looks up each
//! device's key and submits the frame to the streaming front; another takes
//! the completions in order, checks them and times them.

use super::frame::{self, nonce_fields};
use super::keystore::KeyStore;
use skinny_many::stream::{Message, Stream, StreamError, Ticket};
use skinny_many::MessageError;
use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What the gateway saw in one run.
#[derive(Default)]
pub struct Tally {
    /// Datagrams read off the socket.
    pub received: u64,
    /// Frames opened: authentic.
    pub opened: u64,
    /// Frames refused as not authentic (expected: the altered ones).
    pub forged: u64,
    /// Frames from devices not in the key store.
    pub unknown: u64,
    /// Datagrams that are not frames.
    pub junk: u64,
    /// Frames dropped at the front because it was full.
    pub shed: u64,
    /// Unaltered frames that did not open (must be 0).
    pub authentic_failed: u64,
    /// Altered frames that opened (must be 0).
    pub tampered_opened: u64,
    /// Whole-batch failures of the engine.
    pub engine_failed: u64,
    /// Send to completion, nanoseconds, for every opened frame.
    pub latency_ns: Vec<u64>,
    /// From the first frame read to the last completion.
    pub busy: Duration,
}

/// What the completion side needs to know about a submitted frame.
struct Pending {
    ticket: Ticket,
    device: u32,
    counter: u64,
    sent_ns: u64,
    reading: usize,
}

/// Serves `socket` until `stop` is set and the socket has been quiet for a
/// moment, then drains the front. Timestamps count from `epoch`.
pub fn serve(
    socket: &UdpSocket,
    keys: &KeyStore,
    front: &Stream,
    stop: &AtomicBool,
    epoch: Instant,
    tamper_every: u64,
) -> std::io::Result<Tally> {
    socket.set_read_timeout(Some(Duration::from_millis(20)))?;
    let (tx, rx) = mpsc::channel::<Pending>();
    let reading_done = &AtomicBool::new(false);
    std::thread::scope(|scope| {
        let done = scope.spawn(move || complete(front, &rx, reading_done, epoch, tamper_every));
        let read = read(socket, keys, front, stop, &tx);
        // The completion side stops once every submitted frame is back.
        front.flush();
        drop(tx);
        reading_done.store(true, Ordering::Release);
        let (mut tally, last) = done.join().map_err(|_| std::io::Error::other("completion thread panicked"))?;
        let (read_tally, first) = read?;
        tally.received = read_tally.received;
        tally.unknown = read_tally.unknown;
        tally.junk = read_tally.junk;
        tally.shed = read_tally.shed;
        if let (Some(first), Some(last)) = (first, last) {
            tally.busy = last.saturating_duration_since(first);
        }
        Ok(tally)
    })
}

/// The socket side: parse, look up, submit. Returns its counts and when the
/// first frame came.
fn read(
    socket: &UdpSocket,
    keys: &KeyStore,
    front: &Stream,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Pending>,
) -> std::io::Result<(Tally, Option<Instant>)> {
    let mut tally = Tally::default();
    let mut first = None;
    let mut buf = vec![0u8; 2048];
    loop {
        let len = match socket.recv_from(&mut buf) {
            Ok((len, _)) => len,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                if stop.load(Ordering::Acquire) {
                    return Ok((tally, first));
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        first.get_or_insert_with(Instant::now);
        tally.received += 1;
        let Some(f) = frame::parse(&buf[..len]) else {
            tally.junk += 1;
            continue;
        };
        let Some(key) = keys.get(f.device) else {
            tally.unknown += 1;
            continue;
        };
        let (device, counter) = nonce_fields(f.nonce);
        let reading = f.sealed.len() - frame::TAG;
        match front.try_submit(Message::new(key, f.nonce, f.header, f.sealed)) {
            Ok(ticket) => {
                let p = Pending { ticket, device, counter, sent_ns: f.sent_ns, reading };
                tx.send(p).map_err(|_| std::io::Error::other("completion thread gone"))?;
            }
            // Overloaded: drop the frame rather than let the socket's queue go stale.
            Err(r) if r.is_full() => tally.shed += 1,
            Err(r) => return Err(std::io::Error::other(r.error)),
        }
    }
}

/// The completion side: in order, one per submitted frame. Returns its
/// counts and when the last completion came.
fn complete(
    front: &Stream,
    rx: &mpsc::Receiver<Pending>,
    reading_done: &AtomicBool,
    epoch: Instant,
    tamper_every: u64,
) -> (Tally, Option<Instant>) {
    let mut tally = Tally::default();
    let mut last = None;
    loop {
        let Some(c) = front.recv_timeout(Duration::from_millis(5)) else {
            if reading_done.load(Ordering::Acquire) && front.in_flight() == 0 {
                return (tally, last);
            }
            continue;
        };
        let now_ns = epoch.elapsed().as_nanos() as u64;
        last = Some(Instant::now());
        // Submitted before its completion could come: its record is sent or on its way.
        let Ok(p) = rx.recv() else { return (tally, last) };
        assert_eq!(p.ticket, c.ticket(), "completions in submission order");
        let altered = frame::tampering(p.device, p.counter, tamper_every).is_some();
        match c.bytes() {
            Ok(plain) => {
                tally.opened += 1;
                tally.latency_ns.push(now_ns.saturating_sub(p.sent_ns));
                let want = super::loadgen::reading(p.device, p.counter, p.reading);
                if altered || plain != want.as_bytes() {
                    tally.tampered_opened += 1;
                }
            }
            Err(StreamError::Message(MessageError::Forged)) => {
                tally.forged += 1;
                if !altered {
                    tally.authentic_failed += 1;
                }
            }
            Err(_) => {
                tally.engine_failed += 1;
                if !altered {
                    tally.authentic_failed += 1;
                }
            }
        }
    }
}
