//! Forgeries fail and release nothing, for every member
//! (`skinny_test_support::tamper`: every flipped bit, truncation, wrong key
//! and inserted or missing byte, through every entry point), and the members
//! differ from one another.

use skinny_aead::aead::array::typenum::Unsigned;
use skinny_aead::aead::{Aead, AeadCore, Key, KeyInit, Nonce, Payload};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_test_support::tamper::forgeries;

#[test]
fn forgeries_m1() {
    forgeries::<SkinnyAeadM1>(1);
}

#[test]
fn forgeries_m2() {
    forgeries::<SkinnyAeadM2>(2);
}

#[test]
fn forgeries_m3() {
    forgeries::<SkinnyAeadM3>(3);
}

#[test]
fn forgeries_m4() {
    forgeries::<SkinnyAeadM4>(4);
}

#[test]
fn forgeries_m5() {
    forgeries::<SkinnyAeadM5>(5);
}

#[test]
fn forgeries_m6() {
    forgeries::<SkinnyAeadM6>(6);
}

/// The members are distinct: one (key, nonce, message) gives six different
/// outputs, so a prefix or layout mix-up cannot hide behind another member.
#[test]
fn members_differ() {
    fn ct<A: Aead + KeyInit + AeadCore>() -> Vec<u8> {
        let cipher = A::new(&Key::<A>::try_from(&[3u8; 16][..]).unwrap());
        let nonce = Nonce::<A>::try_from(&[9u8; 16][..A::NonceSize::USIZE]).unwrap();
        cipher.encrypt(&nonce, Payload { msg: b"seventeen bytes!!", aad: b"ad" }).unwrap()
    }
    let all = [
        ct::<SkinnyAeadM1>(),
        ct::<SkinnyAeadM2>(),
        ct::<SkinnyAeadM3>(),
        ct::<SkinnyAeadM4>(),
        ct::<SkinnyAeadM5>(),
        ct::<SkinnyAeadM6>(),
    ];
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            assert_ne!(all[i][..17], all[j][..17], "M{} and M{}", i + 1, j + 1);
        }
    }
}
