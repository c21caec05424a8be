//! SKINNY-AEAD (ΘCB3) as lanes: a message's block calls are independent, so a
//! lane hands over all of them at once (message blocks, the pad of a partial
//! last block, the AD blocks), then the tag call, whose input (the checksum
//! of the plaintext) is known once the blocks are back. The tweakeys are the
//! members' own, from `skinny_aead::hazmat`.
//!
//! A message or AD of [`LONG`] bytes or more fills bitsliced batches on its
//! own: it goes whole through the member's single-message type, whose
//! per-block counters cost less than whole per-block tweakeys, and which the
//! batch results must equal anyway.

use super::calls::{xor_into, Block, Calls};
use super::lanes::{Lane, Started};
use super::Operation;
use crate::MessageError;
use skinny_aead::aead::inout::InOutBuf;
use skinny_aead::aead::{AeadInOut, KeyInit};
use skinny_aead::hazmat::{self, DOMAIN_AD, DOMAIN_AD_PARTIAL, DOMAIN_MESSAGE, DOMAIN_MESSAGE_PARTIAL};
use skinny_aead::{Member, SkinnyAead};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

/// Messages (or AD) from this many bytes on skip the lanes (see the module
/// docs): a few bitsliced batches of their own.
pub(crate) const LONG: usize = 8 << 10;

/// One SKINNY-AEAD message in flight.
pub(crate) struct Aead<'a> {
    member: Member,
    op: Operation,
    tweakey: Zeroizing<[u8; 48]>,
    ad: &'a [u8],
    /// The plaintext (seal) or the ciphertext (open), without the tag.
    input: &'a [u8],
    /// The tag given to `open`.
    tag: &'a [u8],
    /// The output: ciphertext ‖ tag (seal) or plaintext (open).
    out: &'a mut [u8],
    /// The checksum, then the tag block.
    sum: Block,
    auth: Block,
    stage: Stage,
    /// Where this lane's calls start: message blocks (enc on seal, dec on
    /// open), then in `enc` the pad, the AD blocks, or the tag call.
    msg_at: usize,
    enc_at: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Blocks,
    Tag,
    Done,
}

/// Starts a message: `data` as in [`crate::Batch`], `out` its output bytes.
pub(crate) fn start<'a>(
    member: Member,
    op: Operation,
    key: &[u8],
    nonce: &[u8],
    ad: &'a [u8],
    data: &'a [u8],
    out: &'a mut [u8],
) -> Started<Aead<'a>> {
    let tag_len = member.tag_len();
    let (input, tag) = match op {
        Operation::Seal => data.split_at(data.len()),
        Operation::Open => match data.len().checked_sub(tag_len) {
            Some(cut) => data.split_at(cut),
            None => return Started::Done(Err(MessageError::Forged)),
        },
    };
    if !hazmat::lengths_fit(member, input.len(), ad.len()) {
        return Started::Done(Err(MessageError::TooLong));
    }
    let mut k = Zeroizing::new([0u8; 16]);
    k.copy_from_slice(key);
    if input.len() >= LONG || ad.len() >= LONG {
        return Started::Done(whole(member, op, &k, nonce, ad, input, tag, out));
    }
    let tweakey = hazmat::base_tweakey(member, &k, nonce);
    Started::Lane(Aead {
        member,
        op,
        tweakey,
        ad,
        input,
        tag,
        out,
        sum: [0; 16],
        auth: [0; 16],
        stage: Stage::Blocks,
        msg_at: 0,
        enc_at: 0,
    })
}

