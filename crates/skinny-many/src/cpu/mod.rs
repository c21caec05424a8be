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

use crate::{Batch, ManyError, MessageError, Output, Scheme};
use calls::Calls;
use core::mem::MaybeUninit;
use core::ops::Range;
use lanes::Started;
use lockstep::Member;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::Path;
use skinny::Variant;
use skinny_exec::Threads;
use std::sync::{Arc, Mutex};
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
/// it runs (a server keeps one; [`seal`] and [`open`] use the process's
/// [`shared`] one).
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
    /// plaintext, or [`MessageError::Forged`]
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

/// The process's engine on `threads` worker threads, started the first time
/// a thread count is asked for and kept for later calls (as rayon keeps its
/// global pool; the last four thread counts asked for are kept): what [`seal`], [`open`] and the crate's
/// [`seal`](crate::seal)/[`open`](crate::open) run on, so that a caller
/// sealing batch after batch (a binding, a command) starts no threads per
/// batch. The engines hold no key material between batches.
///
/// # Errors
/// [`ManyError::Threads`] if the threads could not be started.
pub fn shared(threads: Threads) -> Result<Arc<Engine>, ManyError> {
    // The engines of the last few thread counts asked for, the most recent
    // last: a sweep over thread counts keeps no more than these pools alive
    // (an engine let go here lives on while a caller still holds it).
    const KEPT: usize = 4;
    static ENGINES: Mutex<Vec<(Threads, Arc<Engine>)>> = Mutex::new(Vec::new());
    let mut engines = ENGINES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(at) = engines.iter().position(|(t, _)| *t == threads) {
        let entry = engines.remove(at);
        let engine = Arc::clone(&entry.1);
        engines.push(entry);
        return Ok(engine);
    }
    let engine = Arc::new(Engine::new(threads)?);
    if engines.len() == KEPT {
        engines.remove(0);
    }
    engines.push((threads, Arc::clone(&engine)));
    Ok(engine)
}

/// Seals every message of `batch` (its data is the plaintext) on `threads`
/// worker threads (the process's [`shared`] engine for that count).
/// Message `i` of the output is its ciphertext ‖ tag.
///
/// # Errors
/// [`ManyError::Threads`] if the threads could not be started.
pub fn seal(threads: Threads, batch: &Batch) -> Result<Output, ManyError> {
    on_shared(threads, batch, Operation::Seal)
}

