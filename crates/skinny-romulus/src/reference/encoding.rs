//! What the Romulus schemes share (specification, section 2): the block
//! counter, the tweakey encoding, ρ, the padding and the parsing into blocks;
//! and the tweakable block cipher, SKINNY-128-384+.

use skinny::hazmat::spec;
use skinny::hazmat::RoundTweakeys;
use skinny::{CellWidth, Variant};

/// Bytes in a block (n = 128 bits) and in a tweak block (t = 128 bits).
pub const BLOCK: usize = 16;

/// SKINNY-128-384+ is SKINNY-128-384 with 40 rounds instead of 56.
pub const ROUNDS: usize = 40;

/// `E_K^{(T)}(X)`: SKINNY-128-384+ encryption of `block` under the 384-bit
/// `tweakey` (TK1 ‖ TK2 ‖ TK3), with the whole tweakey schedule run for the call.
pub fn skinny_plus(tweakey: &[u8; 48], block: &[u8; BLOCK]) -> [u8; BLOCK] {
    let rtk = RoundTweakeys::expand_rounds(Variant::Skinny128_384, tweakey, ROUNDS);
    let mut out = *block;
    spec::encrypt_block(CellWidth::Byte, &rtk, &mut out);
    out
}

/// The block counter: a 56-bit LFSR, seven bytes with the least significant
/// first, as it goes into TK1. Its state is an element of GF(2^56) and a step
/// multiplies it by x modulo x^56 + x^7 + x^4 + x^2 + 1 (shift left by one, and
/// if bit 55 fell out, XOR 0x95 into the low byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counter(pub [u8; 7]);

impl Counter {
    /// The all-zero counter (the fixed calls of Romulus-T).
    pub const ZERO: Counter = Counter([0; 7]);

    /// The counter's start value, 1.
    pub const ONE: Counter = Counter([1, 0, 0, 0, 0, 0, 0]);

    /// One LFSR step.
    pub fn step(&mut self) {
        let feedback = if self.0[6] & 0x80 != 0 { 0x95 } else { 0 };
        for i in (1..7).rev() {
            self.0[i] = (self.0[i] << 1) | (self.0[i - 1] >> 7);
        }
        self.0[0] = (self.0[0] << 1) ^ feedback;
    }

    /// The counter after `j` steps from 1 (the specification indexes its calls
    /// by this `j`).
    pub fn at(j: usize) -> Counter {
        let mut c = Counter::ONE;
        for _ in 0..j {
            c.step();
        }
        c
    }
}

/// The domain bytes of the Romulus-N calls (decimal, as in the specification);
/// Romulus-M ORs in 32 and Romulus-T 64 ([`MEMBER_M`], [`MEMBER_T`]).
pub mod domain {
    /// A pair of full AD blocks (Romulus-N); a pair of AD blocks (Romulus-M).
    pub const AD: u8 = 8;
    /// The last AD call, the last AD block full.
    pub const AD_LAST_FULL: u8 = 24;
    /// The last AD call, the last AD block partial (padded) or empty.
    pub const AD_LAST_PARTIAL: u8 = 26;
    /// A full message block (Romulus-N, and Romulus-M's encryption).
    pub const MSG: u8 = 4;
    /// The last message call, the last block full.
    pub const MSG_LAST_FULL: u8 = 20;
    /// The last message call, the last block partial (padded) or empty.
    pub const MSG_LAST_PARTIAL: u8 = 21;
}

/// ORed into every domain byte of Romulus-M.
pub const MEMBER_M: u8 = 32;
/// ORed into every domain byte of Romulus-T.
pub const MEMBER_T: u8 = 64;

/// The tweakey encoding: TK1 = counter (56 bits) ‖ domain byte ‖ 0^64, TK2 = the
/// tweak block (a nonce or an AD block), TK3 = the key.
pub fn tweakey(counter: Counter, domain: u8, tweak: &[u8; BLOCK], key: &[u8; BLOCK]) -> [u8; 48] {
    let mut tk = [0u8; 48];
    tk[..7].copy_from_slice(&counter.0);
    tk[7] = domain;
    tk[16..32].copy_from_slice(tweak);
    tk[32..].copy_from_slice(key);
    tk
}

/// G: every byte (x7 .. x0) becomes (x0 ⊕ x7, x7, x6, .., x1).
pub fn g(s: &[u8; BLOCK]) -> [u8; BLOCK] {
    let mut out = [0u8; BLOCK];
    for (o, &x) in out.iter_mut().zip(s) {
        *o = (x >> 1) | ((x ^ (x << 7)) & 0x80);
    }
    out
}

/// ρ(S, M) = (S ⊕ M, G(S) ⊕ M): the new state and the output block.
pub fn rho(s: &[u8; BLOCK], m: &[u8; BLOCK]) -> ([u8; BLOCK], [u8; BLOCK]) {
    let gs = g(s);
    (xor(s, m), xor(&gs, m))
}

/// ρ⁻¹(S, C) = (S ⊕ G(S) ⊕ C, G(S) ⊕ C): the new state and the message block.
pub fn rho_inv(s: &[u8; BLOCK], c: &[u8; BLOCK]) -> ([u8; BLOCK], [u8; BLOCK]) {
    let m = xor(&g(s), c);
    (xor(s, &m), m)
}

/// X ⊕ Y on blocks.
pub fn xor(x: &[u8; BLOCK], y: &[u8; BLOCK]) -> [u8; BLOCK] {
    let mut out = [0u8; BLOCK];
    for ((o, a), b) in out.iter_mut().zip(x).zip(y) {
        *o = a ^ b;
    }
    out
}

/// pad_n(X): a full block unchanged, the empty string as 0^n, anything between
/// as X ‖ 0* ‖ len8(|X| in bytes).
pub fn pad(x: &[u8]) -> [u8; BLOCK] {
    let mut out = [0u8; BLOCK];
    out[..x.len()].copy_from_slice(x);
    if !x.is_empty() && x.len() < BLOCK {
        out[BLOCK - 1] = x.len() as u8;
    }
    out
}

/// The number of blocks `parse_n` cuts `x` into: the empty string is one
/// (empty) block, anything else ⌈|X| / n⌉ blocks.
pub fn block_count(x: &[u8]) -> usize {
    x.len().div_ceil(BLOCK).max(1)
}

/// Whether the last block of `x` is a full one (not partial, not empty).
pub fn last_block_full(x: &[u8]) -> bool {
    block(x, block_count(x)).len() == BLOCK
}

/// The `i`-th block of `x` (from 1, as in the specification): 16 bytes except
/// the last, which has 1 to 16 (or none, for the empty string).
pub fn block(x: &[u8], i: usize) -> &[u8] {
    let start = (i - 1) * BLOCK;
    &x[start..(start + BLOCK).min(x.len())]
}

/// The `i`-th block of the concatenation of `a` and `b` parsed block by block,
/// `a`'s blocks first (Romulus-M parses the AD and the message each into blocks
/// and authenticates the sequence of both).
pub fn block_of_two<'a>(a: &'a [u8], b: &'a [u8], i: usize) -> &'a [u8] {
    let count = block_count(a);
    if i <= count {
        block(a, i)
    } else {
        block(b, i - count)
    }
}
