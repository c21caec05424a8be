//! A stop ends a run at any size: the parallel walk over up to 2^64 key
//! groups (or batches) ends, not only the work in them.

use skinny::Variant;
use skinny_lab::{Common, Control, Differential};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Runs `exp` on two threads, asks it to stop after 200 ms, and returns the
/// time from the stop to its end (failing if over 10 s) and the outcome's
/// (queries, interrupted).
fn stopped(exp: Differential) -> (Duration, u64, bool) {
    let control = std::sync::Arc::new(Control::new());
    let (tx, rx) = mpsc::channel();
    let c = control.clone();
    std::thread::spawn(move || {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let o = pool.install(|| exp.run_with(&c)).unwrap();
        let _ = tx.send((o.queries, o.interrupted));
    });
    std::thread::sleep(Duration::from_millis(200));
    control.stop();
    let at = Instant::now();
    let (queries, interrupted) = rx.recv_timeout(Duration::from_secs(10)).expect("stopped within 10 s");
    (at.elapsed(), queries, interrupted)
}

fn huge(queries: u64, key_every: u64) -> Differential {
    let mut c = Common::new(Variant::Skinny64_128, 18, queries);
    c.key_every = key_every;
    Differential::new(c, vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0; 8])
}

#[test]
fn a_stop_ends_runs_of_any_size() {
    // Shared-key groups (2.4e15 of them), a key per query (2^50 batches),
    // and one group of 2^63 queries (2^51 batches).
    for exp in [huge(10_000_000_000_000_000_000, 4096), huge(1 << 62, 1), huge(1 << 63, 1 << 63)] {
        let (took, queries, interrupted) = stopped(exp);
        assert!(interrupted && queries > 0, "{queries}");
        assert!(took < Duration::from_secs(3), "{took:?}");
    }
}
