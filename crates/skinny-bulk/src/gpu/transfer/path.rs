//! The host paths ([`HostPath`]) and the one rule by which
//! [`HostPath::Auto`] picks among them ([`HostPath::auto`]): a pure function
//! of the operation, the call's size and the kind of host memory.
//!
//! # The figures behind the rule
//!
//! Measured on the H200 machine (one H200 over PCIe, 16 cores, driver
//! 580.159.04) with `examples/datapath.rs` and `skinny bench`. The unit tests
//! hold the rule against these tables.
//!
//! The example used to time each path three times in a row, one path after
//! the other, and the host's memory bandwidth drifted under it: two labels of
//! one and the same code came out 1.44x apart in one run (ECB's `Staged` and
//! `Auto` at 4 GiB, both staging), 1.51x and 0.56x in others (CTR's, when
//! `Auto` staged CTR too). So the first table takes, for each path, the median
//! of every run's figure for it (the runs and their logs: docs/h200-runs.md,
//! docs/h200-datapath/, docs/h200-paper-side/; a row printed as `Auto` counts
//! for the path `Auto` took in that run), and the second is one run with the
//! paths taking turns, each round in another order, so that a drift falls on
//! every path alike (docs/h200-datapath/interleaved-datapath.log, its
//! `datapath 4096` call).
//!
//! Pageable memory, SKINNY-128-256, bitsliced kernels, in place, GB/s, the
//! medians of the recorded runs:
//!
//! | call | Pageable | Staged | Registered | Keystream | `auto` takes |
//! |---|---|---|---|---|---|
//! | ECB 64 MiB | 4.2 | **9.8** | 7.4 | (staged) | Staged |
//! | ECB 256 MiB | 4.0 | **11.8** | 10.1 | (staged) | Staged |
//! | ECB 1 GiB | 3.6 | **12.1** | 11.2 | (staged) | Staged |
//! | ECB 4 GiB | 3.9 | **14.9** | 11.8 | (staged) | Staged |
//! | CTR 64 MiB | 4.5 | 9.3 | 7.7 | **15.1** | Keystream |
//! | CTR 256 MiB | 4.4 | 12.5 | 10.4 | **18.4** | Keystream |
//! | CTR 1 GiB | 4.3 | 12.6 | 11.6 | **20.0** | Keystream |
//! | CTR 4 GiB | 4.6 | 15.8 | 11.7 | **21.4** | Keystream |
//!
//! The same with the paths taking turns, one run, GB/s (`auto` as measured):
//!
//! | call | Pageable | Staged | Registered | Keystream | `auto` |
//! |---|---|---|---|---|---|
//! | ECB 64 MiB | 4.2 | 10.6 | 7.6 | | 10.7 (Staged) |
//! | ECB 256 MiB | 5.2 | 13.6 | 10.7 | | 12.5 (Staged) |
//! | ECB 1 GiB | 4.2 | 15.7 | 12.0 | | 16.2 (Staged) |
//! | ECB 4 GiB | 4.3 | 15.5 | 12.8 | | 15.5 (Staged) |
//! | CTR 64 MiB | 5.0 | 10.5 | 7.5 | 18.9 | 19.1 (Keystream) |
//! | CTR 256 MiB | 4.3 | 12.3 | 11.3 | 20.9 | 21.0 (Keystream) |
//! | CTR 1 GiB | 5.1 | 15.7 | 12.1 | 22.6 | 22.7 (Keystream) |
//! | CTR 4 GiB | 4.2 | 14.4 | 12.3 | 21.7 | 22.8 (Keystream) |
//!
//! Smaller calls, end to end through the `gpu` backend (bitsliced; five
//! repeats), ms, staging against plain copies: ECB 4 MiB 0.977 / 0.966,
//! 8 MiB 1.626 / 1.739, 16 MiB 3.125 / 3.242, 32 MiB 3.640 / 6.724; CTR
//! (staged) 0.908 / 0.911, 1.601 / 1.598, 3.119 / 3.525, 3.708 / 6.602.
//! Below 4 MiB both are the plain path. The paper's T-table kernel, ECB,
//! staged / plain: 4 MiB 5.35 / 5.60, 8 MiB 10.61 / 10.90, 16 MiB 19.75 /
//! 21.68, 32 MiB 37.31 / 42.87, 64 MiB 74.28 / 89.07 ms.
//!
//! Page-locked memory ([`Gpu::alloc_host`](skinny_cuda::Gpu::alloc_host)) goes
//! [`HostPath::Direct`]: 37-38 GB/s at 64 MiB, 44-48 GB/s at 1-4 GiB, against
//! a link of 55 GB/s to the device and 51 GB/s back.
//!
//! Why these: ECB and the chained decryptions need the data on the device, so
//! the choice is between copying it into pinned slots on host threads
//! (staged: 6 bytes of host memory traffic a byte, overlapped with the device)
//! and page-locking it in place (registered: locking and unlocking 1 GiB took
//! 54-82 ms on that machine, more than the copies). CTR sends nothing: the
//! keystream path moves 4 bytes of host memory a byte, and host memory
//! bandwidth is what limits pageable calls there. At 4 MiB staging and plain
//! copies were level; below it there is little to overlap, and the plain path
//! stays.

