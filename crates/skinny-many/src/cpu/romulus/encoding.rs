//! Romulus's encoding: the domain bytes, the 56-bit LFSR block counter, G,
//! and the parsing of strings into padded blocks.

use super::Block;

/// SKINNY-128-384+'s round count.
pub(crate) const ROUNDS: usize = 40;

/// Domain bytes: an AD pair (Romulus-N and -M), a message block (-N's
/// message phase, -M's encryption), -N's last AD call (last AD block full /
/// partial), -N's last message call (full / partial), -M's MAC pair ending in
/// a message block, and -M's member bit.
pub(crate) const D_AD: u8 = 8;
pub(crate) const D_MSG: u8 = 4;
pub(crate) const D_AD_LAST_FULL: u8 = 24;
pub(crate) const D_AD_LAST_PARTIAL: u8 = 26;
pub(crate) const D_MSG_LAST_FULL: u8 = 20;
pub(crate) const D_MSG_LAST_PARTIAL: u8 = 21;
pub(crate) const D_PAIR_WITH_MESSAGE: u8 = 12;
pub(crate) const MEMBER_M: u8 = 32;

/// The most blocks a message may have, AD and message together, each with
/// one block more for its possibly empty last one: no value of the 56-bit
/// counter (period 2^56 - 1) may repeat.
pub(crate) const MAX_BLOCKS: u64 = (1 << 56) - 2;

/// Which Romulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Romulus-N.
    N,
    /// Romulus-M.
    M,
}

/// The 56-bit LFSR block counter (x^56 + x^7 + x^4 + x^2 + 1), from 1.
#[derive(Clone, Copy)]
pub(crate) struct Counter(pub(crate) u64);

impl Counter {
    pub(crate) fn step(&mut self) {
        let carry = (self.0 >> 55) & 1;
        self.0 = ((self.0 << 1) & ((1 << 56) - 1)) ^ (carry * 0x95);
    }
}

/// G: every byte (x7 .. x0) becomes (x0 ⊕ x7, x7, .., x1).
pub(crate) fn g(s: &Block) -> Block {
    let x = u128::from_le_bytes(*s);
    let low7 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_u128;
    let high = 0x8080_8080_8080_8080_8080_8080_8080_8080_u128;
    (((x >> 1) & low7) ^ ((x ^ (x << 7)) & high)).to_le_bytes()
}

/// The number of blocks `len` bytes parse into (the empty string is one
/// empty block) and the last one's length.
pub(crate) fn blocks(len: usize) -> (usize, usize) {
    let count = len.div_ceil(16).max(1);
    (count, len - (count - 1) * 16)
}

/// Block `i` of `x` padded (pad_n: a full block as is, the empty string as
/// zeros, anything between as X ‖ 0* ‖ its length).
pub(crate) fn padded_block(x: &[u8], i: usize) -> Block {
    let part = &x[(16 * i).min(x.len())..(16 * i + 16).min(x.len())];
    let mut out = [0u8; 16];
    out[..part.len()].copy_from_slice(part);
    if !part.is_empty() && part.len() < 16 {
        out[15] = part.len() as u8;
    }
    out
}
