//! `FixedTweakeyPart` against the specification: every variant, every number
//! of fixed TK arrays, round counts from 1 to the full one, random tweakeys and
//! blocks, on its own route and on every path this CPU has; and its refusals.

use skinny::hazmat::single::{FixedTweakeyPart, Path, TweakeyPartError};
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

fn spec_encrypt(c: &Skinny, block: &[u8]) -> Vec<u8> {
    let mut out = block.to_vec();
    spec::encrypt_block(c.variant().cell_width(), round_tweakeys(c), &mut out);
    out
}

#[test]
fn every_split_of_the_tweakey_matches_the_specification() {
    let mut rng = Rng(0xf1ed_0001);
    for v in Variant::ALL {
        let block = v.block_bytes();
        for fixed_arrays in 0..v.tk_count() {
            for rounds in [1, 2, 3, 16, 17, 40.min(v.rounds()), v.rounds() - 1, v.rounds()] {
                let fixed = rng.bytes(fixed_arrays * block);
                let part = FixedTweakeyPart::new(v, &fixed, rounds).expect("valid setup");
                assert_eq!(part.per_call_bytes(), v.tweakey_bytes() - fixed.len());
                for case in 0..4 {
                    let per_call = rng.bytes(part.per_call_bytes());
                    let c = Skinny::with_rounds(v, &[per_call.clone(), fixed.clone()].concat(), rounds).expect("setup");
                    let plain = rng.bytes(block);
                    let want = spec_encrypt(&c, &plain);
                    let what = format!("{v} fixed {fixed_arrays} rounds {rounds} case {case}");
                    let mut got = plain.clone();
                    part.encrypt_block(&per_call, &mut got).expect("lengths");
                    assert_eq!(got, want, "{what}");
                    part.decrypt_block(&per_call, &mut got).expect("lengths");
                    assert_eq!(got, plain, "{what}: decrypt");
                    for path in Path::ALL.into_iter().filter(|p| p.is_available()) {
                        let mut got = plain.clone();
                        part.encrypt_block_with(path, &per_call, &mut got).expect("available");
                        assert_eq!(got, want, "{what} on {}", path.name());
                    }
                }
            }
        }
    }
}

#[test]
fn romulus_shaped_tweak_ones_match_the_specification() {
    // TK1 = 7 counter bytes, a domain byte and zeros: the cells that reach the
    // odd rounds are zero, which the general tests hit only by chance.
    let mut rng = Rng(0xf1ed_0002);
    let fixed = rng.bytes(32);
    let part = FixedTweakeyPart::new(Variant::Skinny128_384, &fixed, 40).expect("setup");
    for case in 0..64 {
        let mut tk1 = rng.bytes(16);
        tk1[8..].fill(0);
        let c = Skinny::with_rounds(Variant::Skinny128_384, &[tk1.clone(), fixed.clone()].concat(), 40).expect("setup");
        let plain = rng.bytes(16);
        let mut got = plain.clone();
        part.encrypt_block(&tk1, &mut got).expect("lengths");
        assert_eq!(got, spec_encrypt(&c, &plain), "case {case}");
    }
}

#[test]
fn bad_lengths_and_rounds_are_refused() {
    let v = Variant::Skinny128_384;
    assert_eq!(
        FixedTweakeyPart::new(v, &[0; 15], 40).err(),
        Some(TweakeyPartError::FixedLength { variant: v, got: 15 })
    );
    assert_eq!(
        FixedTweakeyPart::new(v, &[0; 48], 40).err(),
        Some(TweakeyPartError::FixedLength { variant: v, got: 48 })
    );
    assert!(matches!(FixedTweakeyPart::new(v, &[0; 32], 0), Err(TweakeyPartError::Rounds(_))));
    assert!(matches!(FixedTweakeyPart::new(v, &[0; 32], 57), Err(TweakeyPartError::Rounds(_))));
    let part = FixedTweakeyPart::new(v, &[0; 32], 40).expect("setup");
    let mut block = [5u8; 16];
    assert_eq!(
        part.encrypt_block(&[0; 15], &mut block),
        Err(TweakeyPartError::PerCallLength { expected: 16, got: 15 })
    );
    assert_eq!(
        part.encrypt_block(&[0; 16], &mut block[..8]),
        Err(TweakeyPartError::BlockLength { expected: 16, got: 8 })
    );
    assert_eq!(block, [5u8; 16], "refused calls leave the block alone");
}
