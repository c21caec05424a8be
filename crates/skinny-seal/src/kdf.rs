//! Key derivation: HKDF-SHA-256 (RFC 5869) everywhere, with one label a use.
//!
//! Why HKDF and not a SKINNY-based KDF: it is the standard, analysed
//! extract-then-expand construction that age and Tink use for the same job, its
//! security rests on HMAC-SHA-256, and reviewers know it; a SKINNY-based KDF would
//! be new cryptography to review. SKINNY does the bulk work (the payload and the
//! key wraps); SHA-256 only ever sees a few hundred bytes a file.

use hkdf::Hkdf;
use sha2::Sha256;

/// Label of the header MAC key: `HKDF(ikm = file key, salt = payload salt)`.
pub const LABEL_HEADER: &[u8] = b"skinny-seal v2 header";
/// Label of the payload key (followed by the scheme id, the flags and, when a
/// context is bound, the context's SHA-256).
pub const LABEL_PAYLOAD: &[u8] = b"skinny-seal v2 payload";
/// Label of a symmetric-key stanza's wrapping key (`ikm` = the user's key,
/// `salt` = the stanza's salt).
pub const LABEL_KEY_WRAP: &[u8] = b"skinny-seal v2 key wrap";
/// Label of an X25519 stanza's wrapping key (`ikm` = the shared secret,
/// `salt` = ephemeral public key ‖ recipient public key).
pub const LABEL_X25519_WRAP: &[u8] = b"skinny-seal v2 x25519";

/// `HKDF-SHA-256(ikm, salt, info)` expanded to `out.len()` bytes (at most 8160).
///
/// `info` is the concatenation of `info_parts` (no lengths are added: every
/// label above is followed only by fixed-length fields).
pub fn derive(ikm: &[u8], salt: &[u8], info_parts: &[&[u8]], out: &mut [u8]) {
    let hk = Hkdf::<Sha256>::new(Some(salt), ikm);
    // Only fails for outputs over 255 hash lengths, which no caller asks for.
    if hk.expand_multi_info(info_parts, out).is_err() {
        unreachable!("HKDF output length is fixed and small");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 5869, test case 1.
    #[test]
    fn rfc5869_case_1() {
        let ikm = [0x0bu8; 22];
        let salt: Vec<u8> = (0x00..=0x0c).collect();
        let info: Vec<u8> = (0xf0..=0xf9).collect();
        let mut okm = [0u8; 42];
        derive(&ikm, &salt, &[&info[..5], &info[5..]], &mut okm);
        assert_eq!(
            hex::encode(okm),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        );
    }
}
