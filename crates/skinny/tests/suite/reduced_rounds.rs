//! Reduced-round SKINNY (`Skinny::with_rounds`): every path runs the given
//! count, byte-identical to the specification code, for every variant and
//! round counts from 1 to the full one.

use skinny::hazmat::bitsliced::Path;
use skinny::{BitslicedSkinny, InvalidRounds, SetupError, Skinny, Variant};
use skinny_test_support::rng::SplitMix64 as Rng;

fn counts(v: Variant) -> Vec<usize> {
    let full = v.rounds();
    vec![1, 2, 3, 7, 16, 17, full / 2, full - 1, full]
}

#[test]
fn every_path_matches_the_specification_at_every_round_count() {
    let mut rng = Rng(0x5eed_0042);
    for v in Variant::ALL {
        let bs = v.block_bytes();
        let key = rng.bytes(v.tweakey_bytes());
        // 600 blocks: whole AVX2 and portable batches, a partial one, and the
        // specification tail.
        let data = rng.bytes(600 * bs);
        let mut previous: Option<Vec<u8>> = None;
        for r in counts(v) {
            let c = Skinny::with_rounds(v, &key, r).unwrap();
            assert_eq!(c.rounds(), r);
            let mut want = data.clone();
            want.chunks_exact_mut(bs).for_each(|b| c.encrypt_block(b));
            let mut back = want.clone();
            back.chunks_exact_mut(bs).for_each(|b| c.decrypt_block(b));
            assert_eq!(back, data, "{v} {r} rounds: spec round trip");
            let mut got = data.clone();
            c.encrypt_blocks(&mut got);
            assert_eq!(got, want, "{v} {r} rounds: encrypt_blocks");
            c.decrypt_blocks(&mut got);
            assert_eq!(got, data, "{v} {r} rounds: decrypt_blocks");
            for path in Path::ALL.into_iter().filter(|p| p.is_available()) {
                let mut got = data.clone();
                c.encrypt_blocks_with(path, &mut got).unwrap();
                assert_eq!(got, want, "{v} {r} rounds: {path}");
                c.decrypt_blocks_with(path, &mut got).unwrap();
                assert_eq!(got, data, "{v} {r} rounds: {path} decryption");
            }
            let sliced = BitslicedSkinny::new(&c);
            let mut got = data.clone();
            sliced.encrypt_blocks(&mut got);
            assert_eq!(got, want, "{v} {r} rounds: BitslicedSkinny");
            // Each round changes the output.
            assert_ne!(previous.as_ref(), Some(&want), "{v}: {r} rounds equal the count before");
            previous = Some(want);
        }
        // The full count is the ordinary cipher.
        let full = Skinny::with_rounds(v, &key, v.rounds()).unwrap();
        let plain = Skinny::new(v, &key).unwrap();
        let (mut a, mut b) = (data.clone(), data.clone());
        full.encrypt_blocks(&mut a);
        plain.encrypt_blocks(&mut b);
        assert_eq!(a, b, "{v}: with_rounds(full) is Skinny::new");
    }
}

#[test]
fn out_of_range_counts_and_bad_keys_are_refused() {
    for v in Variant::ALL {
        let key = vec![1u8; v.tweakey_bytes()];
        for bad in [0, v.rounds() + 1, 1000] {
            assert_eq!(
                Skinny::with_rounds(v, &key, bad).unwrap_err(),
                SetupError::Rounds(InvalidRounds { variant: v, got: bad })
            );
        }
        assert!(matches!(Skinny::with_rounds(v, &key[1..], 3), Err(SetupError::Tweakey(_))));
    }
}

#[test]
fn typed_ciphers_made_from_a_reduced_cipher_stay_reduced() {
    use skinny::cipher::{Array, BlockCipherEncrypt, KeyInit};
    let key = [3u8; 32];
    let c = Skinny::with_rounds(Variant::Skinny128_256, &key, 20).unwrap();
    let mut want = [9u8; 16];
    c.encrypt_block(&mut want);
    let typed = skinny::Skinny128_256::from_dyn(c).unwrap();
    let mut block = Array::from([9u8; 16]);
    typed.encrypt_block(&mut block);
    assert_eq!(block.as_slice(), &want);
    // KeyInit always makes the full cipher.
    let full = skinny::Skinny128_256::new(&key.into());
    assert_eq!(full.as_dyn().rounds(), 48);
}
