//! The CPU engine: a batch's messages split into chunks of about equal work,
//! the chunks spread over a thread pool, and each chunk run by the lane
//! scheduler (module `lanes`), which keeps many messages in flight and runs
//! their ready cipher calls bitsliced across messages (module `calls`).
//!
//! Inside a chunk the messages start longest first, so that the long serial
//! ones (Romulus) overlap the many short ones instead of running alone at the
//! end; what does run alone at the end goes through the single-block code
//! rather than mostly empty batches.

mod aead;
mod calls;
mod lanes;
mod lockstep;
mod romulus;

use crate::{Batch, ManyError, Output, Scheme};
use calls::Calls;
use lanes::Started;
use lockstep::Member;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::Path;
use skinny::Variant;
use skinny_exec::Threads;
use zeroize::Zeroizing;

/// Seal or open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operation {
    /// Plaintext in, ciphertext ‖ tag out.
    Seal,
    /// Ciphertext ‖ tag in, plaintext out (if authentic).
    Open,
}

/// A long-lived CPU engine: its worker threads started once, for every batch
/// it runs (a server keeps one; [`seal`] and [`open`] start one per call).
/// Shared by reference between threads: each call runs on the pool.
pub struct Engine {
    pool: rayon::ThreadPool,
    tuning: Tuning,
}

impl Engine {
    /// An engine on `threads` worker threads ([`skinny_exec::worker_pool`]).
    ///
    /// # Errors
    /// [`ManyError::Threads`] if the threads could not be started.
    pub fn new(threads: Threads) -> Result<Self, ManyError> {
        Ok(Self { pool: threads.own_pool().map_err(ManyError::Threads)?, tuning: Tuning::default() })
    }

    /// This engine running every batch with `tuning` (tests and benchmarks).
    #[must_use]
    pub fn with_tuning(mut self, tuning: Tuning) -> Self {
        self.tuning = tuning;
        self
    }

    /// Its worker threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Seals every message of `batch`: message `i` of the output is its
    /// ciphertext ‖ tag.
    pub fn seal(&self, batch: &Batch) -> Output {
        seal_tuned(&self.pool, batch, self.tuning)
    }

    /// Opens every message of `batch`: message `i` of the output is its
    /// plaintext, or [`MessageError::Forged`](crate::MessageError::Forged)
    /// (nothing of it released).
    pub fn open(&self, batch: &Batch) -> Output {
        open_tuned(&self.pool, batch, self.tuning)
    }
}

impl core::fmt::Debug for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Engine").field("threads", &self.threads()).field("tuning", &self.tuning).finish()
    }
}

/// Seals every message of `batch` (its data is the plaintext) on `threads`
/// worker threads (a pool of their own, [`skinny_exec::worker_pool`]; an
/// [`Engine`] keeps its pool for many batches).
/// Message `i` of the output is its ciphertext ‖ tag.
///
/// # Errors
/// [`ManyError::Threads`] if the threads could not be started.
pub fn seal(threads: Threads, batch: &Batch) -> Result<Output, ManyError> {
    with_pool(threads, batch, Operation::Seal)
}

/// Opens every message of `batch` (its data is ciphertext ‖ tag) on
/// `threads` worker threads. Message `i` of the output is its plaintext, or
/// [`MessageError::Forged`](crate::MessageError::Forged) (nothing of it released) if its tag is wrong.
///
/// # Errors
/// [`ManyError::Threads`] if the threads could not be started.
pub fn open(threads: Threads, batch: &Batch) -> Result<Output, ManyError> {
    with_pool(threads, batch, Operation::Open)
}

/// [`seal`] on a pool already started (its threads need
/// [`skinny_exec::WORKER_STACK_BYTES`] of stack, as
/// [`skinny_exec::worker_pool`] gives them): for many batches in a row.
pub fn seal_in(pool: &rayon::ThreadPool, batch: &Batch) -> Output {
    seal_tuned(pool, batch, Tuning::default())
}

/// [`open`] on a pool already started (see [`seal_in`]).
pub fn open_in(pool: &rayon::ThreadPool, batch: &Batch) -> Output {
    open_tuned(pool, batch, Tuning::default())
}

/// How the engine runs a batch, for tests and benchmarks: [`seal`],
/// [`open`], [`seal_in`] and [`open_in`] use [`Tuning::default`]. The output
/// is the same whatever the tuning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tuning {
    /// Whether Romulus-N messages of one shape (AD length, data length) run
    /// in lockstep groups (the crate docs' *Design*); otherwise every message
    /// goes through the lane engine.
    pub lockstep: bool,
    /// The bitsliced path of both engines (the best one where this CPU lacks
    /// it).
    pub path: Path,
}

