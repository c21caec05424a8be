//! Differential and boomerang experiments on reduced-round SKINNY.
//!
//! An experiment draws queries from a seeded counter-based generator
//! ([`rng::CounterRng`]): the plaintext of query `q` depends on (seed, q) only,
//! and the key of key group `g` (queries `g * key_every ..`) on (seed, g) only.
//! So a run's counts do not depend on the number of threads, on how the work is
//! batched, or on how it is split into shards ([`Shard`]): shards are
//! contiguous ranges of key groups, and [`Outcome::merge`] of all of a run's
//! shards equals the unsharded run, right pairs included.
//!
//! The work runs on the current rayon pool (install one to choose the thread
//! count). With `key_every` of a few hundred or more it encrypts with
//! [`skinny::BitslicedSkinny`], whose round tweakey masks are built once per
//! key, so that cost disappears. Smaller key groups (down to a fresh key per
//! query, `key_every = 1`) run in batches that cut across the groups, each block
//! with its own tweakey ([`skinny::hazmat::bitsliced::PerBlockTweakeys`]: the
//! tweakey schedule runs bitsliced beside the rounds), so no query pays for a
//! key schedule of its own.
//!
//! Constant time is not a goal here: everything handled is public random data.
//! The library never prints; [`stats`] turns counts into estimates.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[cfg(feature = "cuda")]
pub mod gpu;
pub mod rng;
pub mod stats;

use rayon::prelude::*;
use rng::{CounterRng, Stream};
use skinny::hazmat::bitsliced::PerBlockTweakeys;
use skinny::{BitslicedSkinny, Skinny, Variant};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Queries per batch handed to the bitsliced code: big enough to amortise the
/// per-call cost, small enough (4 buffers of 64 KiB for 128-bit blocks) to stay
/// in the L2 cache and to give rayon pieces to balance within one key group.
const BATCH: u64 = 4096;

/// Below this many queries per key the masks of a [`BitslicedSkinny`] (about
/// 29 KiB built per key) cost more than they save: runs with smaller key groups
/// encrypt whole batches with per-block tweakeys instead ([`PerBlockTweakeys`],
/// whose rounds cost 1.5 to 4 times the shared-key ones, see `docs/lab.md`).
/// Bigger runs' last group, when shorter, uses [`Skinny::encrypt_blocks`].
const BITSLICE_MIN_GROUP: u64 = 256;

/// Everything that can make an experiment refuse to start or results refuse to
/// merge.
#[derive(Debug, thiserror::Error, Clone)]
#[non_exhaustive]
pub enum LabError {
    /// The cipher refused the round count.
    #[error("{variant} has 1 to {max} rounds, not {got}")]
    Rounds {
        /// The variant.
        variant: Variant,
        /// Its full round count.
        max: usize,
        /// What was asked.
        got: usize,
    },
    /// A difference, mask or key difference of the wrong length.
    #[error("{what} must be {expected} bytes for {variant}, got {got}")]
    Length {
        /// Which value (`dp`, `dc`, `dk`, ...).
        what: &'static str,
        /// The variant.
        variant: Variant,
        /// The length it needs.
        expected: usize,
        /// The length given.
        got: usize,
    },
    /// `key_every` was 0.
    #[error("key_every must be at least 1")]
    KeyEvery,
    /// A shard with `n == 0` or `i >= n`.
    #[error("shard {index}/{count} is not one of 0/n .. (n-1)/n with n >= 1")]
    Shard {
        /// i
        index: u64,
        /// n
        count: u64,
    },
    /// Results of different experiments (or of one shard twice).
    #[error("cannot merge: {0}")]
    Merge(String),
    /// The GPU failed (no driver, no device, compilation, a launch).
    #[cfg(feature = "cuda")]
    #[error(transparent)]
    Gpu(#[from] skinny_cuda::GpuError),
    /// The GPU reported a hit that the specification code does not confirm: a
    /// fault of the GPU or of its kernels, never a property of the cipher.
    #[error("the GPU counted query {query} as a hit, but the CPU's recomputation disagrees")]
    GpuMismatch {
        /// The query.
        query: u64,
    },
}

/// Shard `index` of `count`: the `index`-th of `count` contiguous, nearly equal
/// ranges of key groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 0-based.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Checks `index < count`.
    ///
    /// # Errors
    /// [`LabError::Shard`] otherwise.
    pub fn new(index: u64, count: u64) -> Result<Self, LabError> {
        if count == 0 || index >= count {
            return Err(LabError::Shard { index, count });
        }
        Ok(Self { index, count })
    }

