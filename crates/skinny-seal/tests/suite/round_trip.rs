//! Every scheme, at two chunk sizes, for lengths 0, 1, S-1, S, S+1, 3S and a
//! random one, on every CPU path: the whole stream (the one chunk engine's
//! windows), the io adapters (whose bytes are the whole stream's,
//! for the same file key and salts), a seekable opener and ranges.

use crate::common;
use common::*;
use skinny_seal::{hazmat, open, open_range, seal, FileKey, OpenReader, Scheme, SeekableOpener, SymmetricKey};
use std::io::{Read, Seek, SeekFrom, Write};

fn lengths(s: usize, seed: u64) -> Vec<usize> {
    vec![0, 1, s - 1, s, s + 1, 3 * s, (message(1, seed)[0] as usize) * 29 % (4 * s)]
}

fn writer_file(msg: &[u8], options: &skinny_seal::SealOptions, seed: u8, piece: usize) -> Vec<u8> {
    let fk = FileKey::from_bytes([seed; 32]);
    let salt = [seed ^ 0x5a; 16];
    let start = hazmat::header_start(options, &salt);
    let stanza = hazmat::key_stanza_with_salt(&key(), &fk, &start, &[seed ^ 0xa5; 16]);
    let mut w = hazmat::seal_writer_with_salt_and_file_key(Vec::new(), vec![stanza], &fk, salt, options).unwrap();
    for part in msg.chunks(piece) {
        w.write_all(part).unwrap();
    }
    w.finish().unwrap()
}

#[test]
fn every_scheme_every_length_every_path() {
    let k = key();
    for scheme in Scheme::ALL {
        for log2 in [10u8, 11] {
            let s = 1usize << log2;
            for (j, len) in lengths(s, u64::from(scheme.id()) * 31 + u64::from(log2)).into_iter().enumerate() {
                let case = format!("{} 2^{log2} {len} bytes", scheme.name());
                let msg = message(len, j as u64 + 7);
                let opts = seal_opts(scheme, log2);
                let oo = open_opts(scheme);
                let file = sealed_det(&msg, &opts, 3);
                let tag = scheme.tag_len();
                let chunks = len.div_ceil(s).max(1);
                assert_eq!(file.len(), ONE_KEY_HEADER + len + chunks * tag, "{case}");
                // The adapter writes the same bytes, whatever the write sizes.
                assert_eq!(writer_file(&msg, &opts, 3, 7), file, "{case}: writer, 7-byte writes");
                assert_eq!(writer_file(&msg, &opts, 3, s + 3), file, "{case}: writer, S+3-byte writes");
                // Whole stream.
                let mut back = Vec::new();
                let r = open(&file[..], &mut back, &[&k], &oo).expect(&case);
                assert_eq!(back, msg, "{case}: open");
                assert_eq!((r.version, r.chunks, r.plaintext_bytes), (2, chunks as u64, len as u64), "{case}");
                // A random file key and salts open too.
                let mut fresh = Vec::new();
                seal(&msg[..], &mut fresh, &[&k], &opts).expect(&case);
                let mut back = Vec::new();
                open(&fresh[..], &mut back, &[&k], &oo).expect(&case);
                assert_eq!(back, msg, "{case}: random file key");
                // OpenReader.
                let mut back = Vec::new();
                OpenReader::new(&file[..], &[&k], &oo).unwrap().read_to_end(&mut back).expect(&case);
                assert_eq!(back, msg, "{case}: reader");
                // SeekableOpener: all, then a range.
                let mut so = SeekableOpener::new(std::io::Cursor::new(&file), &[&k], &oo).expect(&case);
                assert_eq!(so.len(), len as u64);
                let mut back = Vec::new();
                so.read_to_end(&mut back).unwrap();
                assert_eq!(back, msg, "{case}: seek");
                let (a, b) = (len / 3, len - len / 3);
                so.seek(SeekFrom::Start(a as u64)).unwrap();
                let mut part = vec![0u8; b - a];
                so.read_exact(&mut part).unwrap();
                assert_eq!(part, msg[a..b], "{case}: seek range");
                let mut part = Vec::new();
                let n = open_range(std::io::Cursor::new(&file), &mut part, a as u64, (b - a) as u64, &[&k], &oo)
                    .expect(&case);
                assert_eq!((n, &part[..]), ((b - a) as u64, &msg[a..b]), "{case}: open_range");
            }
        }
    }
}

#[test]
fn a_16_byte_key_and_several_recipients() {
    let k16 = SymmetricKey::from_bytes(&[9u8; 16]).unwrap();
    let (a, b) = (key(), other_key());
    let msg = message(5000, 1);
    let mut file = Vec::new();
    seal(&msg[..], &mut file, &[&a, &k16, &b], &seal_opts(Scheme::M1, 10)).unwrap();
    for id in [&a as &dyn skinny_seal::Identity, &k16, &b] {
        let mut back = Vec::new();
        open(&file[..], &mut back, &[id], &Default::default()).unwrap();
        assert_eq!(back, msg);
    }
    assert!(SymmetricKey::from_bytes(&[0u8; 24]).is_err());
}

