//! Lockstep slots: Romulus lanes (the lane engine's state machines, module
//! `cpu::romulus`), each held in one lane of a bitsliced batch for its whole
//! life, their calls run together through [`Lockstep`] with every lane's own
//! TK1. The shape of intel-ipsec-mb's job manager: fixed lanes that own their
//! message's expanded TK2 ‖ TK3 (nonce ‖ key, expanded once for every slot
//! filled at a time), refilled as messages finish.
//!
//! For Romulus-M, whose MAC takes every second block as TK2 (a step where
//! some lane does that expands a table of its own for the step) and whose
//! encryption runs on the nonce. Idle slots are refilled when a quarter of
//! the batch is idle (one expansion of the nonce table for all of them); the
//! last few lanes, once no message is left to start, finish through the lane
//! engine's calls (single blocks), which cost less than a mostly idle batch.
//!
//! Everything branches on lengths, phases and slot positions only (public);
//! the states, blocks, keys and nonces go through copies, the slicing and the
//! cipher.

use super::super::calls::{Block, Calls};
use super::super::lanes::{self, Started};
use super::super::romulus::Romulus;
use crate::wipe::Secret;
use crate::MessageError;
use skinny::hazmat::bitsliced::Lockstep;

/// A batch with this many lanes or fewer still busy, and no message left to
/// start, hands them to the lane engine's calls.
const TAIL_DIVISOR: usize = 8;

/// A share of the batch idle before the idle slots are refilled (and the
/// nonce table expanded again).
const REFILL_DIVISOR: usize = 4;

/// The buffers of a run, wiped when dropped.
struct Buffers {
    blocks: Secret,
    halves: Secret,
    tk1: Secret,
    state: Secret,
    rest: Secret,
    pair_rest: Secret,
    nonce_table: Secret,
    pair_table: Secret,
}

/// Runs the messages `order` yields (indices into `status`) to the end:
/// `start(i)` makes message `i`'s lane; its result goes to `status[i]`.
pub(crate) fn run<'a>(
    ls: Lockstep,
    calls: &mut Calls,
    order: impl IntoIterator<Item = usize>,
    mut start: impl FnMut(usize) -> Started<Romulus<'a>>,
    status: &mut [Result<(), MessageError>],
) {
    let n = ls.lanes();
    let mut b = Buffers {
        blocks: Secret::zeroed(16 * n),
        halves: Secret::zeroed(8 * n),
        tk1: Secret::zeroed(ls.tk1_slices_bytes()),
        state: Secret::zeroed(ls.state_bytes()),
        rest: Secret::zeroed(32 * n),
        pair_rest: Secret::zeroed(32 * n),
        nonce_table: Secret::zeroed(ls.tweakey_table_bytes()),
        pair_table: Secret::zeroed(ls.tweakey_table_bytes()),
    };
    let mut slots: Vec<Option<(usize, Romulus<'a>)>> = (0..n).map(|_| None).collect();
    let mut called = vec![false; n];
    let mut paired = vec![false; n];
    let mut order = order.into_iter().peekable();
    loop {
        let idle = slots.iter().filter(|s| s.is_none()).count();
        if order.peek().is_some() && (idle >= n / REFILL_DIVISOR || idle == n) {
            for slot in slots.iter_mut().filter(|s| s.is_none()) {
                for i in order.by_ref() {
                    match start(i) {
                        Started::Lane(lane) => {
                            *slot = Some((i, lane));
                            break;
                        }
                        Started::Done(result) => status[i] = result,
                    }
                }
            }
            // Every slot's nonce ‖ key (idle ones zero), expanded once.
            for (j, slot) in slots.iter().enumerate() {
                let at = &mut b.rest[32 * j..32 * j + 32];
                match slot {
                    Some((_, lane)) => {
                        let (nonce, key) = lane.nonce_key();
                        at[..16].copy_from_slice(nonce);
                        at[16..].copy_from_slice(key);
                    }
                    None => at.fill(0),
                }
            }
            ls.expand(&b.rest, &mut b.nonce_table);
        }
        let active = slots.iter().filter(|s| s.is_some()).count();
        if active == 0 {
            return;
        }
        if order.peek().is_none() && active <= n / TAIL_DIVISOR {
            // The lane engine's scheduler with nothing left to start: its
            // calls run as single blocks when too few for a batch.
            let tail = slots.into_iter().flatten().collect();
            lanes::run_from(calls, 0, tail, core::iter::empty(), |_| unreachable!("nothing left to start"), status);
            return;
        }
        // One step: every busy lane's next call, or its end.
        let mut any_call = false;
        let mut any_pair = false;
        for (j, slot) in slots.iter_mut().enumerate() {
            called[j] = false;
            paired[j] = false;
            let block = &mut b.blocks[16 * j..16 * j + 16];
            let half = &mut b.halves[8 * j..8 * j + 8];
            let Some((_, lane)) = slot else {
                block.fill(0);
                half.fill(0);
                continue;
            };
            if !lane.advance() {
                if let Some((i, lane)) = slot.take() {
                    status[i] = lane.end();
                }
                block.fill(0);
                half.fill(0);
                continue;
            }
            let call = lane.pending();
            block.copy_from_slice(lane.state());
            half.copy_from_slice(&call.tk1_half.to_le_bytes());
            if let Some(tk2) = call.tk2 {
                b.pair_rest[32 * j..32 * j + 16].copy_from_slice(&tk2);
                paired[j] = true;
                any_pair = true;
            }
            called[j] = true;
            any_call = true;
        }
        if !any_call {
            continue;
        }
        ls.slice_in(&b.blocks, &mut b.state);
        ls.slice_tk1(&b.halves, &mut b.tk1);
        let table = if any_pair {
            // This step's TK2 ‖ TK3: a data block where a lane takes one, the
            // nonce elsewhere.
            for (j, &own) in paired.iter().enumerate() {
                if !own {
                    b.pair_rest[32 * j..32 * j + 16].copy_from_slice(&b.rest[32 * j..32 * j + 16]);
                }
                b.pair_rest[32 * j + 16..32 * j + 32].copy_from_slice(&b.rest[32 * j + 16..32 * j + 32]);
            }
            ls.expand(&b.pair_rest, &mut b.pair_table);
            &b.pair_table[..]
        } else {
            &b.nonce_table[..]
        };
        ls.encrypt_lane_tk1(&mut b.state, &b.tk1, table);
        ls.slice_out(&b.state, &mut b.blocks);
        for (j, slot) in slots.iter_mut().enumerate() {
            if let (true, Some((_, lane))) = (called[j], slot) {
                let result: Block =
                    b.blocks[16 * j..16 * j + 16].try_into().unwrap_or_else(|_| unreachable!("16 bytes"));
                lane.take(result);
            }
        }
    }
}
