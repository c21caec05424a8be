//! `single::encrypt_lanes`: up to four blocks under one whole tweakey, the
//! schedule run in the rounds, on every path this CPU has, against the
//! specification code block by block; every tweakey size, round count and
//! number of blocks; bad calls refused with the blocks untouched.

use skinny::hazmat::single::{self, LanesError, Path, PathUnavailable, MAX_LANES};
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

#[test]
fn every_path_matches_the_specification() {
    let mut rng = Rng(0x1a4e_5000);
    for path in Path::ALL.into_iter().filter(|p| p.is_available()) {
        for v in [Variant::Skinny128_128, Variant::Skinny128_256, Variant::Skinny128_384] {
            for rounds in 1..=v.rounds() {
                for n in 0..=MAX_LANES {
                    let tweakey = rng.bytes(v.tweakey_bytes());
                    let c = Skinny::with_rounds(v, &tweakey, rounds).expect("valid setup");
                    let plain: Vec<[u8; 16]> = (0..n).map(|_| rng.bytes(16).try_into().expect("16 bytes")).collect();
                    let mut got = plain.clone();
                    single::encrypt_lanes_with(path, &tweakey, rounds, &mut got).expect("a valid call");
                    for (i, (p, g)) in plain.iter().zip(&got).enumerate() {
                        let mut want = *p;
                        spec::encrypt_block(v.cell_width(), round_tweakeys(&c), &mut want);
                        assert_eq!(*g, want, "{v} {} rounds {rounds}, {n} blocks, block {i}", path.name());
                    }
                }
            }
        }
    }
}

#[test]
fn the_default_path_is_the_specification_too() {
    let tweakey = [0x5au8; 48];
    let c = Skinny::with_rounds(Variant::Skinny128_384, &tweakey, 40).expect("valid setup");
    let mut blocks = [[1u8; 16], [2; 16], [3; 16]];
    let plain = blocks;
    single::encrypt_lanes(&tweakey, 40, &mut blocks).expect("a valid call");
    for (p, g) in plain.iter().zip(&blocks) {
        let mut want = *p;
        spec::encrypt_block(spec::CellWidth::Byte, round_tweakeys(&c), &mut want);
        assert_eq!(*g, want);
    }
}

#[test]
fn bad_calls_are_refused_and_touch_nothing() {
    let mut blocks = [[7u8; 16]; MAX_LANES + 1];
    assert_eq!(single::encrypt_lanes(&[0; 20], 10, &mut blocks[..1]), Err(LanesError::TweakeyLength(20)));
    assert_eq!(single::encrypt_lanes(&[0; 64], 10, &mut blocks[..1]), Err(LanesError::TweakeyLength(64)));
    assert_eq!(single::encrypt_lanes(&[0; 16], 10, &mut blocks), Err(LanesError::Blocks(MAX_LANES + 1)));
    assert_eq!(single::encrypt_lanes(&[0; 16], 0, &mut blocks[..1]), Err(LanesError::Rounds(0)));
    assert_eq!(single::encrypt_lanes(&[0; 16], 41, &mut blocks[..1]), Err(LanesError::Rounds(41)));
    assert_eq!(single::encrypt_lanes(&[0; 32], 49, &mut blocks[..1]), Err(LanesError::Rounds(49)));
    for path in Path::ALL.into_iter().filter(|p| !p.is_available()) {
        assert_eq!(
            single::encrypt_lanes_with(path, &[0; 48], 40, &mut blocks[..2]),
            Err(LanesError::Path(PathUnavailable(path)))
        );
    }
    assert!(blocks.iter().all(|b| *b == [7u8; 16]), "refused calls left the blocks alone");
}
