//! `stream::pipe` on the execution layer's pipeline: which side a failure is
//! blamed on, what is written before it, borrowed readers and writers, and no
//! progress callback at all.

use skinny::{Skinny, Variant};
use skinny_bulk::mode::{Direction, Mode};
use skinny_bulk::stream::{self, PipeOptions, StreamError};
use skinny_bulk::Error;
use skinny_test_support::run::{cpu_serial, processor, run};
use std::io::{self, Read, Write};

fn cipher() -> Skinny {
    Skinny::new(Variant::Skinny128_256, &[4u8; 32]).unwrap()
}

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 13 + i / 97) as u8).collect()
}

/// Small pieces, so that a message is many windows.
fn small() -> PipeOptions {
    PipeOptions { chunk_bytes: Some(64) }
}

/// Gives `good` bytes, then fails.
struct FailingReader {
    left: usize,
}

impl Read for FailingReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        let n = buf.len().min(self.left);
        buf[..n].fill(7);
        self.left -= n;
        Ok(n)
    }
}

/// Takes `room` bytes, then fails.
#[derive(Debug)]
struct FullWriter {
    room: usize,
    got: Vec<u8>,
}

impl Write for FullWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.room == 0 {
            return Err(io::Error::new(io::ErrorKind::StorageFull, "no room"));
        }
        let n = buf.len().min(self.room);
        self.got.extend_from_slice(&buf[..n]);
        self.room -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn borrowed_ends_and_no_progress_callback() {
    let c = cipher();
    let be = cpu_serial();
    let input = data(1000);
    let want = run(be.as_ref(), &c, Mode::Ctr, Direction::Encrypt, Some(&[1; 16]), false, &input, &[]).unwrap();
    let p = processor(be.as_ref(), &c, Mode::Ctr, Direction::Encrypt, Some(&[1; 16]), false).unwrap();
    let mut out = Vec::new();
    // A borrowed slice in and a borrowed Vec out: the threads are scoped.
    let report = stream::pipe(p, &input[..], &mut out, &small(), None).unwrap();
    assert_eq!(report.bytes, 1000);
    assert_eq!(report.engine.as_deref(), Some("cpu-serial"));
    drop(report);
    assert_eq!(out, want);
}

#[test]
fn a_read_error_is_the_reader_s_and_a_write_error_the_writer_s() {
    let c = cipher();
    let be = cpu_serial();
    let p = processor(be.as_ref(), &c, Mode::Ecb, Direction::Encrypt, None, true).unwrap();
    let e = stream::pipe(p, FailingReader { left: 300 }, Vec::new(), &small(), None).unwrap_err();
    assert!(matches!(&e, StreamError::Read(io) if io.to_string() == "disk on fire"), "{e}");
    assert!(e.to_string().starts_with("cannot read input: "), "{e}");

    let p = processor(be.as_ref(), &c, Mode::Ecb, Direction::Encrypt, None, true).unwrap();
    let e = stream::pipe(p, &data(1000)[..], FullWriter { room: 100, got: Vec::new() }, &small(), None).unwrap_err();
    assert!(matches!(&e, StreamError::Write(io) if io.kind() == io::ErrorKind::StorageFull), "{e}");
    assert!(e.to_string().starts_with("cannot write output: "), "{e}");
}

#[test]
fn a_cipher_error_stops_the_run_after_what_came_before_it() {
    // A wrong key: every piece decrypts, the last one fails its padding check
    // and is never written; all the pieces before it are.
    let c = cipher();
    let be = cpu_serial();
    let input = data(64 * 5 + 20);
    let ct = run(be.as_ref(), &c, Mode::Ecb, Direction::Encrypt, None, true, &input, &[]).unwrap();
    let wrong = Skinny::new(Variant::Skinny128_256, &[5u8; 32]).unwrap();
    let plain = run(be.as_ref(), &wrong, Mode::Ecb, Direction::Decrypt, None, false, &ct, &[]).unwrap();
    let p = processor(be.as_ref(), &wrong, Mode::Ecb, Direction::Decrypt, None, true).unwrap();
    let mut out = Vec::new();
    let mut progressed = 0u64;
    let e = stream::pipe(p, &ct[..], &mut out, &small(), Some(&mut |n| progressed += n)).unwrap_err();
    if !matches!(e, StreamError::Cipher(Error::BadPadding)) {
        // A wrong key may unpad by chance (1 in 256 or so); this one does not.
        panic!("{e}");
    }
    // 352 bytes: pieces of 64 at 0..320 and 32 at 320; the last window holds
    // the piece at 256 and the short one read after it.
    assert_eq!(ct.len(), 352);
    assert_eq!(out, plain[..320], "the pieces before the failing one are written");
    assert_eq!(progressed, 256, "progress counts the windows before the failing one");
}

#[test]
fn every_length_around_the_piece_size_round_trips() {
    let c = cipher();
    let be = cpu_serial();
    for len in [0, 1, 15, 16, 63, 64, 65, 127, 128, 129, 64 * 7] {
        let input = data(len);
        for mode in [Mode::Ecb, Mode::Cbc, Mode::Ctr] {
            let iv = mode.needs_iv().then_some(&[3u8; 16][..]);
            let want = run(be.as_ref(), &c, mode, Direction::Encrypt, iv, true, &input, &[]).unwrap();
            let p = processor(be.as_ref(), &c, mode, Direction::Encrypt, iv, true).unwrap();
            let got = stream::pipe(p, &input[..], Vec::new(), &small(), None).unwrap().writer;
            assert_eq!(got, want, "{mode} encrypt {len}");
            let p = processor(be.as_ref(), &c, mode, Direction::Decrypt, iv, true).unwrap();
            let back = stream::pipe(p, &got[..], Vec::new(), &small(), None).unwrap().writer;
            assert_eq!(back, input, "{mode} decrypt {len}");
        }
    }
}
