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
//! [`Layout`](crate::engine::Layout)); the member's prefix is ORed into the
//! domain byte (bit 4: 96-bit nonce; bit 3: 64-bit tag).

use crate::engine::{Block, BlockEngine, BlockTweak, Layout, Lfsr, BATCH, BLOCK};
use aead::inout::InOutBuf;
use aead::Error;
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

/// One member's parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Member {
    pub(crate) layout: Layout,
    /// The tag length τ in bytes (16 or 8).
    pub(crate) tag_len: usize,
    /// ORed into every domain byte.
    pub(crate) prefix: u8,
}

impl Member {
    pub(crate) fn tweak(self, counter: &mut Lfsr, domain: u8) -> BlockTweak {
        let t = BlockTweak { counter: counter.value(), domain: self.prefix | domain };
        counter.step();
        t
    }

    /// Refuses inputs whose counters would wrap (only reachable for M5/M6, whose
    /// 24-bit LFSR repeats after 2^24 - 1 blocks): the message domain uses up
    /// to l + 2 counter values, the AD domain one per block.
    pub(crate) fn check_lengths(self, msg_len: usize, ad_len: usize) -> Result<(), Error> {
        let period = self.layout.counter_period();
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
fn crypt_message<E: BlockEngine>(m: Member, engine: &E, buf: &mut InOutBuf<'_, '_, u8>, decrypt: bool) -> Block {
    let len = buf.len();
    let full = len - len % BLOCK;
    let mut counter = Lfsr::new(m.layout);
    let mut sum = [0u8; BLOCK];
    let (mut whole, mut tail) = buf.reborrow().split_at(full);
    while !whole.is_empty() {
        let n = whole.len().min(RUN * BLOCK);
        let (chunk, rest) = whole.split_at(n);
        whole = rest;
        if !decrypt {
            xor_blocks_into(&mut sum, chunk.get_in());
        }
        let out = chunk.into_out_with_copied_in();
        engine.crypt_run(&mut counter, m.prefix | D_MSG, out, decrypt);
        if decrypt {
            xor_blocks_into(&mut sum, out);
        }
    }

    let rest = len - full;
    let mut last = [0u8; BLOCK];
    last[..rest].copy_from_slice(tail.get_in());
    let tag = finish_message(m, engine, &mut counter, &mut sum, &mut last[..rest], decrypt);
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
    decrypt: bool,
) -> Block {
    let rest = last.len();
    debug_assert!(rest < BLOCK);
    let tag_domain = if rest > 0 {
        let mut pad = [[0u8; BLOCK]];
        engine.encrypt(&[m.tweak(counter, D_MSG_PARTIAL)], &mut pad);
        // `plain` gets the plaintext padded with 0x80 0*.
        let mut plain = [0u8; BLOCK];
        if !decrypt {
            plain[..rest].copy_from_slice(last);
        }
        xor_into_slice(last, &pad[0][..rest]);
        if decrypt {
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
    let mut counter = Lfsr::new(m.layout);
    let mut auth = [0u8; BLOCK];
    let mut blocks = [0u8; BATCH * BLOCK];
    let full = ad.len() - ad.len() % BLOCK;
    for batch in ad[..full].chunks(BATCH * BLOCK) {
        let blocks = &mut blocks[..batch.len()];
        blocks.copy_from_slice(batch);
        engine.crypt_run(&mut counter, m.prefix | D_AD, blocks, false);
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
/// the tag is its first `m.tag_len` bytes.
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
    let mut tag = crypt_message(m, engine, &mut buf, false);
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
    let mut expected = crypt_message(m, engine, &mut buf, true);
    xor_into(&mut expected, &authenticate(m, engine, ad));
    let ok = expected[..m.tag_len].ct_eq(tag);
    expected.zeroize();
    if bool::from(ok) {
        Ok(())
    } else {
        buf.get_out().zeroize();
        Err(Error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{BitslicedEngine, SingleEngine, SpecEngine};
    use core::cell::Cell;
    use std::{vec, vec::Vec};

    /// Another engine behind the same trait: the spec engine one block per call,
    /// counting calls and checking the batch sizes. The mode must give the same
    /// bytes through it: the seam is all the mode knows of the cipher.
    struct OneByOne {
        inner: SpecEngine,
        calls: Cell<usize>,
    }

    impl BlockEngine for OneByOne {
        fn encrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
            assert!(!blocks.is_empty() && blocks.len() <= BATCH);
            for (t, b) in tweaks.iter().zip(blocks.iter_mut()) {
                self.calls.set(self.calls.get() + 1);
                self.inner.encrypt(core::slice::from_ref(t), core::slice::from_mut(b));
            }
        }

        fn decrypt(&self, tweaks: &[BlockTweak], blocks: &mut [Block]) {
            assert!(!blocks.is_empty() && blocks.len() <= BATCH);
            for (t, b) in tweaks.iter().zip(blocks.iter_mut()) {
                self.calls.set(self.calls.get() + 1);
                self.inner.decrypt(core::slice::from_ref(t), core::slice::from_mut(b));
            }
        }
    }

    #[test]
    fn any_engine_behind_the_seam() {
        let m = Member { layout: Layout::Tk3, tag_len: 16, prefix: 0 };
        let key = [5u8; 16];
        let nonce = [6u8; 16];
        let spec = SpecEngine::new(m.layout, &key, &nonce);
        let one = OneByOne { inner: SpecEngine::new(m.layout, &key, &nonce), calls: Cell::new(0) };
        let ad = [7u8; 40];
        let mut a = [9u8; 16 * 20 + 3];
        let mut b = a;
        let ta = seal(m, &spec, &ad, a.as_mut_slice().into()).unwrap();
        let tb = seal(m, &one, &ad, b.as_mut_slice().into()).unwrap();
        assert_eq!((a, ta), (b, tb));
        // 20 full blocks, the pad, the tag block, 3 AD blocks.
        assert_eq!(one.calls.get(), 20 + 1 + 1 + 3);
        open(m, &one, &ad, b.as_mut_slice().into(), &tb).unwrap();
        assert_eq!(b, [9u8; 16 * 20 + 3]);
    }

    /// xorshift64*: test inputs without a dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn fill(&mut self, buf: &mut [u8]) {
            for b in buf {
                *b = self.next() as u8;
            }
        }
    }

    /// The six members' parameters (as in lib.rs).
    const MEMBERS: [Member; 6] = [
        Member { layout: Layout::Tk3, tag_len: 16, prefix: 0x00 },
        Member { layout: Layout::Tk3, tag_len: 16, prefix: 0x10 },
        Member { layout: Layout::Tk3, tag_len: 8, prefix: 0x08 },
        Member { layout: Layout::Tk3, tag_len: 8, prefix: 0x18 },
        Member { layout: Layout::Tk2, tag_len: 16, prefix: 0x10 },
        Member { layout: Layout::Tk2, tag_len: 8, prefix: 0x18 },
    ];

    /// The bitsliced engine (as the crate uses it, and with every call on the
    /// bitsliced path, single blocks included, on the best and the portable
    /// path) gives the spec engine's bytes on
    /// random messages of many lengths (within a batch, across batch and block
    /// boundaries), every member, and opens what it sealed.
    #[test]
    fn bitsliced_engine_matches_spec_engine() {
        let mut rng = Rng(0x5eed_0123_4567_89ab);
        let mut lens: Vec<usize> = (0..=40).collect();
        lens.extend([63, 64, 65, 255, 256, 257, 4095, 4096, 4097, 4111, 4112, 4113, 4127, 5000]);
        // Around the 512-block mode batch (8 KiB) and two of them.
        lens.extend([8191, 8192, 8193, 8207, 8208, 8209, 16383, 16384, 16400]);
        for _ in 0..8 {
            lens.push((rng.next() % 5001) as usize);
        }
        for (k, m) in MEMBERS.iter().copied().enumerate() {
            let nonce_len = if m.prefix & 0x10 != 0 { 12 } else { 16 };
            for (j, &len) in lens.iter().enumerate() {
                let mut key = [0u8; 16];
                let mut nonce = [0u8; 16];
                rng.fill(&mut key);
                rng.fill(&mut nonce);
                let nonce = &nonce[..nonce_len];
                // AD lengths: 0, a partial block, whole blocks, across a batch.
                let ad_len = [0, 1, 15, 16, 17, 48, 4100, 33][(j + k) % 8];
                let mut ad = vec![0u8; ad_len];
                rng.fill(&mut ad);
                let mut msg = vec![0u8; len];
                rng.fill(&mut msg);

                let spec = SpecEngine::new(m.layout, &key, nonce);
                let mut want = msg.clone();
                let want_tag = seal(m, &spec, &ad, want.as_mut_slice().into()).unwrap();
                for engine in [
                    BitslicedEngine::new(m.layout, &key, nonce),
                    BitslicedEngine::always_bitsliced(m.layout, &key, nonce),
                    BitslicedEngine::always_portable(m.layout, &key, nonce),
                ] {
                    let mut got = msg.clone();
                    let tag = seal(m, &engine, &ad, got.as_mut_slice().into()).unwrap();
                    assert_eq!((&got, tag), (&want, want_tag), "member {k}, {len} bytes, AD {ad_len}");
                    open(m, &engine, &ad, got.as_mut_slice().into(), &tag[..m.tag_len]).unwrap();
                    assert_eq!(got, msg, "member {k}, {len} bytes, AD {ad_len}");
                }
                // Every call one block at a time (the short calls' engine), on
                // the whole message too.
                let single = SingleEngine::new(m.layout, &key, nonce);
                let mut got = msg.clone();
                let tag = seal(m, &single, &ad, got.as_mut_slice().into()).unwrap();
                assert_eq!((&got, tag), (&want, want_tag), "single: member {k}, {len} bytes, AD {ad_len}");
                open(m, &single, &ad, got.as_mut_slice().into(), &tag[..m.tag_len]).unwrap();
                assert_eq!(got, msg, "single: member {k}, {len} bytes, AD {ad_len}");
            }
        }
    }

    #[test]
    fn lengths_m5_limit() {
        let m = Member { layout: Layout::Tk2, tag_len: 16, prefix: 0x10 };
        let period = (1usize << 24) - 1;
        // full blocks + 2 counters must fit in the period.
        assert!(m.check_lengths((period - 2) * BLOCK, 0).is_ok());
        assert!(m.check_lengths((period - 1) * BLOCK, 0).is_err());
        assert!(m.check_lengths(0, period * BLOCK).is_ok());
        assert!(m.check_lengths(0, period * BLOCK + 1).is_err());
        let m1 = Member { layout: Layout::Tk3, tag_len: 16, prefix: 0 };
        assert!(m1.check_lengths(usize::MAX, usize::MAX).is_ok());
    }
}
