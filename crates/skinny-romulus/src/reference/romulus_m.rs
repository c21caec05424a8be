//! Romulus-M, the misuse-resistant AEAD (specification, Algorithm "Romulus-M"):
//! SIV-like, a MAC over the AD and the message first (the two parsed into
//! blocks and absorbed two blocks per call, like Romulus-N's AD), then the
//! message encrypted in an OFB-like mode started from the tag.
//!
//! Every domain byte has the member bit 32 ORed in ([`MEMBER_M`]).

use super::encoding::{
    block_count, block_of_two, domain, last_block_full, pad, rho, rho_inv, skinny_plus, tweakey, Counter, BLOCK,
    MEMBER_M,
};
use super::{tags_equal, Error};
use skinny::hazmat::bitsliced::Direction;

/// The domain of the MAC's pairs of blocks once the message has begun (a pair
/// with at least one message block): 12, where the AD-only pairs have 8.
const MAC_PAIR_WITH_MESSAGE: u8 = 12;

/// The domain of the MAC's last call: 16, plus 8 if the AD has an even number
/// of blocks, 4 if the message has, 2 if the last AD block is partial or empty,
/// 1 if the last message block is.
fn last_mac_domain(ad: &[u8], msg: &[u8]) -> u8 {
    let mut w = 16;
    if !last_block_full(ad) {
        w ^= 2;
    }
    if !last_block_full(msg) {
        w ^= 1;
    }
    if block_count(ad).is_multiple_of(2) {
        w ^= 8;
    }
    if block_count(msg).is_multiple_of(2) {
        w ^= 4;
    }
    w
}

/// The tag: `X = A[1] .. A[a] M[1] .. M[m]` (each of A and M parsed on its
/// own, its last block padded); S = 0; each pair `(X[2i-1], X[2i])` is
/// `S ← ρ(S, X[2i-1])`, then S ← E with counter 2i-1, domain 8 (both blocks AD)
/// or 12, `TK2 = X[2i]`; an odd block left over goes through ρ too (else
/// ρ(S, 0^n)); the last call has counter a + m, the domain of
/// `last_mac_domain` (16, plus 8 for an even a, 4 for an even m, 2 for a
/// partial or empty last AD block, 1 for such a message block) and TK2 = the
/// nonce; the tag is G(S).
pub fn mac(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], msg: &[u8]) -> [u8; 16] {
    let (a, m) = (block_count(ad), block_count(msg));
    let x = |i: usize| pad(block_of_two(ad, msg, i));
    let mut s = [0u8; BLOCK];
    for i in 1..=(a + m) / 2 {
        (s, _) = rho(&s, &x(2 * i - 1));
        let d = if i <= a / 2 { domain::AD } else { MAC_PAIR_WITH_MESSAGE };
        s = skinny_plus(&tweakey(Counter::at(2 * i - 1), d | MEMBER_M, &x(2 * i), key), &s);
    }
    let v = if (a + m).is_multiple_of(2) { [0u8; BLOCK] } else { x(a + m) };
    (s, _) = rho(&s, &v);
    s = skinny_plus(&tweakey(Counter::at(a + m), last_mac_domain(ad, msg) | MEMBER_M, nonce, key), &s);
    let (_, tag) = rho(&s, &[0u8; BLOCK]);
    tag
}

/// The OFB-like pass from the tag: S = T; for each block i, S ← E with counter
/// i - 1, domain 4, TK2 = the nonce; then `(S, C[i]) ← ρ(S, M[i])` (encryption)
/// or `(S, M[i]) ← ρ⁻¹(S, C[i])` (decryption), the last block padded and its
/// output cut to length. Nothing happens for an empty message.
fn crypt(key: &[u8; 16], nonce: &[u8; 16], tag: &[u8; 16], buffer: &mut [u8], direction: Direction) {
    if buffer.is_empty() {
        return;
    }
    let mut s = *tag;
    for i in 1..=block_count(buffer) {
        s = skinny_plus(&tweakey(Counter::at(i - 1), domain::MSG | MEMBER_M, nonce, key), &s);
        let start = (i - 1) * BLOCK;
        let end = (start + BLOCK).min(buffer.len());
        let input = pad(&buffer[start..end]);
        let (next, out) = match direction {
            Direction::Encrypt => rho(&s, &input),
            Direction::Decrypt => rho_inv(&s, &input),
        };
        s = next;
        buffer[start..end].copy_from_slice(&out[..end - start]);
    }
}

/// Encrypts `buffer` in place and returns the tag.
pub fn encrypt(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], buffer: &mut [u8]) -> [u8; 16] {
    let tag = mac(key, nonce, ad, buffer);
    crypt(key, nonce, &tag, buffer, Direction::Encrypt);
    tag
}

/// Decrypts `buffer` in place and checks `tag` against the MAC of the result;
/// on a mismatch `buffer` is filled with zeros.
///
/// # Errors
/// A wrong tag (or one not 16 bytes long).
pub fn decrypt(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], buffer: &mut [u8], tag: &[u8]) -> Result<(), Error> {
    let mut t = [0u8; 16];
    if tag.len() == 16 {
        t.copy_from_slice(tag);
    }
    crypt(key, nonce, &t, buffer, Direction::Decrypt);
    if tags_equal(&mac(key, nonce, ad, buffer), tag) {
        Ok(())
    } else {
        buffer.fill(0);
        Err(Error)
    }
}
