//! The bitsliced paths (`skinny::hazmat::bitsliced`): each SIMD path against
//! the portable-u64 one, with one shared tweakey (`Skinny::encrypt_blocks_with`)
//! and with a tweakey per block (`PerBlockTweakeys`), both directions; and each
//! path against the one-block-at-a-time code it replaces for bulk work.

use super::{filled, variant_name, Limit, Runner};
use skinny::hazmat::bitsliced::{Path, PerBlockTweakeys};
use skinny::{Skinny, Variant};
use std::hint::black_box;

/// One cell width each: the 4-bit and 8-bit code are different circuits.
const VARIANTS: [Variant; 2] = [Variant::Skinny64_128, Variant::Skinny128_256];

/// Per-block tweakeys: the 4-bit cells, and SKINNY-128-384 (three TK arrays,
/// the most schedule work; what the many-message engine's lanes run).
const PER_BLOCK_VARIANTS: [Variant; 2] = [Variant::Skinny64_128, Variant::Skinny128_384];

/// Bytes a timed call encrypts: four AVX-512 batches of 16-byte blocks (eight
/// of 8-byte ones), small enough to stay in L2 so that memory does not hide the
/// paths' difference.
const DATA_BYTES: usize = 32 * 1024;

// Thresholds: well under what this code measures (the floors below say
// how much), well over what an intrinsic compiled out of line gives
// (edc130c: AVX2 at 0.07-0.10x portable-u64, per-block tweakeys with three
// TK arrays 0.31-0.35x).
// "Measured": the dev machine (an AMD EPYC VM, family 25 model 1, Zen 3:
// SSSE3, AVX2, no AVX-512), idle and under load; the runs are in
// runs/dev-2026-12-03-speed-guard/.

/// A SIMD path against portable-u64, one shared tweakey.
const SIMD_OVER_PORTABLE: [Limit; 2] = [
    Limit {
        threshold: 1.5,
        floor: "AVX2: 4x the lanes of u64 (256 against 64 blocks a batch) with the same operation count a batch; \
                measured 2.5-4.2x (two speeds, one per process: the AVX2 path is address-sensitive)",
    },
    Limit {
        threshold: 2.0,
        floor: "AVX-512: 8x the lanes of u64, 1.9x fewer operations a batch than AVX2 (vpternlogq); 1.7-2.1x \
                AVX2 on Zen 5 in docs/cpu-bitsliced.md, so about 5-8x u64 expected",
    },
];

/// A path against one block at a time (`Skinny::encrypt_block`, the
/// single-block code's best path, on independent blocks), encryption.
const OVER_ONE_BLOCK: [Limit; 3] = [
    Limit {
        threshold: 1.0,
        floor: "portable-u64: 481 word operations a round for 64 blocks of SKINNY-128 (7.5 a block) against \
                about 30 a round for one block (ssse3-split's vector operations, or the portable path's scalar \
                ones); measured 2.3-2.5x; a batch should never lose to block by block",
    },
    Limit { threshold: 3.0, floor: "AVX2: 256 blocks a batch; measured 6.2-10.0x" },
    Limit { threshold: 4.0, floor: "AVX-512: 512 blocks a batch, about twice AVX2's speed: 12-20x expected" },
];

/// Per-block tweakeys, a SIMD path against portable-u64.
const PER_BLOCK_SIMD_OVER_PORTABLE: [Limit; 2] = [
    Limit {
        threshold: 1.5,
        floor: "AVX2: 4x the lanes of u64, the same operations (rounds and the bitsliced schedule); \
                measured 2.2-3.2x",
    },
    Limit { threshold: 2.0, floor: "AVX-512: 8x the lanes of u64; 1.4-2.0x AVX2 in docs/cpu-bitsliced.md" },
];

/// Per-block tweakeys against what a fresh tweakey per block cost before
/// them: a key schedule and one block (`Skinny::new` + `encrypt_block`), by
/// the path that runs them.
const PER_BLOCK_OVER_SCHEDULE_EACH: [Limit; 3] = [
    Limit {
        threshold: 2.0,
        floor: "portable-u64: the schedule bitsliced with the data, about a third of AVX2's 12-29x",
    },
    Limit {
        threshold: 5.0,
        floor: "AVX2: the schedule bitsliced with the data; measured 12-18x (SKINNY-128-384) and 26-29x \
                (SKINNY-64-128); edc130c put SKINNY-128-384 at 1.9",
    },
    Limit { threshold: 5.0, floor: "AVX-512: as AVX2, 1.4-2.0x faster" },
];

fn simd_index(path: Path) -> Option<usize> {
    match path {
        Path::PortableU64 => None,
        Path::Avx2 => Some(0),
        Path::Avx512 => Some(1),
    }
}

