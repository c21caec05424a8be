//! Romulus-M: a MAC over the AD and the message (absorbed two blocks per call,
//! as Romulus-N absorbs its AD), then the message encrypted in an OFB-like
//! mode from the tag (see `reference::romulus_m`). Every domain byte has the
//! member bit 32.

use super::{check_lengths, read_block, read_whole, write_block, write_whole, Absorber};
use crate::hazmat::{
    blocks, domain_m_mac_last, g, g128, Counter, BLOCK, DOMAIN_AD, DOMAIN_MESSAGE, DOMAIN_PAIR_WITH_MESSAGE, MEMBER_M,
};
use crate::tbc::{self, Block, Tbc};
use aead::inout::InOutBuf;
use aead::Error;
use skinny::hazmat::bitsliced::Direction;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// The tag of `ad` and `msg`; `message` holds the nonce ‖ key part.
fn mac(key: &Block, message: &Tbc, ad: &[u8], msg: &[u8]) -> Block {
    let count = blocks(ad.len()).0 + blocks(msg.len()).0;
    let mut slot = None;
    let mut absorber = Absorber::new(key, count, &mut slot);
    absorber.push_all(ad, DOMAIN_AD | MEMBER_M);
    absorber.push_all(msg, DOMAIN_PAIR_WITH_MESSAGE | MEMBER_M);
    let mut s = absorber.finish(domain_m_mac_last(ad.len(), msg.len()), message);
    let tag = g(&s);
    s.zeroize();
    tag
}

/// The OFB-like pass: S = the tag; for each block S ← E(S) (counter from 1,
/// domain 4, TK2 = the nonce), output = input ⊕ G(S), S ⊕= the plaintext block
/// (the last block's plaintext is not needed: nothing follows it). Whole
/// blocks go through as `u128`s in registers.
fn crypt(message: &Tbc, tag: &Block, buf: &mut InOutBuf<'_, '_, u8>, direction: Direction) {
    if buf.is_empty() {
        return;
    }
    let (count, last_len) = blocks(buf.len());
    let mut s = *tag;
    let mut counter = Counter::new();
    for i in 0..count {
        message.encrypt(counter, DOMAIN_MESSAGE | MEMBER_M, &mut s);
        counter.step();
        let state = u128::from_le_bytes(s);
        if i + 1 < count || last_len == BLOCK {
            let input = read_whole(buf, i);
            let out = g128(state) ^ input;
            write_whole(buf, i, out);
            if i + 1 < count {
                s = (state ^ if direction == Direction::Encrypt { input } else { out }).to_le_bytes();
            }
        } else {
            let (mut input, len) = read_block(buf, i);
            let mut out = g128(state).to_le_bytes();
            tbc::xor_into(&mut out, &input[..len]);
            write_block(buf, i, &out, len);
            input.zeroize();
            out.zeroize();
        }
    }
    s.zeroize();
}

/// Encrypts `buf` (input to output) and returns the tag.
///
/// # Errors
/// Only for inputs too long for the block counter (nothing written).
pub(crate) fn seal(key: &Block, nonce: &Block, ad: &[u8], mut buf: InOutBuf<'_, '_, u8>) -> Result<Block, Error> {
    check_lengths(ad.len(), buf.len())?;
    let mut slot = None;
    let message = Tbc::with_tk2_tk3(nonce, key, blocks(buf.len()).0 + 1, &mut slot);
    let tag = mac(key, &message, ad, buf.get_in());
    crypt(&message, &tag, &mut buf, Direction::Encrypt);
    Ok(tag)
}

/// Decrypts `buf` (input to output), then checks `tag` against the MAC of the
/// plaintext in constant time; on a wrong tag the whole output is overwritten
/// with zeros.
///
/// # Errors
/// A wrong tag, or inputs too long for the block counter (nothing written).
pub(crate) fn open(
    key: &Block,
    nonce: &Block,
    ad: &[u8],
    mut buf: InOutBuf<'_, '_, u8>,
    tag: &Block,
) -> Result<(), Error> {
    check_lengths(ad.len(), buf.len())?;
    let mut slot = None;
    let message = Tbc::with_tk2_tk3(nonce, key, blocks(buf.len()).0 + 1, &mut slot);
    crypt(&message, tag, &mut buf, Direction::Decrypt);
    let mut expected = mac(key, &message, ad, buf.get_out());
    // Public from here (`declassify`: for the constant-time check).
    let ok = skinny::hazmat::ct::declassify(bool::from(expected.ct_eq(tag)));
    expected.zeroize();
    if ok {
        Ok(())
    } else {
        buf.get_out().zeroize();
        Err(Error)
    }
}
