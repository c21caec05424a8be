//! The tweakey of every SKINNY-AEAD block: where the counter, domain byte,
//! nonce and key sit ([`Layout`]), the part that changes from block to block
//! ([`BlockTweak`]), and the LFSR that counts blocks ([`Lfsr`]).

use skinny::Variant;

/// Bytes in a SKINNY-128 block.
pub(crate) const BLOCK: usize = 16;

/// One block of data.
pub(crate) type Block = [u8; BLOCK];

/// Where the counter, domain byte, nonce and key sit in the tweakey.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// M1-M4, SKINNY-128-384: TK1 = 64-bit LFSR (little-endian) ‖ 0^56 ‖ domain;
    /// TK2 = nonce, zero-padded on the right to 128 bits; TK3 = key.
    Tk3,
    /// M5-M6, SKINNY-128-256: TK1 = 24-bit LFSR (little-endian) ‖ domain ‖
    /// 96-bit nonce; TK2 = key.
    Tk2,
}

impl Layout {
    /// The SKINNY variant this layout runs on.
    pub(crate) const fn variant(self) -> Variant {
        match self {
            Layout::Tk3 => Variant::Skinny128_384,
            Layout::Tk2 => Variant::Skinny128_256,
        }
    }

    /// Bits in the LFSR counter.
    pub(crate) const fn counter_bits(self) -> u32 {
        match self {
            Layout::Tk3 => 64,
            Layout::Tk2 => 24,
        }
    }

    /// The number of distinct counter values (the LFSR's period, 2^bits - 1):
    /// one domain never sees more blocks than this.
    pub(crate) const fn counter_period(self) -> u64 {
        match self {
            Layout::Tk3 => u64::MAX,
            Layout::Tk2 => (1 << 24) - 1,
        }
    }

    /// The tweakey with the counter and domain slots zero.
    pub(crate) fn base_tweakey(self, key: &[u8; 16], nonce: &[u8]) -> [u8; 48] {
        let mut tk = [0u8; 48];
        match self {
            Layout::Tk3 => {
                debug_assert!(nonce.len() <= 16);
                tk[16..16 + nonce.len()].copy_from_slice(nonce);
                tk[32..48].copy_from_slice(key);
            }
            Layout::Tk2 => {
                debug_assert_eq!(nonce.len(), 12);
                tk[4..16].copy_from_slice(nonce);
                tk[16..32].copy_from_slice(key);
            }
        }
        tk
    }

    /// Writes a block's counter and domain into its tweakey (or into its TK1
    /// alone: both live in the first 16 bytes).
    pub(crate) fn set_tweak(self, tk: &mut [u8], tweak: BlockTweak) {
        match self {
            Layout::Tk3 => {
                tk[..8].copy_from_slice(&tweak.counter.to_le_bytes());
                tk[15] = tweak.domain;
            }
            Layout::Tk2 => {
                tk[..3].copy_from_slice(&tweak.counter.to_le_bytes()[..3]);
                tk[3] = tweak.domain;
            }
        }
    }
}

/// The part of a block's tweakey that changes from block to block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BlockTweak {
    /// The LFSR counter (its value, not its index).
    pub(crate) counter: u64,
    /// The domain separation byte.
    pub(crate) domain: u8,
}

/// The LFSR counter of the mode: starts at 1; each step multiplies by x modulo
/// x^64 + x^4 + x^3 + x + 1 (M1-M4) or x^24 + x^4 + x^3 + x + 1 (M5, M6).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lfsr {
    state: u64,
    bits: u32,
}

impl Lfsr {
    pub(crate) const fn new(layout: Layout) -> Self {
        Self { state: 1, bits: layout.counter_bits() }
    }

    /// The counter whose current value is `value` (the value some number of
    /// steps from 1; the GPU path skips whole runs of blocks at once, the
    /// bitsliced engine takes the value after its run from `skinny`).
    pub(crate) const fn at(layout: Layout, value: u64) -> Self {
        Self { state: value, bits: layout.counter_bits() }
    }

    /// The current value.
    pub(crate) const fn value(&self) -> u64 {
        self.state
    }

    /// One step.
    pub(crate) fn step(&mut self) {
        self.state = lfsr_step(self.bits, self.state);
    }
}

/// The counter one LFSR step (multiplication by x) after `c`, modulo
/// x^bits + x^4 + x^3 + x + 1. Branch-free (the counter is public anyway).
pub(crate) const fn lfsr_step(bits: u32, c: u64) -> u64 {
    let top = (c >> (bits - 1)) & 1;
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    ((c << 1) & mask) ^ (0x1b * top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lfsr_24_wraps_with_feedback() {
        let mut l = Lfsr::new(Layout::Tk2);
        for _ in 0..23 {
            l.step();
        }
        assert_eq!(l.value(), 1 << 23);
        l.step();
        assert_eq!(l.value(), 0x1b);
    }

    #[test]
    fn lfsr_64_wraps_with_feedback() {
        let mut l = Lfsr::new(Layout::Tk3);
        for _ in 0..63 {
            l.step();
        }
        assert_eq!(l.value(), 1 << 63);
        l.step();
        assert_eq!(l.value(), 0x1b);
    }
}
