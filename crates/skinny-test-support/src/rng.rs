//! Test inputs: seeded bytes that a failure can be replayed from, and random
//! keys and bytes from a `rand` generator.

use rand::RngCore;
use skinny::{Skinny, Variant};

/// Deterministic pseudo-random bytes (xorshift), so a failure can be replayed.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

/// SplitMix64: a small seeded generator, so a failure can be replayed.
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 bits.
    #[allow(clippy::should_implement_trait)] // not an Iterator: it never ends
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// `n` bytes, the low byte of each of the next `n` outputs.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// `n` bytes from `rng`.
pub fn random_bytes(rng: &mut impl RngCore, n: usize) -> Vec<u8> {
    let mut v = vec![0u8; n];
    rng.fill_bytes(&mut v);
    v
}

/// A cipher of variant `v` under a key from `rng`.
pub fn random_cipher(rng: &mut impl RngCore, v: Variant) -> Skinny {
    Skinny::new(v, &random_bytes(rng, v.tweakey_bytes())).expect("a key of the variant's length")
}