fn path_index(path: Path) -> usize {
    simd_index(path).map_or(0, |i| i + 1)
}

/// The paths this CPU runs; notes the others as skipped.
pub fn available(r: &mut Runner, family: &str) -> Vec<Path> {
    let mut paths = Vec::new();
    for path in Path::ALL {
        if path.is_available() {
            paths.push(path);
        } else {
            r.skip(format!("{family} {path}: not on this CPU"));
        }
    }
    paths
}

pub fn run(r: &mut Runner) {
    r.set_unit("blocks");
    let paths = available(r, "bitsliced");
    for v in VARIANTS {
        shared_key(r, v, &paths);
    }
    for v in PER_BLOCK_VARIANTS {
        per_block(r, v, &paths);
    }
}

fn shared_key(r: &mut Runner, v: Variant, paths: &[Path]) {
    let key = filled(v.tweakey_bytes());
    let cipher = Skinny::new(v, &key).expect("a whole tweakey");
    let bs = v.block_bytes();
    let blocks = (DATA_BYTES / bs) as f64;
    let (mut a, mut b) = (filled(DATA_BYTES), filled(DATA_BYTES));
    let vn = variant_name(v);
    for &path in paths {
        let Some(i) = simd_index(path) else { continue };
        for decrypt in [false, true] {
            let dir = if decrypt { "decrypt" } else { "encrypt" };
            let crypt = |p: Path, data: &mut [u8]| {
                let done =
                    if decrypt { cipher.decrypt_blocks_with(p, data) } else { cipher.encrypt_blocks_with(p, data) };
                done.expect("the path was found available");
            };
            r.ratio(
                format!("bitsliced {path} / portable-u64, {vn} {dir}"),
                SIMD_OVER_PORTABLE[i],
                (&mut || crypt(path, black_box(&mut a)), blocks),
                (&mut || crypt(Path::PortableU64, black_box(&mut b)), blocks),
            );
        }
    }
    for &path in paths {
        let one_block_count = 64usize.min(DATA_BYTES / bs);
        r.ratio(
            format!("bitsliced {path} / one block at a time, {vn} encrypt"),
            OVER_ONE_BLOCK[path_index(path)],
            (
                &mut || cipher.encrypt_blocks_with(path, black_box(&mut a)).expect("the path was found available"),
                blocks,
            ),
            (
                &mut || {
                    for block in black_box(&mut b[..one_block_count * bs]).chunks_exact_mut(bs) {
                        cipher.encrypt_block(block);
                    }
                },
                one_block_count as f64,
            ),
        );
    }
}

fn per_block(r: &mut Runner, v: Variant, paths: &[Path]) {
    let vn = variant_name(v);
    let bs = v.block_bytes();
    let tb = v.tweakey_bytes();
    // Half the shared-key buffer: the tweakeys are up to three times the data.
    let n = DATA_BYTES / 2 / bs;
    let tweakeys = filled(n * tb);
    let (mut a, mut b) = (filled(n * bs), filled(n * bs));
    let engine = |path: Path| {
        PerBlockTweakeys::new(v, v.rounds()).expect("full rounds").on_path(path).expect("the path was found available")
    };
    let portable = engine(Path::PortableU64);
    for &path in paths {
        let Some(i) = simd_index(path) else { continue };
        let fast = engine(path);
        for decrypt in [false, true] {
            let dir = if decrypt { "decrypt" } else { "encrypt" };
            let run = |e: &PerBlockTweakeys, data: &mut [u8]| {
                if decrypt {
                    e.decrypt(data, &tweakeys);
                } else {
                    e.encrypt(data, &tweakeys);
                }
            };
            r.ratio(
                format!("per-block tweakeys {path} / portable-u64, {vn} {dir}"),
                PER_BLOCK_SIMD_OVER_PORTABLE[i],
                (&mut || run(&fast, black_box(&mut a)), n as f64),
                (&mut || run(&portable, black_box(&mut b)), n as f64),
            );
        }
    }
    let best = engine(Path::best());
    let each = 64usize.min(n);
    r.ratio(
        format!("per-block tweakeys {} / key schedule + one block each, {vn} encrypt", best.path()),
        PER_BLOCK_OVER_SCHEDULE_EACH[path_index(best.path())],
        (&mut || best.encrypt(black_box(&mut a), &tweakeys), n as f64),
        (
            &mut || {
                for (block, tk) in black_box(&mut b[..each * bs]).chunks_exact_mut(bs).zip(tweakeys.chunks_exact(tb)) {
                    Skinny::new(v, tk).expect("a whole tweakey").encrypt_block(block);
                }
            },
            each as f64,
        ),
    );
}
