//! Romulus-N and -M (v1.3) as lanes: one SKINNY-128-384+ call at a time (the
//! modes are serial inside a message), with Romulus's tweakey encoding (TK1 =
//! 56-bit LFSR counter ‖ domain ‖ 0^64, TK2 = an AD or message block or the
//! nonce, TK3 = the key) from `skinny_romulus::hazmat`, the one
//! `skinny-romulus`'s modes run on; the tests check the two against each other.

use super::calls::{xor_into, Block, Calls};
use super::lanes::{Lane, Started};
use super::Operation;
use crate::MessageError;
use skinny_romulus::hazmat::{
    blocks, domain_m_mac_last, g, lengths_fit, pad, padded_block, tk1, Counter, DOMAIN_AD, DOMAIN_AD_LAST_FULL,
    DOMAIN_AD_LAST_PARTIAL, DOMAIN_MESSAGE, DOMAIN_MESSAGE_LAST_FULL, DOMAIN_MESSAGE_LAST_PARTIAL,
    DOMAIN_PAIR_WITH_MESSAGE, MEMBER_M,
};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

pub(crate) use skinny_romulus::hazmat::ROUNDS;

/// Which Romulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Romulus-N.
    N,
    /// Romulus-M.
    M,
}

/// What the lane does next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Absorbing block `k` on of the AD (and for -M the message), two blocks
    /// a call, then the call with the nonce.
    Absorb { k: usize },
    /// -N's message blocks, block `i` next.
    Message { i: usize },
    /// -M's encryption from the tag, block `i` next.
    Ofb { i: usize },
    /// No calls left.
    Done,
}

/// One Romulus message in flight.
pub(crate) struct Romulus<'a> {
    kind: Kind,
    op: Operation,
    key: Block,
    nonce: Block,
    ad: &'a [u8],
    /// The plaintext (seal) or the ciphertext (open), without the tag.
    input: &'a [u8],
    /// The tag given to `open` (its bytes are public), or -M's computed tag
    /// while sealing.
    tag: Block,
    /// The output: ciphertext ‖ tag (seal) or plaintext (open).
    out: &'a mut [u8],
    s: Block,
    counter: Counter,
    phase: Phase,
    /// The call last emitted, in `calls.enc`.
    slot: usize,
}

/// Starts a message: `data` as in [`crate::Batch`] (plaintext, or ciphertext
/// ‖ tag), `out` its output bytes.
pub(crate) fn start<'a>(
    kind: Kind,
    op: Operation,
    key: &[u8],
    nonce: &[u8],
    ad: &'a [u8],
    data: &'a [u8],
    out: &'a mut [u8],
) -> Started<Romulus<'a>> {
    let (input, tag) = match op {
        Operation::Seal => (data, [0u8; 16]),
        Operation::Open => {
            let Some(cut) = data.len().checked_sub(16) else { return Started::Done(Err(MessageError::Forged)) };
            let mut tag = [0u8; 16];
            tag.copy_from_slice(&data[cut..]);
            (&data[..cut], tag)
        }
    };
    if !lengths_fit(ad.len(), input.len()) {
        return Started::Done(Err(MessageError::TooLong));
    }
    let mut k = [0u8; 16];
    k.copy_from_slice(key);
    let mut n = [0u8; 16];
    n.copy_from_slice(nonce);
    let phase = match (kind, op) {
        (Kind::M, Operation::Open) => Phase::Ofb { i: 0 },
        _ => Phase::Absorb { k: 0 },
    };
    let counter = Counter::new();
    let mut lane = Romulus { kind, op, key: k, nonce: n, ad, input, tag, out, s: [0; 16], counter, phase, slot: 0 };
    if phase == (Phase::Ofb { i: 0 }) {
        lane.s = lane.tag;
        if input.is_empty() {
            lane.begin_mac();
        }
    }
    Started::Lane(lane)
}