#[test]
fn random_access_reads_only_the_chunks_it_needs() {
    let k = key();
    let s = 1024usize;
    let msg = message(10 * s + 100, 2);
    let file = sealed_det(&msg, &seal_opts(Scheme::M1, 10), 5);
    let mut so = SeekableOpener::new(std::io::Cursor::new(&file), &[&k], &Default::default()).unwrap();
    // Making it verifies the last chunk (the length's proof).
    assert_eq!(so.chunks_read(), 1);
    so.seek(SeekFrom::Start(5 * s as u64 + 10)).unwrap();
    let mut one = [0u8; 1];
    so.read_exact(&mut one).unwrap();
    assert_eq!(one[0], msg[5 * s + 10]);
    assert_eq!(so.chunks_read(), 2);
    // Within the same chunk: nothing more read.
    so.seek(SeekFrom::Start(5 * s as u64 + 500)).unwrap();
    so.read_exact(&mut one).unwrap();
    assert_eq!(so.chunks_read(), 2);
    // Across chunks 2 and 3: two more.
    so.seek(SeekFrom::Start(3 * s as u64 - 4)).unwrap();
    let mut eight = [0u8; 8];
    so.read_exact(&mut eight).unwrap();
    assert_eq!(eight, msg[3 * s - 4..3 * s + 4]);
    assert_eq!(so.chunks_read(), 4);
    // From the end.
    so.seek(SeekFrom::End(-3)).unwrap();
    let mut three = [0u8; 3];
    so.read_exact(&mut three).unwrap();
    assert_eq!(three, msg[msg.len() - 3..]);
    assert_eq!(so.chunks_read(), 5);
    // Past the end: nothing.
    so.seek(SeekFrom::Start(msg.len() as u64 + 5)).unwrap();
    assert_eq!(so.read(&mut three).unwrap(), 0);
    assert!(so.seek(SeekFrom::Current(-(msg.len() as i64) - 10)).is_err());
    let mut out = Vec::new();
    assert!(matches!(
        open_range(std::io::Cursor::new(&file), &mut out, msg.len() as u64 - 1, 2, &[&k], &Default::default()),
        Err(skinny_seal::OpenError::OutOfRange { .. })
    ));
    assert!(out.is_empty());
}

#[test]
fn limits_are_checked_up_front() {
    let k = key();
    let mut out = Vec::new();
    let opts = skinny_seal::SealOptions { input_len: Some((1u64 << 42) + 1), ..seal_opts(Scheme::M1, 10) };
    assert!(matches!(seal(&b""[..], &mut out, &[&k], &opts), Err(skinny_seal::SealError::TooLong)));
    assert!(out.is_empty());
    let opts = seal_opts(Scheme::M1, 9);
    assert!(matches!(seal(&b""[..], &mut out, &[&k], &opts), Err(skinny_seal::SealError::InvalidOptions(_))));
    assert!(matches!(seal(&b""[..], &mut out, &[], &Default::default()), Err(skinny_seal::SealError::NoRecipients)));
    // A length given and not met.
    let opts = skinny_seal::SealOptions { input_len: Some(10), ..Default::default() };
    assert!(matches!(seal(&b"12345"[..], Vec::new(), &[&k], &opts), Err(skinny_seal::SealError::LengthChanged { .. })));
    let mut ok = Vec::new();
    seal(&b"1234567890"[..], &mut ok, &[&k], &opts).unwrap();
}

/// A GPU asked for chunks it cannot take (under 16 KiB) is refused before
/// anything is written, the header included (the engine is had first), with
/// or without the `cuda` feature; `auto` takes them on the CPU.
#[test]
fn a_gpu_refused_for_small_chunks_writes_nothing() {
    use skinny_exec::{GpuSelection, Placement, Threads};
    use skinny_seal::{seal_on, EngineError, Job, SealError};
    let k = key();
    let opts = seal_opts(Scheme::M1, 12);
    let gpu = Job::new(Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All });
    let mut out = Vec::new();
    let r = seal_on(&gpu, &b"attack at dawn"[..], &mut out, &[&k], &opts);
    assert!(matches!(r, Err(SealError::Engine(EngineError::GpuChunkSize { chunk_log2: 12 }))), "{r:?}");
    assert!(out.is_empty(), "{} bytes written", out.len());
    let auto = Job::new(Placement::Auto { threads: Threads::All, gpus: GpuSelection::All }).input_len(Some(1 << 40));
    let r = seal_on(&auto, &b"attack at dawn"[..], &mut out, &[&k], &opts).unwrap();
    assert_eq!(r.placed.accelerator_units, 0);
}
