//! The AVX-512 word's three-input operations against their definitions (a
//! module of `avx512.rs`, kept apart for its length).

use super::*;

/// Every three-input operation against its two-input definition, on words
/// whose bits cover all eight input combinations.
#[target_feature(enable = "avx512f")]
fn check_ternary_ops() {
    let (x, a, b) = (Avx512Word::splat(0xf0f0), Avx512Word::splat(0xcccc), Avx512Word::splat(0xaaaa));
    let lane = |w: Avx512Word| {
        let mut out = [0u8; 64];
        w.store_row8(&mut out, 0);
        u64::from_le_bytes(out[..8].try_into().unwrap())
    };
    let (xv, av, bv) = (0xf0f0u64, 0xccccu64, 0xaaaau64);
    assert_eq!(lane(x.xor3(a, b)), xv ^ av ^ bv);
    assert_eq!(lane(x.xor_or(a, b)), xv ^ (av | bv));
    assert_eq!(lane(x.xor_and(a, b)), xv ^ (av & bv));
    assert_eq!(lane(x.xor_andnot(a, b)), xv ^ (!av & bv));
    assert_eq!(lane(x.xor_nor(a, b)), xv ^ !(av | bv));
    assert_eq!(lane(x.blend(a, b)), (av & bv) | (xv & !bv));
    assert_eq!(lane(x.not()), !xv);
}

#[test]
fn ternary_operations_compute_their_definitions() {
    if !detected() {
        // The library is `no_std`; its test harness has std.
        extern crate std;
        std::eprintln!("SKIPPED: this CPU has no AVX-512F; the AVX-512 path is not tested here");
        return;
    }
    // SAFETY: AVX-512F was just detected.
    unsafe { check_ternary_ops() };
}
