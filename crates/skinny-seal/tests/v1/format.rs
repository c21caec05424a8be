//! The version-1 format: round trips at the chunk boundaries for every member,
//! the documented test vector (recomputed from the AEAD directly), and every
//! kind of damage detected with nothing of a failing chunk released, on the
//! one seal loop and open loop every version and scheme runs on.

use super::members as all_members;
use skinny_aead::aead::{Aead, KeyInit, Payload};
use skinny_aead::SkinnyAeadM1;
use skinny_seal::{hazmat, OpenError, OpenOptions, Scheme, SealError, SealOptions, SealReport, SymmetricKey};

const KEY: [u8; 16] = [0x42; 16];
/// A version-1 header's length.
const HEADER_LEN: usize = 24;
/// Version 1's chunk sizes, as powers of two.
const MIN_CHUNK_LOG2: u8 = 4;
const MAX_CHUNK_LOG2: u8 = 24;

fn data(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
}

/// Version 1's options: a member and a chunk size.
fn options(member: Scheme, chunk_log2: u8) -> SealOptions {
    SealOptions { scheme: member, chunk_log2, ..SealOptions::default() }
}

/// The nonce prefix every file here is sealed with (but where a test names one).
fn prefix(member: Scheme) -> Vec<u8> {
    (0..member.nonce_len() - 5).map(|i| 0x70 + i as u8).collect()
}

fn seal_v1(
    plain: impl std::io::Read + Send,
    out: impl std::io::Write + Send,
    o: &SealOptions,
    prefix: &[u8],
) -> Result<SealReport, SealError> {
    hazmat::seal_v1_with_prefix(plain, out, &KEY, o, prefix)
}

fn seal_with(member: Scheme, log2: u8, plain: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let r = seal_v1(plain, &mut out, &options(member, log2), &prefix(member)).unwrap();
    assert_eq!(r.plaintext_bytes, plain.len() as u64);
    out
}

/// Opens a version-1 file under `key` (naming its member, read from the
/// header, so a 64-bit tag opens too).
fn open_into(
    file: impl std::io::Read + Send,
    out: impl std::io::Write + Send,
    key: &[u8; 16],
    member: Option<Scheme>,
) -> Result<SealReport, OpenError> {
    let k = SymmetricKey::from_bytes(key).unwrap();
    let oo = OpenOptions { allow_short_tag_scheme: member, ..OpenOptions::default() };
    skinny_seal::open(file, out, &[&k], &oo)
}

/// The member a file's header names, if any.
fn member_of(file: &[u8]) -> Option<Scheme> {
    file.get(11).and_then(|&id| Scheme::from_id(id))
}

fn open(file: &[u8], key: &[u8; 16]) -> Result<Vec<u8>, OpenError> {
    let mut out = Vec::new();
    open_into(file, &mut out, key, member_of(file)).map(|_| out)
}

fn expected_len(member: Scheme, log2: u8, n: usize) -> usize {
    let cs = 1usize << log2;
    let chunks = if n == 0 { 1 } else { n.div_ceil(cs) };
    HEADER_LEN + n + chunks * member.tag_len()
}

#[test]
fn round_trips_at_every_boundary_for_every_member() {
    for member in all_members() {
        for log2 in [4u8, 6, 10] {
            let cs = 1usize << log2;
            for n in [0, 1, cs - 1, cs, cs + 1, 3 * cs, 3 * cs + 5, 40 * cs + 3] {
                let plain = data(n);
                let file = seal_with(member, log2, &plain);
                assert_eq!(file.len(), expected_len(member, log2, n), "{member:?} 2^{log2} {n}");
                assert_eq!(open(&file, &KEY).unwrap(), plain, "{member:?} 2^{log2} {n}");
            }
        }
    }
}

#[test]
fn default_options_and_a_large_input() {
    let plain = data((1 << 16) * 5 + 77);
    let file = seal_with(Scheme::M1, skinny_seal::format::DEFAULT_CHUNK_LOG2, &plain);
    assert_eq!(&file[..10], b"SKINNYSEAL");
    assert_eq!(file[12], 16);
    assert_eq!(open(&file, &KEY).unwrap(), plain);
}

