use super::*;

fn h32(s: &str) -> [u8; 32] {
    hex::decode(s).unwrap().try_into().unwrap()
}

/// RFC 7748 section 6.1: both public keys from their secrets, and the shared
/// secret, through this module's own calls.
#[test]
fn rfc7748_diffie_hellman_vector() {
    let alice = X25519Identity::from_bytes(h32("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a"));
    let bob = X25519Identity::from_bytes(h32("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb"));
    assert_eq!(
        hex::encode(alice.recipient().to_bytes()),
        "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    );
    assert_eq!(
        hex::encode(bob.recipient().to_bytes()),
        "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    );
    let shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";
    assert_eq!(hex::encode(*alice.shared_secret(&bob.recipient().to_bytes())), shared);
    assert_eq!(hex::encode(*bob.shared_secret(&alice.recipient().to_bytes())), shared);
}

#[test]
fn wrap_unwrap_round_trip_and_other_identity() {
    let me = X25519Identity::generate().unwrap();
    let other = X25519Identity::generate().unwrap();
    let fk = FileKey::from_bytes([7u8; 32]);
    let stanza = me.recipient().wrap(&fk, b"start").unwrap();
    assert_eq!(stanza.kind, KIND_X25519);
    assert_eq!(stanza.body.len(), BODY_LEN);
    assert_eq!(me.unwrap(&stanza, b"start").unwrap().unwrap().expose(), fk.expose());
    assert!(other.unwrap(&stanza, b"start").unwrap().is_none(), "not for me");
    assert!(me.unwrap(&stanza, b"other start").unwrap().is_none(), "bound to the header start");
    // Two wraps of one key use two ephemeral keys.
    assert_ne!(me.recipient().wrap(&fk, b"start").unwrap().body, stanza.body);
}

#[test]
fn other_kinds_are_not_mine_and_malformed_bodies_are_errors() {
    let me = X25519Identity::generate().unwrap();
    let fk = FileKey::from_bytes([7u8; 32]);
    let mut stanza = me.recipient().wrap(&fk, b"s").unwrap();
    let foreign = Stanza { kind: 1, body: vec![0; 64] };
    assert!(me.unwrap(&foreign, b"s").unwrap().is_none());
    stanza.body.pop();
    assert!(matches!(me.unwrap(&stanza, b"s"), Err(StanzaError::Malformed { .. })));
    stanza.body.extend_from_slice(&[0, 0]);
    assert!(matches!(me.unwrap(&stanza, b"s"), Err(StanzaError::Malformed { .. })));
}

#[test]
fn all_zero_shared_secret_is_refused() {
    let me = X25519Identity::generate().unwrap();
    // The point u = 0 (and u = 1) has low order: every shared secret with it is zero.
    for low in [[0u8; 32], {
        let mut one = [0u8; 32];
        one[0] = 1;
        one
    }] {
        let mut body = low.to_vec();
        body.extend_from_slice(&[0u8; WRAPPED_LEN]);
        let err = me.unwrap(&Stanza { kind: KIND_X25519, body }, b"s").unwrap_err();
        assert!(err.to_string().contains("all-zero"), "{err}");
        let r = X25519Recipient::from_bytes(low);
        assert!(r.wrap(&FileKey::from_bytes([1; 32]), b"s").is_err());
    }
}

#[test]
fn debug_shows_no_secret() {
    let me = X25519Identity::from_bytes([0xab; 32]);
    assert_eq!(format!("{me:?}"), "X25519Identity(..)");
}
