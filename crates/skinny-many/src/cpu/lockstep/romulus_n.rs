//! Lockstep groups of Romulus-N messages (v1.3, as the lane code in
//! `cpu::romulus` and `skinny-romulus`'s modes): up to a bitsliced batch of
//! messages, each in a lane of the batch, run call by call together with
//! their state kept sliced from the first call to the tag.
//!
//! Lanes need not share a shape. At step `t` every lane makes its own call
//! `t` (an AD pair, its last AD call, or a message block; idle once its tag
//! is out), under its own TK1 (counter ‖ domain, sliced each step:
//! [`Lockstep::encrypt_lane_tk1`]). TK2 ‖ TK3 is the nonce ‖ key for every
//! call but the AD pairs', so it is expanded once per group; a step where
//! some lane makes an AD pair call (TK2 = an AD block) expands a table of its
//! own. Data enters and leaves as blocks: G(S) is sliced out where a lane
//! outputs or tags, and each lane's block for S (an AD block, the padded
//! message block) sliced in. The plan sorts messages by their call counts,
//! so a group's lanes end together and few steps carry idle lanes.
//!
//! Everything here branches on lengths, counters and lane positions only
//! (public); keys, data and states go through XORs, the slicing and the
//! cipher. Tags are compared in constant time.

use super::sliced::{g_xor, xor_into};
use super::Member;
use crate::cpu::Operation;
use crate::wipe::Secret;
use crate::{Batch, MessageError};
use skinny::hazmat::bitsliced::Lockstep;
use skinny_romulus::hazmat::{
    blocks, padded_block, Counter, DOMAIN_AD as D_AD, DOMAIN_AD_LAST_FULL as D_AD_LAST_FULL,
    DOMAIN_AD_LAST_PARTIAL as D_AD_LAST_PARTIAL, DOMAIN_MESSAGE as D_MSG, DOMAIN_MESSAGE_LAST_FULL as D_MSG_LAST_FULL,
    DOMAIN_MESSAGE_LAST_PARTIAL as D_MSG_LAST_PARTIAL,
};
use subtle::ConstantTimeEq;
use zeroize::Zeroize;

/// A message's calls (public: from its lengths): AD pair calls, then the
/// last AD call, then one call a message block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Calls {
    /// AD pairs (each a call with an AD block as TK2).
    pub(crate) pairs: usize,
    /// Every call.
    pub(crate) total: usize,
}

/// The calls of a message of `ad_len` AD bytes and `in_len` input bytes.
pub(crate) fn calls(ad_len: usize, in_len: usize) -> Calls {
    let pairs = blocks(ad_len).0 / 2;
    Calls { pairs, total: pairs + 1 + blocks(in_len).0 }
}

/// One lane: its message and where it is (public).
struct Lane {
    index: usize,
    ad_blocks: usize,
    ad_last: usize,
    pairs: usize,
    count: usize,
    last_len: usize,
    in_len: usize,
    counter: Counter,
}

/// A group's buffers, kept for every group of a job and wiped when dropped.
pub(crate) struct Scratch {
    ls: Lockstep,
    s: Secret,
    y: Secret,
    x: Secret,
    gs: Secret,
    xb: Secret,
    halves: Secret,
    tk1: Secret,
    rest: Secret,
    pair_rest: Secret,
    nonce_table: Secret,
    pair_table: Option<Secret>,
}

impl Scratch {
    pub(crate) fn new(ls: Lockstep) -> Self {
        let n = ls.lanes();
        Self {
            ls,
            s: Secret::zeroed(ls.state_bytes()),
            y: Secret::zeroed(ls.state_bytes()),
            x: Secret::zeroed(ls.state_bytes()),
            gs: Secret::zeroed(16 * n),
            xb: Secret::zeroed(16 * n),
            halves: Secret::zeroed(8 * n),
            tk1: Secret::zeroed(ls.tk1_slices_bytes()),
            rest: Secret::zeroed(32 * n),
            pair_rest: Secret::zeroed(32 * n),
            nonce_table: Secret::zeroed(ls.tweakey_table_bytes()),
            pair_table: None,
        }
    }
}

fn get(b: &[u8], j: usize) -> u128 {
    u128::from_le_bytes(b[16 * j..16 * j + 16].try_into().unwrap_or_else(|_| unreachable!("16 bytes")))
}

