//! `Lockstep` (lanes sliced across calls, TK2..TKz per lane, TK1 shared) on
//! every bitsliced path the CPU has, against `Skinny`'s single-block
//! encryption: random per-lane tweakeys, SKINNY-128-384 at 40 rounds (and
//! full and odd reduced counts of both variants), TK1 with and without a
//! second half, several calls in a row on the state kept sliced, and lane
//! counts around the batch.

use skinny::hazmat::bitsliced::{Lockstep, LockstepError, Path};
use skinny::{Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

fn paths() -> Vec<Path> {
    Path::ALL.into_iter().filter(|p| p.is_available()).collect()
}

/// `calls` encryptions of `lanes` lanes, each call with its own TK1, against
/// the single-block cipher.
fn check(path: Path, v: Variant, rounds: usize, lanes: usize, calls: usize, rng: &mut Rng) {
    let ls = Lockstep::new(v, rounds).expect("valid").on_path(path).expect("available");
    assert_eq!(ls.lanes(), path.batch_blocks());
    let t = ls.lane_tweakey_bytes();
    let rest = rng.bytes(t * lanes);
    let mut table = vec![0u8; ls.tweakey_table_bytes()];
    ls.expand(&rest, &mut table);
    let blocks = rng.bytes(16 * lanes);
    let mut state = vec![0u8; ls.state_bytes()];
    ls.slice_in(&blocks, &mut state);
    let mut want = blocks.clone();
    for call in 0..calls {
        let mut tk1 = [0u8; 16];
        tk1.copy_from_slice(&rng.bytes(16));
        // Romulus's shape (second half zero) on every other call.
        if call % 2 == 0 {
            tk1[8..].fill(0);
        }
        ls.encrypt(&mut state, &tk1, &table);
        for (i, block) in want.chunks_exact_mut(16).enumerate() {
            let tweakey = [&tk1[..], &rest[t * i..t * (i + 1)]].concat();
            Skinny::with_rounds(v, &tweakey, rounds).expect("valid").encrypt_block(block);
        }
        let mut got = vec![0u8; 16 * lanes];
        ls.slice_out(&state, &mut got);
        assert_eq!(got, want, "{v} {path} {rounds} rounds, {lanes} lanes, call {call}");
    }
}

#[test]
fn skinny_128_384_at_40_rounds_matches_single_blocks() {
    let mut rng = Rng(0x010c_57e9);
    for path in paths() {
        let b = path.batch_blocks();
        for lanes in [1, b - 1, b] {
            check(path, Variant::Skinny128_384, 40, lanes, 3, &mut rng);
        }
    }
}

#[test]
fn other_round_counts_and_skinny_128_256() {
    let mut rng = Rng(77);
    for path in paths() {
        let b = path.batch_blocks();
        for v in [Variant::Skinny128_384, Variant::Skinny128_256] {
            for rounds in [1, 2, 3, 17, v.rounds()] {
                check(path, v, rounds, b / 2 + 3, 2, &mut rng);
            }
        }
    }
}

/// `calls` encryptions of `lanes` lanes, each lane with its own TK1 (first
/// half random, second half zero) on every call, against the single-block
/// cipher.
fn check_lane_tk1(path: Path, v: Variant, rounds: usize, lanes: usize, calls: usize, rng: &mut Rng) {
    let ls = Lockstep::new(v, rounds).expect("valid").on_path(path).expect("available");
    let t = ls.lane_tweakey_bytes();
    let rest = rng.bytes(t * lanes);
    let mut table = vec![0u8; ls.tweakey_table_bytes()];
    ls.expand(&rest, &mut table);
    let blocks = rng.bytes(16 * lanes);
    let mut state = vec![0u8; ls.state_bytes()];
    ls.slice_in(&blocks, &mut state);
    let mut want = blocks.clone();
    let mut tk1 = vec![0u8; ls.tk1_slices_bytes()];
    for call in 0..calls {
        let halves = rng.bytes(8 * lanes);
        ls.slice_tk1(&halves, &mut tk1);
        ls.encrypt_lane_tk1(&mut state, &tk1, &table);
        for (i, block) in want.chunks_exact_mut(16).enumerate() {
            let tweakey = [&halves[8 * i..8 * i + 8], &[0u8; 8], &rest[t * i..t * (i + 1)]].concat();
            Skinny::with_rounds(v, &tweakey, rounds).expect("valid").encrypt_block(block);
        }
        let mut got = vec![0u8; 16 * lanes];
        ls.slice_out(&state, &mut got);
        assert_eq!(got, want, "{v} {path} {rounds} rounds, {lanes} lanes, call {call}, TK1 per lane");
    }
}

#[test]
fn every_lane_its_own_tk1_matches_single_blocks() {
    let mut rng = Rng(0x7c1_1a9e);
    for path in paths() {
        let b = path.batch_blocks();
        for lanes in [1, b / 2 + 3, b - 1, b] {
            check_lane_tk1(path, Variant::Skinny128_384, 40, lanes, 3, &mut rng);
        }
        for v in [Variant::Skinny128_384, Variant::Skinny128_256] {
            for rounds in [1, 2, 3, 17, 33, v.rounds()] {
                check_lane_tk1(path, v, rounds, b, 2, &mut rng);
            }
        }
    }
}

#[test]
fn slicing_in_and_out_is_the_identity() {
    let mut rng = Rng(5);
    for path in paths() {
        let ls = Lockstep::new(Variant::Skinny128_384, 40).expect("valid").on_path(path).expect("available");
        let b = ls.lanes();
        let blocks = rng.bytes(16 * b);
        let mut state = vec![0u8; ls.state_bytes()];
        ls.slice_in(&blocks, &mut state);
        let mut back = vec![0u8; 16 * b];
        ls.slice_out(&state, &mut back);
        assert_eq!(back, blocks, "{path}");
        // Slice 8c + b is bit b of byte c of every lane: byte 0's bit 0 of
        // all lanes set makes slice 0 all ones and nothing else.
        let ones: Vec<u8> = (0..16 * b).map(|i| u8::from(i % 16 == 0)).collect();
        ls.slice_in(&ones, &mut state);
        let s = ls.slice_bytes();
        assert!(state[..s].iter().all(|&x| x == 0xff), "{path}");
        assert!(state[s..].iter().all(|&x| x == 0), "{path}");
        // Fewer lanes: the rest are zero, and a short slice-out writes only
        // what it is given.
        ls.slice_in(&blocks[..16 * 3], &mut state);
        let mut few = vec![0u8; 16 * 5];
        ls.slice_out(&state, &mut few);
        assert_eq!(few[..48], blocks[..48]);
        assert!(few[48..].iter().all(|&x| x == 0));
    }
}

#[test]
fn refuses_variants_without_lockstep() {
    for v in [Variant::Skinny64_64, Variant::Skinny64_192, Variant::Skinny128_128] {
        assert_eq!(Lockstep::new(v, v.rounds()), Err(LockstepError::Variant(v)));
    }
    assert!(matches!(Lockstep::new(Variant::Skinny128_384, 57), Err(LockstepError::Rounds(_))));
    assert!(matches!(Lockstep::new(Variant::Skinny128_384, 0), Err(LockstepError::Rounds(_))));
}
