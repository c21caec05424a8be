//! [`SkinnyHash`]: the sponge, incremental, behind the `digest` traits.

use crate::member::{Member, DIGEST_BYTES, MAX_STATE_BYTES, SQUEEZE_BYTES};
use crate::parameters::{Parameters, Tk2, Tk3};
use crate::permutation::permute;
use core::fmt;
use core::marker::PhantomData;
use digest::common::{AlgorithmName, BlockSizeUser};
use digest::consts::U32;
use digest::{CollisionResistance, FixedOutput, FixedOutputReset, HashMarker, Output, OutputSizeUser, Reset, Update};
use skinny::hazmat::single::Lanes;
use zeroize::{Zeroize, ZeroizeOnDrop};

/// The domain bit's byte (the IV's bit and pad10*'s first bit).
const ONE_BIT: u8 = 0x80;

/// A SKINNY-Hash hasher, generic over the member's [`Parameters`]; use it
/// through [`digest::Digest`] (or [`Update`] and [`FixedOutput`]).
///
/// Message bytes are XORed into the state as they arrive and the permutation
/// runs as soon as a rate's worth is in, so the hasher keeps nothing but its
/// state (48 bytes) and a count; it is wiped when dropped or reset, and
/// [`Debug`](fmt::Debug) never shows it.
pub struct SkinnyHash<P: Parameters> {
    state: [u8; MAX_STATE_BYTES],
    /// The permutation's kernel, chosen once (reading the CPU's features per
    /// call costs a few percent of a call).
    lanes: Lanes,
    /// Message bytes XORed into the rate since the last permutation call:
    /// always less than the rate.
    absorbed: usize,
    member: PhantomData<P>,
}

/// SKINNY-tk3-Hash, the primary member: SKINNY-128-384, 128-bit rate.
pub type SkinnyTk3Hash = SkinnyHash<Tk3>;

/// SKINNY-tk2-Hash: SKINNY-128-256, 32-bit rate.
pub type SkinnyTk2Hash = SkinnyHash<Tk2>;

impl<P: Parameters> SkinnyHash<P> {
    /// The member.
    pub const MEMBER: Member = P::MEMBER;

    /// Pads, absorbs the last block and squeezes the digest into `out`. Leaves
    /// the state used: the callers reset or drop it.
    fn finish(&mut self, out: &mut Output<Self>) {
        let member = P::MEMBER;
        // pad10*: the 1 bit after the message, then zeros to the end of the
        // block (already zero in the XOR); a whole block of padding when the
        // message filled its last block.
        self.state[self.absorbed] ^= ONE_BIT;
        permute(&self.lanes, member, &mut self.state);
        for (i, chunk) in out.chunks_exact_mut(SQUEEZE_BYTES).enumerate() {
            if i > 0 {
                permute(&self.lanes, member, &mut self.state);
            }
            chunk.copy_from_slice(&self.state[..SQUEEZE_BYTES]);
        }
        self.absorbed = 0;
    }
}

impl<P: Parameters> Default for SkinnyHash<P> {
    /// The IV: 0^r ‖ 1 ‖ 0^(c−1).
    fn default() -> Self {
        let mut state = [0u8; MAX_STATE_BYTES];
        state[P::MEMBER.rate_bytes()] = ONE_BIT;
        Self { state, lanes: Lanes::best(), absorbed: 0, member: PhantomData }
    }
}

impl<P: Parameters> Clone for SkinnyHash<P> {
    fn clone(&self) -> Self {
        Self { state: self.state, lanes: self.lanes, absorbed: self.absorbed, member: PhantomData }
    }
}

impl<P: Parameters> Update for SkinnyHash<P> {
    fn update(&mut self, mut data: &[u8]) {
        let rate = P::MEMBER.rate_bytes();
        while !data.is_empty() {
            let take = (rate - self.absorbed).min(data.len());
            let (now, rest) = data.split_at(take);
            for (s, m) in self.state[self.absorbed..self.absorbed + take].iter_mut().zip(now) {
                *s ^= m;
            }
            self.absorbed += take;
            data = rest;
            if self.absorbed == rate {
                permute(&self.lanes, P::MEMBER, &mut self.state);
                self.absorbed = 0;
            }
        }
    }
}

impl<P: Parameters> OutputSizeUser for SkinnyHash<P> {
    type OutputSize = U32;
}

// Both members squeeze twice, 128 bits each: a 256-bit digest.
const _: () = assert!(DIGEST_BYTES == 32 && DIGEST_BYTES == 2 * SQUEEZE_BYTES);

impl<P: Parameters> BlockSizeUser for SkinnyHash<P> {
    /// The absorbing rate: 16 bytes (SKINNY-tk3-Hash) or 4 (SKINNY-tk2-Hash).
    type BlockSize = P::RateSize;
}

impl<P: Parameters> FixedOutput for SkinnyHash<P> {
    fn finalize_into(mut self, out: &mut Output<Self>) {
        self.finish(out);
    }
}

impl<P: Parameters> FixedOutputReset for SkinnyHash<P> {
    fn finalize_into_reset(&mut self, out: &mut Output<Self>) {
        self.finish(out);
        self.reset();
    }
}

impl<P: Parameters> Reset for SkinnyHash<P> {
    fn reset(&mut self) {
        // The old value is dropped, and so wiped.
        *self = Self::default();
    }
}

impl<P: Parameters> HashMarker for SkinnyHash<P> {}

impl<P: Parameters> CollisionResistance for SkinnyHash<P> {
    type CollisionResistance = P::CollisionResistance;
}

impl<P: Parameters> AlgorithmName for SkinnyHash<P> {
    fn write_alg_name(f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", P::MEMBER)
    }
}

impl<P: Parameters> fmt::Debug for SkinnyHash<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{ .. }}", P::MEMBER)
    }
}

impl<P: Parameters> Drop for SkinnyHash<P> {
    fn drop(&mut self) {
        self.state.zeroize();
        self.absorbed.zeroize();
    }
}

impl<P: Parameters> ZeroizeOnDrop for SkinnyHash<P> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec;
    use digest::Digest;

    /// Every length across a few rate boundaries, whole and byte by byte, and
    /// a reset hasher starts again from the IV.
    #[test]
    fn short_messages_match_the_reference() {
        let msg: [u8; 40] = core::array::from_fn(|i| i as u8 ^ 0xa5);
        for len in 0..=msg.len() {
            let m = &msg[..len];
            assert_eq!(SkinnyTk3Hash::digest(m)[..], spec::hash(Member::Tk3, m), "tk3, {len} bytes");
            assert_eq!(SkinnyTk2Hash::digest(m)[..], spec::hash(Member::Tk2, m), "tk2, {len} bytes");
            let mut h = SkinnyTk2Hash::new();
            for b in m {
                Digest::update(&mut h, [*b]);
            }
            assert_eq!(h.finalize_reset()[..], spec::hash(Member::Tk2, m), "tk2 bytewise, {len} bytes");
            assert_eq!(h.finalize()[..], spec::hash(Member::Tk2, b""), "after a reset");
        }
    }

    #[test]
    fn debug_shows_no_state() {
        let mut h = SkinnyTk3Hash::new();
        Digest::update(&mut h, b"secret");
        assert_eq!(std::format!("{h:?}"), "SKINNY-tk3-Hash { .. }");
    }
}