    /// This shard's key groups out of `groups`: [groups*i/n, groups*(i+1)/n).
    /// The ranges of 0..n tile 0..groups exactly, in order.
    pub fn groups(&self, groups: u64) -> core::ops::Range<u64> {
        let at = |i: u64| ((groups as u128 * i as u128) / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl Default for Shard {
    fn default() -> Self {
        Self::WHOLE
    }
}

/// The parameters common to both experiments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Common {
    /// The SKINNY variant.
    pub variant: Variant,
    /// Rounds, 1 ..= the variant's full count.
    pub rounds: usize,
    /// Queries in the whole (unsharded) run.
    pub queries: u64,
    /// A fresh key every this many queries (>= 1).
    pub key_every: u64,
    /// The generator's seed.
    pub seed: u64,
    /// Which part of the run this is.
    pub shard: Shard,
    /// How many right pairs (or quartets) to keep, the earliest in query order.
    pub show: usize,
}

impl Common {
    /// Defaults: a fresh key every 4096 queries, seed 0, the whole run, no
    /// right pairs kept.
    pub fn new(variant: Variant, rounds: usize, queries: u64) -> Self {
        Self { variant, rounds, queries, key_every: 4096, seed: 0, shard: Shard::WHOLE, show: 0 }
    }

    fn check(&self) -> Result<(), LabError> {
        let max = self.variant.rounds();
        if !(1..=max).contains(&self.rounds) {
            return Err(LabError::Rounds { variant: self.variant, max, got: self.rounds });
        }
        if self.key_every == 0 {
            return Err(LabError::KeyEvery);
        }
        Shard::new(self.shard.index, self.shard.count)?;
        Ok(())
    }

    fn check_len(&self, what: &'static str, v: &[u8], expected: usize) -> Result<(), LabError> {
        if v.len() != expected {
            return Err(LabError::Length { what, variant: self.variant, expected, got: v.len() });
        }
        Ok(())
    }

    /// Key groups in the whole run.
    pub fn groups(&self) -> u64 {
        self.queries.div_ceil(self.key_every)
    }

    /// The queries of this shard (its key groups' queries, one range).
    pub fn shard_queries(&self) -> core::ops::Range<u64> {
        let groups = self.shard.groups(self.groups());
        let start = groups.start.saturating_mul(self.key_every).min(self.queries);
        start..groups.end.saturating_mul(self.key_every).min(self.queries)
    }

    /// The queries of key group `g`.
    pub fn group_queries(&self, g: u64) -> core::ops::Range<u64> {
        let start = g.saturating_mul(self.key_every);
        start..self.queries.min(start.saturating_add(self.key_every))
    }

    /// The key of group `g`.
    pub fn key(&self, g: u64) -> Vec<u8> {
        let mut k = vec![0u8; self.variant.tweakey_bytes()];
        CounterRng::new(self.seed).fill(Stream::Key, g, &mut k);
        k
    }

    /// The plaintext of query `q`.
    pub fn plaintext(&self, q: u64, out: &mut [u8]) {
        CounterRng::new(self.seed).fill(Stream::Plaintext, q, out);
    }

    fn cipher(&self, key: &[u8]) -> Skinny {
        // Lengths and rounds were checked before any work started.
        Skinny::with_rounds(self.variant, key, self.rounds).expect("checked parameters")
    }

    /// One block under `key` through the specification code by name, not
    /// `Skinny::encrypt_block` (the fast single-block path), so that the
    /// recomputation that checks other backends' hits stays independent of them.
    fn spec_block(&self, key: &[u8], block: &mut [u8], decrypt: bool) {
        let c = self.cipher(key);
        let (width, rtk) = (self.variant.cell_width(), skinny::hazmat::round_tweakeys(&c));
        if decrypt {
            skinny::hazmat::spec::decrypt_block(width, rtk, block);
        } else {
            skinny::hazmat::spec::encrypt_block(width, rtk, block);
        }
    }

    /// Whether key groups are too small for a [`BitslicedSkinny`] each, so that
    /// batches run across groups with per-block tweakeys.
    fn per_block(&self) -> bool {
        self.key_every < BITSLICE_MIN_GROUP
    }

    /// The per-block engine for this experiment's variant and rounds.
    fn per_block_engine(&self) -> PerBlockTweakeys {
        // Rounds were checked before any work started.
        PerBlockTweakeys::new(self.variant, self.rounds).expect("checked parameters")
    }

    /// The key of the group of query `q`.
    fn query_key(&self, q: u64) -> Vec<u8> {
        self.key(q / self.key_every)
    }

    /// The tweakey buffer of the queries `qs` for [`PerBlockTweakeys`]: each
    /// query's group key, one after the other.
    fn batch_keys(&self, qs: core::ops::Range<u64>) -> Vec<u8> {
        let tk = self.variant.tweakey_bytes();
        let rng = CounterRng::new(self.seed);
        let mut out = vec![0u8; (qs.end - qs.start) as usize * tk];
        for (q, k) in qs.zip(out.chunks_exact_mut(tk)) {
            rng.fill(Stream::Key, q / self.key_every, k);
        }
        out
    }
}

/// The differential experiment: a hit when
/// `(E_K(P) ^ E_{K ^ dk}(P ^ dp)) & dc_mask == dc & dc_mask`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Differential {
    /// Variant, rounds, queries, keys, seed, shard, show.
    pub common: Common,
    /// The plaintext difference (one block).
    pub dp: Vec<u8>,
    /// The ciphertext difference (one block).
    pub dc: Vec<u8>,
    /// The tweakey difference (the variant's tweakey length; zero by default).
    pub dk: Vec<u8>,
    /// Which ciphertext bits must match (one block; all ones by default).
    pub dc_mask: Vec<u8>,
}

/// One right pair of a differential experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The query's index in the whole run.
    pub query: u64,
    /// P
    pub p: Vec<u8>,
    /// P' = P ^ dp
    pub p2: Vec<u8>,
    /// C = E_K(P)
    pub c: Vec<u8>,
    /// C' = E_K'(P')
    pub c2: Vec<u8>,
    /// K
    pub k: Vec<u8>,
    /// K' = K ^ dk
    pub k2: Vec<u8>,
}

