//! A Romulus lane's steps: the state machine that makes each call pending
//! ([`Romulus::step`]), takes its result (the OFB pass's output) and ends
//! the message (its tag, or its check).

use super::{Kind, Phase, Romulus};
use crate::cpu::calls::{xor_into, Block};
use crate::cpu::Operation;
use crate::wipe::wipe_block;
use crate::MessageError;
use skinny_romulus::hazmat::{
    blocks, g, pad, DOMAIN_AD, DOMAIN_MESSAGE, DOMAIN_MESSAGE_LAST_FULL, DOMAIN_MESSAGE_LAST_PARTIAL,
    DOMAIN_PAIR_WITH_MESSAGE, MEMBER_M,
};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

impl Romulus<'_> {
    /// One step: the next call pending, or `false` at the end.
    pub(super) fn step(&mut self) -> bool {
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
                        self.call(domain, Some(second));
                        self.counter.step();
                        wipe_block(&mut second);
                        self.phase = Phase::Absorb { k: k + 2 };
                        return true;
                    } else if k <= n {
                        if k < n {
                            let last = self.absorbed(k);
                            xor_into(&mut self.s, &last);
                            self.counter.step();
                        }
                        let domain = self.absorb_final_domain();
                        self.call(domain, None);
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
                        wipe_block(&mut out);
                        let plain = u128::from_le_bytes(p);
                        wipe_block(&mut p);
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
                    self.call(domain, None);
                    self.phase = Phase::Message { i: i + 1 };
                    return true;
                }
                Phase::Ofb { i } => {
                    self.call(DOMAIN_MESSAGE | MEMBER_M, None);
                    self.counter.step();
                    self.phase = Phase::Ofb { i };
                    return true;
                }
                Phase::Done => return false,
            }
        }
    }

    /// Takes the pending call's result.
    pub(crate) fn take(&mut self, result: Block) {
        self.s = result;
        let Phase::Ofb { i } = self.phase else { return };
        // The OFB pass: output = input ⊕ G(S), and S absorbs the plaintext
        // of every block but the last (which is the only one that may be
        // short).
        let len = self.input.len();
        let start = 16 * i;
        let end = (start + 16).min(len);
        let mut ks = g(&self.s);
        if end - start == 16 {
            // A whole block as 128-bit words.
            let x = u128::from_le_bytes(self.input[start..end].try_into().unwrap_or_else(|_| unreachable!("16")));
            let y = x ^ u128::from_le_bytes(ks);
            self.out[start..end].copy_from_slice(&y.to_le_bytes());
            if end < len {
                let plain = if self.op == Operation::Seal { x } else { y };
                self.s = (u128::from_le_bytes(self.s) ^ plain).to_le_bytes();
            }
        } else {
            for (j, o) in (start..end).zip(&mut self.out[start..end]) {
                *o = self.input[j] ^ ks[j - start];
            }
        }
        wipe_block(&mut ks);
        if end < len {
            self.phase = Phase::Ofb { i: i + 1 };
        } else if self.op == Operation::Open {
            self.begin_mac();
        } else {
            self.phase = Phase::Done;
        }
    }

    /// Ends the message (see [`Lane::finish`](crate::cpu::lanes::Lane::finish)).
    pub(crate) fn end(self) -> Result<(), MessageError> {
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
