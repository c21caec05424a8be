use super::*;

/// Small parameters so the tests run fast (the default ones take about a second).
const FAST: PassphraseParams = PassphraseParams { m_kib: 64, t: 1, p: 1 };

#[test]
fn wrap_unwrap_round_trip_wrong_passphrase_and_binding() {
    let fk = FileKey::from_bytes([5u8; 32]);
    let pass = Passphrase::new("correct horse").with_params(FAST);
    let stanza = pass.wrap(&fk, b"start").unwrap();
    assert_eq!(stanza.kind, KIND_PASSPHRASE);
    assert_eq!(stanza.body.len(), BODY_LEN);
    assert_eq!(&stanza.body[..9], &[0, 0, 0, 64, 0, 0, 0, 1, 1]);
    assert!(pass.must_be_alone());
    // Opening uses the parameters in the stanza, whatever the identity's own.
    let opener = Passphrase::new("correct horse");
    assert_eq!(opener.unwrap(&stanza, b"start").unwrap().unwrap().expose(), fk.expose());
    assert!(Passphrase::new("wrong horse").unwrap(&stanza, b"start").unwrap().is_none());
    assert!(opener.unwrap(&stanza, b"other start").unwrap().is_none());
}

#[test]
fn other_kinds_and_malformed_bodies() {
    let opener = Passphrase::new("x");
    assert!(opener.unwrap(&Stanza { kind: 3, body: vec![0; 80] }, b"s").unwrap().is_none());
    let short = Stanza { kind: KIND_PASSPHRASE, body: vec![0; BODY_LEN - 1] };
    assert!(matches!(opener.unwrap(&short, b"s"), Err(StanzaError::Malformed { .. })));
}

fn stanza_with(m: u32, t: u32, p: u8) -> Stanza {
    let mut body = Vec::new();
    body.extend_from_slice(&m.to_be_bytes());
    body.extend_from_slice(&t.to_be_bytes());
    body.push(p);
    body.extend_from_slice(&[0u8; 16 + WRAPPED_LEN]);
    Stanza { kind: KIND_PASSPHRASE, body }
}

/// Out-of-bounds parameters are refused before Argon2 runs (a 4 GiB + 1 KiB
/// request would otherwise allocate).
#[test]
fn parameter_bounds_checked_before_running() {
    let opener = Passphrase::new("x");
    for (m, t, p) in [
        (PassphraseParams::MAX.m_kib + 1, 1, 1),
        (u32::MAX, 1, 1),
        (64, 65, 1),
        (64, 0, 1),
        (64, 1, 0),
        (64, 1, 17),
        (7, 1, 1),
        (63, 1, 8),
    ] {
        let err = opener.unwrap(&stanza_with(m, t, p), b"s").unwrap_err();
        assert!(err.to_string().contains("out of bounds"), "{m} {t} {p}: {err}");
    }
    // The bounds themselves are accepted (checked, not run: 4 GiB).
    assert!(PassphraseParams::MAX.check().is_ok());
    assert!(PassphraseParams::DEFAULT.check().is_ok());
    assert!(PassphraseParams { m_kib: 8, t: 1, p: 1 }.check().is_ok());
    // A sealer with bad parameters is refused too.
    let bad = Passphrase::new("x").with_params(PassphraseParams { m_kib: 64, t: 0, p: 1 });
    assert!(bad.wrap(&FileKey::from_bytes([0; 32]), b"s").is_err());
}

/// RFC 9106 section 5.3 (Argon2id, version 0x13) through the argon2 crate with
/// the algorithm and version this module calls it with.
#[test]
fn rfc9106_argon2id_vector() {
    let params = argon2::ParamsBuilder::new()
        .m_cost(32)
        .t_cost(3)
        .p_cost(4)
        .data(argon2::AssociatedData::new(&[4u8; 12]).unwrap())
        .output_len(32)
        .build()
        .unwrap();
    let argon = Argon2::new_with_secret(&[3u8; 8], Algorithm::Argon2id, Version::V0x13, params).unwrap();
    let mut out = [0u8; 32];
    argon.hash_password_into(&[1u8; 32], &[2u8; 16], &mut out).unwrap();
    assert_eq!(hex::encode(out), "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659");
}

/// This module's derivation (no secret, no data, 16-byte output) pinned, so a
/// change of crate or call shows.
#[test]
fn derive_known_answer() {
    let key = FAST.derive(b"password", &[2u8; 16]).unwrap();
    assert_eq!(hex::encode(*key), PINNED);
}
const PINNED: &str = "f202f99b221004757e2e64fae79c9b5b";

#[test]
fn debug_shows_no_passphrase() {
    let s = format!("{:?}", Passphrase::new("hunter2"));
    assert!(!s.contains("hunter2"), "{s}");
}

/// A stanza asking for more work than the cap is refused before Argon2 runs
/// (4 GiB x 64 passes would take many minutes; the refusal is immediate),
/// and opens once the cap is raised deliberately.
#[test]
fn work_above_the_cap_is_refused_before_running() {
    assert_eq!(PassphraseParams::DEFAULT.work(), 256);
    assert_eq!(PassphraseParams::DEFAULT_MAX_WORK, 16 * PassphraseParams::DEFAULT.work());
    assert!(PassphraseParams::DEFAULT.work() <= PassphraseParams::DEFAULT_MAX_WORK);
    let opener = Passphrase::new("x");
    let started = std::time::Instant::now();
    for (m, t, p) in [(PassphraseParams::MAX.m_kib, 64, 1), (PassphraseParams::MAX.m_kib, 2, 16), (1 << 20, 5, 1)] {
        let err = opener.unwrap(&stanza_with(m, t, p), b"s").unwrap_err();
        let StanzaError::PassphraseCost { work, cap } = err else { panic!("{m} {t} {p}: {err}") };
        assert_eq!((work, cap), (u64::from(m) * u64::from(t) / 1024, PassphraseParams::DEFAULT_MAX_WORK));
        assert!(err.to_string().contains("refused before running it") && !err.to_string().contains('\n'));
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    // At the cap it runs (small memory, many passes: 4096 MiB x passes would
    // be slow, so the cap is lowered to what the test can afford).
    let fk = FileKey::from_bytes([5u8; 32]);
    let params = PassphraseParams { m_kib: 1024, t: 3, p: 1 };
    let stanza = Passphrase::new("p").with_params(params).wrap(&fk, b"s").unwrap();
    let low = Passphrase::new("p").with_max_work(2);
    assert!(matches!(low.unwrap(&stanza, b"s"), Err(StanzaError::PassphraseCost { work: 3, cap: 2 })));
    let raised = Passphrase::new("p").with_max_work(3);
    assert_eq!(raised.unwrap(&stanza, b"s").unwrap().unwrap().expose(), fk.expose());
}
