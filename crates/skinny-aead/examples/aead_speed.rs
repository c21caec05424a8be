//! One-thread speed of each member on this machine (encryption of 1 MiB with
//! 16 bytes of AD, best of 3), on the bitsliced per-block-tweakey engine
//! (figures in docs/aead.md). `cargo run --release -p skinny-aead --example aead_speed`

use skinny_aead::aead::array::typenum::Unsigned;
use skinny_aead::aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use std::time::Instant;

fn speed<A: AeadInOut + KeyInit + AeadCore>(name: &str) {
    let cipher = A::new(&Key::<A>::default());
    let nonce = Nonce::<A>::try_from(&[0u8; 16][..A::NonceSize::USIZE]).unwrap();
    let mut buf = vec![0u8; 1 << 20];
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t = Instant::now();
        let tag = cipher.encrypt_inout_detached(&nonce, &[0u8; 16], buf.as_mut_slice().into()).unwrap();
        std::hint::black_box(tag);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("{name}: {:.2} MiB/s", 1.0 / best);
}

fn main() {
    speed::<SkinnyAeadM1>("M1 (SKINNY-128-384)");
    speed::<SkinnyAeadM2>("M2 (SKINNY-128-384)");
    speed::<SkinnyAeadM3>("M3 (SKINNY-128-384)");
    speed::<SkinnyAeadM4>("M4 (SKINNY-128-384)");
    speed::<SkinnyAeadM5>("M5 (SKINNY-128-256)");
    speed::<SkinnyAeadM6>("M6 (SKINNY-128-256)");
}
