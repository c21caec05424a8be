//! The SKINNY-AEAD mode (ΘCB3-like, as in the round-2 specification, §2.4),
//! written once for all six members against a [`BlockEngine`].
//!
//! With message blocks M_1 .. M_l (the last one, M_*, possibly partial), AD
//! blocks A_1 .. A_a, and `lfsr_i` the LFSR counter after i - 1 steps from 1:
//!
//! - C_i = E(lfsr_i, d = 0; M_i) for every full block; the checksum Σ is the XOR
//!   of the plaintext blocks;
//! - a partial last block of r bytes: C_* = M_* ⊕ E(lfsr_{l+1}, d = 1; 0^128)
//!   truncated, and Σ ⊕= M_* ‖ 0x80 ‖ 0*;
//! - the tag block E(lfsr_{l+1}, d = 4; Σ) with no partial block, else
//!   E(lfsr_{l+2}, d = 5; Σ);
//! - the AD, with the counter restarted at 1: Auth = ⊕ E(lfsr_i, d = 2; A_i),
//!   and a partial last block padded with 0x80 0* under d = 3;
//! - the tag is the first τ bytes of tag block ⊕ Auth.
//!
//! Every call also carries the nonce and key in its tweakey (see
//! `Layout` in `tweakey.rs`); the member's prefix is ORed into the
//! domain byte (bit 4: 96-bit nonce; bit 3: 64-bit tag).

use crate::engine::{BlockEngine, BATCH};
use crate::member::Member;
use crate::tweakey::{Block, BlockTweak, Lfsr, BLOCK};
use aead::inout::InOutBuf;
use aead::Error;
use skinny::hazmat::bitsliced::Direction;
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// Domain bits of a full message block.
pub(crate) const D_MSG: u8 = 0;
/// ... of the pad of a partial last message block.
pub(crate) const D_MSG_PARTIAL: u8 = 1;
/// ... of a full AD block.
pub(crate) const D_AD: u8 = 2;
/// ... of a partial last AD block.
pub(crate) const D_AD_PARTIAL: u8 = 3;
/// ... of the tag block when the message ends on a block boundary.
pub(crate) const D_TAG: u8 = 4;
/// ... of the tag block after a partial message block.
pub(crate) const D_TAG_PARTIAL: u8 = 5;

impl Member {
    /// The tweak of the next block in `domain` (the member's prefix ORed in);
    /// steps `counter`.
    pub(crate) fn tweak(self, counter: &mut Lfsr, domain: u8) -> BlockTweak {
        let t = BlockTweak { counter: counter.value(), domain: self.prefix() | domain };
        counter.step();
        t
    }

    /// Refuses inputs whose counters would wrap (only reachable for M5/M6, whose
    /// 24-bit LFSR repeats after 2^24 - 1 blocks): the message domain uses up
    /// to l + 2 counter values, the AD domain one per block.
    pub(crate) fn check_lengths(self, msg_len: usize, ad_len: usize) -> Result<(), Error> {
        let period = self.layout().counter_period();
        let msg = u64::try_from(msg_len / BLOCK).unwrap_or(u64::MAX).saturating_add(2);
        let ad = u64::try_from(ad_len.div_ceil(BLOCK)).unwrap_or(u64::MAX);
        if msg > period || ad > period {
            return Err(Error);
        }
        Ok(())
    }
}

pub(crate) fn xor_into(acc: &mut Block, x: &[u8]) {
    xor_into_slice(acc, x);
}

fn xor_into_slice(acc: &mut [u8], x: &[u8]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}

/// Blocks of a message handed to [`BlockEngine::crypt_run`] at a time: 64 KiB,
/// eight AVX-512 batches, so the engine's setup per call (its scratch, the
/// first counters) is shared by several batches while the checksum pass still
/// finds the chunk in the L2 cache.
const RUN: usize = 8 * BATCH;

/// XORs the 16-byte blocks of `data` (whole blocks) into `acc`, 64 bytes at a
/// time in eight `u64` lanes (one vector XOR on x86-64) rather than byte by
/// byte: the checksum of the plaintext and the sum of the encrypted AD.
fn xor_blocks_into(acc: &mut Block, data: &[u8]) {
    debug_assert_eq!(data.len() % BLOCK, 0);
    let mut lanes = [0u64; 8];
    let (wide, rest) = data.as_chunks::<64>();
    for chunk in wide {
        for (k, lane) in lanes.iter_mut().enumerate() {
            *lane ^= u64::from_le_bytes(chunk[8 * k..8 * k + 8].try_into().unwrap_or_else(|_| unreachable!()));
        }
    }
    for block in rest.chunks_exact(BLOCK) {
        for (k, lane) in lanes[..2].iter_mut().enumerate() {
            *lane ^= u64::from_le_bytes(block[8 * k..8 * k + 8].try_into().unwrap_or_else(|_| unreachable!()));
        }
    }
    let lo = lanes[0] ^ lanes[2] ^ lanes[4] ^ lanes[6];
    let hi = lanes[1] ^ lanes[3] ^ lanes[5] ^ lanes[7];
    lanes.zeroize();
    let mut sum = [0u8; BLOCK];
    sum[..8].copy_from_slice(&lo.to_le_bytes());
    sum[8..].copy_from_slice(&hi.to_le_bytes());
    xor_into(acc, &sum);
    sum.zeroize();
}

