//! Per-block tweakeys on the bitsliced paths against the specification code, one
//! key schedule per block: every variant, both directions, the portable path and
//! (where the CPU has them, else a line on stderr says so) AVX2 and AVX-512, reduced round counts odd and even up to the full
//! count, and lengths around the path's batch. Every block gets its own random
//! tweakey, so a block matched with a neighbour's tweakey (or a schedule step
//! applied to the wrong half) shows up as a mismatch.

use skinny::hazmat::bitsliced::{Direction, Path, PerBlockTweakeys};
use skinny::{InvalidRounds, Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

const ROUNDS: [usize; 6] = [1, 2, 3, 7, 16, 17];

/// Block counts for a batch of `b`: empty, one, around one batch, several with a tail.
fn lengths(b: usize) -> [usize; 6] {
    [0, 1, b - 1, b, b + 1, 3 * b + 5]
}

/// Each block through its own `Skinny::with_rounds`.
fn spec(v: Variant, rounds: usize, dir: Direction, data: &[u8], tweakeys: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    for (block, tk) in out.chunks_exact_mut(v.block_bytes()).zip(tweakeys.chunks_exact(v.tweakey_bytes())) {
        let c = Skinny::with_rounds(v, tk, rounds).expect("valid parameters");
        match dir {
            Direction::Encrypt => c.encrypt_block(block),
            Direction::Decrypt => c.decrypt_block(block),
        }
    }
    out
}

fn check_path(path: Path, seed: u64) {
    let mut rng = Rng(seed);
    for v in Variant::ALL {
        let mut counts = ROUNDS.to_vec();
        counts.push(v.rounds());
        for rounds in counts {
            let pbt = PerBlockTweakeys::new(v, rounds).expect("rounds in range").on_path(path).expect("path available");
            assert_eq!((pbt.variant(), pbt.rounds(), pbt.path()), (v, rounds, path));
            for blocks in lengths(path.batch_blocks()) {
                let data = rng.bytes(blocks * v.block_bytes());
                let tweakeys = rng.bytes(blocks * v.tweakey_bytes());
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let mut got = data.clone();
                    pbt.crypt(dir, &mut got, &tweakeys);
                    let want = spec(v, rounds, dir, &data, &tweakeys);
                    assert_eq!(got, want, "{v} {path} {rounds} rounds {dir:?} {blocks} blocks");
                }
                let mut round_trip = data.clone();
                pbt.encrypt(&mut round_trip, &tweakeys);
                pbt.decrypt(&mut round_trip, &tweakeys);
                assert_eq!(round_trip, data, "{v} {path} {rounds} rounds, {blocks} blocks there and back");
            }
        }
    }
}

#[test]
fn portable_path_matches_the_specification() {
    check_path(Path::PortableU64, 1);
}

fn check_path_where_available(path: Path, seed: u64) {
    if !path.is_available() {
        // Nothing to compare on this CPU; the refusal itself is checked below.
        eprintln!("SKIPPED: this CPU cannot run the {path} path; per-block tweakeys not checked on it");
        return;
    }
    eprintln!("the {path} path runs on this CPU: checking per-block tweakeys on it");
    check_path(path, seed);
}

#[test]
fn avx2_path_matches_the_specification() {
    check_path_where_available(Path::Avx2, 2);
}

#[test]
fn avx512_path_matches_the_specification() {
    check_path_where_available(Path::Avx512, 3);
}

#[test]
fn the_best_path_is_the_default() {
    let pbt = PerBlockTweakeys::new(Variant::Skinny128_256, 48).expect("full rounds");
    assert_eq!(pbt.path(), Path::best());
}

#[test]
fn unavailable_paths_and_bad_round_counts_are_refused() {
    for v in Variant::ALL {
        assert_eq!(PerBlockTweakeys::new(v, 0), Err(InvalidRounds { variant: v, got: 0 }));
        let over = v.rounds() + 1;
        assert_eq!(PerBlockTweakeys::new(v, over), Err(InvalidRounds { variant: v, got: over }));
    }
    let pbt = PerBlockTweakeys::new(Variant::Skinny64_64, 32).expect("full rounds");
    for path in Path::ALL {
        assert_eq!(pbt.on_path(path).is_ok(), path.is_available(), "{path}");
    }
}

#[test]
#[should_panic(expected = "one tweakey per block")]
fn a_tweakey_buffer_of_the_wrong_length_panics() {
    let pbt = PerBlockTweakeys::new(Variant::Skinny128_256, 48).expect("full rounds");
    let mut data = [0u8; 32];
    pbt.encrypt(&mut data, &[0u8; 32]);
}

#[test]
#[should_panic(expected = "whole blocks")]
fn partial_blocks_panic() {
    let pbt = PerBlockTweakeys::new(Variant::Skinny64_64, 32).expect("full rounds");
    let mut data = [0u8; 12];
    pbt.encrypt(&mut data, &[0u8; 8]);
}