/// A whole message through the member's single-message type.
#[allow(clippy::too_many_arguments)]
fn whole(
    member: Member,
    op: Operation,
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    input: &[u8],
    tag: &[u8],
    out: &mut [u8],
) -> Result<(), MessageError> {
    use skinny_aead::parameters::{Parameters, M1, M2, M3, M4, M5, M6};
    fn run<P: Parameters>(
        op: Operation,
        key: &[u8; 16],
        nonce: &[u8],
        ad: &[u8],
        input: &[u8],
        tag: &[u8],
        out: &mut [u8],
    ) -> Result<(), MessageError> {
        let cipher = SkinnyAead::<P>::new(key.into());
        let nonce = nonce.try_into().unwrap_or_else(|_| unreachable!("the batch checked the nonce length"));
        let len = input.len();
        let (body, tag_out) = out.split_at_mut(len);
        let buf = InOutBuf::new(input, body).unwrap_or_else(|_| unreachable!("equal lengths"));
        match op {
            Operation::Seal => {
                let t = cipher.encrypt_inout_detached(nonce, ad, buf).map_err(|_| MessageError::TooLong)?;
                tag_out.copy_from_slice(&t);
                Ok(())
            }
            Operation::Open => {
                let tag = tag.try_into().unwrap_or_else(|_| unreachable!("the tag's length"));
                cipher.decrypt_inout_detached(nonce, ad, buf, tag).map_err(|_| MessageError::Forged)
            }
        }
    }
    match member {
        Member::M1 => run::<M1>(op, key, nonce, ad, input, tag, out),
        Member::M2 => run::<M2>(op, key, nonce, ad, input, tag, out),
        Member::M3 => run::<M3>(op, key, nonce, ad, input, tag, out),
        Member::M4 => run::<M4>(op, key, nonce, ad, input, tag, out),
        Member::M5 => run::<M5>(op, key, nonce, ad, input, tag, out),
        Member::M6 => run::<M6>(op, key, nonce, ad, input, tag, out),
    }
}

impl Aead<'_> {
    /// Pushes a call on `block` in `dir`'s queue with this message's tweakey,
    /// `counter` and domain; returns its index.
    fn push(&self, queue: &mut super::calls::Queue, block: &Block, counter: u64, domain: u8) -> usize {
        let t = hazmat::variant(self.member).tweakey_bytes();
        let mut tk1 = [0u8; 16];
        tk1.copy_from_slice(&self.tweakey[..16]);
        hazmat::set_counter_and_domain(self.member, &mut tk1, counter, hazmat::domain_byte(self.member, domain));
        let at = queue.push(block, &[&tk1, &self.tweakey[16..t]]);
        // M5-M6's TK1 holds the nonce, public; M1-M4's nothing secret.
        at
    }

    fn full_blocks(&self) -> usize {
        self.input.len() / 16
    }
}

