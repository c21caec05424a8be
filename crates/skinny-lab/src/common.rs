//! The parameters common to both experiments, and the queries, keys and
//! plaintexts they define.

use crate::error::LabError;
use crate::rng::{CounterRng, Stream};
use crate::shard::Shard;
use skinny::hazmat::partial::{self, TweakeyAt};
use skinny::{Skinny, Variant};

/// The most right pairs (or quartets) a run keeps ([`Common::show`]): every
/// one is held in memory by each piece of work in flight, and recomputed
/// when findings are merged.
pub const MAX_SHOW: usize = 1024;

/// The parameters common to both experiments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Common {
    /// The SKINNY variant.
    pub variant: Variant,
    /// Rounds run: rounds `start_round ..= start_round + rounds - 1` of the
    /// cipher, which must lie in the variant's.
    pub rounds: usize,
    /// The first round run, from 1 (round 1 is the cipher's first): its
    /// constants and its tweakey state start the rounds run.
    pub start_round: usize,
    /// Where the keys and tweakey differences are given: at the master
    /// tweakey (differences advanced to the start round by the schedule) or
    /// at the start round's tweakey state. The random tweakeys are drawn as
    /// start-round states either way (uniform both ways): the same seed gives
    /// the same queries; keys shown are the master tweakeys with `Master`.
    pub tk_at: TweakeyAt,
    /// Queries in the whole (unsharded) run.
    pub queries: u64,
    /// A fresh key every this many queries (>= 1).
    pub key_every: u64,
    /// The generator's seed.
    pub seed: u64,
    /// Which part of the run this is.
    pub shard: Shard,
    /// Only these key groups of the shard (indices in the whole run), a
    /// contiguous part of its own: a segment, so that a long shard can run
    /// in pieces and resume after a stop ([`SegmentedRun`](crate::SegmentedRun)).
    /// `None`: all the shard's groups.
    pub segment: Option<core::ops::Range<u64>>,
    /// How many right pairs (or quartets) to keep, the earliest in query
    /// order; at most [`MAX_SHOW`].
    pub show: usize,
    /// Count every key group's hits too ([`Outcome::per_key`]): how the
    /// probability varies from key to key. The queries must then be a whole
    /// number of key groups (`queries % key_every == 0`), so that every key
    /// has the same queries.
    ///
    /// [`Outcome::per_key`]: crate::Outcome::per_key
    pub per_key: bool,
}

impl Common {
    /// Defaults: a fresh key every 4096 queries, seed 0, the whole run, no
    /// right pairs kept, no per-key counts.
    pub fn new(variant: Variant, rounds: usize, queries: u64) -> Self {
        Self {
            variant,
            rounds,
            start_round: 1,
            tk_at: TweakeyAt::Master,
            queries,
            key_every: 4096,
            seed: 0,
            shard: Shard::WHOLE,
            segment: None,
            show: 0,
            per_key: false,
        }
    }

    pub(crate) fn check(&self) -> Result<(), LabError> {
        let max = self.variant.rounds();
        if !(1..=max).contains(&self.rounds) {
            return Err(LabError::Rounds { variant: self.variant, max, got: self.rounds });
        }
        if partial::check_rounds(self.variant, self.start_round, self.rounds).is_err() {
            return Err(LabError::StartRound { variant: self.variant, start: self.start_round, rounds: self.rounds });
        }
        if self.key_every == 0 {
            return Err(LabError::KeyEvery);
        }
        if self.per_key && !self.queries.is_multiple_of(self.key_every) {
            return Err(LabError::PerKeyGroups { queries: self.queries, key_every: self.key_every });
        }
        Shard::new(self.shard.index, self.shard.count)?;
        if let Some(s) = &self.segment {
            let shard = self.shard.groups(self.groups());
            if s.start > s.end || s.start < shard.start || s.end > shard.end {
                return Err(LabError::Segment {
                    start: s.start,
                    end: s.end,
                    first: shard.start,
                    end_of_shard: shard.end,
                });
            }
        }
        if self.show > MAX_SHOW {
            return Err(LabError::Show { most: MAX_SHOW, got: self.show });
        }
        Ok(())
    }

    pub(crate) fn check_len(&self, what: &'static str, v: &[u8], expected: usize) -> Result<(), LabError> {
        if v.len() != expected {
            return Err(LabError::Length { what, variant: self.variant, expected, got: v.len() });
        }
        Ok(())
    }

    /// Key groups in the whole run.
    pub fn groups(&self) -> u64 {
        self.queries.div_ceil(self.key_every)
    }

