//! Romulus-N, -M, -T and Romulus-H run from a 64 KiB stack, in the test
//! profile and in the dev profile at opt-level 0 (`cargo test --profile dev -p
//! skinny-romulus --test stack`): seal and open of 0 bytes, 4 KiB, 64 KiB and
//! 1 MiB with AD, and hashing of the same sizes. Each call runs in a child
//! process (see `skinny_test_support::stack`), so an overflow names the call.

use skinny_romulus::aead::{AeadInOut, KeyInit, Nonce};
use skinny_romulus::digest::Digest;
use skinny_romulus::{RomulusH, RomulusM, RomulusN, RomulusT};
use skinny_test_support::stack::{check, Case};

const SIZES: [usize; 4] = [0, 4 << 10, 64 << 10, 1 << 20];

fn scheme<A: KeyInit + AeadInOut + 'static>(name: &str) -> Vec<Case> {
    SIZES
        .into_iter()
        .map(|n| {
            Case::new(format!("{name} seal/open {n} bytes"), move || {
                let aead = A::new_from_slice(&[1u8; 16]).expect("key length");
                let nonce = Nonce::<A>::default();
                let ad = vec![2u8; 100];
                let mut data = vec![3u8; n];
                let tag = aead.encrypt_inout_detached(&nonce, &ad, data.as_mut_slice().into()).expect("seal");
                aead.decrypt_inout_detached(&nonce, &ad, data.as_mut_slice().into(), &tag).expect("open");
                assert!(data.iter().all(|&b| b == 3));
            })
        })
        .collect()
}

#[test]
fn every_scheme_runs_from_64_kib_of_stack() {
    let mut cases = Vec::new();
    cases.extend(scheme::<RomulusN>("Romulus-N"));
    cases.extend(scheme::<RomulusM>("Romulus-M"));
    cases.extend(scheme::<RomulusT>("Romulus-T"));
    for n in SIZES {
        cases.push(Case::new(format!("Romulus-H {n} bytes"), move || {
            let mut h = RomulusH::new();
            h.update(vec![4u8; n]);
            h.finalize();
        }));
    }
    check("every_scheme_runs_from_64_kib_of_stack", cases);
}
