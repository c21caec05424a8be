//! The specification's six test vectors (tests/data/skinny-paper.txt), through the
//! run-time `Skinny` and through each type's RustCrypto traits, both directions.

use cipher::{Array, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
use skinny::{Skinny, Variant};

struct Vector {
    variant: Variant,
    tweakey: Vec<u8>,
    plaintext: Vec<u8>,
    ciphertext: Vec<u8>,
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("../data/skinny-paper.txt");
    let vs: Vec<Vector> = text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 4, "line: {l}");
            Vector {
                variant: f[0].parse().expect("variant name"),
                tweakey: hex::decode(f[1]).expect("hex"),
                plaintext: hex::decode(f[2]).expect("hex"),
                ciphertext: hex::decode(f[3]).expect("hex"),
            }
        })
        .collect();
    assert_eq!(vs.len(), 6, "one vector per variant");
    vs
}

fn vector(v: Variant) -> Vector {
    vectors().into_iter().find(|x| x.variant == v).expect("vector present")
}

#[test]
fn dyn_cipher_matches_all_six_vectors() {
    for v in vectors() {
        let c = Skinny::new(v.variant, &v.tweakey).expect("key length");
        let mut b = v.plaintext.clone();
        c.encrypt_block(&mut b);
        assert_eq!(b, v.ciphertext, "{} encrypt", v.variant);
        c.decrypt_block(&mut b);
        assert_eq!(b, v.plaintext, "{} decrypt", v.variant);
    }
}

macro_rules! typed_vector_test {
    ($test:ident, $ty:ty) => {
        #[test]
        fn $test() {
            let v = vector(<$ty>::VARIANT);
            let c = <$ty>::new_from_slice(&v.tweakey).expect("key length");
            let mut b = Array::try_from(v.plaintext.as_slice()).expect("block length");
            c.encrypt_block(&mut b);
            assert_eq!(b.as_slice(), v.ciphertext.as_slice());
            c.decrypt_block(&mut b);
            assert_eq!(b.as_slice(), v.plaintext.as_slice());
        }
    };
}

typed_vector_test!(skinny64_64, skinny::Skinny64_64);
typed_vector_test!(skinny64_128, skinny::Skinny64_128);
typed_vector_test!(skinny64_192, skinny::Skinny64_192);
typed_vector_test!(skinny128_128, skinny::Skinny128_128);
typed_vector_test!(skinny128_256, skinny::Skinny128_256);
typed_vector_test!(skinny128_384, skinny::Skinny128_384);

#[test]
fn wrong_key_length_is_refused() {
    for v in Variant::ALL {
        let err = Skinny::new(v, &vec![0u8; v.tweakey_bytes() + 1]).expect_err("too long");
        assert_eq!(err.got, v.tweakey_bytes() + 1);
        assert!(Skinny::new(v, &vec![0u8; v.tweakey_bytes() - 1]).is_err());
    }
    assert!(skinny::Skinny128_256::new_from_slice(&[0u8; 31]).is_err());
}

#[test]
fn debug_never_shows_key_material() {
    let key = [0xabu8; 32];
    let c = skinny::Skinny128_256::new(&key.into());
    let shown = format!(
        "{c:?} {:?} {:?} {:?}",
        c.as_dyn(),
        skinny::hazmat::round_tweakeys(c.as_dyn()),
        skinny::BitslicedSkinny::new(c.as_dyn())
    );
    assert!(!shown.to_lowercase().contains("ab"), "{shown}");
    assert!(!shown.contains("171"), "{shown}");
}

/// `skinny selftest` embeds its own copy of the vectors (a published crate
/// cannot reach into another's folder): it must stay the same file. Skipped
/// outside the workspace (a packaged `skinny` has no CLI next to it).
#[test]
fn the_cli_copy_of_the_vectors_is_the_same() {
    let cli = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skinny-cli");
    if !cli.join("Cargo.toml").exists() {
        eprintln!("skip: no skinny-cli next to this crate");
        return;
    }
    let cli_copy = cli.join("data/skinny-paper.txt");
    let text = std::fs::read_to_string(&cli_copy).unwrap_or_else(|e| panic!("{}: {e}", cli_copy.display()));
    assert_eq!(text, include_str!("../data/skinny-paper.txt"), "{} differs", cli_copy.display());
}
