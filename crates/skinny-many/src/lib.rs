//! # The many-message engine
//!
//! Seal and open a [`Batch`] of independent messages, each with its own key,
//! nonce, associated data and length (0 bytes to megabytes, mixed), under one
//! [`Scheme`]: Romulus-N, Romulus-M or a SKINNY-AEAD member (M1-M6). The
//! results are byte for byte those of the single-message types
//! (`skinny_romulus::{RomulusN, RomulusM}`, `skinny_aead::SkinnyAeadM1..M6`),
//! and a bad tag fails only its own message ([`Output`], [`MessageError`]).
//!
//! - [`seal`] / [`open`]: where a [`Placement`] puts the work (the CPU, or
//!   with the feature `cuda` the GPU engine, `gpu::GpuMany`, which runs every
//!   scheme; see [`verdict`] for `auto`).
//! - [`cpu::seal`] / [`cpu::open`] on a thread count, [`cpu::seal_in`] /
//!   [`cpu::open_in`] on a pool already started, [`cpu::Engine`] for a
//!   long-lived engine.
//! - [`stream::Stream`]: messages in one at a time as they arrive,
//!   completions out in submission order (see *Streaming* below).
//!
//! ## Streaming
//!
//! A server receives messages over time, not as batches. The
//! [`stream`] module puts a front on an engine (a [`stream::Runner`]: the CPU
//! [`cpu::Engine`], or `gpu::GpuMany`): `submit` a message and get a ticket,
//! `recv` completions in ticket order, `flush` to cut a batch at once.
//! Dispatcher threads cut the pending batch when it reaches a target size or
//! when its oldest message has waited a deadline, so a lone message is not
//! held for company; caps on the messages and bytes in flight bound the
//! memory (`submit` waits, `try_submit` hands the message back). Its module
//! docs give the design; `examples/gateway` serves UDP frames through it.
//!
//! ## Design
//!
//! Romulus-N and -M are serial inside a message (every block waits for the
//! one before), so one message cannot fill a wide machine; many can. Two
//! engines share a batch:
//!
//! *Lockstep groups* (Romulus-N). Messages of one shape (the same AD length
//! and data length: a gateway's frames) run a bitsliced batch at a time (64,
//! 256 or 512 messages: the portable, AVX2 or AVX-512 path), in lockstep
//! through `skinny::hazmat::bitsliced::Lockstep`. Every call's TK1 (the
//! 56-bit counter and domain) depends on the position in the message only,
//! so it is the same for the whole group: a few shared masks per round, none
//! in the odd rounds (its second half is zero). TK2 ‖ TK3 is nonce ‖ key for
//! every call but the AD pairs', so the group's schedule is expanded once
//! into sliced round tweakeys (40 rounds × 64 slices, the round constants
//! folded in) that every call reads; an AD pair's call (TK2 = an AD block)
//! expands a table of its own. The state stays sliced from the first call to
//! the tag: blocks are sliced in where data enters and out where it leaves,
//! and ρ (S ⊕ M, G(S) ⊕ M: G renames a byte's bits and adds one XOR) runs on
//! the slices. A shape's messages are cut into groups of a batch; a
//! remainder under a quarter of a batch (a group costs a whole batch) joins
//! the lane engine.
//!
//! *Lanes* (everything else: other shapes, Romulus-M, SKINNY-AEAD). Each
//! message in flight is a *lane*, a small state machine that hands over the
//! tweakable-block-cipher calls it has ready (a 16-byte block and its whole
//! tweakey) and takes their results: a Romulus lane one call at a time (TK1
//! = the 56-bit counter and domain, TK2 = an AD block or the nonce, TK3 = the
//! key; the encoding from `skinny_romulus::hazmat`), a SKINNY-AEAD lane all its block calls at once and then the tag call
//! (the members' tweakeys from `skinny_aead::hazmat`). A thread keeps lanes
//! in flight until two bitsliced batches of calls are ready, runs them all
//! through `skinny::hazmat::bitsliced::PerBlockTweakeys` (SKINNY-128-384 at
//! 40 rounds for Romulus, 56 for M1-M4, SKINNY-128-256 at 48 for M5-M6;
//! every block with its own tweakey, the schedule bitsliced too), hands back
//! the results and starts new messages where lanes finished, so mixed
//! lengths keep the batches full. Messages start longest first. Calls too few
//! for a batch (the last long Romulus messages running alone) go through
//! `skinny`'s single-block code instead. A SKINNY-AEAD message or AD of 8 KiB
//! or more fills batches by itself: it goes whole through its member's
//! single-message type.
//!
//! The groups, one job each, and the lane engine's messages, cut into chunks
//! of about equal work (at least one a thread), run on a pool of
//! `skinny_exec::worker_pool` threads; states, tables, lanes, calls and
//! outputs live on the heap. [`cpu::Tuning`] turns the groups off or picks
//! the bitsliced path (for tests and benchmarks).
//!
//! ## Constant time
//!
//! The engine branches and indexes on public quantities only: lengths (which
//! decide the number of blocks, the phases, the groups, the order in which
//! messages start, and whether calls run bitsliced or one at a time),
//! counters, domain bytes and nonces. Keys, plaintext and states go through XORs and the
//! cipher, whose bitsliced and single-block paths are both table-free and
//! branch-free on secret data. Tags are compared with
//! [`subtle::ConstantTimeEq`]; a failed message's output is zeroed. Keys,
//! data, the call buffers (tweakeys hold the keys) and the outputs are wiped
//! when dropped; each lane wipes its key and state, each group its sliced
//! state, blocks and round-tweakey tables.
//!
//! ## Floor and measurements
//!
//! A 64-byte Romulus-N message without AD is 5 SKINNY-128-384+ calls (the AD
//! phase's one call, four message blocks) of 40 rounds.
//!
//! *Lockstep groups.* Word operations per batch (AVX2: 256 lanes, two-input
//! logic; AVX-512: 512 lanes, `vpternlogq`). A round is the S-boxes (AVX2
//! 320, AVX-512 128), the round key and MixColumns (AVX2 224 in an even
//! round, where TK1's shared masks go in, 160 in an odd one; AVX-512 160 /
//! 128) and the row-2 constant (1): AVX2 545 / 481, AVX-512 289 / 257. A
//! call, 40 rounds and the state's load and store: AVX2 about 20 800 (81 a
//! block), AVX-512 about 11 200 (22 a block). Slicing a batch of blocks in or
//! out (two 64×64 transpositions with loads and stores): AVX2 about 2 700
//! (10.5 a block), AVX-512 about 1 900 (3.7 a block). Expanding the group's
//! nonce ‖ key (two arrays sliced, then 40 rounds of writing 64 slices and
//! stepping the schedule): AVX2 about 94 a lane, AVX-512 about 40. A message
//! takes 5 calls, 10 slicings (in: the empty AD block and 4 message blocks;
//! out: 4 output blocks and the tag), one expansion, and ρ and G on the
//! slices (plain byte loops, about 30 SSE2 operations a message): about
//! 5 · 81 + 10 · 10.5 + 94 + 30 ≈ 630 AVX2 operations (10 a message byte),
//! about 5 · 22 + 10 · 3.7 + 40 + 30 ≈ 220 on AVX-512 (3.4 a byte). An AD
//! pair adds a call and an expansion.
//!
//! *Lanes.* Each call has its own schedule. `skinny`'s per-block-tweakey
//! round is 631 word operations per batch with three TK arrays (plus 192
//! slice moves), and each batch transposes data and three TK arrays (11 520
//! more): per call and block (40 · 631 + 11 520) / 256 ≈ 144 AVX2
//! operations, so about 720 per message (11 per message byte) on AVX2, before
//! the lanes' bookkeeping and gathering (about half the time, profiled);
//! AVX-512 halves the per-block count (512 blocks a batch) and its
//! three-input logic shortens the S-box. Romulus-M takes 7 calls for the same
//! message, M1 5 calls of 56 rounds.
//!
//! Lockstep groups, measured with `examples/many_speed.rs` (test profile,
//! opt-level 2 without LTO, for lack of time for a release build: compare
//! within a run only) on the 2-core dev machine (AVX2, no AVX-512) under a load
//! average of 17 to 19 from other builds, so absolute figures are low and
//! move by 3x between runs; three runs, 32 768 messages of 64 bytes, no AD, one
//! and two threads. Per batch of 256: a lockstep call 221-482 ns a block
//! against 531-1 894 for a per-block-tweakey batch (2.4-3.9x less); the
//! expansion of nonce ‖ key 292-1 085 ns a lane (1.3-2.2 calls: more than
//! the floor's estimate, the schedule's slice moves go through memory);
//! slicing a block in and out 53-184 ns. Romulus-N 64 B: the engine seals
//! 3.1-5.1x and opens 2.9-4.9x the single-message path on the same threads,
//! the lane engine alone 2.2-3.0x and 2.3-3.4x (the groups 1.2-1.75x the
//! lanes); 1 KiB (two of the runs): 2.9-4.1x against 1.6-3.3x. Not measured here: AVX-512 and
//! the 16-core H200 host (target: 8 GB/s, 4x the single-message path on 16
//! threads).
//!
//! The lane engine alone, earlier, in a release build on the same machine (AVX2,
//! no AVX-512), shared with other jobs (load average 3 to 9, so figures move
//! by up to 2x from run to run), 32 768 messages of 64 bytes, no AD, one
//! thread: Romulus-N seals 0.9-1.3 M messages/s (0.06-0.08 GB/s) against
//! 0.11 M/s for the single-message path on the same thread (ratio 8-12);
//! Romulus-M 0.6-0.9 M/s (ratio 9-13), M1 0.6-1.0 M/s (ratio 7-9); opening
//! likewise. 1 KiB messages: Romulus-N 0.07-0.14 GB/s (ratio about 11), M1
//! about 0.065 GB/s (ratio about 2: the single-message M1 already fills
//! batches from one message's blocks). One bitsliced batch of 256 calls
//! costs as much as 13-19 single-block calls. Two threads on the two shared
//! cores gave no gain. A profile of one thread sealing 64-byte Romulus-N
//! messages: about 52% in the bitsliced rounds and schedule, 6% in gathering
//! the tweakeys inside `PerBlockTweakeys`, 12% in the lanes' block work.
//!
//! A message of Romulus cannot go faster than its serial chain: a batch with
//! a few long Romulus messages among short ones ends with those running
//! alone at single-message speed.

