//! Training data for neural distinguishers (Gohr, CRYPTO 2019): labelled
//! ciphertext pairs, real (plaintexts with a chosen difference, encrypted
//! under a fresh random tweakey each) and random, seeded and reproducible.
//!
//! Sample `i` depends on (seed, i) only, through the counter-based generator
//! of [`crate::rng`], so any slice of a data set can be made alone (in shards,
//! on the CPU or the GPU: `gpu::PairsKernel` draws the same words) and equals
//! the same rows of a larger one.
//!
//! Sample `i`: its label is bit 0 of word 0 of item `i` of the label stream;
//! `P0` is item `i` of the plaintext stream and `K` item `i` of the key
//! stream; `P1 = P0 ^ diff` (label 1, or random-ciphertext negatives) or item
//! `i` of the random stream's plaintexts (label 0, random-plaintext
//! negatives); `K1 = K ^ key_diff`. Its row is `E_K(P0) || E_K1(P1)`, or for a
//! label 0 with random-ciphertext negatives item `i` of the random stream's
//! key stream (two blocks of bytes).

use crate::error::LabError;
use crate::rng::{mix64, CounterRng, Stream};
use skinny::hazmat::bitsliced::PerBlockTweakeys;
use skinny::Variant;
use zeroize::Zeroizing;

/// Domains of the generators beyond the lab's own streams (labels, random
/// samples): the seed is mixed with these before use.
const LABEL_DOMAIN: u64 = 0x9e37_79b9_7f4a_7c15;
const RANDOM_DOMAIN: u64 = 0x6a09_e667_f3bc_c909;

/// What a sample labelled 0 is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Negatives {
    /// Uniformly random ciphertext pairs.
    RandomCiphertexts,
    /// Gohr's: a random plaintext pair encrypted under the sample's tweakey.
    RandomPlaintexts,
}

/// A seeded data set of labelled ciphertext pairs (all public data: the
/// tweakeys drawn are random, and wiped after use all the same).
#[derive(Clone, Debug)]
pub struct NeuralPairs {
    variant: Variant,
    rounds: usize,
    pbt: PerBlockTweakeys,
    diff: Vec<u8>,
    key_diff: Vec<u8>,
    seed: u64,
    negatives: Negatives,
}

