//! One-thread speed of each member against SKINNY ECB on the same core, in the same
//! run: sealing and opening 1 MiB with 16 bytes of AD, and the variant's ECB
//! encryption of 1 MiB on the `cpu` backend's code (`BitslicedSkinny`, best path),
//! taken in turns, best of `PASSES` each (figures in docs/aead.md).
//! `cargo run --release -p skinny-aead --example aead_speed [PASSES]`

use skinny::hazmat::bitsliced::Path;
use skinny::{BitslicedSkinny, Skinny, Variant};
use skinny_aead::aead::array::typenum::Unsigned;
use skinny_aead::aead::{AeadCore, AeadInOut, Key, KeyInit, Nonce, Tag};
use skinny_aead::{SkinnyAeadM1, SkinnyAeadM2, SkinnyAeadM3, SkinnyAeadM4, SkinnyAeadM5, SkinnyAeadM6};
use std::time::Instant;

const MIB: usize = 1 << 20;

/// Seconds of one call of `f`, best of `passes`.
fn best(passes: usize, mut f: impl FnMut()) -> f64 {
    (0..passes)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::MAX, f64::min)
}

fn speed<A: AeadInOut + KeyInit + AeadCore>(name: &str, variant: Variant, passes: usize) {
    let cipher = A::new(&Key::<A>::default());
    let nonce = Nonce::<A>::try_from(&[0u8; 16][..A::NonceSize::USIZE]).expect("nonce length");
    let ad = [0u8; 16];
    let mut buf = vec![0u8; MIB];
    let mut tag = Tag::<A>::default();
    let ecb = BitslicedSkinny::new(&Skinny::new(variant, &vec![7u8; variant.tweakey_bytes()]).expect("tweakey length"));
    let (mut seal, mut open, mut ecb_s) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..passes {
        seal = seal.min(best(1, || {
            tag = cipher.encrypt_inout_detached(&nonce, &ad, buf.as_mut_slice().into()).expect("length");
        }));
        open = open.min(best(1, || {
            cipher.decrypt_inout_detached(&nonce, &ad, buf.as_mut_slice().into(), &tag).expect("own tag");
        }));
        ecb_s = ecb_s.min(best(1, || ecb.encrypt_blocks(&mut buf)));
    }
    let mibs = |s: f64| MIB as f64 / s / MIB as f64;
    println!(
        "{name}: seal {:.0} MiB/s, open {:.0} MiB/s, {variant} ECB {:.0} MiB/s; seal/ECB {:.2}, open/seal {:.2}",
        mibs(seal),
        mibs(open),
        mibs(ecb_s),
        ecb_s / seal,
        seal / open
    );
}

fn main() {
    let passes = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    // Both sides run on the best bitsliced path of this CPU (the `cpu` backend's
    // choice for ECB, the AEAD engine's own).
    println!("bitsliced path: {}; one thread, best of {passes} passes each, taken in turns", Path::best());
    speed::<SkinnyAeadM1>("M1", Variant::Skinny128_384, passes);
    speed::<SkinnyAeadM2>("M2", Variant::Skinny128_384, passes);
    speed::<SkinnyAeadM3>("M3", Variant::Skinny128_384, passes);
    speed::<SkinnyAeadM4>("M4", Variant::Skinny128_384, passes);
    speed::<SkinnyAeadM5>("M5", Variant::Skinny128_256, passes);
    speed::<SkinnyAeadM6>("M6", Variant::Skinny128_256, passes);
}