// docs.rs (`--cfg docsrs`, nightly): each feature-gated item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

mod batch;
pub mod cpu;
mod error;
#[cfg(feature = "cuda")]
pub mod gpu;
mod output;
mod route;
mod scheme;
pub mod stream;
mod wipe;

pub use batch::{Batch, BatchError, Flat};
pub use error::ManyError;
pub use output::{MessageError, Output};
pub use route::{verdict, AUTO_GPU_BYTES};
pub use scheme::Scheme;

pub use skinny_exec::Placement;

/// Seals every message of `batch` where `placement` puts the work (see
/// [`cpu::seal`] for the output, and [`verdict`] for the rule).
///
/// # Errors
/// [`ManyError`]: the threads would not start, a GPU placement the batch
/// cannot be served on, or the GPU asked for failed.
pub fn seal(placement: &Placement, batch: &Batch) -> Result<Output, ManyError> {
    route::run(placement, batch, route::Work::Seal)
}

/// Opens every message of `batch` where `placement` puts the work (see
/// [`cpu::open`] for the output).
///
/// # Errors
/// As [`seal`].
pub fn open(placement: &Placement, batch: &Batch) -> Result<Output, ManyError> {
    route::run(placement, batch, route::Work::Open)
}

// The README's example (the page crates.io shows) compiled and run with the doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
