//! Romulus-N and -M (v1.3) as lanes: one SKINNY-128-384+ call at a time (the
//! modes are serial inside a message), with Romulus's tweakey encoding (TK1 =
//! 56-bit LFSR counter ‖ domain ‖ 0^64, TK2 = an AD or message block or the
//! nonce, TK3 = the key) from `skinny_romulus::hazmat`, the one
//! `skinny-romulus`'s modes run on; the tests check the two against each other.
//! The state machine's steps are in module `steps`.

mod steps;

use super::calls::{Block, Calls};
use super::lanes::{Lane, Started};
use super::Operation;
use crate::wipe::wipe_block;
use crate::MessageError;
use skinny_romulus::hazmat::{
    blocks, domain_m_mac_last, g, lengths_fit, padded_block, tk1, Counter, DOMAIN_AD_LAST_FULL, DOMAIN_AD_LAST_PARTIAL,
    MEMBER_M,
};
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
    /// The call the last step made ready.
    pending: Call,
    /// The call last emitted, in `calls.enc`.
    slot: usize,
}

/// A call a lane has ready (public but for a data block as TK2): its TK1's
/// first half (counter ‖ domain; the second half is zero) and its TK2 when it
/// is not the nonce. TK3 is the key and the block the lane's state.
#[derive(Clone, Copy)]
pub(crate) struct Call {
    pub(crate) tk1_half: u64,
    pub(crate) tk2: Option<Block>,
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
    let mut lane = Romulus {
        kind,
        op,
        key: k,
        nonce: n,
        ad,
        input,
        tag,
        out,
        s: [0; 16],
        counter,
        phase,
        pending: Call { tk1_half: 0, tk2: None },
        slot: 0,
    };
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

    /// Makes S ← E(counter, domain, tk2 (None: the nonce); S) the pending call.
    fn call(&mut self, domain: u8, tk2: Option<Block>) {
        // TK1 = counter ‖ domain ‖ 0^64: public.
        let whole = u128::from_le_bytes(tk1(self.counter, domain));
        self.pending = Call { tk1_half: whole as u64, tk2 };
    }

    /// The lane's nonce and key (its TK2 and TK3 for every call but those
    /// with a data block as TK2).
    pub(crate) fn nonce_key(&self) -> (&Block, &Block) {
        (&self.nonce, &self.key)
    }

    /// The state, the block of the pending call.
    pub(crate) fn state(&self) -> &Block {
        &self.s
    }

    /// Moves to the next call ([`Romulus::pending`]); `false` when the lane
    /// has none left (then [`Lane::finish`] ends it).
    pub(crate) fn advance(&mut self) -> bool {
        self.step()
    }

    /// The call [`Romulus::advance`] made ready.
    pub(crate) fn pending(&self) -> Call {
        self.pending
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
        if !self.step() {
            return false;
        }
        let c = self.pending;
        let mut tk1 = [0u8; 16];
        tk1[..8].copy_from_slice(&c.tk1_half.to_le_bytes());
        let mut tk2 = c.tk2.unwrap_or(self.nonce);
        self.slot = calls.enc.push(&self.s, &[&tk1, &tk2, &self.key]);
        wipe_block(&mut tk2);
        true
    }

    fn absorb(&mut self, calls: &Calls) {
        self.take(calls.enc.result(self.slot));
    }

    fn finish(self) -> Result<(), MessageError> {
        self.end()
    }
}

impl Drop for Romulus<'_> {
    fn drop(&mut self) {
        self.key.zeroize();
        self.s.zeroize();
    }
}