#[test]
fn the_prefix_fills_the_header_field() {
    let a = seal_with(Scheme::M1, 4, b"same");
    assert_eq!(a[13..24], prefix(Scheme::M1)[..]);
    // 96-bit members: 7 bytes, then zeros.
    let c = seal_with(Scheme::M5, 4, b"same");
    assert_eq!((&c[13..20], &c[20..24]), (&prefix(Scheme::M5)[..], &[0u8, 0, 0, 0][..]));
}

const VECTOR: &str = "534b494e4e595345414c010104a0a1a2a3a4a5a6a7a8a9aa4376df7bf676be4b\
                      196e22136a382ace0a5a532ec2f6d73a0541369d923dde571e330aea81ec5db6\
                      3583ae3e1eb4e03459591281950341b8";

#[test]
fn the_documented_test_vector() {
    let key: [u8; 16] = core::array::from_fn(|i| i as u8);
    let prefix: [u8; 11] = core::array::from_fn(|i| 0xa0 + i as u8);
    let plain = b"Sealed with SKINNY-AEAD!";
    let options = options(Scheme::M1, 4);
    let mut file = Vec::new();
    hazmat::seal_v1_with_prefix(&plain[..], &mut file, &key, &options, &prefix).unwrap();
    assert_eq!(hex::encode(&file), VECTOR);
    // The same bytes from the AEAD itself, by the format's definition.
    let header = &file[..HEADER_LEN];
    let aead = SkinnyAeadM1::new(&key.into());
    let mut expect = header.to_vec();
    for (i, (part, last)) in [(&plain[..16], 0u8), (&plain[16..], 1u8)].into_iter().enumerate() {
        let mut nonce = [0u8; 16];
        nonce[..11].copy_from_slice(&prefix);
        nonce[11..15].copy_from_slice(&(i as u32).to_be_bytes());
        nonce[15] = last;
        expect.extend(aead.encrypt(&nonce.into(), Payload { msg: part, aad: header }).unwrap());
    }
    assert_eq!(file, expect);
    assert_eq!(open(&file, &key).unwrap(), plain);
    // A prefix of the wrong length is refused.
    let e = hazmat::seal_v1_with_prefix(&plain[..], Vec::new(), &key, &options, &prefix[..7]).unwrap_err();
    assert!(matches!(e, SealError::InvalidOptions(_)), "{e}");
}

/// A file of three chunks of 16 bytes and a last one of 5, for the damage tests.
fn small(member: Scheme) -> (Vec<u8>, Vec<u8>) {
    let plain = data(3 * 16 + 5);
    (seal_with(member, 4, &plain), plain)
}

#[test]
fn every_flipped_byte_is_detected() {
    for member in all_members() {
        let (file, _) = small(member);
        for i in 0..file.len() {
            for bit in [0x01u8, 0x80] {
                let mut bad = file.clone();
                bad[i] ^= bit;
                let mut out = Vec::new();
                let e = open_into(&bad[..], &mut out, &KEY, Some(member)).unwrap_err();
                // A chunk that fails releases nothing of itself.
                let chunk = (i.saturating_sub(HEADER_LEN)) / (16 + member.tag_len());
                assert!(out.len() <= 16 * chunk, "{member:?} byte {i}: {} bytes out, {e}", out.len());
            }
        }
    }
}

#[test]
fn truncation_anywhere_is_detected_and_named_at_boundaries() {
    for member in all_members() {
        let (file, _) = small(member);
        let piece = 16 + member.tag_len();
        for cut in 0..file.len() {
            let e = open(&file[..cut], &KEY).unwrap_err();
            let at_boundary = cut > HEADER_LEN && (cut - HEADER_LEN).is_multiple_of(piece);
            match e {
                OpenError::Truncated { chunks } if at_boundary => {
                    assert_eq!(chunks as usize, (cut - HEADER_LEN) / piece)
                }
                OpenError::NotSealed if cut == 0 => {}
                OpenError::TruncatedHeader if cut < HEADER_LEN => {}
                OpenError::TruncatedInside | OpenError::Authentication { .. } if !at_boundary => {}
                other => panic!("{member:?} cut at {cut}: {other}"),
            }
        }
    }
}

