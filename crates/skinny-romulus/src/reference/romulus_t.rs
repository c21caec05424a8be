//! Romulus-T, the leakage-resilient AEAD (specification, Algorithm
//! "Romulus-T"): a key derived from the nonce, a keystream whose key changes
//! every block (each block key encrypts the nonce twice: once for the keystream,
//! once for the next key), and a tag that encrypts a Romulus-H hash of the AD,
//! the ciphertext, the nonce and the final counter.
//!
//! Every domain byte has the member bit 64 ORed in ([`MEMBER_T`]); TK2 is zero
//! in the key and keystream calls, whose TK3 is the current block key.

use super::encoding::{block_count, skinny_plus, tweakey, Counter, BLOCK, MEMBER_T};
use super::{romulus_h, tags_equal, Error};

/// The domain of a keystream block (0 | 64).
const KEYSTREAM: u8 = MEMBER_T;
/// The domain of the next block key (1 | 64).
const NEXT_KEY: u8 = 1 | MEMBER_T;
/// The domain of the first block key, derived from the key (2 | 64).
const FIRST_KEY: u8 = 2 | MEMBER_T;
/// The domain of the tag (4 | 64).
const TAG: u8 = 4 | MEMBER_T;

/// ipad*(X): the empty string stays empty; anything else gets zeros and a last
/// byte |X| mod n (in bytes) up to a whole number of blocks, one whole block
/// more when it is already whole. Returns the bytes appended.
fn ipad_tail(x: &[u8]) -> ([u8; BLOCK], usize) {
    let mut tail = [0u8; BLOCK];
    if x.is_empty() {
        return (tail, 0);
    }
    let rest = x.len() % BLOCK;
    tail[BLOCK - rest - 1] = rest as u8;
    (tail, BLOCK - rest)
}

/// The keystream pass: for a non-empty message, K_1 = E with counter 0, domain
/// 66, TK3 = the key, of the nonce; block i is XORed with E with counter i - 1,
/// domain 64, TK3 = K_i, of the nonce (the last block cut to length); K_{i+1} =
/// the same with domain 65. Returns the counter after the message (1 stepped
/// once per block; 1 for an empty message).
fn keystream(key: &[u8; 16], nonce: &[u8; 16], buffer: &mut [u8]) -> Counter {
    if buffer.is_empty() {
        return Counter::ONE;
    }
    let zero = [0u8; BLOCK];
    let m = block_count(buffer);
    let mut block_key = skinny_plus(&tweakey(Counter::ZERO, FIRST_KEY, &zero, key), nonce);
    for i in 1..=m {
        let pad = skinny_plus(&tweakey(Counter::at(i - 1), KEYSTREAM, &zero, &block_key), nonce);
        let start = (i - 1) * BLOCK;
        let end = (start + BLOCK).min(buffer.len());
        for (b, p) in buffer[start..end].iter_mut().zip(&pad) {
            *b ^= p;
        }
        if i < m {
            block_key = skinny_plus(&tweakey(Counter::at(i - 1), NEXT_KEY, &zero, &block_key), nonce);
        }
    }
    Counter::at(m)
}

/// The tag: H = Romulus-H(ipad*(A) ‖ ipad*(C) ‖ N ‖ counter), then E with
/// counter 0, domain 68, TK2 = the second half of H, TK3 = the key, of H's
/// first half.
fn tag(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], ct: &[u8], counter: Counter) -> [u8; 16] {
    let (ad_tail, ad_tail_len) = ipad_tail(ad);
    let (ct_tail, ct_tail_len) = ipad_tail(ct);
    let h = romulus_h::hash(&[ad, &ad_tail[..ad_tail_len], ct, &ct_tail[..ct_tail_len], nonce, &counter.0]);
    let mut first = [0u8; BLOCK];
    let mut second = [0u8; BLOCK];
    first.copy_from_slice(&h[..BLOCK]);
    second.copy_from_slice(&h[BLOCK..]);
    skinny_plus(&tweakey(Counter::ZERO, TAG, &second, key), &first)
}

/// Encrypts `buffer` in place and returns the tag.
pub fn encrypt(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], buffer: &mut [u8]) -> [u8; 16] {
    let counter = keystream(key, nonce, buffer);
    tag(key, nonce, ad, buffer, counter)
}

/// Checks `tag` against the ciphertext in `buffer`, then decrypts it in place;
/// on a mismatch nothing is decrypted and `buffer` is filled with zeros.
///
/// # Errors
/// A wrong tag (or one not 16 bytes long).
pub fn decrypt(key: &[u8; 16], nonce: &[u8; 16], ad: &[u8], buffer: &mut [u8], tag_in: &[u8]) -> Result<(), Error> {
    let counter = if buffer.is_empty() { Counter::ONE } else { Counter::at(block_count(buffer)) };
    if tags_equal(&tag(key, nonce, ad, buffer, counter), tag_in) {
        keystream(key, nonce, buffer);
        Ok(())
    } else {
        buffer.fill(0);
        Err(Error)
    }
}
