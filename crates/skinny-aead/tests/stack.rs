//! Every SKINNY-AEAD member and the sealed format run from a 64 KiB stack, in
//! the test profile and in the dev profile at opt-level 0 (`cargo test
//! --profile dev -p skinny-aead --test stack`): seal and open of 0 bytes,
//! 4 KiB, 64 KiB and 1 MiB (with AD) through the RustCrypto traits, and the
//! sealed format's seal and open of 1 MB and 10 MB from a reader to a writer.
//! The sealed runs use rayon's global pool, which each child process here
//! builds with 64 KiB stacks, so the chunks' work is held to the bound too.
//! Each call runs in a child process (see `skinny_test_support::stack`), so an
//! overflow names the call.

use aead::{AeadInOut, KeyInit};
use skinny_aead::sealed::{self, Member, SealOptions};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use skinny_test_support::stack::{check, Case, LIMIT};

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

fn sealed_round_trip(member: Member, n: usize) -> Case {
    Case::new(format!("sealed::seal/open {member} {n} bytes, reader to writer"), move || {
        // The chunks run on rayon's global pool: 64 KiB stacks there too.
        rayon::ThreadPoolBuilder::new().stack_size(LIMIT).build_global().expect("the global pool");
        let plain: Vec<u8> = (0..n).map(|i| i as u8).collect();
        let mut file = Vec::new();
        sealed::seal(plain.as_slice(), &mut file, &[7u8; 16], &SealOptions { member, ..SealOptions::default() })
            .expect("seal");
        let mut back = Vec::new();
        sealed::open(file.as_slice(), &mut back, &[7u8; 16]).expect("open");
        assert!(back == plain);
    })
}

#[test]
fn every_member_and_the_sealed_format_run_from_64_kib_of_stack() {
    let mut cases = Vec::new();
    cases.extend(member::<SkinnyAeadM1>("M1"));
    cases.extend(member::<SkinnyAeadM2>("M2"));
    cases.extend(member::<SkinnyAeadM3>("M3"));
    cases.extend(member::<SkinnyAeadM4>("M4"));
    cases.extend(member::<SkinnyAeadM5>("M5"));
    cases.extend(member::<SkinnyAeadM6>("M6"));
    for n in [1_000_000, 10_000_000] {
        cases.push(sealed_round_trip(Member::M1, n));
    }
    cases.push(sealed_round_trip(Member::M5, 1_000_000));
    check("every_member_and_the_sealed_format_run_from_64_kib_of_stack", cases);
}
