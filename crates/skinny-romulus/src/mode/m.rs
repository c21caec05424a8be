//! Romulus-M: a MAC over the AD and the message (absorbed two blocks per call,
//! as Romulus-N absorbs its AD), then the message encrypted in an OFB-like
//! mode from the tag (see `reference::romulus_m`). Every domain byte has the
//! member bit 32.

use super::{blocks, check_lengths, read_block, read_whole, write_block, write_whole, Absorber, D_AD, D_MSG};
use crate::tbc::{self, Block, Counter, Tbc, BLOCK};
use aead::inout::InOutBuf;
use aead::Error;
use skinny::hazmat::bitsliced::Direction;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// Romulus-M's member bit, ORed into every domain byte.
const MEMBER: u8 = 32;
/// The domain of a MAC pair whose second block is a message block.
const D_PAIR_WITH_MESSAGE: u8 = 12;

/// The tag of `ad` and `msg`; `message` holds the nonce ‖ key part.
fn mac(key: &Block, message: &Tbc, ad: &[u8], msg: &[u8]) -> Block {
    let (a, a_last) = blocks(ad.len());
    let (m, m_last) = blocks(msg.len());
    // 16, plus 8 for an even AD block count, 4 for an even message block
    // count, 2 for a partial or empty last AD block, 1 for such a message block.
    let mut w = 16;
    if a.is_multiple_of(2) {
        w |= 8;
    }
    if m.is_multiple_of(2) {
        w |= 4;
    }
    if a_last < BLOCK {
        w |= 2;
    }
    if m_last < BLOCK {
        w |= 1;
    }
    let mut slot = None;
    let mut absorber = Absorber::new(key, a + m, &mut slot);
    absorber.push_all(ad, D_AD | MEMBER);
    absorber.push_all(msg, D_PAIR_WITH_MESSAGE | MEMBER);
    let mut s = absorber.finish(w | MEMBER, message);
    let tag = tbc::g(&s);
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
    let mut counter = Counter::ONE;
    for i in 0..count {
        message.encrypt(counter, D_MSG | MEMBER, &mut s);
        counter.step();
        let state = u128::from_le_bytes(s);
        if i + 1 < count || last_len == BLOCK {
            let input = read_whole(buf, i);
            let out = tbc::g128(state) ^ input;
            write_whole(buf, i, out);
            if i + 1 < count {
                s = (state ^ if direction == Direction::Encrypt { input } else { out }).to_le_bytes();
            }
        } else {
            let (mut input, len) = read_block(buf, i);
            let mut out = tbc::g128(state).to_le_bytes();
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