/// The related-tweakey boomerang: K2 = K1 ^ dk1, K3 = K1 ^ dk2, K4 = K2 ^ dk2;
/// C1 = E_K1(P1), C2 = E_K2(P1 ^ dp), C3 = C1 ^ dc, C4 = C2 ^ dc; a return when
/// D_K3(C3) ^ D_K4(C4) == dp.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Boomerang {
    /// Variant, rounds, queries, keys, seed, shard, show.
    pub common: Common,
    /// The plaintext difference (one block).
    pub dp: Vec<u8>,
    /// The ciphertext difference (one block).
    pub dc: Vec<u8>,
    /// The tweakey difference of the upper trail.
    pub dk1: Vec<u8>,
    /// The tweakey difference of the lower trail.
    pub dk2: Vec<u8>,
}

/// One right quartet of a boomerang experiment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quartet {
    /// The query's index in the whole run.
    pub query: u64,
    /// P1, P2 = P1 ^ dp, P3 = D_K3(C3), P4 = D_K4(C4).
    pub p: [Vec<u8>; 4],
    /// C1, C2, C3 = C1 ^ dc, C4 = C2 ^ dc.
    pub c: [Vec<u8>; 4],
    /// K1 .. K4.
    pub k: [Vec<u8>; 4],
}

/// Something kept about a hit, ordered by its query.
pub trait Witness: Clone + Send {
    /// The query's index in the whole run.
    fn query(&self) -> u64;
}

impl Witness for Pair {
    fn query(&self) -> u64 {
        self.query
    }
}

impl Witness for Quartet {
    fn query(&self) -> u64 {
        self.query
    }
}

