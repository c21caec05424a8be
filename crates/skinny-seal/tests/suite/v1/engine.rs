//! The chunk engine on version-1 files: short reads, thread counts and
//! window sizes change no byte; read and write errors stop either direction
//! in any window; `Job::cpu()` and `auto` on small inputs are the CPU.

use super::format::{
    data, open_into, options, prefix, seal_v1, seal_with, HEADER_LEN, KEY, MAX_CHUNK_LOG2, MIN_CHUNK_LOG2,
};
use skinny_seal::{hazmat, OpenError, OpenOptions, Scheme, SealError, SymmetricKey};

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