    /// The key groups run: the shard's, or the part of them that
    /// [`Common::segment`] selects.
    pub fn shard_groups(&self) -> core::ops::Range<u64> {
        let shard = self.shard.groups(self.groups());
        match &self.segment {
            // Within the shard's, whatever was set (checks refuse more).
            Some(s) => s.start.clamp(shard.start, shard.end)..s.end.clamp(shard.start, shard.end),
            None => shard,
        }
    }

    /// Whether every key group of the shard is run: no segment, or one that
    /// holds them all.
    pub fn whole_shard(&self) -> bool {
        self.segment.as_ref().is_none_or(|s| *s == self.shard.groups(self.groups()))
    }

    /// The queries run: those of [`Common::shard_groups`], one range.
    pub fn shard_queries(&self) -> core::ops::Range<u64> {
        let groups = self.shard_groups();
        let start = groups.start.saturating_mul(self.key_every).min(self.queries);
        start..groups.end.saturating_mul(self.key_every).min(self.queries)
    }

    /// The queries of key group `g`.
    pub fn group_queries(&self, g: u64) -> core::ops::Range<u64> {
        let start = g.saturating_mul(self.key_every);
        start..self.queries.min(start.saturating_add(self.key_every))
    }

    /// The key of group `g`, given as [`Common::tk_at`] says (the master
    /// tweakey or the start round's state).
    pub fn key(&self, g: u64) -> Vec<u8> {
        let mut k = self.start_key(g);
        self.shown(&mut k);
        k
    }

    /// The key of group `g` as the start round's tweakey state: what the
    /// engines run (drawn from the generator as it is).
    pub(crate) fn start_key(&self, g: u64) -> Vec<u8> {
        let mut k = vec![0u8; self.variant.tweakey_bytes()];
        CounterRng::new(self.seed).fill(Stream::Key, g, &mut k);
        k
    }

    /// A start-round tweakey state (or difference) as [`Common::tk_at`] gives
    /// it, in place.
    pub(crate) fn shown(&self, k: &mut [u8]) {
        if self.tk_at == TweakeyAt::Master {
            // Lengths were checked before any work started.
            partial::rewind_tweakey(self.variant, k, self.start_round - 1).expect("checked length");
        }
    }

    /// A tweakey difference given as [`Common::tk_at`] says, as a difference
    /// of start-round states (the schedule is linear).
    pub(crate) fn at_start(&self, d: &[u8]) -> Vec<u8> {
        let mut d = d.to_vec();
        if self.tk_at == TweakeyAt::Master {
            // Lengths were checked before any work started.
            partial::advance_tweakey(self.variant, &mut d, self.start_round - 1).expect("checked length");
        }
        d
    }

    /// The plaintext of query `q`.
    pub fn plaintext(&self, q: u64, out: &mut [u8]) {
        CounterRng::new(self.seed).fill(Stream::Plaintext, q, out);
    }

    /// The rounds run under `state`, a start-round tweakey state.
    pub(crate) fn cipher(&self, state: &[u8]) -> Skinny {
        // Lengths and rounds were checked before any work started.
        partial::partial_cipher(self.variant, state, TweakeyAt::Start, self.start_round, self.rounds)
            .expect("checked parameters")
    }

    /// One block under `key` (given as [`Common::tk_at`] says) through the
    /// specification code by name, not `Skinny::encrypt_block` (the fast
    /// single-block path), so that the recomputation that checks other
    /// backends' hits stays independent of them (and of the start-round
    /// conversions of the engines).
    pub(crate) fn spec_block(&self, key: &[u8], block: &mut [u8], way: Way) {
        let (v, at, s, r) = (self.variant, self.tk_at, self.start_round, self.rounds);
        // Lengths and rounds were checked before any work started.
        match way {
            Way::Encrypt => partial::encrypt_rounds(v, key, at, s, r, block),
            Way::Decrypt => partial::decrypt_rounds(v, key, at, s, r, block),
        }
        .expect("checked parameters");
    }

    /// The key of the group of query `q`.
    pub(crate) fn query_key(&self, q: u64) -> Vec<u8> {
        self.key(q / self.key_every)
    }

    /// The tweakey buffer of the queries `qs` for per-block tweakeys: each
    /// query's group key (as a start-round state), one after the other.
    pub(crate) fn batch_keys(&self, qs: core::ops::Range<u64>) -> Vec<u8> {
        let tk = self.variant.tweakey_bytes();
        let rng = CounterRng::new(self.seed);
        let mut out = vec![0u8; (qs.end - qs.start) as usize * tk];
        for (q, k) in qs.zip(out.chunks_exact_mut(tk)) {
            rng.fill(Stream::Key, q / self.key_every, k);
        }
        out
    }
}

/// Which way a block goes through the cipher in a recomputation (a type, not
/// a `bool` argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Way {
    /// E_K.
    Encrypt,
    /// D_K.
    Decrypt,
}