/// A run watched and steered from another thread: how many queries are done
/// (for a progress bar), and a request to stop early (Ctrl-C), after which the
/// run returns what it has, marked [`Outcome::interrupted`].
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    done: AtomicU64,
}

impl Control {
    /// A control with nothing done and no stop asked for.
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks the run to stop: batches not yet started are skipped.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Queries done so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
}

/// The result of a run (or of a shard, or of merged shards).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome<W> {
    /// The parameters, as run (the shard is the merged one's first shard after
    /// a merge; see [`Outcome::shards`]).
    pub common: Common,
    /// The shards this result covers, sorted (one unless merged).
    pub shards: Vec<Shard>,
    /// Queries done.
    pub queries: u64,
    /// Hits (right pairs or returning quartets).
    pub hits: u64,
    /// The first `common.show` hits in query order.
    pub right: Vec<W>,
    /// Wall-clock seconds (summed over merged shards: the work, not the span).
    pub seconds: f64,
    /// Stopped early ([`Control::stop`]): the counts cover the batches that ran,
    /// a fair sample but not the shard's queries, so it cannot be merged.
    pub interrupted: bool,
}

impl<W: Witness> Outcome<W> {
    /// The estimate of the probability with its 95 % interval.
    pub fn estimate(&self) -> stats::Estimate {
        stats::estimate(self.hits, self.queries)
    }

    /// Queries per second of wall-clock time (0 when no time was measured).
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 {
            self.queries as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Whether every shard of the run is here.
    pub fn is_complete(&self) -> bool {
        let n = self.common.shard.count;
        self.shards.len() as u64 == n && self.shards.iter().enumerate().all(|(i, s)| s.index == i as u64)
    }

    /// Combines two results of the same experiment on different shards: sums the
    /// counts and the seconds and keeps the earliest right pairs. Merging all
    /// the shards of a run gives the unsharded run's counts and pairs.
    ///
    /// # Errors
    /// [`LabError::Merge`] if the parameters differ (apart from the shard index)
    /// or a shard is in both.
    pub fn merge(mut self, other: Self) -> Result<Self, LabError> {
        if self.interrupted || other.interrupted {
            return Err(LabError::Merge("an interrupted run covers part of its shard and cannot be merged".into()));
        }
        let mut a = self.common.clone();
        let mut b = other.common.clone();
        a.shard.index = 0;
        b.shard.index = 0;
        if a != b {
            return Err(LabError::Merge(format!("different experiments: {a:?} and {b:?}")));
        }
        for s in &other.shards {
            if self.shards.contains(s) {
                return Err(LabError::Merge(format!("shard {}/{} is in both", s.index, s.count)));
            }
        }
        self.shards.extend(other.shards);
        self.shards.sort_by_key(|s| s.index);
        self.common.shard = self.shards[0];
        self.queries += other.queries;
        self.hits += other.hits;
        self.seconds += other.seconds;
        self.right = earliest(self.right, other.right, self.common.show);
        Ok(self)
    }
}

/// The first `show` of two lists each already in query order.
fn earliest<W: Witness>(mut a: Vec<W>, b: Vec<W>, show: usize) -> Vec<W> {
    a.extend(b);
    a.sort_by_key(W::query);
    a.truncate(show);
    a
}

/// Counts and the earliest witnesses of one piece of work.
struct Tally<W> {
    queries: u64,
    hits: u64,
    right: Vec<W>,
}

impl<W: Witness> Tally<W> {
    fn empty() -> Self {
        Self { queries: 0, hits: 0, right: Vec::new() }
    }

    fn join(self, other: Self, show: usize) -> Self {
        Self {
            queries: self.queries + other.queries,
            hits: self.hits + other.hits,
            right: earliest(self.right, other.right, show),
        }
    }
}

/// One key's cipher: bitsliced masks for big groups, plain for small ones.
enum Engine {
    Sliced(Box<BitslicedSkinny>),
    Plain(Box<Skinny>),
}

impl Engine {
    fn new(cipher: Skinny, group_len: u64) -> Self {
        if group_len >= BITSLICE_MIN_GROUP {
            Engine::Sliced(Box::new(BitslicedSkinny::new(&cipher)))
        } else {
            Engine::Plain(Box::new(cipher))
        }
    }

