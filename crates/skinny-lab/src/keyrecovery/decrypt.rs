//! The target cells' values under guessed round-tweakey cells.

use super::plan::{unmixed, Plan};
use super::{GuessedCell, KeyRecoveryError, MAX_OUTPUT_BYTES};
use crate::Control;
use rayon::prelude::*;
use skinny::Variant;

/// The last `peeled` rounds of a reduced-round cipher undone under guessed
/// round-tweakey cells, as far as some target cells of the state after round
/// `last_round - peeled`.
///
/// Every round-tweakey cell of the first two rows on a target's path is
/// guessed ([`PartialDecryption::guessed`]), the deepest round's included
/// (a target's value needs its key; its difference may not:
/// [`KeyCounter`](super::KeyCounter)).
#[derive(Clone, Debug)]
pub struct PartialDecryption {
    plan: Plan,
}

impl PartialDecryption {
    /// Undoes rounds `last_round - peeled + 1 ..= last_round` of `variant`
    /// (rounds from 1; `last_round` the cipher's last, of a reduced-round
    /// cipher when below `variant.rounds()`) as far as the cells `targets`.
    ///
    /// # Errors
    /// [`KeyRecoveryError`] for rounds out of range, bad or repeated cells, or
    /// more guessed bits than [`MAX_GUESS_BITS`](super::MAX_GUESS_BITS).
    pub fn new(
        variant: Variant,
        last_round: usize,
        peeled: usize,
        targets: &[usize],
    ) -> Result<Self, KeyRecoveryError> {
        Ok(Self { plan: Plan::new(variant, last_round, peeled, targets, |_| true)? })
    }

    /// The guessed cells, in the order their values sit in a guess.
    pub fn guessed(&self) -> &[GuessedCell] {
        &self.plan.guessed
    }

    /// The number of guesses, `2^(w * guessed)`.
    pub fn guesses(&self) -> u64 {
        self.plan.guesses()
    }

    /// The target cells, in order.
    pub fn targets(&self) -> Vec<usize> {
        self.plan.layers.last().map_or_else(Vec::new, |l| l.iter().map(|s| usize::from(s.cell)).collect())
    }

    /// The guess that `tweakey` (the master tweakey, TK1 ‖ TK2 ‖ TK3) makes.
    ///
    /// # Errors
    /// [`KeyRecoveryError::Length`] for a tweakey of the wrong length.
    pub fn guess_of(&self, tweakey: &[u8]) -> Result<u64, KeyRecoveryError> {
        self.plan.guess_of(tweakey)
    }

    /// The target cells of every ciphertext (whole blocks, concatenated)
    /// under each guess of `guesses`: `out[(g * n + i) * t + j]` is target `j`
    /// of ciphertext `i` under guess `guesses.start + g` (`n` ciphertexts,
    /// `t` targets, one cell a byte). Runs on the current rayon pool; checks
    /// `control` between guesses, and counts a ciphertext under a guess as
    /// one done.
    ///
    /// # Errors
    /// [`KeyRecoveryError::Length`] for a partial block,
    /// [`KeyRecoveryError::Guess`] for guesses past the last,
    /// [`KeyRecoveryError::TooLarge`] past [`MAX_OUTPUT_BYTES`],
    /// [`KeyRecoveryError::Stopped`] when `control` asked for a stop.
    pub fn decrypt(
        &self,
        ciphertexts: &[u8],
        guesses: core::ops::Range<u64>,
        control: &Control,
    ) -> Result<Vec<u8>, KeyRecoveryError> {
        let plan = &self.plan;
        let n = plan.blocks("the ciphertexts", ciphertexts)?;
        let last = plan.guesses() - 1;
        if guesses.start > guesses.end || guesses.end > plan.guesses() {
            let got =
                if guesses.start > last { guesses.start } else { guesses.end.saturating_sub(1).max(guesses.start) };
            return Err(KeyRecoveryError::Guess { last, got });
        }
        let targets = plan.layers.last().map_or(0, Vec::len);
        let count = guesses.end - guesses.start;
        let per_guess = n * targets;
        let bytes = usize::try_from(count)
            .ok()
            .and_then(|c| c.checked_mul(per_guess))
            .filter(|&b| b <= MAX_OUTPUT_BYTES)
            .ok_or_else(|| {
                KeyRecoveryError::TooLarge(format!(
                    "{count} guesses of {n} ciphertexts are more than {MAX_OUTPUT_BYTES} bytes: ask for fewer guesses at a time"
                ))
            })?;
        let mut out = Vec::new();
        out.try_reserve_exact(bytes)
            .map_err(|_| KeyRecoveryError::TooLarge(format!("{bytes} bytes do not fit in memory")))?;
        out.resize(bytes, 0);
        if per_guess == 0 {
            return Ok(out);
        }
        let bb = plan.variant.block_bytes();
        let stopped = out.par_chunks_mut(per_guess).enumerate().try_for_each(|(g, chunk)| {
            if control.stopped() {
                return Err(KeyRecoveryError::Stopped);
            }
            let guess = guesses.start + g as u64;
            for (block, cells) in ciphertexts.chunks_exact(bb).zip(chunk.chunks_exact_mut(targets)) {
                let x = plan.outer(&plan.cells_of(block), guess);
                if let Some(layer) = plan.layers.last() {
                    for (step, cell) in layer.iter().zip(cells.iter_mut()) {
                        let key = step.slot.map_or(0, |s| plan.slot_value(guess, s));
                        *cell = plan.inv[usize::from(unmixed(&x, step.cell) ^ key ^ step.constant)];
                    }
                }
            }
            control.add_done(n as u64);
            Ok(())
        });
        stopped.map(|()| out)
    }
}