use crate::gpu::kernels::Op;

/// How [`GpuCipher::run`](crate::gpu::GpuCipher::run) moves host data to and from
/// the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum HostPath {
    /// The fastest for the operation, the size and the memory, by one rule
    /// ([`HostPath::auto`]): memory that is page-locked already
    /// ([`Gpu::alloc_host`](skinny_cuda::Gpu::alloc_host)) goes
    /// [`HostPath::Direct`]; pageable memory goes [`HostPath::Keystream`]
    /// (CTR) or [`HostPath::Staged`] (the others) from 4 MiB on, and
    /// [`HostPath::Pageable`] below.
    #[default]
    Auto,
    /// Plain copies from and to the caller's (pageable) memory, one piece at a
    /// time: the simplest path, and the paper's.
    Pageable,
    /// Through two slots of pinned staging memory, host copies overlapped with
    /// the device's work.
    Staged,
    /// The caller's memory page-locked in place (`cuMemHostRegister`) for the
    /// call, piece by piece on worker threads, and pieces over several streams
    /// copied straight to and from it: no host copy at all. On the H200 machine
    /// page-locking runs at about 16 GB/s and makes this slower than
    /// [`HostPath::Staged`] (docs/data-path.md); it may pay where page-locking
    /// is cheaper.
    Registered,
    /// CTR only (other operations go [`HostPath::Staged`]): the GPU makes the
    /// keystream (the counters' encryptions, no data sent to it), copies it
    /// into two slots of pinned memory in turn, and host threads XOR it into
    /// the caller's memory while the GPU makes the next piece. Host memory
    /// moves 4 bytes per byte (the keystream's copy, then the data read, the
    /// keystream read and the data written) against staging's 6 (two host
    /// copies of 2 each, the two device copies 1 each); host memory bandwidth
    /// is what limits pageable calls on the H200 machine. What [`HostPath::Auto`]
    /// takes for CTR on pageable memory.
    Keystream,
    /// Straight from and to memory that is page-locked already: pieces over
    /// several streams as copy in, kernel, copy out, at the link's speed, with
    /// no host copy and no locking. What [`HostPath::Auto`] takes for memory
    /// from [`Gpu::alloc_host`](skinny_cuda::Gpu::alloc_host) (or pinned by the
    /// caller). On pageable memory the result is the same, but the driver
    /// copies each piece synchronously.
    Direct,
}

/// Where the caller's bytes lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HostMemory {
    /// Ordinary memory: the device reaches it only through pinned memory (the
    /// driver's, or the staging slots).
    Pageable,
    /// Page-locked memory the driver knows: the device's copy engines reach
    /// it directly.
    PageLocked,
}

/// Calls from this size on leave the plain path: pageable memory through the
/// slots, page-locked memory straight. Below it both kinds of memory go
/// [`HostPath::Pageable`], so the memory's kind is not asked for.
pub(crate) const OVERLAP_MIN_BYTES: usize = 4 << 20;