/// Encrypts or decrypts the message from `buf`'s input to its output; returns
/// the tag block (before the AD is folded in).
///
/// The whole blocks go [`RUN`] blocks at a time: copied to the output (nothing to copy when
/// input and output are one buffer), then encrypted or decrypted there, in
/// place, by [`BlockEngine::crypt_run`]; the checksum XORs the plaintext in
/// before encryption or after decryption.
fn crypt_message<E: BlockEngine>(m: Member, engine: &E, buf: &mut InOutBuf<'_, '_, u8>, dir: Direction) -> Block {
    let len = buf.len();
    let full = len - len % BLOCK;
    let mut counter = Lfsr::new(m.layout());
    let mut sum = [0u8; BLOCK];
    let (mut whole, mut tail) = buf.reborrow().split_at(full);
    while !whole.is_empty() {
        let n = whole.len().min(RUN * BLOCK);
        let (chunk, rest) = whole.split_at(n);
        whole = rest;
        if dir == Direction::Encrypt {
            xor_blocks_into(&mut sum, chunk.get_in());
        }
        let out = chunk.into_out_with_copied_in();
        engine.crypt_run(&mut counter, m.prefix() | D_MSG, out, dir);
        if dir == Direction::Decrypt {
            xor_blocks_into(&mut sum, out);
        }
    }

    let rest = len - full;
    let mut last = [0u8; BLOCK];
    last[..rest].copy_from_slice(tail.get_in());
    let tag = finish_message(m, engine, &mut counter, &mut sum, &mut last[..rest], dir);
    tail.get_out().copy_from_slice(&last[..rest]);
    last.zeroize();
    tag
}

/// The end of a message after its whole blocks (`counter` and `sum` as they
/// left them): a partial last block (`last`, under 16 bytes, turned from input
/// into output in place) with its checksum padding, then the tag block, which
/// is returned (before the AD is folded in). `sum` is wiped.
pub(crate) fn finish_message<E: BlockEngine>(
    m: Member,
    engine: &E,
    counter: &mut Lfsr,
    sum: &mut Block,
    last: &mut [u8],
    dir: Direction,
) -> Block {
    let rest = last.len();
    debug_assert!(rest < BLOCK);
    let tag_domain = if rest > 0 {
        let mut pad = [[0u8; BLOCK]];
        engine.encrypt(&[m.tweak(counter, D_MSG_PARTIAL)], &mut pad);
        // `plain` gets the plaintext padded with 0x80 0*.
        let mut plain = [0u8; BLOCK];
        if dir == Direction::Encrypt {
            plain[..rest].copy_from_slice(last);
        }
        xor_into_slice(last, &pad[0][..rest]);
        if dir == Direction::Decrypt {
            plain[..rest].copy_from_slice(last);
        }
        plain[rest] = 0x80;
        xor_into(sum, &plain);
        pad.zeroize();
        plain.zeroize();
        D_TAG_PARTIAL
    } else {
        D_TAG
    };
    let mut tag = [*sum];
    engine.encrypt(&[m.tweak(counter, tag_domain)], &mut tag);
    sum.zeroize();
    tag[0]
}

/// The XOR of the encrypted AD blocks.
pub(crate) fn authenticate<E: BlockEngine>(m: Member, engine: &E, ad: &[u8]) -> Block {
    let mut counter = Lfsr::new(m.layout());
    let mut auth = [0u8; BLOCK];
    let mut blocks = [0u8; BATCH * BLOCK];
    let full = ad.len() - ad.len() % BLOCK;
    for batch in ad[..full].chunks(BATCH * BLOCK) {
        let blocks = &mut blocks[..batch.len()];
        blocks.copy_from_slice(batch);
        engine.crypt_run(&mut counter, m.prefix() | D_AD, blocks, Direction::Encrypt);
        xor_blocks_into(&mut auth, blocks);
    }
    let rest = &ad[full..];
    if !rest.is_empty() {
        let mut last = [[0u8; BLOCK]];
        last[0][..rest.len()].copy_from_slice(rest);
        last[0][rest.len()] = 0x80;
        engine.encrypt(&[m.tweak(&mut counter, D_AD_PARTIAL)], &mut last);
        xor_into(&mut auth, &last[0]);
    }
    auth
}

/// Encrypts `buf` (input to output) and returns the full 128-bit tag block;
/// the tag is its first `m.tag_len()` bytes.
///
/// # Errors
/// Only for inputs too long for the member's counter.
pub(crate) fn seal<E: BlockEngine>(
    m: Member,
    engine: &E,
    ad: &[u8],
    mut buf: InOutBuf<'_, '_, u8>,
) -> Result<Block, Error> {
    m.check_lengths(buf.len(), ad.len())?;
    let mut tag = crypt_message(m, engine, &mut buf, Direction::Encrypt);
    xor_into(&mut tag, &authenticate(m, engine, ad));
    Ok(tag)
}

/// Decrypts `buf` (input to output) and checks `tag` in constant time. On
/// failure the whole output is overwritten with zeros before returning, so no
/// unverified plaintext is released (in place, that wipes the ciphertext too).
///
/// # Errors
/// A wrong tag, or inputs too long for the member's counter (output untouched).
pub(crate) fn open<E: BlockEngine>(
    m: Member,
    engine: &E,
    ad: &[u8],
    mut buf: InOutBuf<'_, '_, u8>,
    tag: &[u8],
) -> Result<(), Error> {
    m.check_lengths(buf.len(), ad.len())?;
    let mut expected = crypt_message(m, engine, &mut buf, Direction::Decrypt);
    xor_into(&mut expected, &authenticate(m, engine, ad));
    let ok = expected[..m.tag_len()].ct_eq(tag);
    expected.zeroize();
    // Public from here: the caller learns it (`declassify`: for the constant-time check).
    if skinny::hazmat::ct::declassify(bool::from(ok)) {
        Ok(())
    } else {
        buf.get_out().zeroize();
        Err(Error)
    }
}

#[cfg(test)]
mod tests;