/// A file cut inside a chunk releases every whole chunk before the cut (they
/// verify) and nothing of the cut one, with 1, 3 or 16 threads (windows of
/// different sizes): the output does not depend on how the pieces were
/// grouped. Bytes fewer than a tag after a whole last chunk are data after
/// the end.
#[test]
fn a_cut_inside_a_chunk_releases_exactly_the_whole_chunks_before_it() {
    let member = Scheme::M1;
    let log2 = 4u8;
    let plain = data(300 * 16 + 9);
    let file = seal_with(member, log2, &plain);
    let piece = 16 + member.tag_len();
    for threads in [1, 3, 16] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        for chunk in [0usize, 1, 7, 150, 299] {
            for extra in [1usize, 5, member.tag_len() - 1] {
                let cut = HEADER_LEN + chunk * piece + extra;
                let mut out = Vec::new();
                let e = pool.install(|| open_into(&file[..cut], &mut out, &KEY, None)).unwrap_err();
                assert!(matches!(e, OpenError::TruncatedInside), "{threads} threads, cut at {cut}: {e}");
                assert_eq!(out, plain[..chunk * 16], "{threads} threads, cut in chunk {chunk}");
            }
        }
        let whole = seal_with(member, log2, &plain[..300 * 16]);
        let mut longer = whole.clone();
        longer.extend_from_slice(&[0u8; 3]);
        let mut out = Vec::new();
        let e = pool.install(|| open_into(&longer[..], &mut out, &KEY, None)).unwrap_err();
        assert!(matches!(e, OpenError::TrailingData { chunk: 299 }), "{threads} threads: {e}");
        assert_eq!(out, plain[..299 * 16]);
    }
}

#[test]
fn swapped_spliced_and_appended_chunks_are_detected() {
    for member in all_members() {
        let (file, _) = small(member);
        let piece = 16 + member.tag_len();
        let chunk = |f: &[u8], i: usize| f[HEADER_LEN + i * piece..HEADER_LEN + (i + 1) * piece].to_vec();
        // Two chunks swapped.
        let mut swapped = file[..HEADER_LEN].to_vec();
        for i in [1, 0, 2] {
            swapped.extend(chunk(&file, i));
        }
        swapped.extend(&file[HEADER_LEN + 3 * piece..]);
        assert!(matches!(open(&swapped, &KEY), Err(OpenError::Authentication { chunk: 0 })));
        // A chunk from another file under the same key, same position.
        // (Its own prefix, as every sealed file draws one.)
        let mut other = Vec::new();
        let other_prefix = vec![0xee; member.nonce_len() - 5];
        seal_v1(&data(3 * 16 + 5)[..], &mut other, &options(member, 4), &other_prefix).unwrap();
        let mut spliced = file.clone();
        spliced[HEADER_LEN + piece..HEADER_LEN + 2 * piece].copy_from_slice(&chunk(&other, 1));
        let mut out = Vec::new();
        let r = open_into(&spliced[..], &mut out, &KEY, Some(member));
        assert!(matches!(r, Err(OpenError::Authentication { chunk: 1 })));
        assert!(out.len() <= 16, "{member:?}");
        // Another file's header on this file's chunks.
        let mut reheaded = other[..HEADER_LEN].to_vec();
        reheaded.extend(&file[HEADER_LEN..]);
        assert!(matches!(open(&reheaded, &KEY), Err(OpenError::Authentication { chunk: 0 })));
        // Bytes after the last chunk.
        let mut longer = file.clone();
        longer.extend([0u8; 7]);
        assert!(open(&longer, &KEY).is_err());
        // A whole chunk appended after a full last chunk: named.
        let full = seal_with(member, 4, &data(48));
        let mut appended = full.clone();
        appended.extend(chunk(&full, 0));
        assert!(matches!(open(&appended, &KEY), Err(OpenError::TrailingData { chunk: 2 })), "{member:?}");
        // A dropped middle chunk.
        let mut dropped = file[..HEADER_LEN + piece].to_vec();
        dropped.extend(&file[HEADER_LEN + 2 * piece..]);
        assert!(matches!(open(&dropped, &KEY), Err(OpenError::Authentication { chunk: 1 })));
    }
}