impl Default for Tuning {
    /// Lockstep groups on the best path.
    fn default() -> Self {
        Self { lockstep: true, path: Path::best() }
    }
}

/// [`seal_in`] with a chosen [`Tuning`].
pub fn seal_tuned(pool: &rayon::ThreadPool, batch: &Batch, tuning: Tuning) -> Output {
    pool.install(|| crypt(batch, Operation::Seal, pool.current_num_threads(), tuning))
}

/// [`open_in`] with a chosen [`Tuning`].
pub fn open_tuned(pool: &rayon::ThreadPool, batch: &Batch, tuning: Tuning) -> Output {
    pool.install(|| crypt(batch, Operation::Open, pool.current_num_threads(), tuning))
}

fn with_pool(threads: Threads, batch: &Batch, op: Operation) -> Result<Output, ManyError> {
    if batch.is_empty() {
        return Ok(Output::from_parts(Zeroizing::new(Vec::new()), Vec::new(), Vec::new()));
    }
    let pool = threads.own_pool().map_err(ManyError::Threads)?;
    Ok(pool.install(|| crypt(batch, op, pool.current_num_threads(), Tuning::default())))
}

/// The cipher a scheme's calls run on: variant and round count.
fn cipher(scheme: Scheme) -> (Variant, usize) {
    match scheme {
        Scheme::RomulusN | Scheme::RomulusM => (Variant::Skinny128_384, romulus::ROUNDS),
        Scheme::SkinnyAead(m) => {
            let v = skinny_aead::hazmat::variant(m);
            (v, v.rounds())
        }
    }
}

/// Message `i`'s output length.
fn out_len(scheme: Scheme, op: Operation, data_len: usize) -> usize {
    match op {
        Operation::Seal => data_len + scheme.tag_len(),
        Operation::Open => data_len.saturating_sub(scheme.tag_len()),
    }
}

