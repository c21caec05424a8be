//! SKINNY-Hash as the specification writes it (*SKINNY-AEAD and SKINNY-Hash*
//! v1.1, §2.5): the test oracle of the hashers, one message at a time, every
//! step a line. Built on the `skinny` crate's specification code
//! ([`skinny::hazmat::spec`], itself checked against the SKINNY paper's test
//! vectors), not on the single-block path that the hashers run. Constant time
//! like the hashers, only slower; use [`SkinnyTk3Hash`](crate::SkinnyTk3Hash)
//! and [`SkinnyTk2Hash`](crate::SkinnyTk2Hash) in real code.
//!
//! With n the state, r the rate and c = n − r the capacity, in bits:
//!
//! - the state starts as IV = 0^r ‖ 1 ‖ 0^(c−1);
//! - the message is padded with pad10*: M ‖ 1 ‖ 0^k, the least k ≥ 0 that makes
//!   whole r-bit blocks (so a whole last block still gets a block of padding);
//! - each block is XORed into the first r bits, then F runs on the state;
//! - the digest is the first 128 bits of the state, F once more, and the first
//!   128 bits again (SKINNY-tk2-Hash squeezes 128 bits, four times its rate).
//!
//! F (F384 for SKINNY-tk3-Hash, F256 for SKINNY-tk2-Hash) encrypts the
//! constant blocks 0, 1 (and 2), the block number in the first byte and zeros
//! elsewhere, under SKINNY-128-384 (SKINNY-128-256) with the *whole state* as
//! the tweakey TK1 ‖ TK2 (‖ TK3), and the concatenated ciphertexts are the new
//! state.

use crate::member::{Member, DIGEST_BYTES, MAX_RATE_BYTES, MAX_STATE_BYTES, SQUEEZE_BYTES};
use skinny::hazmat::spec::{self, tweakey::RoundTweakeys};
use skinny::CellWidth;
use zeroize::Zeroize;

/// The domain bit's byte: pad10* and the IV both set the bit that comes first
/// in a byte (bits in a byte are read from the most significant one).
const ONE_BIT: u8 = 0x80;

/// F384 or F256 on the first `member.state_bytes()` bytes of `state` (the
/// rest is left alone): that part is the tweakey, and becomes the
/// encryptions of the constant blocks 0, 1 (, 2) under it.
pub fn f(member: Member, state: &mut [u8; MAX_STATE_BYTES]) {
    let n = member.state_bytes();
    let rtk = RoundTweakeys::expand(member.variant(), &state[..n]);
    let mut out = [0u8; MAX_STATE_BYTES];
    for (i, block) in out[..n].chunks_exact_mut(16).enumerate() {
        // The i-th constant block: i in the first byte (i < 3), zeros elsewhere.
        block[0] = i as u8;
        spec::encrypt_block(CellWidth::Byte, &rtk, block);
    }
    state[..n].copy_from_slice(&out[..n]);
    out.zeroize();
}

/// The `member` digest of `message`.
pub fn hash(member: Member, message: &[u8]) -> [u8; DIGEST_BYTES] {
    let r = member.rate_bytes();
    // The state, in the first n bytes.
    let mut state = [0u8; MAX_STATE_BYTES];

    // IV = 0^r ‖ 1 ‖ 0^(c-1).
    state[r] = ONE_BIT;

    // pad10*: the whole blocks of M, then its tail ‖ 1 ‖ 0^k as one more block.
    let blocks = message.chunks_exact(r);
    let tail = blocks.remainder();
    let mut last = [0u8; MAX_RATE_BYTES];
    last[..tail.len()].copy_from_slice(tail);
    last[tail.len()] = ONE_BIT;

    // Absorbing.
    for block in blocks.chain(core::iter::once(&last[..r])) {
        for (s, m) in state[..r].iter_mut().zip(block) {
            *s ^= m;
        }
        f(member, &mut state);
    }

    // Squeezing: 128 bits, F, 128 bits.
    let mut digest = [0u8; DIGEST_BYTES];
    for (i, out) in digest.chunks_exact_mut(SQUEEZE_BYTES).enumerate() {
        if i > 0 {
            f(member, &mut state);
        }
        out.copy_from_slice(&state[..SQUEEZE_BYTES]);
    }
    state.zeroize();
    last.zeroize();
    digest
}
