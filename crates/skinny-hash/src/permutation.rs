//! F384 and F256 on the `skinny` crate's constant-time single-block path: what
//! the hashers run ([`crate::spec::f`] is the same function written from
//! the specification).
//!
//! The state is the tweakey, so every call runs a whole key schedule
//! ([`Skinny::new`]: 56 or 48 round tweakeys, computed cell by cell by the
//! specification code of `skinny`) before its 3 or 2 block encryptions: a
//! cost that a block cipher with a fixed key never pays again, here paid per
//! 16 (SKINNY-tk3-Hash) or 4 (SKINNY-tk2-Hash) message bytes. Nothing is
//! optimised yet (a schedule fused with the rounds, or the blocks of many
//! messages at once, would be the next steps).

use crate::member::{Member, MAX_STATE_BYTES};
use skinny::Skinny;

/// F on the first `member.state_bytes()` bytes of `state`.
pub(crate) fn permute(member: Member, state: &mut [u8; MAX_STATE_BYTES]) {
    let state = &mut state[..member.state_bytes()];
    // The schedule keeps what it needs of the old state, so the blocks can be
    // written over it. `cipher` wipes its round tweakeys when dropped.
    let cipher = Skinny::new(member.variant(), state)
        .unwrap_or_else(|_| unreachable!("the state is exactly the variant's tweakey"));
    for (i, block) in state.chunks_exact_mut(16).enumerate() {
        // The i-th constant block: i in the first byte (i < 3), zeros elsewhere.
        block.fill(0);
        block[0] = i as u8;
        cipher.encrypt_block(block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec;

    /// The permutation agrees with the specification's on a few states.
    #[test]
    fn permute_is_the_reference_f() {
        for member in Member::ALL {
            let mut state = [0u8; MAX_STATE_BYTES];
            for round in 0..8u8 {
                let n = member.state_bytes();
                for (i, b) in state[..n].iter_mut().enumerate() {
                    *b ^= (i as u8).wrapping_mul(37).wrapping_add(round);
                }
                let mut expected = state;
                spec::f(member, &mut expected);
                permute(member, &mut state);
                assert_eq!(state, expected, "{member}, step {round}");
            }
        }
    }
}
