//! What the AEAD kernels (`kernels/aead.cu` in `skinny-cuda`) are given,
//! computed on the host: which kernel family a member runs ([`AeadCounter`]),
//! the LFSR's powers the kernels start their warps' counters from, and the
//! chunk kernels' counters and key bits.
//!
//! Public so that the kernels' host simulator (`scripts/kernels/hostsim.sh`, with
//! `examples/hostsim_aead_vectors.rs`) checks the kernels against the
//! specification code on exactly these inputs, without a GPU.

use crate::member::Member;
use crate::tweakey::lfsr_step;
use skinny::{Skinny, Variant};
use std::vec::Vec;

/// Blocks a warp of the AEAD kernels handles: 32 lanes of 32 blocks. A chunk
/// kernel's chunk holds a whole number of warps, so its smallest chunk is
/// 1024 blocks ([`super::MIN_CHUNK_LOG2`]).
pub const WARP_BLOCKS: u64 = 1024;

/// Which SKINNY-AEAD block counter, and so which kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AeadCounter {
    /// M1-M4: SKINNY-128-384, a 64-bit LFSR in TK1 cells 0..8.
    Lfsr64,
    /// M5-M6: SKINNY-128-256, a 24-bit LFSR in TK1 cells 0..3.
    Lfsr24,
}

impl AeadCounter {
    /// The counter, and so the kernels, of `member`.
    pub const fn of(member: Member) -> Self {
        match member.layout().counter_bits() {
            64 => AeadCounter::Lfsr64,
            _ => AeadCounter::Lfsr24,
        }
    }

    /// The LFSR's width in bits.
    pub const fn bits(self) -> u32 {
        match self {
            AeadCounter::Lfsr64 => 64,
            AeadCounter::Lfsr24 => 24,
        }
    }

    /// The SKINNY variant the members with this counter run.
    pub const fn variant(self) -> Variant {
        match self {
            AeadCounter::Lfsr64 => Variant::Skinny128_384,
            AeadCounter::Lfsr24 => Variant::Skinny128_256,
        }
    }

    /// TK1 bytes that hold the counter (little-endian).
    pub const fn counter_bytes(self) -> usize {
        match self {
            AeadCounter::Lfsr64 => 8,
            AeadCounter::Lfsr24 => 3,
        }
    }
}

/// `a · b` modulo the LFSR's polynomial x^bits + x^4 + x^3 + x + 1 (public
/// values: branches are fine).
pub fn lfsr_mul(bits: u32, mut a: u64, b: u64) -> u64 {
    let mut r = 0;
    for i in 0..bits {
        if (b >> i) & 1 == 1 {
            r ^= a;
        }
        a = lfsr_step(bits, a);
    }
    r
}

/// `c · x^e`: the counter `e` steps after `c`, by squaring and multiplying.
pub fn lfsr_advance(bits: u32, c: u64, mut e: u64) -> u64 {
    let (mut result, mut power) = (c, 2u64); // power = x^(2^i)
    while e > 0 {
        if e & 1 == 1 {
            result = lfsr_mul(bits, result, power);
        }
        power = lfsr_mul(bits, power, power);
        e >>= 1;
    }
    result
}

/// `step^k` for k < 256: the kernels' power tables (`step` = x^1024 for
/// `pow_lo`, x^(1024 * 256) for `pow_hi`).
pub fn power_table(bits: u32, step: u64) -> Vec<u64> {
    let mut t = Vec::with_capacity(256);
    let mut x = 1u64;
    for _ in 0..256 {
        t.push(x);
        x = lfsr_mul(bits, x, step);
    }
    t
}

/// `round_key_bits` of every round of `cipher` (the chunk kernels' key
/// material for one chunk: bit `8c + b` of entry `r` is bit `b` of cell `c` of
/// round `r`'s tweakey with its row-0/1 constants), into `out[..rounds]`.
/// `cipher` is the chunk's tweakey with its counter cells zero.
///
/// # Panics
/// If `out` is shorter than the cipher's rounds.
pub fn chunk_key_bits(cipher: &Skinny, out: &mut [u64]) {
    let rtk = skinny::hazmat::round_tweakeys(cipher);
    for (r, o) in out[..cipher.rounds()].iter_mut().enumerate() {
        *o = skinny::hazmat::bitsliced::round_key_bits(rtk, r);
    }
}

/// The counters of the first `warps` warps of a chunk, by position:
/// `start · x^(1024 k)` for `k < warps` (a chunk of `2^chunk_log2` bytes has
/// `2^chunk_log2 / (16 · WARP_BLOCKS)` of them).
pub fn chunk_counters(bits: u32, start: u64, warps: usize) -> Vec<u64> {
    let step = lfsr_advance(bits, 1, WARP_BLOCKS);
    let mut c = start;
    (0..warps)
        .map(|_| {
            let now = c;
            c = lfsr_mul(bits, c, step);
            now
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;

    #[test]
    fn advancing_is_stepping() {
        for bits in [64, 24] {
            let mut c = 1u64;
            for e in 0..300u64 {
                assert_eq!(lfsr_advance(bits, 1, e), c, "{bits}-bit, x^{e}");
                c = lfsr_step(bits, c);
            }
            let start = 0x1234_5678_9abc_def0 & if bits == 64 { u64::MAX } else { (1 << 24) - 1 };
            let mut c = start;
            for e in 0..100u64 {
                assert_eq!(lfsr_advance(bits, start, e), c);
                c = lfsr_step(bits, c);
            }
        }
    }

    #[test]
    fn chunk_counters_step_by_a_warp() {
        for bits in [64, 24] {
            let c = chunk_counters(bits, 1, 4);
            assert_eq!(c.len(), 4);
            for (k, &x) in c.iter().enumerate() {
                assert_eq!(x, lfsr_advance(bits, 1, 1024 * k as u64));
            }
            assert_eq!(chunk_counters(bits, 1, 1024).len(), 1024);
            assert_eq!(chunk_counters(bits, 1, 1), vec![1]);
        }
    }

    #[test]
    fn every_member_has_its_counter() {
        for m in Member::ALL {
            let c = AeadCounter::of(m);
            assert_eq!((c.bits(), c.variant()), (m.layout().counter_bits(), m.layout().variant()), "{m}");
            assert_eq!(c.counter_bytes() * 8, c.bits() as usize);
        }
    }
}