/// Opens every message of `batch` (its data is ciphertext ‖ tag) on
/// `threads` worker threads. Message `i` of the output is its plaintext, or
/// [`MessageError::Forged`] (nothing of it released) if its tag is wrong.
///
/// # Errors
/// [`ManyError::Threads`] if the threads could not be started.
pub fn open(threads: Threads, batch: &Batch) -> Result<Output, ManyError> {
    on_shared(threads, batch, Operation::Open)
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

fn on_shared(threads: Threads, batch: &Batch, op: Operation) -> Result<Output, ManyError> {
    if batch.is_empty() {
        return Ok(Output::from_parts(Zeroizing::new(Vec::new()), Vec::new(), Vec::new()));
    }
    let engine = shared(threads)?;
    Ok(match op {
        Operation::Seal => engine.seal(batch),
        Operation::Open => engine.open(batch),
    })
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

/// A range of the batch's messages and what its job writes: their output
/// bytes (not yet initialised), ends and statuses.
struct Part<'o> {
    range: Range<usize>,
    offset: usize,
    out: &'o mut [MaybeUninit<u8>],
    ends: &'o mut [usize],
    status: &'o mut [Result<(), MessageError>],
}

/// The whole batch, on the current pool (`threads` of them): cut into
/// ranges of consecutive messages of about equal work, each range a job from
/// its output's first byte to its last status (its lockstep groups and its
/// lanes planned inside it), so that nothing runs one message at a time
/// outside the jobs.
fn crypt(batch: &Batch, op: Operation, threads: usize, tuning: Tuning) -> Output {
    let n = batch.len();
    let scheme = batch.scheme();
    let ls = lockstep::cipher(tuning.path);
    let ranges = ranges(batch, threads, ls.lanes());
    let sizes: Vec<usize> =
        ranges.par_iter().map(|r| r.clone().map(|i| out_len(scheme, op, batch.data_range(i).len())).sum()).collect();
    let total: usize = sizes.iter().sum();
    let mut bytes: Vec<u8> = Vec::with_capacity(total);
    let mut ends = vec![0usize; n];
    let mut status = vec![Ok(()); n];
    {
        let mut out_rest = &mut bytes.spare_capacity_mut()[..total];
        let mut ends_rest = &mut ends[..];
        let mut status_rest = &mut status[..];
        let mut parts = Vec::with_capacity(ranges.len());
        let mut offset = 0;
        for (range, &size) in ranges.into_iter().zip(&sizes) {
            let (out, o) = core::mem::take(&mut out_rest).split_at_mut(size);
            let (e, er) = core::mem::take(&mut ends_rest).split_at_mut(range.len());
            let (st, sr) = core::mem::take(&mut status_rest).split_at_mut(range.len());
            (out_rest, ends_rest, status_rest) = (o, er, sr);
            parts.push(Part { range, offset, out, ends: e, status: st });
            offset += size;
        }
        parts.into_par_iter().for_each(|part| run_part(batch, op, tuning, ls, part));
    }
    // SAFETY: the parts cover bytes 0..total, and each part's job zeroed all
    // of its bytes first (`run_part`).
    unsafe { bytes.set_len(total) };
    Output::assembled(bytes, ends, status)
}

/// Ranges of consecutive messages covering the batch, of about equal work
/// (data and AD bytes and a block for each message's fixed calls): as many
/// as the threads, or more (up to four a thread, for balance) while each
/// keeps two bitsliced batches of messages. Weighed in parallel by pieces.
fn ranges(batch: &Batch, threads: usize, lanes: usize) -> Vec<Range<usize>> {
    let n = batch.len();
    let threads = threads.max(1);
    let count = (n / (2 * lanes)).clamp(threads, 4 * threads).min(n).max(1);
    if count == 1 {
        return core::iter::once(0..n).collect();
    }
    // Pieces of equal message counts, weighed in parallel; ranges cut at
    // piece boundaries.
    let pieces = (16 * count).min(n);
    let piece = |k: usize| (k * n / pieces)..((k + 1) * n / pieces);
    let weights: Vec<usize> = (0..pieces)
        .into_par_iter()
        .map(|k| piece(k).map(|i| batch.data_range(i).len() + batch.ad_range(i).len() + 32).sum())
        .collect();
    let total: usize = weights.iter().sum();
    let mut out = Vec::with_capacity(count);
    let (mut start, mut acc) = (0, 0);
    for (k, w) in weights.iter().enumerate() {
        acc += w;
        let end = piece(k).end;
        if acc * count >= total * (out.len() + 1) && out.len() + 1 < count && end < n {
            out.push(start..end);
            start = end;
        }
    }
    out.push(start..n);
    out
}

/// One part of [`crypt`]: its output zeroed, its ends, then its messages
/// through lockstep groups (Romulus-N) and the lane engine.
fn run_part(batch: &Batch, op: Operation, tuning: Tuning, ls: skinny::hazmat::bitsliced::Lockstep, part: Part<'_>) {
    let scheme = batch.scheme();
    let Part { range, offset, out, ends, status } = part;
    out.fill(MaybeUninit::new(0));
    // SAFETY: every byte was just written; `MaybeUninit<u8>` and `u8` have
    // the same layout.
    let out: &mut [u8] = unsafe { core::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), out.len()) };
    let mut acc = offset;
    for (e, i) in ends.iter_mut().zip(range.clone()) {
        acc += out_len(scheme, op, batch.data_range(i).len());
        *e = acc;
    }
    // Every message's output bytes and status, disjoint.
    let first = range.start;
    let mut members: Vec<Option<Member<'_>>> = Vec::with_capacity(range.len());
    let mut rest_bytes = out;
    for (index, status) in range.clone().zip(status.iter_mut()) {
        let (o, r) = core::mem::take(&mut rest_bytes).split_at_mut(out_len(scheme, op, batch.data_range(index).len()));
        members.push(Some(Member { index, out: o, status }));
        rest_bytes = r;
    }
    let mut take = |i: usize| members[i - first].take().unwrap_or_else(|| unreachable!("one run a message"));
    let (groups, rest) =
        if tuning.lockstep { lockstep::plan(batch, op, ls.lanes(), range) } else { (Vec::new(), range.collect()) };
    if !groups.is_empty() {
        let mut groups: Vec<Vec<Member<'_>>> = groups.iter().map(|g| g.iter().map(|&i| take(i)).collect()).collect();
        lockstep::run(ls, batch, op, &mut groups);
    }
    if !rest.is_empty() {
        let rest: Vec<Member<'_>> = rest.iter().map(|&i| take(i)).collect();
        run_chunk(batch, op, tuning, rest);
    }
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
