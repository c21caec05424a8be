//! The block counter, TK1, G, and the parsing of strings into padded blocks.

/// SKINNY-128-384+'s round count: SKINNY-128-384 cut from 56 rounds to 40.
pub const ROUNDS: usize = 40;

/// Bytes in a block (n = 128 bits), in a tweak block and in each TK array.
pub const BLOCK: usize = 16;

/// The most blocks a message may have, AD and message together, each counted
/// with one block more for its possibly empty last one: the counter's period
/// is 2^56 - 1 and no value may repeat within a message. About 2^60 bytes, out
/// of reach of real memory; [`lengths_fit`] checks it so that no input can
/// wrap the counter.
pub const MAX_BLOCKS: u64 = (1 << 56) - 2;

/// Whether `ad_len` bytes of AD and a message of `msg_len` bytes fit the block
/// counter (see [`MAX_BLOCKS`]); this crate's AEAD types refuse what does not,
/// before anything is written.
pub fn lengths_fit(ad_len: usize, msg_len: usize) -> bool {
    let count = |len: usize| u64::try_from(len / BLOCK).unwrap_or(u64::MAX).saturating_add(1);
    count(ad_len).saturating_add(count(msg_len)) <= MAX_BLOCKS
}

/// The 56 bits of the counter.
const MASK_56: u64 = (1 << 56) - 1;

/// The block counter: a 56-bit LFSR, held in the low 56 bits of a `u64` (bit
/// `8j + k` is bit `k` of byte `j` of its encoding in TK1, least significant
/// byte first). A step multiplies it by x modulo x^56 + x^7 + x^4 + x^2 + 1.
/// It starts at 1 ([`Counter::new`]) and steps once per block parsed; the
/// values are public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counter(u64);

impl Counter {
    /// The all-zero counter, of Romulus-T's first block key and tag calls
    /// (outside the LFSR's cycle: a step leaves it zero).
    pub const ZERO: Counter = Counter(0);

    /// The start value, 1.
    #[inline]
    pub const fn new() -> Self {
        Counter(1)
    }

    /// One LFSR step (branch-free, though the counter is public).
    #[inline]
    pub const fn step(&mut self) {
        let carry = (self.0 >> 55) & 1;
        self.0 = ((self.0 << 1) & MASK_56) ^ (carry * 0x95);
    }

    /// The value, in the low 56 bits.
    #[inline]
    pub const fn value(self) -> u64 {
        self.0
    }

    /// The seven bytes of the encoding, least significant first.
    #[inline]
    pub const fn to_bytes(self) -> [u8; 7] {
        let b = self.0.to_le_bytes();
        [b[0], b[1], b[2], b[3], b[4], b[5], b[6]]
    }
}

impl Default for Counter {
    /// [`Counter::new`], the start value.
    fn default() -> Self {
        Self::new()
    }
}

/// A call's TK1: the counter's seven bytes (least significant first) ‖ the
/// domain byte ‖ 0^64.
#[inline]
pub const fn tk1(counter: Counter, domain: u8) -> [u8; BLOCK] {
    (counter.0 as u128 | (domain as u128) << 56).to_le_bytes()
}

/// G on a block: every byte (x7 .. x0) becomes (x0 ⊕ x7, x7, .., x1). The
/// output of each block is G(S) ⊕ the input, and the tag of Romulus-N and -M
/// is G of the last state.
#[inline]
pub const fn g(s: &[u8; BLOCK]) -> [u8; BLOCK] {
    g128(u128::from_le_bytes(*s)).to_le_bytes()
}

/// [`g`] on a block held as a little-endian `u128` (shifts and masks, no
/// table).
#[inline]
pub const fn g128(x: u128) -> u128 {
    let low7 = 0x7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_7f7f_u128;
    let high = 0x8080_8080_8080_8080_8080_8080_8080_8080_u128;
    ((x >> 1) & low7) ^ ((x ^ (x << 7)) & high)
}