impl Romulus<'_> {
    fn domain_bit(&self) -> u8 {
        match self.kind {
            Kind::N => 0,
            Kind::M => MEMBER_M,
        }
    }

    /// The plaintext (known whole when -M's MAC runs).
    fn plaintext(&self) -> &[u8] {
        match self.op {
            Operation::Seal => self.input,
            Operation::Open => &self.out[..self.input.len()],
        }
    }

    /// The blocks absorbed: the AD's, then for -M the message's.
    fn absorbed_blocks(&self) -> usize {
        let a = blocks(self.ad.len()).0;
        match self.kind {
            Kind::N => a,
            Kind::M => a + blocks(self.input.len()).0,
        }
    }

    /// Absorbed block `k`, padded.
    fn absorbed(&self, k: usize) -> Block {
        let a = blocks(self.ad.len()).0;
        if k < a {
            padded_block(self.ad, k)
        } else {
            padded_block(self.plaintext(), k - a)
        }
    }

    /// The domain of the last absorbing call.
    fn absorb_final_domain(&self) -> u8 {
        match self.kind {
            Kind::N if blocks(self.ad.len()).1 == 16 => DOMAIN_AD_LAST_FULL,
            Kind::N => DOMAIN_AD_LAST_PARTIAL,
            Kind::M => domain_m_mac_last(self.ad.len(), self.input.len()),
        }
    }

    /// -M opening: the MAC over the AD and the recovered plaintext starts.
    fn begin_mac(&mut self) {
        self.s = [0; 16];
        self.counter = Counter::new();
        self.phase = Phase::Absorb { k: 0 };
    }

    /// Emits S ← E(counter, domain, tk2; S).
    fn call(&mut self, calls: &mut Calls, domain: u8, tk2: &Block) {
        // TK1 = counter ‖ domain ‖ 0^64: public.
        self.slot = calls.enc.push(&self.s, &[&tk1(self.counter, domain), tk2, &self.key]);
    }

    /// The phase after the absorption's last call.
    fn after_absorb(&mut self) {
        self.phase = match (self.kind, self.op) {
            (Kind::N, _) => {
                self.counter = Counter::new();
                Phase::Message { i: 0 }
            }
            (Kind::M, Operation::Seal) => {
                self.tag = g(&self.s);
                let len = self.input.len();
                self.out[len..].copy_from_slice(&self.tag);
                self.s = self.tag;
                self.counter = Counter::new();
                if len == 0 {
                    Phase::Done
                } else {
                    Phase::Ofb { i: 0 }
                }
            }
            (Kind::M, Operation::Open) => Phase::Done,
        };
    }
}