impl NeuralPairs {
    /// The data set of `rounds` rounds of `variant` with plaintext difference
    /// `diff` (a block), tweakey difference `key_diff` (the whole tweakey),
    /// seed `seed`.
    ///
    /// # Errors
    /// A round count out of range, or a difference of the wrong length.
    pub fn new(
        variant: Variant,
        rounds: usize,
        diff: &[u8],
        key_diff: &[u8],
        seed: u64,
        negatives: Negatives,
    ) -> Result<Self, LabError> {
        let (bs, tl) = (variant.block_bytes(), variant.tweakey_bytes());
        if !(1..=variant.rounds()).contains(&rounds) {
            return Err(LabError::Rounds { variant, max: variant.rounds(), got: rounds });
        }
        if diff.len() != bs {
            return Err(LabError::Length { what: "diff", variant, expected: bs, got: diff.len() });
        }
        if key_diff.len() != tl {
            return Err(LabError::Length { what: "key_diff", variant, expected: tl, got: key_diff.len() });
        }
        let pbt = PerBlockTweakeys::new(variant, rounds).map_err(|_| LabError::Rounds {
            variant,
            max: variant.rounds(),
            got: rounds,
        })?;
        Ok(Self { variant, rounds, pbt, diff: diff.to_vec(), key_diff: key_diff.to_vec(), seed, negatives })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Rounds encrypted.
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// The plaintext difference.
    pub fn diff(&self) -> &[u8] {
        &self.diff
    }

    /// The tweakey difference.
    pub fn key_diff(&self) -> &[u8] {
        &self.key_diff
    }

    /// What a sample labelled 0 is.
    pub fn negatives(&self) -> Negatives {
        self.negatives
    }

    /// Bytes of a row of `x`: two blocks.
    pub fn row_bytes(&self) -> usize {
        2 * self.variant.block_bytes()
    }

    /// The seeded states of the streams the samples are drawn from, as the
    /// GPU kernels take them: plaintexts, tweakeys, labels, random
    /// plaintexts, random ciphertexts.
    pub fn stream_states(&self) -> [u64; 5] {
        let rng = CounterRng::new(self.seed);
        let random = CounterRng::new(mix64(self.seed ^ RANDOM_DOMAIN));
        [
            rng.stream_state(Stream::Plaintext),
            rng.stream_state(Stream::Key),
            CounterRng::new(mix64(self.seed ^ LABEL_DOMAIN)).stream_state(Stream::Plaintext),
            random.stream_state(Stream::Plaintext),
            random.stream_state(Stream::Key),
        ]
    }

    /// The label of sample `i`.
    pub fn label(&self, i: u64) -> u8 {
        (CounterRng::new(mix64(self.seed ^ LABEL_DOMAIN)).word(Stream::Plaintext, i, 0) & 1) as u8
    }

    /// Fills `x` (samples `first ..`, a row of [`NeuralPairs::row_bytes`]
    /// each) and `y` (their labels), on this thread. A few thousand samples
    /// a call keep the bitsliced engine busy; the buffers are on the heap.
    ///
    /// # Panics
    /// When `x` is not `y.len()` rows long (a caller's bug).
    pub fn fill(&self, first: u64, x: &mut [u8], y: &mut [u8]) {
        let (bs, tl) = (self.variant.block_bytes(), self.variant.tweakey_bytes());
        let n = y.len();
        assert_eq!(x.len(), n * 2 * bs, "x holds a row of two blocks for every label");
        let rng = CounterRng::new(self.seed);
        let random = CounterRng::new(mix64(self.seed ^ RANDOM_DOMAIN));
        let mut p0 = vec![0u8; n * bs];
        let mut p1 = vec![0u8; n * bs];
        let mut k0 = Zeroizing::new(vec![0u8; n * tl]);
        let mut k1 = Zeroizing::new(vec![0u8; n * tl]);
        for j in 0..n {
            let i = first + j as u64;
            y[j] = self.label(i);
            let (a, b) = (&mut p0[j * bs..(j + 1) * bs], &mut p1[j * bs..(j + 1) * bs]);
            rng.fill(Stream::Plaintext, i, a);
            if y[j] == 1 || self.negatives == Negatives::RandomCiphertexts {
                for ((b, a), d) in b.iter_mut().zip(a.iter()).zip(&self.diff) {
                    *b = a ^ d;
                }
            } else {
                random.fill(Stream::Plaintext, i, b);
            }
            let (ka, kb) = (&mut k0[j * tl..(j + 1) * tl], &mut k1[j * tl..(j + 1) * tl]);
            rng.fill(Stream::Key, i, ka);
            for ((kb, ka), d) in kb.iter_mut().zip(ka.iter()).zip(&self.key_diff) {
                *kb = ka ^ d;
            }
        }
        self.pbt.encrypt(&mut p0, &k0);
        self.pbt.encrypt(&mut p1, &k1);
        for j in 0..n {
            let row = &mut x[j * 2 * bs..(j + 1) * 2 * bs];
            if y[j] == 0 && self.negatives == Negatives::RandomCiphertexts {
                random.fill(Stream::Key, first + j as u64, row);
            } else {
                row[..bs].copy_from_slice(&p0[j * bs..(j + 1) * bs]);
                row[bs..].copy_from_slice(&p1[j * bs..(j + 1) * bs]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_pure_functions_of_seed_and_index() {
        for v in [Variant::Skinny64_64, Variant::Skinny128_384] {
            let kd = vec![0u8; v.tweakey_bytes()];
            let mut diff = vec![0u8; v.block_bytes()];
            diff[0] = 0x40;
            for neg in [Negatives::RandomCiphertexts, Negatives::RandomPlaintexts] {
                let set = NeuralPairs::new(v, 7, &diff, &kd, 3, neg).unwrap();
                let rb = set.row_bytes();
                let (mut x, mut y) = (vec![0u8; 100 * rb], vec![0u8; 100]);
                set.fill(50, &mut x, &mut y);
                let (mut x2, mut y2) = (vec![0u8; 10 * rb], vec![0u8; 10]);
                set.fill(70, &mut x2, &mut y2);
                assert_eq!(x2, x[20 * rb..30 * rb]);
                assert_eq!(y2, y[20..30]);
                assert!(y.contains(&1) && y.contains(&0));
            }
        }
    }

    #[test]
    fn refuses_wrong_lengths_and_rounds() {
        let v = Variant::Skinny64_64;
        let neg = Negatives::RandomCiphertexts;
        assert!(NeuralPairs::new(v, 7, &[0; 16], &[0; 8], 0, neg).is_err());
        assert!(NeuralPairs::new(v, 7, &[0; 8], &[0; 16], 0, neg).is_err());
        assert!(NeuralPairs::new(v, 0, &[0; 8], &[0; 8], 0, neg).is_err());
        assert!(NeuralPairs::new(v, 33, &[0; 8], &[0; 8], 0, neg).is_err());
        assert!(NeuralPairs::new(v, 32, &[0; 8], &[0; 8], 0, neg).is_ok());
    }
}