    fn encrypt(&self, data: &mut [u8]) {
        match self {
            Engine::Sliced(c) => c.encrypt_blocks(data),
            Engine::Plain(c) => c.encrypt_blocks(data),
        }
    }

    fn decrypt(&self, data: &mut [u8]) {
        match self {
            Engine::Sliced(c) => c.decrypt_blocks(data),
            Engine::Plain(c) => c.decrypt_blocks(data),
        }
    }
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

fn xor_each_block(data: &mut [u8], diff: &[u8]) {
    for block in data.chunks_exact_mut(diff.len()) {
        for (x, d) in block.iter_mut().zip(diff) {
            *x ^= d;
        }
    }
}

/// Runs `group` (a key group's work, split into batches) over this shard's
/// groups on the current rayon pool.
fn run_groups<W, F>(common: &Common, control: &Control, group: F) -> Outcome<W>
where
    W: Witness,
    F: Fn(u64) -> Tally<W> + Sync,
{
    let start = Instant::now();
    let show = common.show;
    let groups = common.shard.groups(common.groups());
    let planned = common.shard_queries().end - common.shard_queries().start;
    let tally = groups
        .into_par_iter()
        .map(|g| if control.stopped() { Tally::empty() } else { group(g) })
        .reduce(Tally::empty, |a, b| a.join(b, show));
    outcome(common, start, tally, planned)
}

/// Runs `batch` over this shard's queries in batches that cut across key groups
/// (each batch finds its queries' keys itself): for groups too small to be
/// worth their own [`BitslicedSkinny`].
fn run_across_groups<W, F>(common: &Common, control: &Control, batch: F) -> Outcome<W>
where
    W: Witness,
    F: Fn(core::ops::Range<u64>) -> Tally<W> + Sync,
{
    let start = Instant::now();
    let queries = common.shard_queries();
    let planned = queries.end - queries.start;
    let tally = run_batches(queries, common.show, control, batch);
    outcome(common, start, tally, planned)
}

/// The outcome of this shard's `tally`, begun at `start`, out of `planned` queries.
fn outcome<W: Witness>(common: &Common, start: Instant, tally: Tally<W>, planned: u64) -> Outcome<W> {
    Outcome {
        common: common.clone(),
        shards: vec![common.shard],
        queries: tally.queries,
        hits: tally.hits,
        right: tally.right,
        seconds: start.elapsed().as_secs_f64(),
        interrupted: tally.queries < planned,
    }
}

/// The batches of a key group's queries, in parallel (rayon balances them with
/// the other groups' batches).
fn run_batches<W, F>(queries: core::ops::Range<u64>, show: usize, control: &Control, batch: F) -> Tally<W>
where
    W: Witness,
    F: Fn(core::ops::Range<u64>) -> Tally<W> + Sync,
{
    let n = (queries.end - queries.start).div_ceil(BATCH);
    (0..n)
        .into_par_iter()
        .map(|b| {
            if control.stopped() {
                return Tally::empty();
            }
            let s = queries.start + b * BATCH;
            let t = batch(s..queries.end.min(s + BATCH));
            control.done.fetch_add(t.queries, Ordering::Relaxed);
            t
        })
        .reduce(Tally::empty, |a, b| a.join(b, show))
}

impl Differential {
    /// An experiment with `dk` zero and `dc_mask` all ones.
    pub fn new(common: Common, dp: Vec<u8>, dc: Vec<u8>) -> Self {
        let block = common.variant.block_bytes();
        let tk = common.variant.tweakey_bytes();
        Self { common, dp, dc, dk: vec![0; tk], dc_mask: vec![0xff; block] }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`LabError`] for a round count, a length, `key_every` or a shard out of range.
    pub fn check(&self) -> Result<(), LabError> {
        let c = &self.common;
        c.check()?;
        let block = c.variant.block_bytes();
        c.check_len("dp", &self.dp, block)?;
        c.check_len("dc", &self.dc, block)?;
        c.check_len("dc_mask", &self.dc_mask, block)?;
        c.check_len("dk", &self.dk, c.variant.tweakey_bytes())
    }

