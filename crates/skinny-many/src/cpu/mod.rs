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
mod romulus;

use crate::{Batch, ManyError, MessageError, Output, Scheme};
use calls::Calls;
use lanes::Started;
use rayon::prelude::*;
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

/// Seals every message of `batch` (its data is the plaintext) on `threads`
/// worker threads (a pool of their own, [`skinny_exec::worker_pool`]).
/// Message `i` of the output is its ciphertext ‖ tag.
///
/// # Errors
/// [`ManyError::Threads`] if the threads could not be started.
pub fn seal(threads: Threads, batch: &Batch) -> Result<Output, ManyError> {
    with_pool(threads, batch, Operation::Seal)
}

/// Opens every message of `batch` (its data is ciphertext ‖ tag) on
/// `threads` worker threads. Message `i` of the output is its plaintext, or
/// [`MessageError::Forged`] (nothing of it released) if its tag is wrong.
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
    pool.install(|| crypt(batch, Operation::Seal, pool.current_num_threads()))
}

/// [`open`] on a pool already started (see [`seal_in`]).
pub fn open_in(pool: &rayon::ThreadPool, batch: &Batch) -> Output {
    pool.install(|| crypt(batch, Operation::Open, pool.current_num_threads()))
}

fn with_pool(threads: Threads, batch: &Batch, op: Operation) -> Result<Output, ManyError> {
    if batch.is_empty() {
        return Ok(Output::from_parts(Zeroizing::new(Vec::new()), Vec::new(), Vec::new()));
    }
    let pool = threads.own_pool().map_err(ManyError::Threads)?;
    Ok(pool.install(|| crypt(batch, op, pool.current_num_threads())))
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

/// The whole batch, on the current pool (`threads` of them).
fn crypt(batch: &Batch, op: Operation, threads: usize) -> Output {
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
    let cuts = chunks(batch, threads, Calls::new(cipher(scheme).0, cipher(scheme).1, 0).batch_blocks());
    // Each chunk gets its messages' output bytes and statuses, disjoint.
    let mut pieces = Vec::with_capacity(cuts.len());
    let (mut rest_bytes, mut rest_status) = (&mut bytes[..], &mut status[..]);
    let mut done_bytes = 0;
    for w in cuts.windows(2) {
        let end = if w[1] == 0 { 0 } else { ends[w[1] - 1] };
        let (b, rb) = rest_bytes.split_at_mut(end - done_bytes);
        let (s, rs) = rest_status.split_at_mut(w[1] - w[0]);
        pieces.push((w[0], b, s));
        (rest_bytes, rest_status, done_bytes) = (rb, rs, end);
    }
    pieces.into_par_iter().for_each(|(first, b, s)| run_chunk(batch, op, first, b, s));
    Output::from_parts(bytes, ends, status)
}

/// Chunk boundaries (message indices, from 0 to the count): about equal
/// work each; as many as the threads, or more (up to four a thread, for
/// balance) while every chunk keeps a few bitsliced batches of messages in
/// flight.
fn chunks(batch: &Batch, threads: usize, batch_blocks: usize) -> Vec<usize> {
    let n = batch.len();
    let by_size = n / (4 * batch_blocks);
    let count = by_size.clamp(threads.max(1), 4 * threads.max(1)).min(n).max(1);
    let weight = |i: usize| batch.data_range(i).len() + batch.ad_range(i).len() + 32;
    let total: usize = (0..n).map(weight).sum();
    let mut cuts = vec![0];
    let mut acc = 0;
    for i in 0..n {
        acc += weight(i);
        // Cut after message i once this chunk's share is reached.
        if acc * count >= total * cuts.len() && cuts.len() < count && i + 1 < n {
            cuts.push(i + 1);
        }
    }
    cuts.push(n);
    cuts
}

/// Runs messages `first ..` (as many as `status` has) into `bytes` (their
/// output, back to back).
fn run_chunk(batch: &Batch, op: Operation, first: usize, bytes: &mut [u8], status: &mut [Result<(), MessageError>]) {
    let scheme = batch.scheme();
    let count = status.len();
    let mut outs: Vec<Option<&mut [u8]>> = Vec::with_capacity(count);
    let mut rest = bytes;
    for i in first..first + count {
        let (o, r) = rest.split_at_mut(out_len(scheme, op, batch.data_range(i).len()));
        outs.push(Some(o));
        rest = r;
    }
    // Longest first (a stable sort: equal lengths keep the batch's order).
    let mut order: Vec<usize> = (0..count).collect();
    order.sort_by_key(|&j| core::cmp::Reverse(batch.data_range(first + j).len() + batch.ad_range(first + j).len()));
    let (variant, rounds) = cipher(scheme);
    let mut calls = Calls::new(variant, rounds, 0);
    let target = 2 * calls.batch_blocks();
    let flat = batch.flat();
    let key = |i: usize| &flat.keys[16 * i..16 * i + 16];
    match scheme {
        Scheme::RomulusN | Scheme::RomulusM => {
            let kind = if scheme == Scheme::RomulusN { romulus::Kind::N } else { romulus::Kind::M };
            let start = |j: usize| {
                let i = first + j;
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
            lanes::run(&mut calls, target, order, start, status);
        }
        Scheme::SkinnyAead(m) => {
            let start = |j: usize| -> Started<aead::Aead<'_>> {
                let i = first + j;
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
            lanes::run(&mut calls, target, order, start, status);
        }
    }
}
