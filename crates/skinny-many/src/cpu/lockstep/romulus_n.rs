//! One lockstep group of Romulus-N messages: up to a bitsliced batch of
//! messages with the same AD length and message length, run together with
//! their state kept sliced from the first call to the tag (v1.3, as the lane
//! code in `cpu::romulus` and `skinny-romulus`'s modes).
//!
//! Every call's TK1 (counter ‖ domain) depends on the position alone, the
//! same for every lane; TK2 ‖ TK3 is the nonce ‖ key for every call but the
//! AD pairs', so it is expanded once per group ([`Lockstep::expand`]), and
//! only an AD pair's call (TK2 = an AD block) expands a table of its own.
//! Blocks are sliced in where data enters (AD, message) and out where it
//! leaves (output, tag); ρ and G run on the slices.

use super::sliced::{g_xor, pad, xor_into};
use super::Member;
use crate::cpu::Operation;
use crate::{Batch, MessageError};
use skinny::hazmat::bitsliced::Lockstep;
use skinny_romulus::hazmat::{
    blocks, padded_block, tk1, Counter, DOMAIN_AD, DOMAIN_AD_LAST_FULL, DOMAIN_AD_LAST_PARTIAL, DOMAIN_MESSAGE,
    DOMAIN_MESSAGE_LAST_FULL, DOMAIN_MESSAGE_LAST_PARTIAL,
};
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

/// A zeroed buffer, wiped when dropped.
fn buffer(len: usize) -> Zeroizing<Vec<u8>> {
    Zeroizing::new(vec![0u8; len])
}

/// Runs the group `members` (at most `ls.lanes()`, all of one shape, `op`
/// possible: an opened one at least a tag long) to the end: outputs and
/// statuses written.
pub(super) fn run(ls: Lockstep, batch: &Batch, op: Operation, members: &mut [Member<'_>]) {
    let n = members.len();
    debug_assert!(n > 0 && n <= ls.lanes());
    let first = members[0].index;
    let ad_len = batch.ad(first).len();
    let in_len = match op {
        Operation::Seal => batch.data(first).len(),
        Operation::Open => batch.data(first).len() - 16,
    };
    let keys = batch.flat().keys;
    let input = |i: usize| &batch.data(i)[..in_len];
    let sb = ls.slice_bytes();
    // Lane j's TK2 ‖ TK3: nonce (or an AD block) ‖ key.
    let mut rest = buffer(32 * n);
    for (j, m) in members.iter().enumerate() {
        rest[32 * j..32 * j + 16].copy_from_slice(batch.nonce(m.index));
        rest[32 * j + 16..32 * j + 32].copy_from_slice(&keys[16 * m.index..16 * m.index + 16]);
    }
    let mut nonce_table = buffer(ls.tweakey_table_bytes());
    ls.expand(&rest, &mut nonce_table);
    let (mut s, mut x, mut y) = (buffer(ls.state_bytes()), buffer(ls.state_bytes()), buffer(ls.state_bytes()));
    let mut lanes = buffer(16 * n);
    let idx: Vec<usize> = members.iter().map(|m| m.index).collect();
    let gather = |lanes: &mut [u8], x: &mut [u8], block: &dyn Fn(usize) -> [u8; 16]| {
        for (j, &i) in idx.iter().enumerate() {
            let mut b = block(i);
            lanes[16 * j..16 * j + 16].copy_from_slice(&b);
            b.zeroize();
        }
        ls.slice_in(lanes, x);
    };

    // The AD: pairs (S ⊕= A_k, then a call with TK2 = A_k+1), then the call
    // with the nonce.
    let mut counter = Counter::new();
    let (a, a_last) = blocks(ad_len);
    let mut k = 0;
    if a >= 2 {
        let mut ad_table = buffer(ls.tweakey_table_bytes());
        while k + 1 < a {
            gather(&mut lanes, &mut x, &|i| padded_block(batch.ad(i), k));
            xor_into(&mut s, &x);
            counter.step();
            for (j, &i) in idx.iter().enumerate() {
                rest[32 * j..32 * j + 16].copy_from_slice(&padded_block(batch.ad(i), k + 1));
            }
            ls.expand(&rest, &mut ad_table);
            ls.encrypt(&mut s, &tk1(counter, DOMAIN_AD), &ad_table);
            counter.step();
            k += 2;
        }
    }
    drop(rest);
    if k < a {
        gather(&mut lanes, &mut x, &|i| padded_block(batch.ad(i), k));
        xor_into(&mut s, &x);
        counter.step();
    }
    let domain = if a_last == 16 { DOMAIN_AD_LAST_FULL } else { DOMAIN_AD_LAST_PARTIAL };
    ls.encrypt(&mut s, &tk1(counter, domain), &nonce_table);

    // The message: output = M ⊕ G(S) (C ⊕ G(S) when opening), S ⊕= pad(M),
    // then a call with the nonce.
    counter = Counter::new();
    let (count, last_len) = blocks(in_len);
    for i in 0..count {
        let start = 16 * i;
        let len = (in_len - start).min(16);
        match op {
            // pad(M): the length byte goes into S (and into the output's
            // byte 15, which a short block does not release).
            Operation::Seal => gather(&mut lanes, &mut x, &|m| padded_block(input(m), i)),
            Operation::Open => gather(&mut lanes, &mut x, &|m| {
                let mut b = [0u8; 16];
                b[..len].copy_from_slice(&input(m)[start..start + len]);
                b
            }),
        }
        g_xor(&s, Some(&x[..]), &mut y, sb);
        ls.slice_out(&y, &mut lanes);
        for (j, m) in members.iter_mut().enumerate() {
            m.out[start..start + len].copy_from_slice(&lanes[16 * j..16 * j + len]);
        }
        match op {
            Operation::Seal => xor_into(&mut s, &x),
            Operation::Open => {
                pad(&mut y, len, sb);
                xor_into(&mut s, &y);
            }
        }
        counter.step();
        let domain = match (i + 1 == count, last_len == 16) {
            (false, _) => DOMAIN_MESSAGE,
            (true, true) => DOMAIN_MESSAGE_LAST_FULL,
            (true, false) => DOMAIN_MESSAGE_LAST_PARTIAL,
        };
        ls.encrypt(&mut s, &tk1(counter, domain), &nonce_table);
    }

    // The tag: G(S).
    g_xor(&s, None, &mut y, sb);
    ls.slice_out(&y, &mut lanes);
    for (j, m) in members.iter_mut().enumerate() {
        let tag = &lanes[16 * j..16 * j + 16];
        *m.status = match op {
            Operation::Seal => {
                m.out[in_len..].copy_from_slice(tag);
                Ok(())
            }
            Operation::Open => {
                if bool::from(tag.ct_eq(&batch.data(m.index)[in_len..])) {
                    Ok(())
                } else {
                    m.out.zeroize();
                    Err(MessageError::Forged)
                }
            }
        };
    }
}
