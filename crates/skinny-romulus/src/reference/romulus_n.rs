//! Romulus-N, the nonce-based AEAD (specification, Algorithm "Romulus-N"): the
//! AD absorbed two blocks per call (one through ρ, one as TK2), the message one
//! block per call, the ciphertext blocks the output of ρ, the tag G(S) at the end.

use super::encoding::{
    block, block_count, domain, g, last_block_full, pad, rho, rho_inv, skinny_plus, tweakey, Counter, BLOCK,
};
use super::{tags_equal, Error};

/// The state after the AD: S = 0; each pair `(A[2i-1], A[2i])` is
/// `S ← ρ(S, A[2i-1])`, then S ← E with counter 2i-1, domain 8, `TK2 = A[2i]`;
/// the last call, domain 24 or 26 (the last AD block full or not), counter a,
/// TK2 = the nonce, after `ρ(S, A[a])` for odd a or ρ(S, 0^n) for even a. The last block is padded.
fn absorb_ad(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8]) -> [u8; BLOCK] {
    let a = block_count(ad);
    let last_domain = if last_block_full(ad) { domain::AD_LAST_FULL } else { domain::AD_LAST_PARTIAL };
    let mut s = [0u8; BLOCK];
    for i in 1..=a / 2 {
        (s, _) = rho(&s, &pad(block(ad, 2 * i - 1)));
        s = skinny_plus(&tweakey(Counter::at(2 * i - 1), domain::AD, &pad(block(ad, 2 * i)), key), &s);
    }
    let v = if a.is_multiple_of(2) { [0u8; BLOCK] } else { pad(block(ad, a)) };
    (s, _) = rho(&s, &v);
    skinny_plus(&tweakey(Counter::at(a), last_domain, nonce, key), &s)
}

/// The domain of the last message call: 20 for a full last block, 21 for a
/// partial or empty one.
fn last_message_domain(msg: &[u8]) -> u8 {
    if last_block_full(msg) {
        domain::MSG_LAST_FULL
    } else {
        domain::MSG_LAST_PARTIAL
    }
}

/// Encrypts `buffer` in place (message to ciphertext, the same length) and
/// returns the tag.
pub fn encrypt(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], buffer: &mut [u8]) -> [u8; 16] {
    let mut s = absorb_ad(key, nonce, ad);
    let m = block_count(buffer);
    let last_domain = last_message_domain(buffer);
    for i in 1..m {
        let mi: [u8; BLOCK] = pad(block(buffer, i));
        let (next, c) = rho(&s, &mi);
        buffer[(i - 1) * BLOCK..i * BLOCK].copy_from_slice(&c);
        s = skinny_plus(&tweakey(Counter::at(i), domain::MSG, nonce, key), &next);
    }
    // The last block, padded; its ciphertext is cut to the message's length.
    let len = block(buffer, m).len();
    let (next, c) = rho(&s, &pad(block(buffer, m)));
    buffer[(m - 1) * BLOCK..].copy_from_slice(&c[..len]);
    s = skinny_plus(&tweakey(Counter::at(m), last_domain, nonce, key), &next);
    let (_, tag) = rho(&s, &[0u8; BLOCK]);
    tag
}

/// Decrypts `buffer` in place and checks `tag`; on a mismatch `buffer` is
/// filled with zeros.
///
/// # Errors
/// A wrong tag (or one not 16 bytes long).
pub fn decrypt(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], buffer: &mut [u8], tag: &[u8]) -> Result<(), Error> {
    let mut s = absorb_ad(key, nonce, ad);
    let m = block_count(buffer);
    let last_domain = last_message_domain(buffer);
    for i in 1..m {
        let ci: [u8; BLOCK] = pad(block(buffer, i));
        let (next, mi) = rho_inv(&s, &ci);
        buffer[(i - 1) * BLOCK..i * BLOCK].copy_from_slice(&mi);
        s = skinny_plus(&tweakey(Counter::at(i), domain::MSG, nonce, key), &next);
    }
    // The last block: its message bytes are C ⊕ G(S), and the state absorbs the
    // padded message block, as in encryption.
    let len = block(buffer, m).len();
    let gs = g(&s);
    let mut last = [0u8; BLOCK];
    for (k, (x, y)) in block(buffer, m).iter().zip(&gs).enumerate() {
        last[k] = x ^ y;
    }
    buffer[(m - 1) * BLOCK..].copy_from_slice(&last[..len]);
    let (next, _) = rho(&s, &pad(&last[..len]));
    s = skinny_plus(&tweakey(Counter::at(m), last_domain, nonce, key), &next);
    let (_, expected) = rho(&s, &[0u8; BLOCK]);
    if tags_equal(&expected, tag) {
        Ok(())
    } else {
        buffer.fill(0);
        Err(Error)
    }
}