impl Lane for Aead<'_> {
    fn emit(&mut self, calls: &mut Calls) -> bool {
        let m = self.member;
        match self.stage {
            Stage::Blocks => {
                let mut counter = hazmat::COUNTER_START;
                let queue = match self.op {
                    Operation::Seal => &mut calls.enc,
                    Operation::Open => &mut calls.dec,
                };
                self.msg_at = queue.len();
                let mut block = [0u8; 16];
                for c in self.input.chunks_exact(16) {
                    block.copy_from_slice(c);
                    self.push(queue, &block, counter, DOMAIN_MESSAGE);
                    counter = hazmat::counter_step(m, counter);
                }
                self.enc_at = calls.enc.len();
                if !self.input.len().is_multiple_of(16) {
                    self.push(&mut calls.enc, &[0; 16], counter, DOMAIN_MESSAGE_PARTIAL);
                }
                let mut counter = hazmat::COUNTER_START;
                let (whole, rest) = self.ad.as_chunks::<16>();
                for b in whole {
                    self.push(&mut calls.enc, b, counter, DOMAIN_AD);
                    counter = hazmat::counter_step(m, counter);
                }
                if !rest.is_empty() {
                    block = [0; 16];
                    block[..rest.len()].copy_from_slice(rest);
                    block[rest.len()] = 0x80;
                    self.push(&mut calls.enc, &block, counter, DOMAIN_AD_PARTIAL);
                }
                block.zeroize();
                true
            }
            Stage::Tag => {
                let l = self.full_blocks();
                let mut counter = hazmat::COUNTER_START;
                for _ in 0..l {
                    counter = hazmat::counter_step(m, counter);
                }
                let domain = if !self.input.len().is_multiple_of(16) {
                    counter = hazmat::counter_step(m, counter);
                    hazmat::DOMAIN_TAG_PARTIAL
                } else {
                    hazmat::DOMAIN_TAG
                };
                let sum = self.sum;
                self.enc_at = self.push(&mut calls.enc, &sum, counter, domain);
                true
            }
            Stage::Done => false,
        }
    }

    fn absorb(&mut self, calls: &Calls) {
        match self.stage {
            Stage::Blocks => {
                let l = self.full_blocks();
                let queue = match self.op {
                    Operation::Seal => &calls.enc,
                    Operation::Open => &calls.dec,
                };
                self.out[..16 * l].copy_from_slice(queue.results(self.msg_at, l));
                let plain = match self.op {
                    Operation::Seal => &self.input[..16 * l],
                    Operation::Open => &self.out[..16 * l],
                };
                let mut sum = [0u8; 16];
                for b in plain.chunks_exact(16) {
                    xor_into(&mut sum, b);
                }
                let mut at = self.enc_at;
                let rest = self.input.len() % 16;
                if rest > 0 {
                    let mut pad = calls.enc.result(at);
                    at += 1;
                    let mut p = [0u8; 16];
                    let len = self.input.len();
                    for j in 0..rest {
                        let o = self.input[16 * l + j] ^ pad[j];
                        self.out[16 * l + j] = o;
                        p[j] = if self.op == Operation::Seal { self.input[16 * l + j] } else { o };
                    }
                    debug_assert_eq!(16 * l + rest, len);
                    p[rest] = 0x80;
                    xor_into(&mut sum, &p);
                    p.zeroize();
                    pad.zeroize();
                }
                let ad_blocks = self.ad.len().div_ceil(16);
                for b in calls.enc.results(at, ad_blocks).chunks_exact(16) {
                    xor_into(&mut self.auth, b);
                }
                self.sum = sum;
                sum.zeroize();
                self.stage = Stage::Tag;
            }
            Stage::Tag => {
                self.sum = calls.enc.result(self.enc_at);
                let auth = self.auth;
                xor_into(&mut self.sum, &auth);
                self.stage = Stage::Done;
            }
            Stage::Done => {}
        }
    }

    fn finish(self) -> Result<(), MessageError> {
        let len = self.input.len();
        let tag_len = self.member.tag_len();
        match self.op {
            Operation::Seal => {
                self.out[len..].copy_from_slice(&self.sum[..tag_len]);
                Ok(())
            }
            Operation::Open => {
                // Public from here (`declassify`: for the constant-time check).
                if skinny::hazmat::ct::declassify(bool::from(self.sum[..tag_len].ct_eq(self.tag))) {
                    Ok(())
                } else {
                    self.out.zeroize();
                    Err(MessageError::Forged)
                }
            }
        }
    }
}

impl Drop for Aead<'_> {
    fn drop(&mut self) {
        self.sum.zeroize();
        self.auth.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// M5 and M6 refuse what their 24-bit counter cannot number (a zeroed
    /// allocation: its pages are never touched); M1-M4 take it.
    #[test]
    fn m5_and_m6_refuse_what_their_counter_cannot_number() {
        let big = vec![0u8; 16 << 24];
        let mut out = [0u8; 16];
        for m in Member::ALL {
            let nonce = vec![0u8; m.nonce_len()];
            let fits = hazmat::lengths_fit(m, 0, big.len());
            assert_eq!(fits, !matches!(m, Member::M5 | Member::M6), "{m}");
            if !fits {
                let started = start(m, Operation::Seal, &[0; 16], &nonce, &big, &[], &mut out);
                assert!(matches!(started, Started::Done(Err(MessageError::TooLong))), "{m}");
            }
        }
    }
}
