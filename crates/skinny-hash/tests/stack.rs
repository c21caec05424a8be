//! SKINNY-tk2-Hash and SKINNY-tk3-Hash run from a 64 KiB stack, in the test
//! profile and in the dev profile at opt-level 0 (`cargo test --profile dev -p
//! skinny-hash --test stack`): 0 bytes, 4 KiB and 64 KiB, in one call and in
//! pieces. Each call runs in a child process (see
//! `skinny_test_support::stack`), so an overflow names the call.

use skinny_hash::digest::Digest;
use skinny_hash::{SkinnyTk2Hash, SkinnyTk3Hash};
use skinny_test_support::stack::{check, Case};

fn hasher<H: Digest + 'static>(name: &str) -> Vec<Case> {
    [0, 4 << 10, 64 << 10]
        .into_iter()
        .map(|n| {
            Case::new(format!("{name} {n} bytes"), move || {
                let data = vec![5u8; n];
                let whole = H::digest(&data);
                let mut h = H::new();
                for piece in data.chunks(1000) {
                    h.update(piece);
                }
                assert!(h.finalize() == whole);
            })
        })
        .collect()
}

#[test]
fn both_hashes_run_from_64_kib_of_stack() {
    let mut cases = hasher::<SkinnyTk2Hash>("SKINNY-tk2-Hash");
    cases.extend(hasher::<SkinnyTk3Hash>("SKINNY-tk3-Hash"));
    check("both_hashes_run_from_64_kib_of_stack", cases);
}
