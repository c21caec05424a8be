//! The cipher values stay small: they are cloned into engines and embedded in
//! RustCrypto mode types, so none may carry the ~28 KiB of bitsliced masks (only
//! [`skinny::BitslicedSkinny`], the bulk engines' per-key form, does). Run with
//! `--nocapture` to see the sizes.

use core::mem::size_of;

const LIMIT: usize = 1024;

#[test]
fn every_cipher_value_is_at_most_1_kib() {
    let sizes = [
        ("Skinny", size_of::<skinny::Skinny>()),
        ("Skinny64_64", size_of::<skinny::Skinny64_64>()),
        ("Skinny64_128", size_of::<skinny::Skinny64_128>()),
        ("Skinny64_192", size_of::<skinny::Skinny64_192>()),
        ("Skinny128_128", size_of::<skinny::Skinny128_128>()),
        ("Skinny128_256", size_of::<skinny::Skinny128_256>()),
        ("Skinny128_384", size_of::<skinny::Skinny128_384>()),
        ("TweakableSkinny64_128", size_of::<skinny::TweakableSkinny64_128>()),
        ("TweakableSkinny64_192", size_of::<skinny::TweakableSkinny64_192>()),
        ("TweakableSkinny128_256", size_of::<skinny::TweakableSkinny128_256>()),
        ("TweakableSkinny128_384", size_of::<skinny::TweakableSkinny128_384>()),
    ];
    for (name, size) in sizes {
        println!("size_of::<{name}>() = {size} bytes");
    }
    for (name, size) in sizes {
        assert!(size <= LIMIT, "{name} is {size} bytes, over {LIMIT}");
    }
    println!(
        "size_of::<BitslicedSkinny>() = {} bytes (bulk engines, one per key)",
        size_of::<skinny::BitslicedSkinny>()
    );
}
