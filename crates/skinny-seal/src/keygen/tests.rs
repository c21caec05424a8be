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
    assert!(r.starts_with("skinny1") && r.len() == 7 + 58 && r == r.to_lowercase(), "{r}");
    let secret_line = text.lines().nth(1).unwrap();
    assert!(secret_line.starts_with("SKINNY-SECRET-KEY-1") && secret_line.len() == 19 + 58, "{secret_line}");
    assert_eq!(secret_line, secret_line.to_uppercase());
}

/// RFC 7748's keys in both forms: the Bech32 strings pinned (so the encoding
/// cannot drift), and the older hex forms read as the same keys.
#[test]
fn bech32_forms_are_pinned_and_the_hex_forms_still_read() {
    let secret = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
    let public = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
    let id = X25519Identity::from_bytes(hex::decode(secret).unwrap().try_into().unwrap());
    let text = encode_x25519_identity(&id);
    assert_eq!(&*text, PINNED_IDENTITY_FILE);
    let r = encode_recipient(&id.recipient());
    let old_r = format!("{X25519_PUBLIC_PREFIX}{public}");
    assert_eq!(parse_recipient(&r).unwrap(), parse_recipient(&old_r).unwrap());
    assert_eq!(parse_recipient(&r.to_uppercase()).unwrap(), id.recipient(), "Bech32 is one case or the other");
    let old_id = format!("{X25519_SECRET_TYPE} {secret}\n");
    let SecretKey::X25519(a) = parse_secret_key(old_id.as_bytes()).unwrap() else { panic!() };
    let SecretKey::X25519(b) = parse_secret_key(text.as_bytes()).unwrap() else { panic!() };
    assert_eq!(*a.secret_bytes(), *b.secret_bytes());
    let lower = text.lines().nth(1).unwrap().to_lowercase();
    assert!(matches!(parse_secret_key(lower.as_bytes()), Ok(SecretKey::X25519(_))));
}
/// Checked against BIP 173's reference code (Python), independent of the
/// `bech32` crate.
const PINNED_IDENTITY_FILE: &str = "# recipient: skinny1s5s0qzvfxzn4gayt0hwtg0hhtgxm7wsdycup4a8t5j5ca25mfe4qg2ezmw\n\
    SKINNY-SECRET-KEY-1WURK6ZNNRZJH60QKC9E9RVNXGH05CTU8A0QFJ243WLA628DE9S4Q7HAZ48\n";

/// Every one-character change of a recipient is refused (the checksum), and
/// so is every change of case in one character, a dropped or added one.
#[test]
fn every_typo_in_a_recipient_is_refused() {
    let r = encode_recipient(&generate_x25519_identity().unwrap().recipient());
    let charset = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
    for i in 0..r.len() {
        for c in charset.chars().chain(['b', 'i', 'o', '1', 'Q']) {
            let mut t: Vec<char> = r.chars().collect();
            if t[i] == c {
                continue;
            }
            t[i] = c;
            let t: String = t.into_iter().collect();
            let e = parse_recipient(&t).unwrap_err();
            assert!(
                matches!(e, KeyTextError::Checksum(_) | KeyTextError::NotRecipient | KeyTextError::DataLength { .. }),
                "{t}: {e:?}"
            );
            assert!(!e.to_string().contains(&r[10..20]), "{e}");
        }
        let dropped = format!("{}{}", &r[..i], &r[i + 1..]);
        assert!(parse_recipient(&dropped).is_err(), "{dropped}");
    }
    assert!(parse_recipient(&format!("{r}q")).is_err());
    // Non-canonical padding bits (a valid checksum, the last character's
    // low bit set): the same key's other spelling is refused.
    let zero = format!("skinny1{}", "q".repeat(51));
    assert_eq!(
        *checksummed::decode32("x", RECIPIENT_HRP, encode_recipient(&X25519Recipient::from_bytes([0; 32])).as_bytes())
            .unwrap(),
        [0; 32]
    );
    assert_eq!(
        checksummed::decode32("x", RECIPIENT_HRP, format!("{zero}p23xjx7").as_bytes()),
        Err(KeyTextError::Checksum("x"))
    );
}

#[test]
fn low_order_recipients_are_refused_when_read() {
    let mut one = [0u8; 32];
    one[0] = 1;
    for low in [[0u8; 32], one] {
        let r = X25519Recipient::from_bytes(low);
        assert!(r.is_low_order());
        assert_eq!(parse_recipient(&encode_recipient(&r)).unwrap_err(), KeyTextError::LowOrder);
        let old = format!("{X25519_PUBLIC_PREFIX}{}", hex::encode(low));
        assert_eq!(parse_recipient(&old).unwrap_err(), KeyTextError::LowOrder);
    }
    assert!(!generate_x25519_identity().unwrap().recipient().is_low_order());
}

