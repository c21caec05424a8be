//! Forgeries fail and release nothing, for every member
//! (`skinny_test_support::tamper`: every flipped bit, truncation, wrong key
//! and inserted or missing byte, through every entry point), and the members
//! differ from one another.

use skinny_romulus::aead::{Aead, Key, KeyInit, Nonce, Payload};
use skinny_romulus::{RomulusM, RomulusN, RomulusT};
use skinny_test_support::tamper::forgeries;

#[test]
fn forgeries_romulus_n() {
    forgeries::<RomulusN>(1);
}

#[test]
fn forgeries_romulus_m() {
    forgeries::<RomulusM>(2);
}

#[test]
fn forgeries_romulus_t() {
    forgeries::<RomulusT>(3);
}

/// The schemes are distinct: one (key, nonce, AD, message) gives three
/// different outputs, so a domain mix-up cannot hide behind another scheme.
#[test]
fn schemes_differ() {
    fn ct<A: Aead + KeyInit>() -> Vec<u8> {
        let cipher = A::new(&Key::<A>::try_from(&[3u8; 16][..]).unwrap());
        let nonce = Nonce::<A>::try_from(&[9u8; 16][..]).unwrap();
        cipher.encrypt(&nonce, Payload { msg: b"seventeen bytes!!", aad: b"ad" }).unwrap()
    }
    let all = [ct::<RomulusN>(), ct::<RomulusM>(), ct::<RomulusT>()];
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(all[i][..17], all[j][..17], "schemes {i} and {j}");
            assert_ne!(all[i][17..], all[j][17..], "tags of schemes {i} and {j}");
        }
    }
}