impl HostPath {
    /// The path [`HostPath::Auto`] takes for `op` over `len` bytes of
    /// `memory`, on a cipher that sends at most `piece` bytes to the device at
    /// once (64 MiB unless the GPU is nearly full or
    /// [`GpuCipher::set_piece_bytes`](crate::gpu::GpuCipher::set_piece_bytes) set
    /// less): page-locked memory from 4 MiB on goes [`HostPath::Direct`];
    /// pageable memory from 4 MiB on, or longer than one piece, goes
    /// [`HostPath::Keystream`] for CTR and [`HostPath::Staged`] for the others;
    /// the rest [`HostPath::Pageable`]. The figures behind it are in this
    /// module's documentation. Never [`HostPath::Auto`].
    pub fn auto(op: Op, len: usize, memory: HostMemory, piece: usize) -> HostPath {
        let overlapped = len >= OVERLAP_MIN_BYTES.min(piece.saturating_add(1));
        match memory {
            HostMemory::PageLocked if len >= OVERLAP_MIN_BYTES => HostPath::Direct,
            _ if overlapped && op == Op::Ctr => HostPath::Keystream,
            _ if overlapped => HostPath::Staged,
            _ => HostPath::Pageable,
        }
    }

    /// Whether [`HostPath::auto`] can tell page-locked from pageable memory
    /// for a call of `len` bytes: below [`OVERLAP_MIN_BYTES`] both go one way,
    /// and asking the driver costs a few microseconds a call.
    pub(crate) fn memory_matters(len: usize) -> bool {
        len >= OVERLAP_MIN_BYTES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;
    const PIECE: usize = 64 * MIB;

    /// The pageable figures of the module's table, GB/s, in the order
    /// Pageable, Staged, Registered, Keystream (None: not a path of its own).
    const PAGEABLE: [(Op, usize, [Option<f64>; 4]); 8] = [
        (Op::EcbEncrypt, 64, [Some(4.2), Some(9.8), Some(7.4), None]),
        (Op::EcbEncrypt, 256, [Some(4.0), Some(11.8), Some(10.1), None]),
        (Op::EcbEncrypt, 1024, [Some(3.6), Some(12.1), Some(11.2), None]),
        (Op::EcbEncrypt, 4096, [Some(3.9), Some(14.9), Some(11.8), None]),
        (Op::Ctr, 64, [Some(4.5), Some(9.3), Some(7.7), Some(15.1)]),
        (Op::Ctr, 256, [Some(4.4), Some(12.5), Some(10.4), Some(18.4)]),
        (Op::Ctr, 1024, [Some(4.3), Some(12.6), Some(11.6), Some(20.0)]),
        (Op::Ctr, 4096, [Some(4.6), Some(15.8), Some(11.7), Some(21.4)]),
    ];

    const PATHS: [HostPath; 4] = [HostPath::Pageable, HostPath::Staged, HostPath::Registered, HostPath::Keystream];

    #[test]
    fn auto_is_within_a_tenth_of_the_fastest_recorded_path_for_large_pageable_calls() {
        for (op, mib, figures) in PAGEABLE {
            let best = figures.iter().flatten().copied().fold(0.0, f64::max);
            let chosen = HostPath::auto(op, mib * MIB, HostMemory::Pageable, PIECE);
            let k = PATHS.iter().position(|&p| p == chosen).expect("a path of the table");
            let got = figures[k].expect("auto takes a path that was measured");
            assert!(got >= 0.9 * best, "{op:?} {mib} MiB: auto takes {chosen:?} at {got} GB/s, the best is {best}");
        }
    }

    /// The module's table of one run with the paths taking turns, GB/s:
    /// Pageable, Staged, Registered, Keystream (None for ECB), then `auto`.
    const TURNS: [(Op, usize, [Option<f64>; 4], f64); 8] = [
        (Op::EcbEncrypt, 64, [Some(4.2), Some(10.6), Some(7.6), None], 10.7),
        (Op::EcbEncrypt, 256, [Some(5.2), Some(13.6), Some(10.7), None], 12.5),
        (Op::EcbEncrypt, 1024, [Some(4.2), Some(15.7), Some(12.0), None], 16.2),
        (Op::EcbEncrypt, 4096, [Some(4.3), Some(15.5), Some(12.8), None], 15.5),
        (Op::Ctr, 64, [Some(5.0), Some(10.5), Some(7.5), Some(18.9)], 19.1),
        (Op::Ctr, 256, [Some(4.3), Some(12.3), Some(11.3), Some(20.9)], 21.0),
        (Op::Ctr, 1024, [Some(5.1), Some(15.7), Some(12.1), Some(22.6)], 22.7),
        (Op::Ctr, 4096, [Some(4.2), Some(14.4), Some(12.3), Some(21.7)], 22.8),
    ];

    #[test]
    fn auto_took_the_fastest_path_when_the_paths_took_turns() {
        for (op, mib, figures, auto) in TURNS {
            let best = figures.iter().flatten().copied().fold(0.0, f64::max);
            let chosen = HostPath::auto(op, mib * MIB, HostMemory::Pageable, PIECE);
            let k = PATHS.iter().position(|&p| p == chosen).expect("a path of the table");
            assert_eq!(figures[k].map(|f| f == best), Some(true), "{op:?} {mib} MiB: {chosen:?} is not the fastest");
            assert!(auto >= 0.9 * best, "{op:?} {mib} MiB: auto ran at {auto} GB/s, the best path at {best}");
        }
    }

    /// Milliseconds of auto's path against plain copies for the smaller calls
    /// of the module's documentation (both kernels' figures).
    const SMALL: [(Op, usize, f64, f64); 13] = [
        (Op::EcbEncrypt, 4, 0.977, 0.966),
        (Op::EcbEncrypt, 8, 1.626, 1.739),
        (Op::EcbEncrypt, 16, 3.125, 3.242),
        (Op::EcbEncrypt, 32, 3.640, 6.724),
        (Op::Ctr, 4, 0.908, 0.911),
        (Op::Ctr, 8, 1.601, 1.598),
        (Op::Ctr, 16, 3.119, 3.525),
        (Op::Ctr, 32, 3.708, 6.602),
        (Op::EcbEncrypt, 4, 5.35, 5.60),
        (Op::EcbEncrypt, 8, 10.61, 10.90),
        (Op::EcbEncrypt, 16, 19.75, 21.68),
        (Op::EcbEncrypt, 32, 37.31, 42.87),
        (Op::EcbEncrypt, 64, 74.28, 89.07),
    ];

    #[test]
    fn auto_overlaps_from_4_mib_where_that_was_no_slower_than_plain_copies() {
        for (op, mib, overlapped_ms, plain_ms) in SMALL {
            let chosen = HostPath::auto(op, mib * MIB, HostMemory::Pageable, PIECE);
            assert_ne!(chosen, HostPath::Pageable, "{op:?} {mib} MiB");
            assert!(overlapped_ms <= 1.1 * plain_ms, "{op:?} {mib} MiB: {overlapped_ms} ms against {plain_ms}");
        }
    }

    #[test]
    fn the_rule_by_operation_size_and_memory() {
        use HostMemory::{PageLocked, Pageable};
        for op in Op::ALL {
            let overlapped = if op == Op::Ctr { HostPath::Keystream } else { HostPath::Staged };
            for len in [0, 1, 16, MIB, 4 * MIB - 1] {
                assert_eq!(HostPath::auto(op, len, Pageable, PIECE), HostPath::Pageable, "{op:?} {len}");
                assert_eq!(HostPath::auto(op, len, PageLocked, PIECE), HostPath::Pageable, "{op:?} {len}");
                assert!(!HostPath::memory_matters(len));
            }
            for len in [4 * MIB, 64 * MIB, 4096 * MIB] {
                assert_eq!(HostPath::auto(op, len, Pageable, PIECE), overlapped, "{op:?} {len}");
                assert_eq!(HostPath::auto(op, len, PageLocked, PIECE), HostPath::Direct, "{op:?} {len}");
                assert!(HostPath::memory_matters(len));
            }
            // A call of several pieces smaller than 4 MiB (a nearly full GPU,
            // or a test of the piece boundaries) overlaps its pieces.
            assert_eq!(HostPath::auto(op, 16 * 1024, Pageable, 16 * 1024), HostPath::Pageable);
            assert_eq!(HostPath::auto(op, 16 * 1024 + 1, Pageable, 16 * 1024), overlapped);
            assert_eq!(HostPath::auto(op, 16 * 1024 + 1, PageLocked, 16 * 1024), overlapped);
            assert_eq!(HostPath::auto(op, usize::MAX, Pageable, usize::MAX), overlapped);
        }
    }
}