    /// Runs this shard on the current rayon pool.
    ///
    /// # Errors
    /// See [`Differential::check`].
    pub fn run(&self) -> Result<Outcome<Pair>, LabError> {
        self.run_with(&Control::new())
    }

    /// [`Differential::run`], reporting progress to and taking a stop from
    /// `control`.
    ///
    /// # Errors
    /// See [`Differential::check`].
    pub fn run_with(&self, control: &Control) -> Result<Outcome<Pair>, LabError> {
        self.check()?;
        let c = &self.common;
        let target: Vec<u8> = self.dc.iter().zip(&self.dc_mask).map(|(d, m)| d & m).collect();
        if c.per_block() {
            let pbt = c.per_block_engine();
            let related = self.dk.iter().any(|&b| b != 0);
            return Ok(run_across_groups(c, control, |qs| {
                let k = c.batch_keys(qs.clone());
                // With dk = 0 both sides use the same tweakeys.
                let k2 = related.then(|| {
                    let mut k2 = k.clone();
                    xor_each_block(&mut k2, &self.dk);
                    k2
                });
                let encrypt = |side: usize, data: &mut [u8]| match (side, &k2) {
                    (1, Some(k2)) => pbt.encrypt(data, k2),
                    _ => pbt.encrypt(data, &k),
                };
                self.batch(qs, &target, encrypt, |q| c.query_key(q))
            }));
        }
        Ok(run_groups(c, control, |g| {
            let range = c.group_queries(g);
            let k = c.key(g);
            let k2 = xor(&k, &self.dk);
            let len = range.end - range.start;
            // With dk = 0 one key schedule serves both sides (half the cost
            // when keys change often).
            let e1 = Engine::new(c.cipher(&k), len);
            let e2_own = (k2 != k).then(|| Engine::new(c.cipher(&k2), len));
            let e2 = e2_own.as_ref().unwrap_or(&e1);
            let encrypt = |side: usize, data: &mut [u8]| if side == 0 { e1.encrypt(data) } else { e2.encrypt(data) };
            run_batches(range, c.show, control, |qs| self.batch(qs, &target, encrypt, |_| k.clone()))
        }))
    }

    /// One batch of queries: P and P ^ dp encrypted by `encrypt(0, ..)` (under
    /// K) and `encrypt(1, ..)` (under K ^ dk), compared under the mask.
    /// `key(q)` is K of query `q`, asked only for the right pairs kept.
    fn batch(
        &self,
        qs: core::ops::Range<u64>,
        target: &[u8],
        encrypt: impl Fn(usize, &mut [u8]),
        key: impl Fn(u64) -> Vec<u8>,
    ) -> Tally<Pair> {
        let c = &self.common;
        let bb = c.variant.block_bytes();
        let n = (qs.end - qs.start) as usize;
        let mut x = vec![0u8; n * bb];
        for (q, block) in qs.clone().zip(x.chunks_exact_mut(bb)) {
            c.plaintext(q, block);
        }
        let mut y = x.clone();
        xor_each_block(&mut y, &self.dp);
        encrypt(0, &mut x);
        encrypt(1, &mut y);
        let mut t = Tally { queries: n as u64, hits: 0, right: Vec::new() };
        for (i, (cx, cy)) in x.chunks_exact(bb).zip(y.chunks_exact(bb)).enumerate() {
            let hit = cx.iter().zip(cy).zip(&self.dc_mask).zip(target).all(|(((a, b), m), t)| (a ^ b) & m == *t);
            if hit {
                t.hits += 1;
                if t.right.len() < c.show {
                    let q = qs.start + i as u64;
                    let mut p = vec![0u8; bb];
                    c.plaintext(q, &mut p);
                    let p2 = xor(&p, &self.dp);
                    let k = key(q);
                    let k2 = xor(&k, &self.dk);
                    t.right.push(Pair { query: q, p, p2, c: cx.to_vec(), c2: cy.to_vec(), k, k2 });
                }
            }
        }
        t
    }
}

impl Boomerang {
    /// An experiment with both tweakey differences zero.
    pub fn new(common: Common, dp: Vec<u8>, dc: Vec<u8>) -> Self {
        let tk = common.variant.tweakey_bytes();
        Self { common, dp, dc, dk1: vec![0; tk], dk2: vec![0; tk] }
    }