/// A share of the work for one thread at a time.
enum Job<'o> {
    /// Lockstep groups, run on one set of buffers.
    Groups(Vec<Vec<Member<'o>>>),
    /// Messages for the lane engine.
    Lanes(Vec<Member<'o>>),
}

/// The whole batch, on the current pool (`threads` of them).
fn crypt(batch: &Batch, op: Operation, threads: usize, tuning: Tuning) -> Output {
    let n = batch.len();
    let scheme = batch.scheme();
    let mut ends = Vec::with_capacity(n);
    let mut total = 0;
    for i in 0..n {
        total += out_len(scheme, op, batch.data_range(i).len());
        ends.push(total);
    }
    let mut bytes = Zeroizing::new(vec![0u8; total]);
    let mut status = vec![Ok(()); n];
    let ls = lockstep::cipher(tuning.path);
    let (groups, rest) =
        if tuning.lockstep { lockstep::plan(batch, op, ls.lanes()) } else { (Vec::new(), (0..n).collect()) };
    let jobs = {
        // Every message's output bytes and status, disjoint, handed to the
        // job that runs it.
        let mut members: Vec<Option<Member<'_>>> = Vec::with_capacity(n);
        let mut rest_bytes = &mut bytes[..];
        for (index, status) in status.iter_mut().enumerate() {
            let (out, r) = rest_bytes.split_at_mut(out_len(scheme, op, batch.data_range(index).len()));
            members.push(Some(Member { index, out, status }));
            rest_bytes = r;
        }
        let mut take = |i: usize| members[i].take().unwrap_or_else(|| unreachable!("one job a message"));
        let mut jobs: Vec<Job<'_>> = Vec::with_capacity(8 * threads);
        let groups: Vec<Vec<Member<'_>>> = groups.iter().map(|g| g.iter().map(|&i| take(i)).collect()).collect();
        for share in group_shares(batch, op, groups, threads) {
            jobs.push(Job::Groups(share));
        }
        let (variant, rounds) = cipher(scheme);
        let batch_blocks = Calls::new(variant, rounds, tuning.path, 0).batch_blocks();
        let cuts = chunks(batch, &rest, threads, batch_blocks);
        for w in cuts.windows(2) {
            jobs.push(Job::Lanes(rest[w[0]..w[1]].iter().map(|&i| take(i)).collect()));
        }
        jobs
    };
    jobs.into_par_iter().for_each(|job| match job {
        Job::Groups(mut g) => lockstep::run(ls, batch, op, &mut g),
        Job::Lanes(m) => run_chunk(batch, op, tuning, m),
    });
    Output::from_parts(bytes, ends, status)
}

/// The groups cut into consecutive shares of about equal steps: as many as
/// the threads, or more (up to four a thread, for balance) while a share
/// keeps two groups or more (a share sets up its buffers once).
fn group_shares<'o>(
    batch: &Batch,
    op: Operation,
    groups: Vec<Vec<Member<'o>>>,
    threads: usize,
) -> Vec<Vec<Vec<Member<'o>>>> {
    let n = groups.len();
    if n == 0 {
        return Vec::new();
    }
    let count = (n / 2).clamp(threads.max(1), 4 * threads.max(1)).min(n);
    let weights: Vec<usize> = groups.iter().map(|g| lockstep::steps(batch, op, g).max(1)).collect();
    let total: usize = weights.iter().sum();
    let mut shares = Vec::with_capacity(count);
    let mut current = Vec::new();
    let mut acc = 0;
    for (g, w) in groups.into_iter().zip(weights) {
        current.push(g);
        acc += w;
        if acc * count >= total * (shares.len() + 1) && shares.len() + 1 < count {
            shares.push(core::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        shares.push(current);
    }
    shares
}

/// Chunk boundaries (positions in `msgs`, from 0 to its length): about
/// equal work each; as many as the threads, or more (up to four a thread, for
/// balance) while every chunk keeps a few bitsliced batches of messages in
/// flight.
fn chunks(batch: &Batch, msgs: &[usize], threads: usize, batch_blocks: usize) -> Vec<usize> {
    let n = msgs.len();
    if n == 0 {
        return vec![0];
    }
    let by_size = n / (4 * batch_blocks);
    let count = by_size.clamp(threads.max(1), 4 * threads.max(1)).min(n).max(1);
    let weight = |k: usize| batch.data_range(msgs[k]).len() + batch.ad_range(msgs[k]).len() + 32;
    let total: usize = (0..n).map(weight).sum();
    let mut cuts = vec![0];
    let mut acc = 0;
    for k in 0..n {
        acc += weight(k);
        // Cut after message k once this chunk's share is reached.
        if acc * count >= total * cuts.len() && cuts.len() < count && k + 1 < n {
            cuts.push(k + 1);
        }
    }
    cuts.push(n);
    cuts
}

/// Runs `msgs` through the lane engine.
fn run_chunk(batch: &Batch, op: Operation, tuning: Tuning, msgs: Vec<Member<'_>>) {
    let path = tuning.path;
    let scheme = batch.scheme();
    let count = msgs.len();
    let mut outs: Vec<Option<&mut [u8]>> = Vec::with_capacity(count);
    let mut statuses = Vec::with_capacity(count);
    let mut index = Vec::with_capacity(count);
    for m in msgs {
        index.push(m.index);
        outs.push(Some(m.out));
        statuses.push(m.status);
    }
    let mut status = vec![Ok(()); count];
    // Longest first (a stable sort: equal lengths keep the batch's order).
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&j| core::cmp::Reverse(batch.data_range(index[j]).len() + batch.ad_range(index[j]).len()));
    let (variant, rounds) = cipher(scheme);
    let mut calls = Calls::new(variant, rounds, path, 0);
    let target = 2 * calls.batch_blocks();
    let flat = batch.flat();
    let key = |i: usize| &flat.keys[16 * i..16 * i + 16];
    match scheme {
        Scheme::RomulusN | Scheme::RomulusM => {
            let kind = if scheme == Scheme::RomulusN { romulus::Kind::N } else { romulus::Kind::M };
            let start = |j: usize| {
                let i = index[j];
                romulus::start(
                    kind,
                    op,
                    key(i),
                    batch.nonce(i),
                    batch.ad(i),
                    batch.data(i),
                    outs[j].take().unwrap_or_else(|| unreachable!("one start a message")),
                )
            };
            if kind == romulus::Kind::M && tuning.lockstep {
                // Slots in a lockstep batch: the nonce ‖ key expanded once a
                // message, TK1 per lane.
                lockstep::slots::run(lockstep::cipher(path), &mut calls, order, start, &mut status);
            } else {
                lanes::run(&mut calls, target, order, start, &mut status);
            }
        }
        Scheme::SkinnyAead(m) => {
            let start = |j: usize| -> Started<aead::Aead<'_>> {
                let i = index[j];
                aead::start(
                    m,
                    op,
                    key(i),
                    batch.nonce(i),
                    batch.ad(i),
                    batch.data(i),
                    outs[j].take().unwrap_or_else(|| unreachable!("one start a message")),
                )
            };
            lanes::run(&mut calls, target, order, start, &mut status);
        }
    }
    for (dst, s) in statuses.into_iter().zip(status) {
        *dst = s;
    }
}
