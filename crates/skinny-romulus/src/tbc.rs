//! The tweakable block cipher of Romulus, SKINNY-128-384+ (SKINNY-128-384 cut
//! to 40 rounds), called with a fresh tweakey every time; the tweakey encoding
//! and the 56-bit LFSR block counter.
//!
//! # What a call costs
//!
//! Every Romulus call has a tweakey of its own (the counter changes every
//! block, and TK2 or TK3 too in the AD, the hash and Romulus-T), so each one
//! runs the whole 40-round schedule of all three TK arrays
//! ([`Skinny::with_rounds`]) before the 40 rounds on `skinny`'s single-block
//! path. `skinny` has a cheaper route for a fixed key part (its `Tweakable*`
//! types expand TK2 ‖ TK3 once and add each call's TK1, which needs no LFSR),
//! but only at the full 56 rounds, and no public way to add a fresh TK1 ‖ TK2
//! to a 40-round TK3 part expanded once. So for now a call costs one schedule
//! of three arrays plus one encryption, and `examples/romulus_speed.rs` shows
//! the schedule taking about as long as the encryption (0.9 to 1.0 times, on
//! the shared dev machine, both timed in turns): it halves the speed. The
//! key's part (TK3 in Romulus-N and -M) is what a later step can keep per
//! message, and TK1's part needs no LFSR.

use skinny::{Skinny, Variant};
use zeroize::Zeroize;

/// Bytes in a block (n = 128) and in a tweak block (t = 128).
pub(crate) const BLOCK: usize = 16;

/// One block.
pub(crate) type Block = [u8; BLOCK];

/// SKINNY-128-384+'s round count.
const ROUNDS: usize = 40;

/// The LFSR's 56 bits.
const MASK_56: u64 = (1 << 56) - 1;

/// The block counter: a 56-bit LFSR held in the low 56 bits of a `u64` (bit
/// `8j + k` is bit `k` of byte `j` of the encoding, least significant byte
/// first). A step multiplies by x modulo x^56 + x^7 + x^4 + x^2 + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Counter(u64);

impl Counter {
    /// The all-zero counter of Romulus-T's fixed calls.
    pub(crate) const ZERO: Counter = Counter(0);
    /// The start value, 1.
    pub(crate) const ONE: Counter = Counter(1);

    /// One LFSR step (branch-free, though the counter is public).
    pub(crate) fn step(&mut self) {
        let carry = (self.0 >> 55) & 1;
        self.0 = ((self.0 << 1) & MASK_56) ^ (carry * 0x95);
    }

    /// The seven bytes of the encoding, least significant first.
    pub(crate) fn to_bytes(self) -> [u8; 7] {
        let b = self.0.to_le_bytes();
        [b[0], b[1], b[2], b[3], b[4], b[5], b[6]]
    }
}

/// A tweakey TK1 ‖ TK2 ‖ TK3, wiped when dropped.
pub(crate) struct Tweakey([u8; 48]);

impl Tweakey {
    /// Romulus's encoding: TK1 = counter ‖ domain ‖ 0^64, then TK2 and TK3.
    pub(crate) fn new(counter: Counter, domain: u8, tk2: &Block, tk3: &Block) -> Self {
        let mut tk = [0u8; 48];
        tk[..7].copy_from_slice(&counter.to_bytes());
        tk[7] = domain;
        tk[16..32].copy_from_slice(tk2);
        tk[32..].copy_from_slice(tk3);
        Self(tk)
    }

    /// Romulus-H's: TK1 = `tk1`, TK2 ‖ TK3 = `rest`.
    pub(crate) fn raw(tk1: &Block, rest: &[u8; 32]) -> Self {
        let mut tk = [0u8; 48];
        tk[..16].copy_from_slice(tk1);
        tk[16..].copy_from_slice(rest);
        Self(tk)
    }

    /// SKINNY-128-384+ under this tweakey (its round tweakeys are wiped when
    /// the value is dropped).
    pub(crate) fn cipher(&self) -> Skinny {
        Skinny::with_rounds(Variant::Skinny128_384, &self.0, ROUNDS)
            .unwrap_or_else(|_| unreachable!("48 bytes and 40 rounds fit SKINNY-128-384"))
    }

    /// Encrypts one block in place.
    pub(crate) fn encrypt(&self, block: &mut Block) {
        self.cipher().encrypt_block(block);
    }
}

impl Drop for Tweakey {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

/// `E` with Romulus's encoding, in place: the common call.
pub(crate) fn encrypt(counter: Counter, domain: u8, tk2: &Block, tk3: &Block, block: &mut Block) {
    Tweakey::new(counter, domain, tk2, tk3).encrypt(block);
}

/// G on a block: every byte (x7 .. x0) becomes (x0 ⊕ x7, x7, .., x1), on the
/// block as one 128-bit word (shifts and masks, no table).
pub(crate) fn g(s: &Block) -> Block {
    let x = u128::from_le_bytes(*s);
    let low7 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_u128;
    let high = 0x8080_8080_8080_8080_8080_8080_8080_8080_u128;
    (((x >> 1) & low7) ^ ((x ^ (x << 7)) & high)).to_le_bytes()
}

/// XORs `x` (up to a block) into the front of `acc`.
pub(crate) fn xor_into(acc: &mut Block, x: &[u8]) {
    for (a, b) in acc.iter_mut().zip(x) {
        *a ^= b;
    }
}

/// pad_n: a full block as is, the empty string as zeros, anything between as
/// X ‖ 0* ‖ its length in bytes.
pub(crate) fn pad(x: &[u8]) -> Block {
    let mut out = [0u8; BLOCK];
    out[..x.len()].copy_from_slice(x);
    if !x.is_empty() && x.len() < BLOCK {
        out[BLOCK - 1] = x.len() as u8;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::encoding;

    #[test]
    fn the_counter_matches_the_reference_lfsr() {
        let (mut fast, mut spec) = (Counter::ONE, encoding::Counter::ONE);
        // Past the first feedback (bit 55 reached after 55 steps) several times.
        for _ in 0..300 {
            assert_eq!(fast.to_bytes(), spec.0);
            fast.step();
            spec.step();
        }
    }

    #[test]
    fn g_and_pad_match_the_reference() {
        let s: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xa5);
        assert_eq!(g(&s), encoding::g(&s));
        for len in 0..=BLOCK {
            assert_eq!(pad(&s[..len]), encoding::pad(&s[..len]));
        }
    }
}
