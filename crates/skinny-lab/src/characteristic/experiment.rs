//! The experiment of a differential characteristic: random pairs with the
//! characteristic's input difference, under random keys related by its
//! tweakey difference, encrypted one round at a time; a pair that leaves a
//! round with the characteristic's next difference goes on, the others stop.
//! So every round prefix 1..r gets its count of pairs that followed the
//! characteristic that far, and its empirical probability beside the
//! predicted one.
//!
//! Keys and plaintexts come from the lab's seeded generator as in every
//! experiment ([`Common`]): the plaintext of pair `q` depends on (seed, q),
//! the key of group `g` on (seed, g), so a run's counts do not depend on the
//! thread count. Each round of each key is its own one-round cipher (the
//! rounds' constants and tweakey states as in the full cipher), run by the
//! bitsliced engine for key groups of 256 pairs or more and by the
//! single-block one below that. CPU only.

use super::{CharacteristicError, DifferentialCharacteristic};
use crate::common::Common;
use crate::control::Control;
use crate::cpu::KeyCipher;
use crate::stats::{self, Estimate};
use crate::xor::{xor, xor_each_block};
use rayon::prelude::*;
use skinny::hazmat::partial::{self, TweakeyAt};
use std::time::Instant;

/// Pairs per batch: as the other experiments' batches.
const BATCH: u64 = 4096;

/// The counting run of a differential characteristic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CharacteristicExperiment {
    /// The characteristic followed.
    pub characteristic: DifferentialCharacteristic,
    /// Pairs encrypted (at least 1).
    pub queries: u64,
    /// A fresh key every this many pairs (1: a key per pair; `queries`: one key).
    pub key_every: u64,
    /// The generator's seed.
    pub seed: u64,
}

/// The pairs that followed the characteristic through one round prefix.
#[derive(Clone, Debug, PartialEq)]
pub struct PrefixCount {
    /// Rounds in the prefix (1 to r).
    pub rounds: usize,
    /// The cipher's round that ends it (from 1).
    pub last_round: usize,
    /// Pairs that had the characteristic's difference after every round of it.
    pub pairs: u64,
    /// Their share of the pairs, log2, with the exact 95 % interval.
    pub estimate: Estimate,
    /// log2 of the probability the tables predict for the prefix; `None`
    /// from the first impossible round on.
    pub predicted_log2: Option<f64>,
}

impl PrefixCount {
    /// Whether the predicted probability lies in the exact (Clopper-Pearson)
    /// interval of level `1 - alpha` of the count; a prediction of 0 agrees
    /// with no pair only. `None` when nothing was counted.
    pub fn agrees(&self, queries: u64, alpha: f64) -> Option<bool> {
        if queries == 0 {
            return None;
        }
        let Some(predicted) = self.predicted_log2 else { return Some(self.pairs == 0) };
        let (lo, hi) = stats::clopper_pearson(self.pairs, queries, alpha);
        let p = predicted.exp2();
        Some(lo <= p && p <= hi)
    }
}

