//! Counting, for every guess, the pairs that partially decrypt to the
//! predicted differences, and ranking the guesses.

use super::plan::{unmixed, Plan};
use super::{GuessedCell, KeyRecoveryError};
use crate::Control;
use rayon::prelude::*;
use skinny::Variant;

/// For one target with a key cell in the deepest undone round: the `x` with
/// `S⁻¹(x) ⊕ S⁻¹(x ⊕ Δ) = δ`, grouped by `Δ` (`2^w` entries in all, as each
/// `x` has exactly one such `Δ`).
#[derive(Clone, Debug)]
struct Solutions {
    /// `values[starts[Δ] .. starts[Δ + 1]]`.
    starts: Vec<u16>,
    values: Vec<u8>,
}

impl Solutions {
    fn new(plan: &Plan, delta: u8) -> Self {
        let size = 1usize << plan.bits;
        let mut by_diff: Vec<Vec<u8>> = vec![Vec::new(); size];
        for x in 0..size {
            for (d, list) in by_diff.iter_mut().enumerate() {
                if plan.inv[x] ^ plan.inv[x ^ d] == delta {
                    list.push(x as u8);
                }
            }
        }
        let mut starts = Vec::with_capacity(size + 1);
        let mut values = Vec::with_capacity(size);
        for list in &by_diff {
            starts.push(values.len() as u16);
            values.extend_from_slice(list);
        }
        starts.push(values.len() as u16);
        Solutions { starts, values }
    }

    #[inline(always)]
    fn of(&self, diff: u8) -> &[u8] {
        let d = usize::from(diff);
        match (self.starts.get(d), self.starts.get(d + 1)) {
            (Some(&a), Some(&b)) => self.values.get(usize::from(a)..usize::from(b)).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// Counts, for every guess of the round-tweakey cells involved, the pairs of
/// ciphertexts whose partial decryptions show predicted differences in some
/// cells of the state after round `last_round - peeled`.
///
/// A target predicted with difference 0 needs no key cell of the deepest
/// undone round (the S-box and key keep a zero difference zero), so the
/// counter guesses fewer cells than [`PartialDecryption`](super::PartialDecryption)
/// for the same cells.
#[derive(Clone, Debug)]
pub struct KeyCounter {
    plan: Plan,
    /// Per target: its difference and, keyed, its solutions.
    deltas: Vec<u8>,
    solutions: Vec<Option<Solutions>>,
}

/// What a [`KeyCounter`] found: a count per guess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyCounts {
    counts: Vec<u32>,
    pairs: u64,
}

/// Where one guess stands among all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rank {
    /// 1 + the guesses with a higher count.
    pub rank: u64,
    /// The other guesses with the same count.
    pub ties: u64,
    /// Its count.
    pub count: u32,
}

impl KeyCounter {
    /// A counter for the last `peeled` rounds of `variant` up to `last_round`
    /// (rounds from 1), with `predicted`: (cell, difference) of the state
    /// after round `last_round - peeled`.
    ///
    /// # Errors
    /// As [`PartialDecryption::new`](super::PartialDecryption::new), and
    /// [`KeyRecoveryError::Difference`] for a difference wider than a cell.
    pub fn new(
        variant: Variant,
        last_round: usize,
        peeled: usize,
        predicted: &[(usize, u64)],
    ) -> Result<Self, KeyRecoveryError> {
        let bits: u32 = if variant.block_bytes() == 8 { 4 } else { 8 };
        let mut deltas = Vec::with_capacity(predicted.len());
        for &(cell, delta) in predicted {
            if delta >> bits != 0 {
                return Err(KeyRecoveryError::Difference { cell, delta, bits });
            }
            deltas.push(delta as u8);
        }
        let targets: Vec<usize> = predicted.iter().map(|&(c, _)| c).collect();
        let plan = Plan::new(variant, last_round, peeled, &targets, |t| deltas[t] != 0)?;
        let solutions = plan
            .layers
            .last()
            .map(|layer| {
                layer.iter().zip(&deltas).map(|(step, &d)| step.slot.map(|_| Solutions::new(&plan, d))).collect()
            })
            .unwrap_or_default();
        Ok(KeyCounter { plan, deltas, solutions })
    }

    /// The guessed cells, in the order their values sit in a guess.
    pub fn guessed(&self) -> &[GuessedCell] {
        &self.plan.guessed
    }

    /// The number of guesses, `2^(w * guessed)`.
    pub fn guesses(&self) -> u64 {
        self.plan.guesses()
    }

    /// The guess that `tweakey` (the master tweakey, TK1 ‖ TK2 ‖ TK3) makes.
    ///
    /// # Errors
    /// [`KeyRecoveryError::Length`] for a tweakey of the wrong length.
    pub fn guess_of(&self, tweakey: &[u8]) -> Result<u64, KeyRecoveryError> {
        self.plan.guess_of(tweakey)
    }