/// The number of blocks a string of `len` bytes parses into (the empty string
/// is one empty block) and the length of the last one (0 to 16).
#[inline]
pub const fn blocks(len: usize) -> (usize, usize) {
    let count = if len == 0 { 1 } else { len.div_ceil(BLOCK) };
    (count, len - (count - 1) * BLOCK)
}

/// pad_n of up to a block: a full block as is, the empty string as zeros,
/// anything between as X ‖ 0* ‖ its length in bytes.
///
/// # Panics
/// If `x` is longer than a block.
#[inline]
pub fn pad(x: &[u8]) -> [u8; BLOCK] {
    let mut out = [0u8; BLOCK];
    out[..x.len()].copy_from_slice(x);
    if !x.is_empty() && x.len() < BLOCK {
        out[BLOCK - 1] = x.len() as u8;
    }
    out
}

/// Block `i` of `x` as parsed by [`blocks`], padded ([`pad`]); zeros for `i`
/// past the end.
#[inline]
pub fn padded_block(x: &[u8], i: usize) -> [u8; BLOCK] {
    let start = (BLOCK * i).min(x.len());
    pad(&x[start..(start + BLOCK).min(x.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::encoding;

    #[test]
    fn the_counter_matches_the_reference_lfsr() {
        let (mut fast, mut spec) = (Counter::new(), encoding::Counter::ONE);
        assert_eq!(Counter::ZERO.to_bytes(), encoding::Counter::ZERO.0);
        // Past the first feedback (bit 55 reached after 55 steps) several times.
        for _ in 0..300 {
            assert_eq!(fast.to_bytes(), spec.0);
            assert_eq!(fast.value().to_le_bytes()[..7], spec.0);
            fast.step();
            spec.step();
        }
    }

    #[test]
    fn tk1_is_the_references_first_array() {
        let (tweak, key) = ([0xa5; BLOCK], [0x5a; BLOCK]);
        let mut counter = Counter::new();
        for j in 0..100 {
            let domain = (j * 7) as u8;
            assert_eq!(
                tk1(counter, domain)[..],
                encoding::tweakey(encoding::Counter::at(j), domain, &tweak, &key)[..16]
            );
            counter.step();
        }
    }

    #[test]
    fn g_and_pad_match_the_reference() {
        let s: [u8; BLOCK] = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xa5);
        assert_eq!(g(&s), encoding::g(&s));
        for len in 0..=BLOCK {
            assert_eq!(pad(&s[..len]), encoding::pad(&s[..len]));
        }
    }

    #[test]
    fn blocks_count_the_empty_string_as_one_empty_block() {
        assert_eq!(blocks(0), (1, 0));
        assert_eq!(blocks(1), (1, 1));
        assert_eq!(blocks(16), (1, 16));
        assert_eq!(blocks(17), (2, 1));
        assert_eq!(blocks(32), (2, 16));
    }

    #[test]
    fn padded_blocks_are_the_parse_padded() {
        let x: [u8; 40] = core::array::from_fn(|i| i as u8 + 1);
        assert_eq!(padded_block(&x, 0), pad(&x[..16]));
        assert_eq!(padded_block(&x, 2), pad(&x[32..]));
        assert_eq!(padded_block(&x, 3), [0; BLOCK]);
        assert_eq!(padded_block(&[], 0), [0; BLOCK]);
        assert_eq!(padded_block(&x[..32], 1), pad(&x[16..32]));
    }

    #[test]
    fn lengths_past_the_counter_do_not_fit() {
        assert!(lengths_fit(0, 0));
        assert!(lengths_fit(1 << 40, 1 << 40));
        let limit = usize::try_from(MAX_BLOCKS - 2).unwrap_or(usize::MAX) * BLOCK;
        assert!(lengths_fit(0, limit));
        assert!(!lengths_fit(0, limit + BLOCK));
        assert!(!lengths_fit(limit, BLOCK));
        assert!(!lengths_fit(usize::MAX, usize::MAX));
    }
}
