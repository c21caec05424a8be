//! Romulus-T: a key derived from the nonce, a keystream whose block key changes
//! every block, and a tag that encrypts a Romulus-H hash of the AD, the
//! ciphertext, the nonce and the final counter (see `reference::romulus_t`).
//! Every domain byte has the member bit 64; TK2 is zero in the key and
//! keystream calls, whose TK3 is the current block key.
//!
//! Opening checks the tag on the ciphertext before decrypting anything.

use super::{check_lengths, read_block, write_block};
use crate::hash::HashState;
use crate::hazmat::{blocks, Counter, BLOCK, DOMAIN_T_FIRST_KEY, DOMAIN_T_KEYSTREAM, DOMAIN_T_NEXT_KEY, DOMAIN_T_TAG};
use crate::tbc::{self, Block, Tbc};
use aead::inout::InOutBuf;
use aead::Error;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// The keystream XORed from `buf`'s input to its output. Returns the counter
/// after the message (stepped once per block from 1; 1 for an empty one).
fn keystream(key: &Block, nonce: &Block, buf: &mut InOutBuf<'_, '_, u8>) -> Counter {
    let mut counter = Counter::new();
    if buf.is_empty() {
        return counter;
    }
    let zero = [0u8; BLOCK];
    let (count, _) = blocks(buf.len());
    // The block key (TK3) changes every call: nothing is fixed.
    let e = Tbc::with_nothing_fixed();
    let mut block_key = *nonce;
    e.encrypt_tk2_tk3(Counter::ZERO, DOMAIN_T_FIRST_KEY, &zero, key, &mut block_key);
    for i in 0..count {
        let (mut data, len) = read_block(buf, i);
        let mut pad = *nonce;
        e.encrypt_tk2_tk3(counter, DOMAIN_T_KEYSTREAM, &zero, &block_key, &mut pad);
        tbc::xor_into(&mut data, &pad[..len]);
        write_block(buf, i, &data, len);
        if i + 1 < count {
            let mut next = *nonce;
            e.encrypt_tk2_tk3(counter, DOMAIN_T_NEXT_KEY, &zero, &block_key, &mut next);
            block_key = next;
            next.zeroize();
        }
        counter.step();
        data.zeroize();
        pad.zeroize();
    }
    block_key.zeroize();
    counter
}

/// The counter after a message of `len` bytes, without encrypting it.
fn counter_after(len: usize) -> Counter {
    let mut counter = Counter::new();
    if len > 0 {
        for _ in 0..blocks(len).0 {
            counter.step();
        }
    }
    counter
}

/// Hashes `x` followed by ipad*'s tail: nothing for an empty `x`, else zeros
/// and a last byte |x| mod 16 up to a whole number of blocks (a whole block
/// more when `x` is whole already).
fn hash_padded(h: &mut HashState, x: &[u8]) {
    h.update(x);
    if !x.is_empty() {
        let rest = x.len() % BLOCK;
        let mut tail = [0u8; BLOCK];
        tail[BLOCK - rest - 1] = rest as u8;
        h.update(&tail[..BLOCK - rest]);
    }
}

/// The tag: H = Romulus-H(ipad*(A) ‖ ipad*(C) ‖ N ‖ counter), then H's first
/// half encrypted with counter 0, domain 68, TK2 = H's second half, TK3 = the key.
fn tag(key: &Block, nonce: &Block, ad: &[u8], ct: &[u8], counter: Counter) -> Block {
    let mut h = HashState::new();
    hash_padded(&mut h, ad);
    hash_padded(&mut h, ct);
    h.update(nonce);
    h.update(&counter.to_bytes());
    let mut digest = h.finish();
    let (mut first, mut second) = ([0u8; BLOCK], [0u8; BLOCK]);
    first.copy_from_slice(&digest[..BLOCK]);
    second.copy_from_slice(&digest[BLOCK..]);
    Tbc::with_tk3(key, 1, &mut None).encrypt_tk2(Counter::ZERO, DOMAIN_T_TAG, &second, &mut first);
    digest.zeroize();
    second.zeroize();
    first
}

/// Encrypts `buf` (input to output) and returns the tag.
///
/// # Errors
/// Only for inputs too long for the block counter (nothing written).
pub(crate) fn seal(key: &Block, nonce: &Block, ad: &[u8], mut buf: InOutBuf<'_, '_, u8>) -> Result<Block, Error> {
    check_lengths(ad.len(), buf.len())?;
    let counter = keystream(key, nonce, &mut buf);
    Ok(tag(key, nonce, ad, buf.get_out(), counter))
}

/// Checks `tag` against the ciphertext (`buf`'s input) in constant time, then
/// decrypts it to the output; on a wrong tag nothing is decrypted and the whole
/// output is overwritten with zeros (as the other schemes do).
///
/// # Errors
/// A wrong tag, or inputs too long for the block counter (nothing written).
pub(crate) fn open(
    key: &Block,
    nonce: &Block,
    ad: &[u8],
    mut buf: InOutBuf<'_, '_, u8>,
    tag_in: &Block,
) -> Result<(), Error> {
    check_lengths(ad.len(), buf.len())?;
    let mut expected = tag(key, nonce, ad, buf.get_in(), counter_after(buf.len()));
    // Public from here (`declassify`: for the constant-time check).
    let ok = skinny::hazmat::ct::declassify(bool::from(expected.ct_eq(tag_in)));
    expected.zeroize();
    if ok {
        keystream(key, nonce, &mut buf);
        Ok(())
    } else {
        buf.get_out().zeroize();
        Err(Error)
    }
}