#[test]
fn identity_files_hold_several_identities_key_files_one() {
    let a = generate_x25519_identity().unwrap();
    let b = generate_x25519_identity().unwrap();
    let old = format!("{X25519_SECRET_TYPE} {}", hex::encode(*b.secret_bytes()));
    let file = format!("# two keys\n\n{}\r\n  {old}  \n# end\n", &*encode_x25519_identity(&a));
    let keys = parse_secret_keys(file.as_bytes()).unwrap();
    let recipients: Vec<_> = keys
        .iter()
        .map(|k| match k {
            SecretKey::X25519(id) => id.recipient(),
            SecretKey::Symmetric(_) => panic!(),
        })
        .collect();
    assert_eq!(recipients, [a.recipient(), b.recipient()]);
    assert_eq!(parse_secret_key(file.as_bytes()).unwrap_err(), KeyTextError::SeveralKeys);
    assert_eq!(parse_secret_keys(b"# nothing\n").unwrap_err(), KeyTextError::NotKeyText);
    // A typo in an identity is refused, never echoed.
    let line = encode_x25519_identity(&a).lines().nth(1).unwrap().to_string();
    let typo = format!("{}{}{}", &line[..30], if &line[30..31] == "Q" { "P" } else { "Q" }, &line[31..]);
    let e = parse_secret_keys(typo.as_bytes()).unwrap_err();
    assert_eq!(e, KeyTextError::Checksum("X25519 identity"));
    assert!(!e.to_string().contains(&line[20..30]));
    assert_eq!(parse_secret_keys(format!("{line} x").as_bytes()).unwrap_err(), KeyTextError::Fields("X25519 identity"));
    let r = encode_recipient(&a.recipient());
    assert_eq!(parse_secret_keys(r.as_bytes()).unwrap_err(), KeyTextError::PublicNotSecret);
    assert_eq!(parse_recipient(&line).unwrap_err(), KeyTextError::SecretNotPublic);
}

#[test]
fn recipients_files_skip_comments_and_blank_lines() {
    let a = encode_recipient(&generate_x25519_identity().unwrap().recipient());
    let b = generate_x25519_identity().unwrap().recipient();
    let b_old = format!("{X25519_PUBLIC_PREFIX}{}", hex::encode(b.to_bytes()));
    let file = format!("# team\n\n{a}\r\n\t{b_old} \n#{a}\n");
    let got = parse_recipients_file(file.as_bytes()).unwrap();
    assert_eq!(got, [parse_recipient(&a).unwrap(), b]);
    // The last character changed (to one it is not: a random key may end in any).
    let typo = format!("{}{}", &a[..a.len() - 1], if a.ends_with('q') { 'p' } else { 'q' });
    let e = parse_recipients_file(format!("# a\n{a}\n{typo}\n").as_bytes()).unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.to_string().starts_with("line 3: the X25519 recipient's checksum does not match"), "{e}");
    let e = parse_recipients_file(b"# only comments\n\n").unwrap_err();
    assert_eq!(e.to_string(), "no recipient in it (only blank lines and comments)");
    let e = parse_recipients_file(b"\xff\n").unwrap_err();
    assert_eq!((e.line, e.error), (1, KeyTextError::NotRecipient));
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

/// The parser before it worked on the layout (str methods on the file itself):
/// the reference the layout-based parser must agree with.
fn reference_parse(file: &[u8]) -> Result<(bool, [u8; 32]), KeyTextError> {
    let text = core::str::from_utf8(file).map_err(|_| KeyTextError::NotKeyText)?;
    let mut found = None;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split([' ', '\t']).filter(|f| !f.is_empty());
        let Some(kind) = fields.next() else { continue };
        let (name, symmetric) = match kind {
            SYMMETRIC_KEY_TYPE => ("symmetric key", true),
            X25519_SECRET_TYPE => ("X25519 identity", false),
            _ if kind.starts_with(X25519_PUBLIC_PREFIX) => return Err(KeyTextError::PublicNotSecret),
            _ => return Err(KeyTextError::NotKeyText),
        };
        let (Some(digits), None) = (fields.next(), fields.next()) else {
            return Err(KeyTextError::Fields(name));
        };
        if found.is_some() {
            return Err(KeyTextError::SeveralKeys);
        }
        if digits.len() != 64 {
            return Err(KeyTextError::Length { kind: name, expected: 64, found: digits.len() });
        }
        let mut out = [0u8; 32];
        hex::decode_to_slice(digits, &mut out).map_err(|_| KeyTextError::NotHex(name))?;
        found = Some((symmetric, out));
    }
    found.ok_or(KeyTextError::NotKeyText)
}

fn parsed(file: &[u8]) -> Result<(bool, [u8; 32]), KeyTextError> {
    parse_secret_key(file).map(|k| match k {
        SecretKey::Symmetric(k) => (true, *k),
        SecretKey::X25519(id) => (false, *id.secret_bytes()),
    })
}