fn put(b: &mut [u8], j: usize, v: u128) {
    b[16 * j..16 * j + 16].copy_from_slice(&v.to_le_bytes());
}

/// The 16 bytes of `x` from `start`.
fn block_at(x: &[u8], start: usize) -> [u8; 16] {
    x[start..start + 16].try_into().unwrap_or_else(|_| unreachable!("16 bytes"))
}

/// The first `len` bytes of `x` as a block, the rest zero.
fn partial(x: &[u8], start: usize, len: usize) -> u128 {
    let mut b = [0u8; 16];
    b[..len].copy_from_slice(&x[start..start + len]);
    let v = u128::from_le_bytes(b);
    b.zeroize();
    v
}

/// `v` with bytes `len..16` zero (0 < `len` <= 16, public).
fn keep(v: u128, len: usize) -> u128 {
    if len >= 16 {
        v
    } else {
        v & ((1u128 << (8 * len)) - 1)
    }
}

/// Runs the group `members` (at most `scratch`'s lanes, every message of
/// Romulus-N, `op` possible: an opened one at least a tag long, and within
/// the counter's range) to the end: outputs and statuses written.
pub(super) fn run(scratch: &mut Scratch, batch: &Batch, op: Operation, members: &mut [Member<'_>]) {
    let ls = scratch.ls;
    let n = members.len();
    debug_assert!(n > 0 && n <= ls.lanes());
    let sb = ls.slice_bytes();
    let keys = batch.flat().keys;
    let mut lanes: Vec<Lane> = members
        .iter()
        .map(|m| {
            let i = m.index;
            let in_len = match op {
                Operation::Seal => batch.data(i).len(),
                Operation::Open => batch.data(i).len() - 16,
            };
            let (ad_blocks, ad_last) = blocks(batch.ad(i).len());
            let (count, last_len) = blocks(in_len);
            Lane {
                index: i,
                ad_blocks,
                ad_last,
                pairs: ad_blocks / 2,
                count,
                last_len,
                in_len,
                counter: Counter::new(),
            }
        })
        .collect();
    let steps = lanes.iter().map(|l| l.pairs + 1 + l.count).max().unwrap_or(0);
    let any_pairs = lanes.iter().any(|l| l.pairs > 0);

    // Lane j's TK2 ‖ TK3 for every call but the AD pairs': nonce ‖ key.
    let rest = &mut scratch.rest[..];
    rest.fill(0);
    for (j, l) in lanes.iter().enumerate() {
        rest[32 * j..32 * j + 16].copy_from_slice(batch.nonce(l.index));
        rest[32 * j + 16..32 * j + 32].copy_from_slice(&keys[16 * l.index..16 * l.index + 16]);
    }
    ls.expand(&rest[..32 * n], &mut scratch.nonce_table);
    if any_pairs && scratch.pair_table.is_none() {
        scratch.pair_table = Some(Secret::zeroed(ls.tweakey_table_bytes()));
    }
    scratch.s.fill(0);

    for t in 0..=steps {
        // G(S) out, where a lane outputs a message block now or tags after
        // its last call (the step after it).
        let gs_needed = lanes.iter().any(|l| {
            let calls = l.pairs + 1 + l.count;
            (t > l.pairs && t < calls) || t == calls
        });
        if gs_needed {
            g_xor(&scratch.s, None, &mut scratch.y, sb);
            ls.slice_out(&scratch.y, &mut scratch.gs[..16 * n]);
        }
        let mut any_x = false;
        let mut any_pair = false;
        for (j, (l, m)) in lanes.iter_mut().zip(members.iter_mut()).enumerate() {
            let calls = l.pairs + 1 + l.count;
            // Whether a block goes into S before this call (public).
            let has_x = t < calls && (t != l.pairs || l.ad_blocks % 2 == 1);
            let (x, tk1) = if t == calls {
                // Its tag: G(S) after the last call.
                let tag = get(&scratch.gs, j).to_le_bytes();
                *m.status = match op {
                    Operation::Seal => {
                        m.out[l.in_len..l.in_len + 16].copy_from_slice(&tag);
                        Ok(())
                    }
                    Operation::Open => {
                        // Public from here (`declassify`: for the constant-time check).
                        let ok = skinny::hazmat::ct::declassify(bool::from(
                            tag.ct_eq(&block_at(batch.data(l.index), l.in_len)),
                        ));
                        if ok {
                            Ok(())
                        } else {
                            m.out.zeroize();
                            Err(MessageError::Forged)
                        }
                    }
                };
                (0, 0)
            } else if t > calls {
                (0, 0)
            } else if t < l.pairs {
                // An AD pair: S ⊕= A_2t, then a call with TK2 = A_2t+1.
                let ad = batch.ad(l.index);
                any_pair = true;
                scratch.pair_rest[32 * j..32 * j + 16].copy_from_slice(&padded_block(ad, 2 * t + 1));
                l.counter.step();
                let tk1 = l.counter.value() | u64::from(D_AD) << 56;
                l.counter.step();
                (u128::from_le_bytes(padded_block(ad, 2 * t)), tk1)
            } else if t == l.pairs {
                // The last AD call (with the nonce), after the odd AD block
                // left over, if any.
                let mut x = 0;
                if l.ad_blocks % 2 == 1 {
                    x = u128::from_le_bytes(padded_block(batch.ad(l.index), l.ad_blocks - 1));
                    l.counter.step();
                }
                let domain = if l.ad_last == 16 { D_AD_LAST_FULL } else { D_AD_LAST_PARTIAL };
                (x, l.counter.value() | u64::from(domain) << 56)
            } else {
                // Message block i: output M ⊕ G(S) (C ⊕ G(S) when opening),
                // S ⊕= pad(M), then a call with the nonce.
                let i = t - l.pairs - 1;
                if i == 0 {
                    l.counter = Counter::new();
                }
                let start = 16 * i;
                let len = if i + 1 == l.count { l.last_len } else { 16 };
                let g = get(&scratch.gs, j);
                let input = &batch.data(l.index)[..l.in_len];
                let x = match op {
                    // A whole block: fixed-size loads and stores.
                    _ if len == 16 => {
                        let x = u128::from_le_bytes(block_at(input, start));
                        let y = x ^ g;
                        m.out[start..start + 16].copy_from_slice(&y.to_le_bytes());
                        if op == Operation::Seal {
                            x
                        } else {
                            y
                        }
                    }
                    Operation::Seal => {
                        let mb = u128::from_le_bytes(padded_block(input, i));
                        m.out[start..start + len].copy_from_slice(&(mb ^ g).to_le_bytes()[..len]);
                        mb
                    }
                    Operation::Open => {
                        let p = if len == 0 { 0 } else { keep(partial(input, start, len) ^ g, len) };
                        m.out[start..start + len].copy_from_slice(&p.to_le_bytes()[..len]);
                        // pad(M): the length in byte 15 of a short block.
                        if len > 0 && len < 16 {
                            p | u128::from(len as u8) << 120
                        } else {
                            p
                        }
                    }
                };
                l.counter.step();
                let domain = match (i + 1 == l.count, l.last_len == 16) {
                    (false, _) => D_MSG,
                    (true, true) => D_MSG_LAST_FULL,
                    (true, false) => D_MSG_LAST_PARTIAL,
                };
                (x, l.counter.value() | u64::from(domain) << 56)
            };
            any_x |= has_x;
            put(&mut scratch.xb, j, x);
            scratch.halves[8 * j..8 * j + 8].copy_from_slice(&tk1.to_le_bytes());
        }
        if t == steps {
            // Every lane's tag is out.
            break;
        }
        if any_x {
            ls.slice_in(&scratch.xb[..16 * n], &mut scratch.x);
            xor_into(&mut scratch.s, &scratch.x);
        }
        ls.slice_tk1(&scratch.halves[..8 * n], &mut scratch.tk1);
        let table = if any_pair {
            // This step's TK2 ‖ TK3: the AD block of a lane in a pair, the
            // nonce for every other lane.
            for (j, l) in lanes.iter().enumerate() {
                if t >= l.pairs {
                    scratch.pair_rest[32 * j..32 * j + 16].copy_from_slice(&scratch.rest[32 * j..32 * j + 16]);
                }
                scratch.pair_rest[32 * j + 16..32 * j + 32].copy_from_slice(&scratch.rest[32 * j + 16..32 * j + 32]);
            }
            let pt = scratch.pair_table.as_mut().unwrap_or_else(|| unreachable!("made when a lane has pairs"));
            ls.expand(&scratch.pair_rest[..32 * n], pt);
            &pt[..]
        } else {
            &scratch.nonce_table[..]
        };
        ls.encrypt_lane_tk1(&mut scratch.s, &scratch.tk1, table);
    }
}
