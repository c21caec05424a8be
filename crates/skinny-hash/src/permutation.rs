//! F384 and F256 on the `skinny` crate's constant-time single-block code:
//! what the hashers run ([`crate::spec::f`] is the same function written from
//! the specification).
//!
//! The state is the tweakey, so every call has a tweakey of its own, used for
//! 3 or 2 blocks: [`single::encrypt_lanes`] runs the schedule in the rounds
//! (nothing expanded or stored) and the blocks side by side in one register
//! where the CPU allows (all of them with AVX-512 VBMI, two a register with
//! AVX2). The floor is then one round's dependent chain per round for the
//! whole call: 56 rounds per 16 bytes (SKINNY-tk3-Hash), 48 per 4 bytes
//! (SKINNY-tk2-Hash), the blocks' chains running side by side.

use crate::member::{Member, MAX_STATE_BYTES};
use skinny::hazmat::single::Lanes;
use zeroize::Zeroize;

/// F on the first `member.state_bytes()` bytes of `state`, with the kernel
/// `lanes` (chosen once per hasher).
pub(crate) fn permute(lanes: &Lanes, member: Member, state: &mut [u8; MAX_STATE_BYTES]) {
    let n = member.state_bytes();
    // The i-th constant block: i in the first byte (i < 3), zeros elsewhere.
    let mut blocks = [[0u8; 16]; 3];
    for (i, b) in blocks.iter_mut().enumerate() {
        b[0] = i as u8;
    }
    let blocks = &mut blocks[..n / 16];
    let (arrays, _) = state.as_chunks::<16>();
    let tk: [&[u8; 16]; 3] = [&arrays[0], &arrays[1], &arrays[2]];
    lanes
        .encrypt(&tk[..n / 16], member.variant().rounds(), blocks)
        .unwrap_or_else(|_| unreachable!("the state is a whole tweakey and at most three blocks"));
    for (dst, b) in state.chunks_exact_mut(16).zip(blocks.iter_mut()) {
        dst.copy_from_slice(b);
        b.zeroize();
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
                permute(&Lanes::best(), member, &mut state);
                assert_eq!(state, expected, "{member}, step {round}");
            }
        }
    }
}