    /// Checks the parameters.
    ///
    /// # Errors
    /// [`LabError`] for a round count, a length, `key_every` or a shard out of range.
    pub fn check(&self) -> Result<(), LabError> {
        let c = &self.common;
        c.check()?;
        let block = c.variant.block_bytes();
        let tk = c.variant.tweakey_bytes();
        c.check_len("dp", &self.dp, block)?;
        c.check_len("dc", &self.dc, block)?;
        c.check_len("dk1", &self.dk1, tk)?;
        c.check_len("dk2", &self.dk2, tk)
    }

    /// Runs this shard on the current rayon pool.
    ///
    /// # Errors
    /// See [`Boomerang::check`].
    pub fn run(&self) -> Result<Outcome<Quartet>, LabError> {
        self.run_with(&Control::new())
    }

    /// [`Boomerang::run`], reporting progress to and taking a stop from
    /// `control`.
    ///
    /// # Errors
    /// See [`Boomerang::check`].
    pub fn run_with(&self, control: &Control) -> Result<Outcome<Quartet>, LabError> {
        self.check()?;
        let c = &self.common;
        if c.per_block() {
            let pbt = c.per_block_engine();
            return Ok(run_across_groups(c, control, |qs| {
                // K1 .. K4 of every query of the batch, as for one group below.
                let k1 = c.batch_keys(qs.clone());
                let related = |k: &[u8], d: &[u8]| {
                    let mut out = k.to_vec();
                    xor_each_block(&mut out, d);
                    out
                };
                let k2 = related(&k1, &self.dk1);
                let k3 = related(&k1, &self.dk2);
                let k4 = related(&k2, &self.dk2);
                let keys = [&k1, &k2, &k3, &k4];
                let crypt = |i: usize, data: &mut [u8]| {
                    if i < 2 {
                        pbt.encrypt(data, keys[i])
                    } else {
                        pbt.decrypt(data, keys[i])
                    }
                };
                self.batch(qs, crypt, |q| c.query_key(q))
            }));
        }
        Ok(run_groups(c, control, |g| {
            let range = c.group_queries(g);
            let k1 = c.key(g);
            let k2 = xor(&k1, &self.dk1);
            let k3 = xor(&k1, &self.dk2);
            let k4 = xor(&k2, &self.dk2);
            let len = range.end - range.start;
            // One engine per distinct key: with dk1 or dk2 zero, keys repeat.
            let keys = [&k1, &k2, &k3, &k4];
            let mut engines: Vec<(&Vec<u8>, Engine)> = Vec::with_capacity(4);
            for k in keys {
                if !engines.iter().any(|(seen, _)| *seen == k) {
                    engines.push((k, Engine::new(c.cipher(k), len)));
                }
            }
            let e = keys.map(|k| &engines.iter().find(|(seen, _)| *seen == k).expect("built above").1);
            let crypt = |i: usize, data: &mut [u8]| if i < 2 { e[i].encrypt(data) } else { e[i].decrypt(data) };
            run_batches(range, c.show, control, |qs| self.batch(qs, crypt, |_| k1.clone()))
        }))
    }