/// What a characteristic's experiment counted.
#[derive(Clone, Debug, PartialEq)]
pub struct CharacteristicCounts {
    /// Pairs encrypted (fewer than asked for when the run was stopped).
    pub queries: u64,
    /// Whether the run was stopped ([`Control::stop`]) before all its pairs.
    pub interrupted: bool,
    /// Keys drawn (key groups).
    pub keys: u64,
    /// Every prefix, 1 round to all of them.
    pub prefixes: Vec<PrefixCount>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl CharacteristicExperiment {
    /// Counts on the current rayon pool.
    ///
    /// # Errors
    /// What [`DifferentialCharacteristic::check`] refuses, and
    /// [`CharacteristicError::Experiment`] for no queries or `key_every` 0.
    pub fn run(&self) -> Result<CharacteristicCounts, CharacteristicError> {
        self.run_with(&Control::new())
    }

    /// [`CharacteristicExperiment::run`], watched and steered through
    /// `control`: its count of pairs done goes up batch by batch, and after
    /// [`Control::stop`] the batches not yet started are skipped and the
    /// counts of those done are returned, marked interrupted.
    ///
    /// # Errors
    /// As [`CharacteristicExperiment::run`].
    pub fn run_with(&self, control: &Control) -> Result<CharacteristicCounts, CharacteristicError> {
        let ch = &self.characteristic;
        ch.check()?;
        if self.queries == 0 {
            return Err(CharacteristicError::Experiment("a characteristic's experiment needs at least one pair"));
        }
        if self.key_every == 0 {
            return Err(CharacteristicError::Experiment("key_every must be at least 1"));
        }
        let start = Instant::now();
        let predicted = ch.evaluate()?.prefix_log2();
        let rounds = ch.rounds();
        let mut common = Common::new(ch.variant, rounds, self.queries);
        common.start_round = ch.start_round;
        common.tk_at = ch.tk_at;
        common.key_every = self.key_every;
        common.seed = self.seed;
        let dk = ch.tweakey_at_start();
        let before = control.done();
        let counts = common
            .shard_groups()
            .into_par_iter()
            .map(|g| self.group(&common, &dk, g, control))
            .reduce(|| vec![0u64; rounds], add);
        let queries = control.done() - before;
        let prefixes = counts
            .iter()
            .enumerate()
            .map(|(i, &pairs)| PrefixCount {
                rounds: i + 1,
                last_round: ch.start_round + i,
                pairs,
                estimate: stats::estimate(pairs, queries),
                predicted_log2: predicted.get(i).copied(),
            })
            .collect();
        Ok(CharacteristicCounts {
            queries,
            interrupted: queries < self.queries,
            keys: common.groups(),
            prefixes,
            seconds: start.elapsed().as_secs_f64(),
        })
    }

    /// Key group `g`'s counts per prefix.
    fn group(&self, c: &Common, dk: &[u8], g: u64, control: &Control) -> Vec<u64> {
        let ch = &self.characteristic;
        if control.stopped() {
            return vec![0u64; ch.rounds()];
        }
        let queries = c.group_queries(g);
        let len = queries.end - queries.start;
        let k1 = c.start_key(g);
        let k2 = xor(&k1, dk);
        // One one-round cipher per round and side: round s + j under the
        // tweakey state advanced j steps from the start round's.
        let ciphers = |k: &[u8]| -> Vec<KeyCipher> {
            let mut state = k.to_vec();
            (0..ch.rounds())
                .map(|j| {
                    if j > 0 {
                        // Lengths and rounds were checked before.
                        partial::advance_tweakey(ch.variant, &mut state, 1).expect("checked length");
                    }
                    let one = partial::partial_cipher(ch.variant, &state, TweakeyAt::Start, ch.start_round + j, 1)
                        .expect("checked rounds");
                    KeyCipher::new(one, len)
                })
                .collect()
        };
        let (e1, e2) = (ciphers(&k1), ciphers(&k2));
        let batches = len.div_ceil(BATCH);
        (0..batches)
            .into_par_iter()
            .map(|b| {
                if control.stopped() {
                    return vec![0u64; ch.rounds()];
                }
                let s = queries.start + b * BATCH;
                let qs = s..queries.end.min(s + BATCH);
                let n = qs.end - qs.start;
                let counts = self.batch(c, &e1, &e2, qs);
                control.add_done(n);
                counts
            })
            .reduce(|| vec![0u64; ch.rounds()], add)
    }

    /// One batch of pairs through the rounds, the pairs off the
    /// characteristic dropped after each.
    fn batch(&self, c: &Common, e1: &[KeyCipher], e2: &[KeyCipher], qs: core::ops::Range<u64>) -> Vec<u64> {
        let ch = &self.characteristic;
        let bb = ch.variant.block_bytes();
        let n = (qs.end - qs.start) as usize;
        let mut x = vec![0u8; n * bb];
        for (q, block) in qs.zip(x.chunks_exact_mut(bb)) {
            c.plaintext(q, block);
        }
        let mut y = x.clone();
        xor_each_block(&mut y, &ch.states[0]);
        let mut counts = vec![0u64; ch.rounds()];
        for (j, count) in counts.iter_mut().enumerate() {
            if x.is_empty() {
                break;
            }
            e1[j].encrypt(&mut x);
            e2[j].encrypt(&mut y);
            let want = &ch.states[j + 1];
            let (mut kx, mut ky) = (Vec::with_capacity(x.len()), Vec::with_capacity(y.len()));
            for (a, b) in x.chunks_exact(bb).zip(y.chunks_exact(bb)) {
                if a.iter().zip(b).zip(want).all(|((a, b), w)| a ^ b == *w) {
                    kx.extend_from_slice(a);
                    ky.extend_from_slice(b);
                }
            }
            *count = (kx.len() / bb) as u64;
            (x, y) = (kx, ky);
        }
        counts
    }
}

fn add(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}
