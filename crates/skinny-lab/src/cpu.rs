//! The experiments' work on the CPU: key groups and batches of queries spread
//! over the current rayon pool, each key's cipher chosen by the group's size.

use crate::common::Common;
use crate::control::Control;
use crate::outcome::{Outcome, Tally, Witness};
use crate::per_key::KeyHistogram;
use rayon::prelude::*;
use skinny::hazmat::bitsliced::PerBlockTweakeys;
use skinny::{BitslicedSkinny, Skinny};
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

/// Whether `common`'s key groups are too small for a [`BitslicedSkinny`] each,
/// so that batches run across groups with per-block tweakeys. Those run round
/// 1's constants only: runs from a later round take per-key ciphers (slower
/// with small groups, the same counts).
pub(crate) fn per_block(common: &Common) -> bool {
    common.key_every < BITSLICE_MIN_GROUP && common.start_round == 1
}

/// The per-block tweakey cipher for `common`'s variant and rounds.
pub(crate) fn per_block_tweakeys(common: &Common) -> PerBlockTweakeys {
    // Rounds were checked before any work started.
    PerBlockTweakeys::new(common.variant, common.rounds).expect("checked parameters")
}

/// One key's cipher: bitsliced masks for big groups, plain for small ones.
pub(crate) enum KeyCipher {
    Sliced(Box<BitslicedSkinny>),
    Plain(Box<Skinny>),
}

impl KeyCipher {
    pub(crate) fn new(cipher: Skinny, group_len: u64) -> Self {
        if group_len >= BITSLICE_MIN_GROUP {
            KeyCipher::Sliced(Box::new(BitslicedSkinny::new(&cipher)))
        } else {
            KeyCipher::Plain(Box::new(cipher))
        }
    }

    pub(crate) fn encrypt(&self, data: &mut [u8]) {
        match self {
            KeyCipher::Sliced(c) => c.encrypt_blocks(data),
            KeyCipher::Plain(c) => c.encrypt_blocks(data),
        }
    }

    pub(crate) fn decrypt(&self, data: &mut [u8]) {
        match self {
            KeyCipher::Sliced(c) => c.decrypt_blocks(data),
            KeyCipher::Plain(c) => c.decrypt_blocks(data),
        }
    }
}

/// Runs `group` (a key group's work, split into batches) over this shard's
/// groups on the current rayon pool. In a per-key run each group's tally is
/// one key of the histogram.
pub(crate) fn run_groups<W, F>(common: &Common, control: &Control, group: F) -> Outcome<W>
where
    W: Witness,
    F: Fn(u64) -> Tally<W> + Sync,
{
    let start = Instant::now();
    let show = common.show;
    let groups = common.shard_groups();
    let planned = common.shard_queries().end - common.shard_queries().start;
    // `while_some` ends the whole parallel walk at the first stop seen: a
    // check per item alone would still visit every one of up to 2^64 groups.
    let tally = groups
        .into_par_iter()
        .map(|g| (!control.stopped()).then(|| group(g).fold_group(common.per_key, common.key_every)))
        .while_some()
        .reduce(Tally::empty, |a, b| a.join(b, show));
    outcome(common, start, tally, planned)
}

/// Runs `batch` over this shard's queries in batches that cut across key groups
/// (each batch finds its queries' keys itself): for groups too small to be
/// worth their own [`BitslicedSkinny`]. In a per-key run the batches are
/// whole key groups (the most that fit in [`BATCH`] queries), each counting
/// its groups' hits ([`Tally::hit`]).
pub(crate) fn run_across_groups<W, F>(common: &Common, control: &Control, batch: F) -> Outcome<W>
where
    W: Witness,
    F: Fn(core::ops::Range<u64>) -> Tally<W> + Sync,
{
    let start = Instant::now();
    let queries = common.shard_queries();
    let planned = queries.end - queries.start;
    let tally = if common.per_key {
        // The shard starts at a group's first query, so batches of whole
        // groups from there never cut one.
        let len = (BATCH / common.key_every).max(1) * common.key_every;
        run_batches_of(queries, len, common.show, control, |qs| batch(qs).fold_groups(common.key_every))
    } else {
        run_batches(queries, common.show, control, batch)
    };
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
        per_key: common.per_key.then(|| tally.per_key.unwrap_or_else(|| KeyHistogram::new(common.key_every))),
        interrupted: tally.queries < planned,
    }
}

/// The batches of a key group's queries, in parallel (rayon balances them with
/// the other groups' batches).
pub(crate) fn run_batches<W, F>(queries: core::ops::Range<u64>, show: usize, control: &Control, batch: F) -> Tally<W>
where
    W: Witness,
    F: Fn(core::ops::Range<u64>) -> Tally<W> + Sync,
{
    run_batches_of(queries, BATCH, show, control, batch)
}

/// [`run_batches`] in batches of `len` queries.
fn run_batches_of<W, F>(queries: core::ops::Range<u64>, len: u64, show: usize, control: &Control, batch: F) -> Tally<W>
where
    W: Witness,
    F: Fn(core::ops::Range<u64>) -> Tally<W> + Sync,
{
    let n = (queries.end - queries.start).div_ceil(len);
    // As in `run_groups`: a stop ends the walk over the batches, not only
    // their work.
    (0..n)
        .into_par_iter()
        .map(|b| {
            if control.stopped() {
                return None;
            }
            let s = queries.start + b * len;
            let t = batch(s..queries.end.min(s + len));
            control.add_done(t.queries);
            Some(t)
        })
        .while_some()
        .reduce(Tally::empty, |a, b| a.join(b, show))
}
