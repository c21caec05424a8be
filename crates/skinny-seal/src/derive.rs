//! The keys of one file, derived from its file key (HKDF-SHA-256), and the
//! header MAC (HMAC-SHA-256, compared in constant time).

use crate::file_key::FileKey;
use crate::format::{FLAG_CONTEXT, MAC_LEN};
use crate::kdf::{derive, LABEL_HEADER, LABEL_PAYLOAD};
use crate::scheme::Scheme;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// `K_header = HKDF(ikm = FK, salt = payload salt, info = LABEL_HEADER)`, 32 bytes.
pub(crate) fn header_key(fk: &FileKey, salt: &[u8]) -> Zeroizing<[u8; 32]> {
    let mut k = Zeroizing::new([0u8; 32]);
    derive(fk.expose(), salt, &[LABEL_HEADER], &mut k[..]);
    k
}

/// `K_payload = HKDF(ikm = FK, salt, info = LABEL_PAYLOAD | scheme id | flags
/// | SHA-256(context) when flag bit 0)`, 16 bytes.
pub(crate) fn payload_key(fk: &FileKey, salt: &[u8], scheme: Scheme, flags: u8, context: &[u8]) -> Zeroizing<[u8; 16]> {
    let mut k = Zeroizing::new([0u8; 16]);
    let tail = [scheme.id(), flags];
    if flags & FLAG_CONTEXT != 0 {
        let h = Sha256::digest(context);
        derive(fk.expose(), salt, &[LABEL_PAYLOAD, &tail, &h], &mut k[..]);
    } else {
        derive(fk.expose(), salt, &[LABEL_PAYLOAD, &tail], &mut k[..]);
    }
    k
}

/// `HMAC-SHA-256(key, bytes)`.
pub(crate) fn header_mac(key: &[u8; 32], bytes: &[u8]) -> [u8; MAC_LEN] {
    let Ok(mut mac) = <Hmac<Sha256> as KeyInit>::new_from_slice(key) else {
        unreachable!("HMAC takes keys of any length")
    };
    mac.update(bytes);
    mac.finalize().into_bytes().into()
}

/// Whether `mac` is the header MAC of `bytes` (constant-time comparison).
///
/// The verdict is public (the opener refuses the file or goes on), so it is
/// declassified for the constant-time check: nothing before it branches on the
/// computed MAC, and the comparison itself does not stop at a differing byte.
pub(crate) fn mac_matches(key: &[u8; 32], bytes: &[u8], mac: &[u8; MAC_LEN]) -> bool {
    skinny::hazmat::ct::declassify(bool::from(header_mac(key, bytes).ct_eq(mac)))
}