#[test]
fn header_changes_and_wrong_keys_are_detected() {
    let (file, _) = small(Scheme::M1);
    let mut wrong = KEY;
    wrong[15] ^= 1;
    assert!(matches!(open(&file, &wrong), Err(OpenError::Authentication { chunk: 0 })));
    // Another valid member id, chunk size or version (3: version 2 is read
    // as a version-2 header).
    for (at, value) in [(11usize, 3u8), (12, 5), (10, 3), (0, b'X'), (11, 9), (12, 30)] {
        let mut bad = file.clone();
        bad[at] = value;
        let e = open(&bad, &KEY).unwrap_err();
        let ok = match at {
            0 => matches!(e, OpenError::NotSealed),
            10 => matches!(e, OpenError::UnsupportedVersion(3)),
            _ => matches!(e, OpenError::Authentication { .. } | OpenError::BadHeader(_)),
        };
        assert!(ok, "byte {at} = {value}: {e}");
    }
    // A 96-bit member's unused prefix bytes must be zero.
    let (mut m5, _) = small(Scheme::M5);
    m5[23] = 1;
    assert!(matches!(open(&m5, &KEY), Err(OpenError::BadHeader(_))));
    assert!(matches!(open(b"hello", &KEY), Err(OpenError::NotSealed)));
    assert!(matches!(open(b"SKINNY", &KEY), Err(OpenError::TruncatedHeader)));
    assert!(matches!(open(&file[..HEADER_LEN], &KEY), Err(OpenError::TruncatedInside)));
}

#[test]
fn bad_options_are_refused() {
    for log2 in [0u8, 3, 25] {
        let e = seal_v1(&b""[..], Vec::new(), &options(Scheme::M1, log2), &prefix(Scheme::M1));
        assert!(matches!(e, Err(SealError::InvalidOptions(_))));
    }
}

/// A reader that hands out at most a few bytes a call, and is interrupted now
/// and then, as pipes and signals do.
struct Trickle<'a> {
    data: &'a [u8],
    calls: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.calls += 1;
        if self.calls.is_multiple_of(5) {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        let n = (self.calls % 7 + 1).min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn short_reads_change_nothing() {
    let plain = data(16 * 9 + 3);
    let options = options(Scheme::M2, 4);
    let prefix = [9u8; 7];
    let mut whole = Vec::new();
    seal_v1(&plain[..], &mut whole, &options, &prefix).unwrap();
    let mut trickled = Vec::new();
    seal_v1(Trickle { data: &plain, calls: 0 }, &mut trickled, &options, &prefix).unwrap();
    assert_eq!(whole, trickled);
    let mut back = Vec::new();
    open_into(Trickle { data: &whole, calls: 0 }, &mut back, &KEY, None).unwrap();
    assert_eq!(back, plain);
}

#[test]
fn the_bytes_do_not_depend_on_threads_or_window() {
    // Windows of 2, 6 and (16 MiB chunks) 1 chunk: the same file each time.
    let prefix = [3u8; 11];
    for (log2, len) in [(4u8, 16 * 50 + 1), (24, (16 << 20) + 100)] {
        let plain = data(len);
        let options = options(Scheme::M1, log2);
        let mut files = Vec::new();
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut out = Vec::new();
            pool.install(|| seal_v1(&plain[..], &mut out, &options, &prefix)).unwrap();
            let mut back = Vec::new();
            pool.install(|| open_into(&out[..], &mut back, &KEY, None)).unwrap();
            assert!(back == plain, "2^{log2}, {threads} threads");
            files.push(out);
        }
        assert!(files[0] == files[1], "2^{log2}");
        assert_eq!(files[0].len(), HEADER_LEN + len + len.div_ceil(1 << log2) * 16);
    }
}

/// Accepts `room` bytes, then fails every write.
struct FullDisk {
    room: usize,
    got: Vec<u8>,
}

impl std::io::Write for FullDisk {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.room == 0 {
            return Err(std::io::Error::other("no space left"));
        }
        let n = buf.len().min(self.room);
        self.room -= n;
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Yields `good` bytes of `data`, then fails.
struct BadDisk<'a> {
    data: &'a [u8],
    good: usize,
}

impl std::io::Read for BadDisk<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.good == 0 {
            return Err(std::io::Error::other("input/output error"));
        }
        let n = buf.len().min(self.good).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.good -= n;
        Ok(n)
    }
}

