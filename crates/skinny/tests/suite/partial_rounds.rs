//! `hazmat::partial`: rounds `s ..= s + r - 1` on their own, against the
//! specification code: the whole cipher when `s = 1` and `r` is every round,
//! composition (rounds 1..a then a+1..b is rounds 1..b), the tweakey state of
//! round `s` against the master, and every backend of `partial_cipher`.

use skinny::hazmat::partial::{
    advance_tweakey, decrypt_rounds, encrypt_rounds, partial_cipher, rewind_tweakey, PartialRoundsError, TweakeyAt,
};
use skinny::{BitslicedSkinny, Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

#[test]
fn all_rounds_from_round_one_is_the_cipher() {
    let mut rng = Rng(0x9a27_0001);
    for v in Variant::ALL {
        let key = rng.bytes(v.tweakey_bytes());
        let p = rng.bytes(v.block_bytes());
        let mut want = p.clone();
        Skinny::new(v, &key).unwrap().encrypt_block(&mut want);
        for at in [TweakeyAt::Master, TweakeyAt::Start] {
            let mut got = p.clone();
            encrypt_rounds(v, &key, at, 1, v.rounds(), &mut got).unwrap();
            assert_eq!(got, want, "{v} {at:?}");
            decrypt_rounds(v, &key, at, 1, v.rounds(), &mut got).unwrap();
            assert_eq!(got, p, "{v} {at:?}");
        }
    }
}

#[test]
fn rounds_compose() {
    let mut rng = Rng(0x9a27_0002);
    for v in Variant::ALL {
        let key = rng.bytes(v.tweakey_bytes());
        let p = rng.bytes(v.block_bytes());
        let full = v.rounds();
        for (a, b) in [(1, 2), (3, 10), (7, full), (full - 1, full), (16, 33.min(full))] {
            let mut want = p.clone();
            encrypt_rounds(v, &key, TweakeyAt::Master, 1, b, &mut want).unwrap();
            let mut got = p.clone();
            encrypt_rounds(v, &key, TweakeyAt::Master, 1, a, &mut got).unwrap();
            encrypt_rounds(v, &key, TweakeyAt::Master, a + 1, b - a, &mut got).unwrap();
            assert_eq!(got, want, "{v}: 1..{a} then {}..{b}", a + 1);
            // The same with the second part's tweakey given at its start.
            let mut state = key.clone();
            advance_tweakey(v, &mut state, a).unwrap();
            let mut got2 = p.clone();
            encrypt_rounds(v, &key, TweakeyAt::Master, 1, a, &mut got2).unwrap();
            encrypt_rounds(v, &state, TweakeyAt::Start, a + 1, b - a, &mut got2).unwrap();
            assert_eq!(got2, want, "{v}: start state after {a} rounds");
        }
    }
}

#[test]
fn rewinding_undoes_advancing() {
    let mut rng = Rng(0x9a27_0003);
    for v in Variant::ALL {
        let key = rng.bytes(v.tweakey_bytes());
        for steps in [0, 1, 2, 15, 16, 17, 30, 55] {
            let mut k = key.clone();
            advance_tweakey(v, &mut k, steps).unwrap();
            if steps > 0 && steps % 16 != 0 {
                assert_ne!(k, key, "{v} {steps}");
            }
            rewind_tweakey(v, &mut k, steps).unwrap();
            assert_eq!(k, key, "{v} {steps}");
        }
    }
}

#[test]
fn the_start_state_gives_the_master_schedule_from_round_s() {
    // Round s's round tweakey from the master is round 1's from the start state.
    let mut rng = Rng(0x9a27_0004);
    for v in Variant::ALL {
        let key = rng.bytes(v.tweakey_bytes());
        let all = Skinny::new(v, &key).unwrap();
        let master = skinny::hazmat::round_tweakeys(&all).as_cells().to_vec();
        for s in [2, 5, 17, v.rounds()] {
            let mut state = key.clone();
            advance_tweakey(v, &mut state, s - 1).unwrap();
            let c = Skinny::with_rounds(v, &state, v.rounds() - s + 1).unwrap();
            let rtk = skinny::hazmat::round_tweakeys(&c).as_cells().to_vec();
            assert_eq!(rtk[..], master[s - 1..], "{v} round {s}");
        }
    }
}

#[test]
fn every_backend_of_the_partial_cipher_matches_the_specification() {
    let mut rng = Rng(0x9a27_0005);
    for v in Variant::ALL {
        let bs = v.block_bytes();
        let key = rng.bytes(v.tweakey_bytes());
        let data = rng.bytes(300 * bs);
        for (s, r) in [(1, 5), (2, 3), (9, 7), (v.rounds(), 1), (3, v.rounds() - 2)] {
            for at in [TweakeyAt::Master, TweakeyAt::Start] {
                let mut want = data.clone();
                for b in want.chunks_exact_mut(bs) {
                    encrypt_rounds(v, &key, at, s, r, b).unwrap();
                }
                let c = partial_cipher(v, &key, at, s, r).unwrap();
                assert_eq!(c.rounds(), r);
                let mut one = data.clone();
                one.chunks_exact_mut(bs).for_each(|b| c.encrypt_block(b));
                assert_eq!(one, want, "{v} {s}+{r} {at:?}: encrypt_block");
                let mut many = data.clone();
                c.encrypt_blocks(&mut many);
                assert_eq!(many, want, "{v} {s}+{r} {at:?}: encrypt_blocks");
                let sliced = BitslicedSkinny::new(&c);
                let mut got = data.clone();
                sliced.encrypt_blocks(&mut got);
                assert_eq!(got, want, "{v} {s}+{r} {at:?}: BitslicedSkinny");
                sliced.decrypt_blocks(&mut got);
                assert_eq!(got, data, "{v} {s}+{r} {at:?}: BitslicedSkinny back");
                let mut back = want.clone();
                for b in back.chunks_exact_mut(bs) {
                    decrypt_rounds(v, &key, at, s, r, b).unwrap();
                }
                assert_eq!(back, data, "{v} {s}+{r} {at:?}: decrypt_rounds");
            }
        }
    }
}

#[test]
fn bad_input_is_refused() {
    let v = Variant::Skinny128_256;
    let key = [0u8; 32];
    let mut block = [0u8; 16];
    let e = encrypt_rounds(v, &key, TweakeyAt::Master, 40, 10, &mut block).unwrap_err();
    assert_eq!(e, PartialRoundsError::Rounds { variant: v, start: 40, rounds: 10 });
    assert!(encrypt_rounds(v, &key[..31], TweakeyAt::Master, 1, 1, &mut block).is_err());
    assert!(encrypt_rounds(v, &key, TweakeyAt::Master, 1, 1, &mut block[..8]).is_err());
    assert!(partial_cipher(v, &key, TweakeyAt::Start, 0, 1).is_err());
    assert!(!e.to_string().is_empty());
}
