//! Random inputs (message and AD of 0 to 4 KiB) give the same bytes on the
//! product code and on the specification-style reference, sealing and opening;
//! the hash the same for any split of its input into updates.

use proptest::prelude::*;
use skinny_romulus::aead::{AeadInOut, KeyInit, Nonce};
use skinny_romulus::digest::{Digest, Update};
use skinny_romulus::reference::{self, romulus_h, romulus_m, romulus_n, romulus_t};
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};

type Encrypt = fn(&[u8; 16], &[u8; 16], &[u8], &mut [u8]) -> [u8; 16];
type Decrypt = fn(&[u8; 16], &[u8; 16], &[u8], &mut [u8], &[u8]) -> Result<(), reference::Error>;

fn same<A: AeadInOut + KeyInit>(
    encrypt: Encrypt,
    decrypt: Decrypt,
    key: [u8; 16],
    nonce: [u8; 16],
    ad: &[u8],
    msg: &[u8],
) -> Result<(), TestCaseError> {
    let cipher = A::new_from_slice(&key).unwrap();
    let nonce_a = Nonce::<A>::try_from(&nonce[..]).unwrap();
    let mut fast = msg.to_vec();
    let tag = cipher.encrypt_inout_detached(&nonce_a, ad, fast.as_mut_slice().into()).unwrap();
    let mut spec = msg.to_vec();
    let spec_tag = encrypt(&key, &nonce, ad, &mut spec);
    prop_assert_eq!(&fast, &spec);
    prop_assert_eq!(&tag[..], &spec_tag[..]);
    cipher.decrypt_inout_detached(&nonce_a, ad, fast.as_mut_slice().into(), &tag).unwrap();
    prop_assert_eq!(&fast, msg);
    prop_assert!(decrypt(&key, &nonce, ad, &mut spec, &spec_tag).is_ok());
    prop_assert_eq!(&spec, msg);
    Ok(())
}

fn input() -> impl Strategy<Value = ([u8; 16], [u8; 16], Vec<u8>, Vec<u8>)> {
    (
        any::<[u8; 16]>(),
        any::<[u8; 16]>(),
        prop::collection::vec(any::<u8>(), 0..4096),
        prop::collection::vec(any::<u8>(), 0..4096),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn romulus_n_matches_the_reference((key, nonce, ad, msg) in input()) {
        same::<RomulusN>(romulus_n::encrypt, romulus_n::decrypt, key, nonce, &ad, &msg)?;
    }

    #[test]
    fn romulus_m_matches_the_reference((key, nonce, ad, msg) in input()) {
        same::<RomulusM>(romulus_m::encrypt, romulus_m::decrypt, key, nonce, &ad, &msg)?;
    }

    #[test]
    fn romulus_t_matches_the_reference((key, nonce, ad, msg) in input()) {
        same::<RomulusT>(romulus_t::encrypt, romulus_t::decrypt, key, nonce, &ad, &msg)?;
    }

    #[test]
    fn romulus_h_matches_the_reference(
        msg in prop::collection::vec(any::<u8>(), 0..4096),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
    ) {
        let expected = romulus_h::hash(&[&msg]);
        prop_assert_eq!(&RomulusH::digest(&msg)[..], &expected[..]);
        let mut points: Vec<usize> = cuts.iter().map(|i| i.index(msg.len() + 1)).collect();
        points.sort_unstable();
        let mut h = RomulusH::new();
        let mut from = 0;
        for p in points.into_iter().chain([msg.len()]) {
            Update::update(&mut h, &msg[from..p]);
            from = p;
        }
        prop_assert_eq!(&h.finalize()[..], &expected[..]);
    }
}

/// Lengths around the block boundaries, on every scheme (the random lengths
/// rarely hit them exactly).
#[test]
fn block_boundaries_match_the_reference() {
    let key = [0x5a; 16];
    let nonce = [0xc3; 16];
    let data: Vec<u8> = (0..300u32).map(|i| (i * 7 + 3) as u8).collect();
    let lengths = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 96, 128];
    for &a in &lengths {
        for &m in &lengths {
            let (ad, msg) = (&data[..a], &data[150..150 + m]);
            same::<RomulusN>(romulus_n::encrypt, romulus_n::decrypt, key, nonce, ad, msg).unwrap();
            same::<RomulusM>(romulus_m::encrypt, romulus_m::decrypt, key, nonce, ad, msg).unwrap();
            same::<RomulusT>(romulus_t::encrypt, romulus_t::decrypt, key, nonce, ad, msg).unwrap();
        }
    }
}
