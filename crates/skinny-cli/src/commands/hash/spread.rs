//! `skinny hash` of several files: the files spread over worker threads, the
//! results handed on in the order the files were given.
//!
//! Workers take the next file from a shared counter, so a large file holds up
//! one worker and not the others; the calling thread hands each result on as
//! soon as it and every earlier one are in, so output starts before the last
//! file is done and its order never depends on timing. Stdin (`-`) is read on
//! the calling thread when its turn comes: it is one stream, and its lock
//! belongs there.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// What one file gave: its digest, or why it could not be read.
pub type FileDigest = io::Result<[u8; 32]>;

/// Worker threads for `paths` when `asked` (default: every core this process
/// may use), never more than the files that are not stdin.
pub fn workers_for(paths: &[PathBuf], asked: Option<usize>) -> usize {
    let files = paths.iter().filter(|p| !is_stdin(p)).count();
    let threads = asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get));
    threads.min(files)
}

fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Calls `each` with every path and its digest, in the order of `paths`,
/// the digests of files other than stdin made on `workers` threads (none
/// started for fewer than 2). Stops at the first error `each` returns (the
/// workers finish the file they are on and start no other) and returns it.
pub fn in_order<E>(
    paths: &[PathBuf],
    workers: usize,
    digest: impl Fn(&Path) -> FileDigest + Sync,
    mut each: impl FnMut(&Path, FileDigest) -> Result<(), E>,
) -> Result<(), E> {
    if workers < 2 {
        return paths.iter().try_for_each(|path| each(path, digest(path)));
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (done, results) = mpsc::channel::<(usize, FileDigest)>();
        for _ in 0..workers {
            let done = done.clone();
            let (next, stop, digest) = (&next, &stop, &digest);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = paths.get(i) else { break };
                    // A closed receiver means the caller stopped: so do we.
                    if !is_stdin(path) && done.send((i, digest(path))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Results that came in ahead of their turn, by index.
        let mut early: Vec<Option<FileDigest>> = (0..paths.len()).map(|_| None).collect();
        let outcome = paths.iter().enumerate().try_for_each(|(i, path)| {
            let result = if is_stdin(path) {
                digest(path)
            } else {
                loop {
                    if let Some(r) = early[i].take() {
                        break r;
                    }
                    // Every worker ends only after sending what it took, so
                    // all senders gone with this one missing is a bug.
                    let (j, r) = results.recv().expect("a hash worker stopped before its file was done");
                    early[j] = Some(r);
                }
            };
            each(path, result)
        });
        stop.store(true, Ordering::Relaxed);
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Paths "0".."n", each digest its number, later ones finishing first.
    fn numbered(n: usize) -> Vec<PathBuf> {
        (0..n).map(|i| PathBuf::from(i.to_string())).collect()
    }

    fn slow_digest(n: usize) -> impl Fn(&Path) -> FileDigest + Sync {
        move |p: &Path| {
            let i: usize = p.to_str().and_then(|s| s.parse().ok()).expect("a number");
            std::thread::sleep(Duration::from_millis((n - i) as u64));
            if i % 5 == 3 {
                return Err(io::Error::other(format!("unreadable {i}")));
            }
            Ok([i as u8; 32])
        }
    }

    #[test]
    fn results_come_in_argument_order_whatever_finishes_first() {
        let n = 24;
        for workers in [1, 2, 5, 40] {
            let mut seen = Vec::new();
            let r: Result<(), ()> = in_order(&numbered(n), workers, slow_digest(n), |path, d| {
                seen.push((path.to_path_buf(), d.map(|d| d[0]).map_err(|e| e.to_string())));
                Ok(())
            });
            assert_eq!(r, Ok(()));
            let want: Vec<_> = (0..n)
                .map(|i| {
                    let d = if i % 5 == 3 { Err(format!("unreadable {i}")) } else { Ok(i as u8) };
                    (PathBuf::from(i.to_string()), d)
                })
                .collect();
            assert_eq!(seen, want, "{workers} workers");
        }
    }

    #[test]
    fn an_error_from_each_stops_the_run_and_is_returned() {
        let mut calls = 0;
        let r = in_order(&numbered(30), 4, slow_digest(30), |_, _| {
            calls += 1;
            if calls == 4 {
                Err("stop")
            } else {
                Ok(())
            }
        });
        assert_eq!((r, calls), (Err("stop"), 4));
    }

    #[test]
    fn workers_are_never_more_than_the_files_besides_stdin() {
        let paths: Vec<PathBuf> = ["a", "-", "b", "-"].iter().map(PathBuf::from).collect();
        assert_eq!(workers_for(&paths, Some(8)), 2);
        assert_eq!(workers_for(&paths, Some(1)), 1);
        assert_eq!(workers_for(&[PathBuf::from("-")], None), 0);
    }
}