impl Lane for Romulus<'_> {
    fn emit(&mut self, calls: &mut Calls) -> bool {
        loop {
            match self.phase {
                Phase::Absorb { k } => {
                    let n = self.absorbed_blocks();
                    if k + 1 < n {
                        let first = self.absorbed(k);
                        // AD blocks are not secret; a message block's copy is
                        // wiped below.
                        let mut second = self.absorbed(k + 1);
                        xor_into(&mut self.s, &first);
                        self.counter.step();
                        let domain = if k + 1 < blocks(self.ad.len()).0 {
                            DOMAIN_AD | self.domain_bit()
                        } else {
                            DOMAIN_PAIR_WITH_MESSAGE | MEMBER_M
                        };
                        self.call(calls, domain, &second);
                        self.counter.step();
                        second.zeroize();
                        self.phase = Phase::Absorb { k: k + 2 };
                        return true;
                    } else if k <= n {
                        if k < n {
                            let last = self.absorbed(k);
                            xor_into(&mut self.s, &last);
                            self.counter.step();
                        }
                        let (domain, nonce) = (self.absorb_final_domain(), self.nonce);
                        self.call(calls, domain, &nonce);
                        self.phase = Phase::Absorb { k: n + 1 };
                        return true;
                    }
                    self.after_absorb();
                }
                Phase::Message { i } => {
                    let (count, last_len) = blocks(self.input.len());
                    if i == count {
                        self.phase = Phase::Done;
                        continue;
                    }
                    let start = 16 * i;
                    let len = (self.input.len() - start).min(16);
                    // Whole blocks as 128-bit words: no byte loops on the
                    // common path.
                    let (x, plain) = if len == 16 {
                        let mut b = [0u8; 16];
                        b.copy_from_slice(&self.input[start..start + 16]);
                        let x = u128::from_le_bytes(b);
                        let y = u128::from_le_bytes(g(&self.s)) ^ x;
                        self.out[start..start + 16].copy_from_slice(&y.to_le_bytes());
                        (x, if self.op == Operation::Seal { x } else { y })
                    } else {
                        let mut out = g(&self.s);
                        xor_into(&mut out, &self.input[start..start + len]);
                        self.out[start..start + len].copy_from_slice(&out[..len]);
                        let mut p = match self.op {
                            Operation::Seal => pad(&self.input[start..start + len]),
                            Operation::Open => pad(&out[..len]),
                        };
                        out.zeroize();
                        let plain = u128::from_le_bytes(p);
                        p.zeroize();
                        (0, plain)
                    };
                    let mut s = u128::from_le_bytes(self.s) ^ plain;
                    self.s = s.to_le_bytes();
                    let (mut x, mut plain) = (x, plain);
                    x.zeroize();
                    plain.zeroize();
                    s.zeroize();
                    self.counter.step();
                    let domain = match (i + 1 == count, last_len == 16) {
                        (false, _) => DOMAIN_MESSAGE,
                        (true, true) => DOMAIN_MESSAGE_LAST_FULL,
                        (true, false) => DOMAIN_MESSAGE_LAST_PARTIAL,
                    };
                    let nonce = self.nonce;
                    self.call(calls, domain, &nonce);
                    self.phase = Phase::Message { i: i + 1 };
                    return true;
                }
                Phase::Ofb { i } => {
                    let nonce = self.nonce;
                    self.call(calls, DOMAIN_MESSAGE | MEMBER_M, &nonce);
                    self.counter.step();
                    self.phase = Phase::Ofb { i };
                    return true;
                }
                Phase::Done => return false,
            }
        }
    }

    fn absorb(&mut self, calls: &Calls) {
        self.s = calls.enc.result(self.slot);
        let Phase::Ofb { i } = self.phase else { return };
        // The OFB pass: output = input ⊕ G(S), and S absorbs the plaintext
        // of every block but the last.
        let len = self.input.len();
        let start = 16 * i;
        let end = (start + 16).min(len);
        let mut ks = g(&self.s);
        for (j, o) in (start..end).zip(&mut self.out[start..end]) {
            *o = self.input[j] ^ ks[j - start];
        }
        ks.zeroize();
        if end < len {
            let plain = match self.op {
                Operation::Seal => &self.input[start..end],
                Operation::Open => &self.out[start..end],
            };
            let mut p = [0u8; 16];
            p.copy_from_slice(plain);
            xor_into(&mut self.s, &p);
            p.zeroize();
            self.phase = Phase::Ofb { i: i + 1 };
        } else if self.op == Operation::Open {
            self.begin_mac();
        } else {
            self.phase = Phase::Done;
        }
    }

    fn finish(self) -> Result<(), MessageError> {
        let len = self.input.len();
        match (self.kind, self.op) {
            (Kind::N, Operation::Seal) => {
                let tag = g(&self.s);
                self.out[len..].copy_from_slice(&tag);
                Ok(())
            }
            (Kind::M, Operation::Seal) => Ok(()),
            (_, Operation::Open) => {
                let mut expected = g(&self.s);
                // Public from here (`declassify`: for the constant-time check).
                let ok = skinny::hazmat::ct::declassify(bool::from(expected.ct_eq(&self.tag)));
                expected.zeroize();
                if ok {
                    Ok(())
                } else {
                    self.out.zeroize();
                    Err(MessageError::Forged)
                }
            }
        }
    }
}

impl Drop for Romulus<'_> {
    fn drop(&mut self) {
        self.key.zeroize();
        self.s.zeroize();
    }
}
