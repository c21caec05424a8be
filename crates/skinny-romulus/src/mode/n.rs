//! Romulus-N: the AD absorbed two blocks per call, then each message block
//! through ρ and one call, the tag G(S) (see `reference::romulus_n` for the
//! specification's form).

use super::{check_lengths, read_block, read_whole, write_block, write_whole, Absorber};
use crate::hazmat::{
    blocks, g, g128, pad, Counter, BLOCK, DOMAIN_AD, DOMAIN_AD_LAST_FULL, DOMAIN_AD_LAST_PARTIAL, DOMAIN_MESSAGE,
    DOMAIN_MESSAGE_LAST_FULL, DOMAIN_MESSAGE_LAST_PARTIAL,
};
use crate::tbc::{self, Block, Tbc};
use aead::inout::InOutBuf;
use aead::Error;
use skinny::hazmat::bitsliced::Direction;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// The state after the AD.
fn absorb_ad(key: &Block, message: &Tbc, ad: &[u8]) -> Block {
    let (count, last) = blocks(ad.len());
    let mut slot = None;
    let mut absorber = Absorber::new(key, count, &mut slot);
    absorber.push_all(ad, DOMAIN_AD);
    absorber.finish(if last == BLOCK { DOMAIN_AD_LAST_FULL } else { DOMAIN_AD_LAST_PARTIAL }, message)
}

/// The message phase from the state `s` after the AD: `buf`'s input to its
/// output; returns the tag. The state absorbs the plaintext: each block's
/// output is G(S) ⊕ input, and S ⊕= the plaintext block (padded for the last).
/// `message` holds the nonce ‖ key part of the calls. Whole blocks go through
/// as `u128`s in registers; the short last one through a block that is wiped.
fn crypt(message: &Tbc, s: Block, buf: &mut InOutBuf<'_, '_, u8>, direction: Direction) -> Block {
    let (count, last_len) = blocks(buf.len());
    let mut counter = Counter::new();
    let mut s = u128::from_le_bytes(s);
    for i in 0..count {
        let last = i + 1 == count;
        if !last || last_len == BLOCK {
            let input = read_whole(buf, i);
            let out = g128(s) ^ input;
            write_whole(buf, i, out);
            s ^= if direction == Direction::Encrypt { input } else { out };
        } else {
            let (mut input, len) = read_block(buf, i);
            let mut out = g(&s.to_le_bytes());
            tbc::xor_into(&mut out, &input[..len]);
            let mut plain = pad(if direction == Direction::Encrypt { &input[..len] } else { &out[..len] });
            s ^= u128::from_le_bytes(plain);
            write_block(buf, i, &out, len);
            input.zeroize();
            out.zeroize();
            plain.zeroize();
        }
        counter.step();
        let domain = match (last, last_len == BLOCK) {
            (false, _) => DOMAIN_MESSAGE,
            (true, true) => DOMAIN_MESSAGE_LAST_FULL,
            (true, false) => DOMAIN_MESSAGE_LAST_PARTIAL,
        };
        let mut block = s.to_le_bytes();
        message.encrypt(counter, domain, &mut block);
        s = u128::from_le_bytes(block);
        block.zeroize();
    }
    let tag = g128(s).to_le_bytes();
    s.zeroize();
    tag
}

/// Encrypts `buf` (input to output) and returns the tag.
///
/// # Errors
/// Only for inputs too long for the block counter (nothing written).
pub(crate) fn seal(key: &Block, nonce: &Block, ad: &[u8], mut buf: InOutBuf<'_, '_, u8>) -> Result<Block, Error> {
    check_lengths(ad.len(), buf.len())?;
    let mut slot = None;
    let message = Tbc::with_tk2_tk3(nonce, key, blocks(buf.len()).0 + 1, &mut slot);
    let s = absorb_ad(key, &message, ad);
    Ok(crypt(&message, s, &mut buf, Direction::Encrypt))
}

/// Decrypts `buf` (input to output) and checks `tag` in constant time; on a
/// wrong tag the whole output is overwritten with zeros.
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
    let s = absorb_ad(key, &message, ad);
    let mut expected = crypt(&message, s, &mut buf, Direction::Decrypt);
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