/// Lines the layout could get wrong: hex digits in types, comments and
/// recipients, Unicode whitespace that `trim` removes (U+00A0, U+3000,
/// U+0085) and ASCII whitespace it removes but `split` does not (vertical
/// tab, form feed), non-ASCII comments, invalid UTF-8, `\r\n`.
#[test]
fn the_layout_parser_agrees_with_the_reference() {
    let pieces: Vec<Vec<u8>> = [
        format!("{SYMMETRIC_KEY_TYPE} {HEX}"),
        format!("{X25519_SECRET_TYPE}\t{}", HEX.to_uppercase()),
        format!("{SYMMETRIC_KEY_TYPE} {}", &HEX[..63]),
        format!("{SYMMETRIC_KEY_TYPE} {}g", &HEX[..63]),
        format!("{SYMMETRIC_KEY_TYPE}\u{0b}{HEX}"),
        format!("\u{0c}{SYMMETRIC_KEY_TYPE} {HEX}\u{0c}"),
        format!("\u{a0}{SYMMETRIC_KEY_TYPE} {HEX}\u{3000}"),
        format!("{SYMMETRIC_KEY_TYPE} {HEX}\u{85}"),
        format!("{SYMMETRIC_KEY_TYPE} {HEX} x"),
        SYMMETRIC_KEY_TYPE.to_string(),
        format!("{X25519_PUBLIC_PREFIX}{HEX}"),
        format!("SKINNY-SEAL-KEY-10 {HEX}"),
        format!("# recipient: {X25519_PUBLIC_PREFIX}{HEX}"),
        "# clé à café".into(),
        "cafe".into(),
        "  \t".into(),
        String::new(),
    ]
    .into_iter()
    .map(String::into_bytes)
    .chain([vec![0xc3, 0x28], vec![0xff], b"#\xe9t\xe9".to_vec()])
    .collect();
    let mut files = 0;
    for a in &pieces {
        for b in &pieces {
            for sep in [&b"\n"[..], b"\r\n"] {
                let mut file = a.clone();
                file.extend_from_slice(sep);
                file.extend_from_slice(b);
                assert_eq!(parsed(&file), reference_parse(&file), "{:?}", String::from_utf8_lossy(&file));
                files += 1;
            }
        }
        assert_eq!(parsed(a), reference_parse(a), "{:?}", String::from_utf8_lossy(a));
    }
    assert_eq!(files, 2 * pieces.len() * pieces.len());
}

proptest::proptest! {
    /// Any mix of hex digits, type fragments, whitespace and other bytes:
    /// the same answer as the reference.
    #[test]
    fn any_text_parses_as_the_reference_does(parts in proptest::collection::vec(0usize..12, 0..40)) {
        let alphabet: [&[u8]; 12] = [
            SYMMETRIC_KEY_TYPE.as_bytes(), X25519_SECRET_TYPE.as_bytes(), X25519_PUBLIC_PREFIX.as_bytes(),
            HEX.as_bytes(), &HEX.as_bytes()[..32], b" ", b"\t", b"\n", b"\r", b"#", "\u{a0}".as_bytes(), b"Fz",
        ];
        let file: Vec<u8> = parts.iter().flat_map(|&i| alphabet[i].iter().copied()).collect();
        proptest::prop_assert_eq!(parsed(&file), reference_parse(&file));
    }
}

/// The constant-time identity codec gives the `bech32` crate's answers:
/// the same text for random keys, the same bytes back, and a refusal
/// wherever the crate refuses (one character changed, mixed case).
#[test]
fn the_identity_codec_agrees_with_the_bech32_crate() {
    use bech32::primitives::decode::CheckedHrpstring;
    for round in 0..200u32 {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).unwrap();
        if round == 0 {
            key = [0xff; 32];
        } else if round == 1 {
            key = [0; 32];
        }
        let ours = checksummed::encode_ct(IDENTITY_HRP, &key, true);
        let hrp_r = bech32::Hrp::parse(RECIPIENT_HRP).unwrap();
        assert_eq!(
            *checksummed::encode_ct(RECIPIENT_HRP, &key, false),
            bech32::encode_lower::<bech32::Bech32>(hrp_r, &key).unwrap()
        );
        let hrp = bech32::Hrp::parse(IDENTITY_HRP).unwrap();
        let crates = bech32::encode_upper::<bech32::Bech32>(hrp, &key).unwrap();
        assert_eq!(*ours, crates);
        let back = checksummed::decode_secret("x", IDENTITY_HRP, ours.as_bytes()).unwrap();
        assert_eq!(*back, key);
        let lower = ours.to_lowercase();
        assert_eq!(*checksummed::decode_secret("x", IDENTITY_HRP, lower.as_bytes()).unwrap(), key);
        // One character changed: refused by both.
        let i = 19 + (round as usize % 58);
        for c in [b'Q', b'P', b'a', b'B', b'0', b'1'] {
            let mut t = ours.as_bytes().to_vec();
            if t[i] == c {
                continue;
            }
            t[i] = c;
            let text = String::from_utf8(t.clone()).unwrap();
            let crate_ok = CheckedHrpstring::new::<bech32::Bech32>(&text).is_ok();
            let ours_ok = checksummed::decode_secret("x", IDENTITY_HRP, text.as_bytes()).is_ok();
            assert!(!ours_ok && !crate_ok, "{text}");
        }
    }
}
