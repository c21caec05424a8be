use super::*;

const HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

#[test]
fn nibble_decodes_every_byte_value() {
    for c in 0..=255u8 {
        let (v, ok) = nibble(c);
        let want = (c as char).to_digit(16);
        assert_eq!(ok == -1, want.is_some(), "{c}");
        if let Some(w) = want {
            assert_eq!(u32::from(v), w);
        }
    }
}

#[test]
fn hex_digit_encodes_every_nibble() {
    for n in 0..16u8 {
        assert_eq!(hex_digit(n), char::from_digit(u32::from(n), 16).unwrap());
    }
}

#[test]
fn symmetric_key_round_trip_and_layout() {
    let key = generate_symmetric_key().unwrap();
    let text = encode_symmetric_key(&key);
    assert!(text.starts_with("SKINNY-SEAL-KEY-1 ") && text.ends_with('\n'));
    assert_eq!(text.len(), 17 + 1 + 64 + 1);
    let SecretKey::Symmetric(back) = parse_secret_key(text.as_bytes()).unwrap() else { panic!("wrong type") };
    assert_eq!(*back, *key);
    assert_ne!(*generate_symmetric_key().unwrap(), *key);
}

#[test]
fn x25519_identity_round_trip_and_recipient() {
    let id = generate_x25519_identity().unwrap();
    let text = encode_x25519_identity(&id);
    let r = encode_recipient(&id.recipient());
    assert!(text.contains(&r), "the file names its recipient");
    let SecretKey::X25519(back) = parse_secret_key(text.as_bytes()).unwrap() else { panic!("wrong type") };
    assert_eq!(back.recipient(), id.recipient());
    assert_eq!(parse_recipient(&format!("  {r}\n")).unwrap(), id.recipient());
    assert!(r.starts_with("skinny-seal-x25519-public-1:") && r.len() == 28 + 64);
}

#[test]
fn whitespace_comments_and_case() {
    let text = format!("# a comment\n\n\t{SYMMETRIC_KEY_TYPE} \t{}  \r\n# end\n", HEX.to_uppercase());
    let SecretKey::Symmetric(k) = parse_secret_key(text.as_bytes()).unwrap() else { panic!() };
    assert_eq!(hex::encode(*k), HEX);
}

#[test]
fn refusals_never_echo_the_key() {
    let secret_hex = "ab".repeat(32);
    let cases: Vec<(String, KeyTextError)> = vec![
        (String::new(), KeyTextError::NotKeyText),
        ("# only a comment\n".into(), KeyTextError::NotKeyText),
        (secret_hex.clone(), KeyTextError::NotKeyText),
        (format!("SKINNY-SEAL-KEY-2 {secret_hex}"), KeyTextError::NotKeyText),
        (format!("{SYMMETRIC_KEY_TYPE} {secret_hex}\n{SYMMETRIC_KEY_TYPE} {secret_hex}"), KeyTextError::SeveralKeys),
        (
            format!("{SYMMETRIC_KEY_TYPE} {}", &secret_hex[..62]),
            KeyTextError::Length { kind: "symmetric key", expected: 64, found: 62 },
        ),
        (
            format!("{X25519_SECRET_TYPE} {secret_hex}ab"),
            KeyTextError::Length { kind: "X25519 identity", expected: 64, found: 66 },
        ),
        (format!("{SYMMETRIC_KEY_TYPE} {}zz", &secret_hex[..62]), KeyTextError::NotHex("symmetric key")),
        (format!("{SYMMETRIC_KEY_TYPE} {secret_hex} trailing"), KeyTextError::Fields("symmetric key")),
        (SYMMETRIC_KEY_TYPE.into(), KeyTextError::Fields("symmetric key")),
        (format!("{X25519_PUBLIC_PREFIX}{secret_hex}"), KeyTextError::PublicNotSecret),
    ];
    for (text, want) in cases {
        let err = parse_secret_key(text.as_bytes()).unwrap_err();
        assert_eq!(err, want, "{text:?}");
        let msg = err.to_string();
        assert!(!msg.contains("abab") && !msg.contains("zz"), "{msg}");
    }
    assert_eq!(parse_secret_key(&[0xff, 0xfe, 0x00]).unwrap_err(), KeyTextError::NotKeyText);
}

#[test]
fn recipient_refusals() {
    let secret_hex = "cd".repeat(32);
    assert_eq!(
        parse_recipient(&format!("{X25519_SECRET_TYPE} {secret_hex}")).unwrap_err(),
        KeyTextError::SecretNotPublic
    );
    assert_eq!(
        parse_recipient(&format!("{SYMMETRIC_KEY_TYPE} {secret_hex}")).unwrap_err(),
        KeyTextError::SecretNotPublic
    );
    assert_eq!(parse_recipient("age1qqqq").unwrap_err(), KeyTextError::NotRecipient);
    assert!(matches!(
        parse_recipient(&format!("{X25519_PUBLIC_PREFIX}{}", &secret_hex[..10])),
        Err(KeyTextError::Length { .. })
    ));
    let err = parse_recipient(&format!("{X25519_PUBLIC_PREFIX}{}g", &secret_hex[..63])).unwrap_err();
    assert_eq!(err, KeyTextError::NotHex("X25519 recipient"));
}