    /// One batch of queries: `crypt(0, ..)` and `crypt(1, ..)` encrypt P1 and
    /// P1 ^ dp under K1 and K2, `crypt(2, ..)` and `crypt(3, ..)` decrypt
    /// C1 ^ dc and C2 ^ dc under K3 and K4. `key(q)` is K1 of query `q`, asked
    /// only for the quartets kept.
    fn batch(
        &self,
        qs: core::ops::Range<u64>,
        crypt: impl Fn(usize, &mut [u8]),
        key: impl Fn(u64) -> Vec<u8>,
    ) -> Tally<Quartet> {
        let c = &self.common;
        let bb = c.variant.block_bytes();
        let n = (qs.end - qs.start) as usize;
        let mut x1 = vec![0u8; n * bb];
        for (q, block) in qs.clone().zip(x1.chunks_exact_mut(bb)) {
            c.plaintext(q, block);
        }
        let mut x2 = x1.clone();
        xor_each_block(&mut x2, &self.dp);
        crypt(0, &mut x1);
        crypt(1, &mut x2);
        // Keep C1, C2 only for the quartets shown: recomputed then.
        let mut x3 = x1;
        let mut x4 = x2;
        xor_each_block(&mut x3, &self.dc);
        xor_each_block(&mut x4, &self.dc);
        crypt(2, &mut x3);
        crypt(3, &mut x4);
        let mut t = Tally { queries: n as u64, hits: 0, right: Vec::new() };
        for (i, (p3, p4)) in x3.chunks_exact(bb).zip(x4.chunks_exact(bb)).enumerate() {
            let back = p3.iter().zip(p4).zip(&self.dp).all(|((a, b), d)| a ^ b == *d);
            if back {
                t.hits += 1;
                if t.right.len() < c.show {
                    let q = qs.start + i as u64;
                    t.right.push(self.quartet(q, key(q), p3, p4));
                }
            }
        }
        t
    }

    /// The whole quartet of query `q` (K1 = `k1`), recomputed block by block
    /// (only for the few shown).
    fn quartet(&self, q: u64, k1: Vec<u8>, p3: &[u8], p4: &[u8]) -> Quartet {
        let c = &self.common;
        let k2 = xor(&k1, &self.dk1);
        let (k3, k4) = (xor(&k1, &self.dk2), xor(&k2, &self.dk2));
        let k = [k1, k2, k3, k4];
        let bb = c.variant.block_bytes();
        let mut p1 = vec![0u8; bb];
        c.plaintext(q, &mut p1);
        let p2 = xor(&p1, &self.dp);
        let mut c1 = p1.clone();
        c.spec_block(&k[0], &mut c1, false);
        let mut c2 = p2.clone();
        c.spec_block(&k[1], &mut c2, false);
        let c3 = xor(&c1, &self.dc);
        let c4 = xor(&c2, &self.dc);
        Quartet { query: q, p: [p1, p2, p3.to_vec(), p4.to_vec()], c: [c1, c2, c3, c4], k }
    }
}

impl Differential {
    /// Query `q` recomputed with the one-block specification code: its pair
    /// if it is a hit, `None` if not (for checking hits found elsewhere).
    pub fn pair_at(&self, q: u64) -> Option<Pair> {
        let c = &self.common;
        let k = c.key(q / c.key_every);
        let k2 = xor(&k, &self.dk);
        let mut p = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p);
        let p2 = xor(&p, &self.dp);
        let mut c1 = p.clone();
        c.spec_block(&k, &mut c1, false);
        let mut c2 = p2.clone();
        c.spec_block(&k2, &mut c2, false);
        let hit = c1.iter().zip(&c2).zip(&self.dc_mask).zip(&self.dc).all(|(((a, b), m), d)| (a ^ b) & m == d & m);
        hit.then_some(Pair { query: q, p, p2, c: c1, c2, k, k2 })
    }
}

impl Boomerang {
    /// Query `q` recomputed with the one-block specification code: its quartet
    /// if it returns, `None` if not (for checking hits found elsewhere).
    pub fn quartet_at(&self, q: u64) -> Option<Quartet> {
        let c = &self.common;
        let k1 = c.key(q / c.key_every);
        let k2 = xor(&k1, &self.dk1);
        let k3 = xor(&k1, &self.dk2);
        let k4 = xor(&k2, &self.dk2);
        let mut p1 = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p1);
        let mut x1 = p1.clone();
        c.spec_block(&k1, &mut x1, false);
        let mut x2 = xor(&p1, &self.dp);
        c.spec_block(&k2, &mut x2, false);
        let mut p3 = xor(&x1, &self.dc);
        c.spec_block(&k3, &mut p3, true);
        let mut p4 = xor(&x2, &self.dc);
        c.spec_block(&k4, &mut p4, true);
        let back = p3.iter().zip(&p4).zip(&self.dp).all(|((a, b), d)| a ^ b == *d);
        back.then(|| self.quartet(q, k1, &p3, &p4))
    }
}
