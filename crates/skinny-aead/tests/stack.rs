//! Every SKINNY-AEAD member runs from a 64 KiB stack, in the test profile and
//! in the dev profile at opt-level 0 (`cargo test --profile dev -p
//! skinny-aead --test stack`): seal and open of 0 bytes, 4 KiB, 64 KiB and
//! 1 MiB (with AD) through the RustCrypto traits. (Sealed files, on this
//! crate's members, are skinny-seal's stack test.) Each call runs in a child
//! process (see `skinny_test_support::stack`), so an overflow names the call.

use aead::{AeadInOut, KeyInit};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_test_support::stack::{check, Case};

const SIZES: [usize; 4] = [0, 4 << 10, 64 << 10, 1 << 20];

/// Seal and open in place of each size, with 100 bytes of AD.
fn member<A: KeyInit + AeadInOut + 'static>(name: &str) -> Vec<Case> {
    SIZES
        .into_iter()
        .map(|n| {
            Case::new(format!("{name} seal/open {n} bytes"), move || {
                let aead = A::new_from_slice(&[1u8; 16]).expect("key length");
                let nonce = aead::Nonce::<A>::default();
                let ad = [2u8; 100];
                let mut data = vec![3u8; n];
                let tag = aead.encrypt_inout_detached(&nonce, &ad, data.as_mut_slice().into()).expect("seal");
                aead.decrypt_inout_detached(&nonce, &ad, data.as_mut_slice().into(), &tag).expect("open");
                assert!(data.iter().all(|&b| b == 3));
            })
        })
        .collect()
}

#[test]
fn every_member_runs_from_64_kib_of_stack() {
    let mut cases = Vec::new();
    cases.extend(member::<SkinnyAeadM1>("M1"));
    cases.extend(member::<SkinnyAeadM2>("M2"));
    cases.extend(member::<SkinnyAeadM3>("M3"));
    cases.extend(member::<SkinnyAeadM4>("M4"));
    cases.extend(member::<SkinnyAeadM5>("M5"));
    cases.extend(member::<SkinnyAeadM6>("M6"));
    check("every_member_runs_from_64_kib_of_stack", cases);
}
