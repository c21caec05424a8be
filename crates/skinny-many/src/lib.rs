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
//! one before), so one message cannot fill a wide machine; many can. The CPU
//! engine keeps many messages in the lanes of bitsliced batches (64, 256 or
//! 512 lanes: the portable, AVX2 or AVX-512 path) and runs one cipher call of
//! every lane at a time, on `skinny::hazmat::bitsliced::Lockstep`, whose
//! lanes each have their own TK1 (`encrypt_lane_tk1`). Three shapes:
//!
//! *Lockstep groups* (Romulus-N). A group is up to a batch of messages sorted
//! by their number of calls, so that its lanes end together (a group ends
//! where its next message would leave a quarter of the steps idle). At step
//! `t` each lane makes its own call `t`: an AD pair, its last AD call, or a
//! message block, under its own counter and domain (TK1, sliced per step).
//! TK2 ‖ TK3 is the nonce ‖ key for every call but the AD pairs', so the
//! group's schedule is expanded once into sliced round tweakeys (40 rounds
//! × 64 slices, constants folded in) that every call reads; a step where some
//! lane makes an AD pair call expands a table of its own. The state stays
//! sliced from the first call to the tag; G(S) is sliced out where a lane
//! outputs or tags, and the blocks for S sliced in.
//!
//! *Lockstep slots* (Romulus-M). The lane engine's Romulus state machines
//! (`cpu::romulus`, on `skinny_romulus::hazmat`), each held in one lane of a
//! batch for its whole life, as intel-ipsec-mb's job manager holds a job: the
//! slot's nonce ‖ key is expanded with every slot filled at the same time,
//! idle slots are refilled a quarter of the batch at a time, and a step where
//! a lane's MAC takes a data block as TK2 expands a table for that step. The
//! last few lanes, once nothing is left to start, finish through single
//! blocks.
//!
//! *Lanes* (SKINNY-AEAD, and the Romulus messages no group takes: too few of
//! one length, or alone at the end of a long tail). Each message is a small
//! state machine that hands over the tweakable-block-cipher calls it has
//! ready with their whole tweakeys (a Romulus lane one call at a time, a
//! SKINNY-AEAD lane all its block calls and then the tag call, the members'
//! tweakeys from `skinny_aead::hazmat`); a thread keeps lanes in flight until
//! two bitsliced batches of calls are ready and runs them through
//! `skinny::hazmat::bitsliced::PerBlockTweakeys` (every block its own
//! tweakey), or, when too few for a batch, one block at a time with the
//! schedule inside the rounds (`skinny::hazmat::single::Lanes`). A
//! SKINNY-AEAD message or AD of 8 KiB or more fills batches by itself and
//! goes whole through its member's single-message type.
//!
//! A batch is cut into ranges of consecutive messages of about equal work,
//! as many as the threads or up to four a thread; each range is one job,
//! from zeroing its part of the output to its last status, with its groups
//! and lanes planned inside it and its buffers kept from group to group, so
//! no pass over the messages runs on one thread. [`cpu::Engine`] keeps its
//! worker pool for every batch; [`cpu::shared`] keeps one per thread count
//! for the process (what [`seal`] and [`open`] run on). [`cpu::Tuning`] turns
//! the lockstep shapes off or picks the bitsliced path (for tests and
//! benchmarks).
//!
//! ## Constant time
//!
//! The engine branches and indexes on public quantities only: lengths (which
//! decide the number of blocks, the phases, the groups and slots, the order
//! in which messages start, and whether calls run bitsliced or one at a
//! time), counters, domain bytes, lane positions and nonces. Keys, plaintext
//! and states go through XORs, copies and the cipher, whose bitsliced and
//! single-block paths are both table-free and branch-free on secret data.
//! Tags are compared with [`subtle::ConstantTimeEq`]; a failed message's
//! output is zeroed. Keys, data, the call buffers (tweakeys hold the keys),
//! the sliced states and round-tweakey tables, and the outputs are wiped
//! when dropped.
//!
//! ## Floor
//!
//! A 64-byte Romulus-N message without AD is 5 SKINNY-128-384+ calls (the AD
//! phase's one call, four message blocks) of 40 rounds. Word operations per
//! lockstep batch (AVX2: 256 lanes, two-input logic; AVX-512: 512 lanes,
//! `vpternlogq`): a round is the S-boxes (AVX2 320, AVX-512 128), the round
//! key and MixColumns (AVX2 224 in an even round, where TK1's slices go in,
//! 160 in an odd one; AVX-512 160 / 128) and the row-2 constant (1): AVX2
//! 545 / 481, AVX-512 289 / 257. A call, 40 rounds and the state's load and
//! store: AVX2 about 20 800 (81 a lane), AVX-512 about 11 200 (22 a lane).
//! Slicing a batch of blocks in or out (two 64×64 transpositions with loads
//! and stores): AVX2 about 2 700 (10.5 a lane), AVX-512 about 1 900 (3.7 a
//! lane); a TK1 (one transposition) half that. Expanding nonce ‖ key: AVX2
//! about 94 a lane, AVX-512 about 40. A message: 5 calls, about 10 slicings
//! and 5 TK1 slicings, one expansion: about 5 · 81 + 15 · 10.5 + 94 ≈ 660
//! AVX2 operations (10 a message byte), about 5 · 22 + 15 · 3.7 + 40 ≈ 205
//! on AVX-512 (3.2 a byte), before the lanes' own byte work (loading and
//! storing blocks, G on the output) and the output's allocation and wipe.
//! Romulus-M's 64-byte message is 7 calls, two of which (the MAC's pairs)
//! expand a table each; a SKINNY-AEAD M1 message 5 calls of 56 rounds, each
//! with its own tweakey through `PerBlockTweakeys` (about 144 AVX2 operations
//! a call and block). A Romulus message cannot go faster than its serial
//! chain: a batch with a few long Romulus messages among short ones ends with
//! those running alone at single-message speed.
//!
//! Figures, with their machines and method, are in the repository's `runs/`
//! (`examples/many_speed.rs` measures every shape beside the single-message
//! path on the same threads).

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
pub use scheme::{Scheme, UnknownScheme};
/// The SKINNY-AEAD member a [`Scheme::SkinnyAead`] names (re-exported: the
/// batch API takes it).
pub use skinny_aead::Member;

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