    /// Counts the pairs `(first[i], second[i])` (whole blocks, concatenated)
    /// that partially decrypt to the predicted differences, for every guess.
    /// Runs on the current rayon pool, one task per guess of the outer rounds;
    /// checks `control` between those, and counts a pair under a guess as one
    /// done.
    ///
    /// # Errors
    /// [`KeyRecoveryError::Length`] for partial blocks or batches of unequal
    /// length, [`KeyRecoveryError::TooLarge`] when the counts do not fit in
    /// memory, [`KeyRecoveryError::Stopped`] when `control` asked for a stop.
    pub fn count(&self, first: &[u8], second: &[u8], control: &Control) -> Result<KeyCounts, KeyRecoveryError> {
        let plan = &self.plan;
        let n = plan.blocks("the first ciphertexts", first)?;
        if second.len() != first.len() {
            return Err(KeyRecoveryError::Length {
                what: "the second ciphertexts",
                expected: format!("as long as the first ({} bytes)", first.len()),
                got: second.len(),
            });
        }
        let total =
            usize::try_from(plan.guesses()).map_err(|_| KeyRecoveryError::TooLarge("too many guesses".into()))?;
        let mut counts = Vec::new();
        counts
            .try_reserve_exact(total)
            .map_err(|_| KeyRecoveryError::TooLarge(format!("{total} counts do not fit in memory")))?;
        counts.resize(total, 0u32);
        let inner_bits = plan.bits as usize * plan.inner;
        let bb = plan.variant.block_bytes();
        let pairs: Vec<([u8; 16], [u8; 16])> = first
            .chunks_exact(bb)
            .zip(second.chunks_exact(bb))
            .map(|(a, b)| (plan.cells_of(a), plan.cells_of(b)))
            .collect();
        let done_per_outer = (n as u64) << inner_bits;
        counts.par_chunks_mut(1 << inner_bits).enumerate().try_for_each(|(outer, chunk)| {
            if control.stopped() {
                return Err(KeyRecoveryError::Stopped);
            }
            self.count_outer((outer as u64) << inner_bits, &pairs, chunk);
            control.add_done(done_per_outer);
            Ok(())
        })?;
        Ok(KeyCounts { counts, pairs: n as u64 })
    }

    /// The counts of the guesses `base | inner` (every inner guess) into `chunk`.
    fn count_outer(&self, base: u64, pairs: &[([u8; 16], [u8; 16])], chunk: &mut [u32]) {
        let plan = &self.plan;
        let Some(layer) = plan.layers.last() else { return };
        // The surviving keys of each keyed target for one pair, by inner slot.
        let mut lists: [&[u8]; 8] = [&[]; 8];
        let mut offsets = [0u8; 8];
        let mut shifts = [0u32; 8];
        'pairs: for (a, b) in pairs {
            let xa = plan.outer(a, base);
            let xb = plan.outer(b, base);
            let mut keyed = 0usize;
            for ((step, &delta), solutions) in layer.iter().zip(&self.deltas).zip(&self.solutions) {
                let ya = unmixed(&xa, step.cell) ^ step.constant;
                let yb = unmixed(&xb, step.cell) ^ step.constant;
                match (solutions, step.slot) {
                    (Some(sol), Some(slot)) if keyed < 8 => {
                        let list = sol.of(ya ^ yb);
                        if list.is_empty() {
                            continue 'pairs;
                        }
                        lists[keyed] = list;
                        offsets[keyed] = ya;
                        shifts[keyed] = plan.bits * u32::from(slot);
                        keyed += 1;
                    }
                    _ => {
                        if plan.inv[usize::from(ya)] ^ plan.inv[usize::from(yb)] != delta {
                            continue 'pairs;
                        }
                    }
                }
            }
            // Every combination of the keyed targets' surviving keys.
            let mut at = [0usize; 8];
            loop {
                let mut index = 0usize;
                for j in 0..keyed {
                    index |= usize::from(lists[j][at[j]] ^ offsets[j]) << shifts[j];
                }
                if let Some(c) = chunk.get_mut(index) {
                    *c += 1;
                }
                let mut j = 0;
                while j < keyed {
                    at[j] += 1;
                    if at[j] < lists[j].len() {
                        break;
                    }
                    at[j] = 0;
                    j += 1;
                }
                if j == keyed {
                    break;
                }
            }
        }
    }
}

impl KeyCounts {
    /// The count of every guess, indexed by guess.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// The pairs counted.
    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// Where `guess` stands.
    ///
    /// # Errors
    /// [`KeyRecoveryError::Guess`] for a guess past the last.
    pub fn rank(&self, guess: u64) -> Result<Rank, KeyRecoveryError> {
        let count = usize::try_from(guess)
            .ok()
            .and_then(|g| self.counts.get(g))
            .copied()
            .ok_or(KeyRecoveryError::Guess { last: (self.counts.len() as u64).saturating_sub(1), got: guess })?;
        let higher = self.counts.iter().filter(|&&c| c > count).count() as u64;
        let same = self.counts.iter().filter(|&&c| c == count).count() as u64;
        Ok(Rank { rank: higher + 1, ties: same - 1, count })
    }

    /// The `n` guesses with the highest counts, highest first (ties by the
    /// lower guess), as (guess, count).
    pub fn best(&self, n: usize) -> Vec<(u64, u32)> {
        let mut order: Vec<(u64, u32)> = self.counts.iter().enumerate().map(|(g, &c)| (g as u64, c)).collect();
        let key = |&(g, c): &(u64, u32)| (core::cmp::Reverse(c), g);
        let n = n.min(order.len());
        if n == 0 {
            return Vec::new();
        }
        if n < order.len() {
            order.select_nth_unstable_by_key(n - 1, key);
            order.truncate(n);
        }
        order.sort_unstable_by_key(key);
        order
    }
}