#[test]
fn read_and_write_errors_stop_both_directions_in_any_window() {
    // 16-byte chunks: windows of a few chunks, so the errors land in windows
    // well after the first while the three stages are all busy.
    let plain = data(16 * 400 + 9);
    let (options, prefix) = (options(Scheme::M1, 4), prefix(Scheme::M1));
    let file = seal_with(Scheme::M1, 4, &plain);
    for at in [0, 1, 100, 3000, 6000] {
        let mut sink = FullDisk { room: at, got: Vec::new() };
        assert!(matches!(seal_v1(&plain[..], &mut sink, &options, &prefix), Err(SealError::Write(_))), "{at}");
        let mut sink = FullDisk { room: at, got: Vec::new() };
        assert!(matches!(open_into(&file[..], &mut sink, &KEY, None), Err(OpenError::Write(_))), "{at}");
        let source = BadDisk { data: &plain, good: at };
        assert!(matches!(seal_v1(source, Vec::new(), &options, &prefix), Err(SealError::Read(_))), "{at}");
        let source = BadDisk { data: &file, good: at };
        assert!(matches!(open_into(source, Vec::new(), &KEY, None), Err(OpenError::Read(_))), "{at}");
    }
}

#[test]
fn a_failing_chunk_releases_exactly_the_chunks_before_it() {
    let plain = data(16 * 300);
    let file = seal_with(Scheme::M5, 4, &plain);
    let piece = 16 + Scheme::M5.tag_len();
    for bad in [0usize, 1, 37, 150, 299] {
        let mut damaged = file.clone();
        damaged[HEADER_LEN + bad * piece + 3] ^= 0x10;
        let mut out = Vec::new();
        let e = open_into(&damaged[..], &mut out, &KEY, None).unwrap_err();
        assert!(matches!(e, OpenError::Authentication { chunk } if chunk == bad as u64), "{bad}: {e}");
        assert_eq!(out, plain[..16 * bad], "chunk {bad}");
    }
}

/// The engine API on the CPU: `seal_on`/`open_on` with `Job::cpu()` are
/// `seal`/`open`, and the CPU takes every chunk size of the format; `auto`
/// stays on the CPU where the format's rule says a GPU would not serve or pay.
#[test]
fn cpu_engine_is_the_default_path() {
    use skinny_exec::{Placement, Verdict};
    use skinny_seal::{verdict, Job, AUTO_GPU_BYTES, GPU_MIN_CHUNK_LOG2};
    let key = [2u8; 16];
    let msg: Vec<u8> = (0..100_000u32).map(|i| i as u8).collect();
    let prefix = [8u8; 7];
    for chunk_log2 in MIN_CHUNK_LOG2..=MAX_CHUNK_LOG2 {
        let opts = options(Scheme::M2, chunk_log2);
        let small = Job::new(Placement::default()).input_len(Some(msg.len() as u64));
        for job in [Job::cpu(), small] {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            hazmat::seal_v1_with_prefix(&msg[..], &mut a, &key, &opts, &prefix).unwrap();
            let r = hazmat::seal_v1_with_prefix_on(&job, &msg[..], &mut b, &key, &opts, &prefix).unwrap();
            assert_eq!(a, b);
            assert_eq!((r.placed.accelerator_units, r.placed.cpu_units), (0, r.chunks));
            let mut plain = Vec::new();
            let k = SymmetricKey::from_bytes(&key).unwrap();
            skinny_seal::open_on(&job, &a[..], &mut plain, &[&k], &OpenOptions::default()).unwrap();
            assert_eq!(plain, msg);
        }
    }
    assert!(matches!(verdict(GPU_MIN_CHUNK_LOG2 - 1, Some(u64::MAX)), Verdict::Unfit(_)));
    assert!(matches!(verdict(GPU_MIN_CHUNK_LOG2, None), Verdict::NotWorthIt(_)));
    assert!(matches!(verdict(GPU_MIN_CHUNK_LOG2, Some(AUTO_GPU_BYTES - 1)), Verdict::NotWorthIt(_)));
    assert_eq!(verdict(GPU_MIN_CHUNK_LOG2, Some(AUTO_GPU_BYTES)), Verdict::Pays);
}
