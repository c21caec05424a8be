//! The CTR counter: one big-endian integer of a block's width (64 or 128 bits), +1
//! per block, wrapping modulo 2^64 or 2^128, as RustCrypto's `Ctr64BE`/`Ctr128BE`
//! flavors and OpenSSL's AES-CTR count.
//!
//! [`Counter`] is the one owner of that arithmetic: the bulk layer's mode keeps
//! one, every backend (portable, bitsliced CPU, CUDA host code) derives the
//! counter of each piece from it with [`Counter::add`] and writes counter blocks
//! with [`Counter::fill_blocks`]; nobody advances counter bytes by hand.

use zeroize::Zeroize;

/// A CTR counter block of 8 or 16 bytes, read as one big-endian integer.
///
/// The value is not secret in CTR mode (it travels with the ciphertext), but it
/// is wiped on drop like the rest of the mode state.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counter {
    /// The integer, always below 2^(8·width).
    value: u128,
    /// 8 or 16 bytes.
    width: u8,
}

/// A counter block that is neither 8 nor 16 bytes long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InvalidCounterLength {
    /// The length given, in bytes.
    pub got: usize,
}

impl core::fmt::Display for InvalidCounterLength {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "a counter block is 8 or 16 bytes, got {} byte{}", self.got, if self.got == 1 { "" } else { "s" })
    }
}

impl core::error::Error for InvalidCounterLength {}

impl Counter {
    /// The counter whose block is `block` (8 or 16 bytes, big-endian).
    ///
    /// # Errors
    /// [`InvalidCounterLength`] for any other length.
    pub fn from_block(block: &[u8]) -> Result<Self, InvalidCounterLength> {
        let width = match block.len() {
            8 | 16 => block.len() as u8,
            got => return Err(InvalidCounterLength { got }),
        };
        let mut bytes = [0u8; 16];
        bytes[16 - block.len()..].copy_from_slice(block);
        Ok(Self { value: u128::from_be_bytes(bytes), width })
    }

    /// The block width in bytes (8 or 16).
    pub const fn width(&self) -> usize {
        self.width as usize
    }

    /// The modulus minus one: 2^64 - 1 or 2^128 - 1.
    const fn mask(&self) -> u128 {
        if self.width == 16 {
            u128::MAX
        } else {
            u64::MAX as u128
        }
    }

    /// The counter `n` blocks further on, wrapping at the block width.
    #[must_use]
    pub const fn add(self, n: u64) -> Self {
        Self { value: self.value.wrapping_add(n as u128) & self.mask(), width: self.width }
    }

    /// Moves the counter `n` blocks on, wrapping at the block width.
    pub fn advance(&mut self, n: u64) {
        *self = self.add(n);
    }

    /// Writes the counter block (big-endian, [`Counter::width`] bytes) into `out`.
    ///
    /// # Panics
    /// If `out` is not [`Counter::width`] bytes long.
    pub fn write_block(&self, out: &mut [u8]) {
        let bytes = self.value.to_be_bytes();
        out.copy_from_slice(&bytes[16 - self.width()..]);
    }

    /// The counter block in the first [`Counter::width`] bytes of a 16-byte array
    /// (the rest zero).
    pub fn to_block(&self) -> [u8; 16] {
        let mut out = [0u8; 16];
        self.write_block(&mut out[..self.width()]);
        out
    }

    /// Writes the counter blocks `self, self + 1, ...` into `out`, whole blocks of
    /// [`Counter::width`] bytes; a trailing partial block is left untouched.
    ///
    /// Each block is a fixed-size store of a big-endian integer, no per-block
    /// copy of run-time length: this runs once per CTR block on the CPU.
    pub fn fill_blocks(&self, out: &mut [u8]) {
        if self.width == 16 {
            let mut v = self.value;
            for block in out.chunks_exact_mut(16) {
                block.copy_from_slice(&v.to_be_bytes());
                v = v.wrapping_add(1);
            }
        } else {
            let mut v = self.value as u64;
            for block in out.chunks_exact_mut(8) {
                block.copy_from_slice(&v.to_be_bytes());
                v = v.wrapping_add(1);
            }
        }
    }
}

impl Zeroize for Counter {
    fn zeroize(&mut self) {
        self.value.zeroize();
    }
}

impl core::fmt::Debug for Counter {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Counter({:0width$x})", self.value, width = 2 * self.width())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(c: Counter) -> [u8; 16] {
        c.to_block()
    }

    #[test]
    fn counters_carry_across_bytes_and_wrap() {
        let c = Counter::from_block(&[0, 0, 0, 0, 0, 0, 0xff, 0xff]).unwrap().add(1);
        assert_eq!(&block(c)[..8], &[0, 0, 0, 0, 0, 1, 0, 0]);
        let c = Counter::from_block(&[0xff; 8]).unwrap().add(2);
        assert_eq!(&block(c)[..8], &[0, 0, 0, 0, 0, 0, 0, 1]);
        // Across the 64-bit halves of a 128-bit counter.
        let mut b = [0u8; 16];
        b[8..].fill(0xff);
        let c = Counter::from_block(&b).unwrap().add(u64::MAX);
        assert_eq!(&block(c)[..8], &[0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(&block(c)[8..], &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
        // A 128-bit counter wraps at 2^128.
        let c = Counter::from_block(&[0xff; 16]).unwrap().add(3);
        assert_eq!(block(c), [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2]);
    }

    #[test]
    fn fill_matches_repeated_add() {
        for width in [8usize, 16] {
            let mut start = [0u8; 16];
            start[..width].fill(0xff);
            start[width - 1] = 0xfd;
            let c = Counter::from_block(&start[..width]).unwrap();
            let mut blocks = [0xaau8; 16 * 5 + 3];
            c.fill_blocks(&mut blocks[..width * 5 + 3]);
            for i in 0..5 {
                let mut want = [0u8; 16];
                c.add(i as u64).write_block(&mut want[..width]);
                assert_eq!(&blocks[i * width..(i + 1) * width], &want[..width], "width {width} block {i}");
            }
            assert_eq!(&blocks[width * 5..width * 5 + 3], &[0xaa; 3], "partial block untouched");
        }
    }

    #[test]
    fn only_block_widths_are_counters() {
        assert_eq!(Counter::from_block(&[0; 12]), Err(InvalidCounterLength { got: 12 }));
        assert!(Counter::from_block(&[]).is_err());
    }
}
