//! The machine word that holds one bit slice of a batch of `64 · LANES` blocks.
//! Every operation is a plain bitwise one, so the code built on it runs in the same
//! time whatever the data.
//!
//! Before the transposition, "row" `i` (0..64) of a batch is one word per 64-bit
//! block half holding blocks `LANES·i .. LANES·i + LANES`, one per lane, in the
//! order that loads fastest on the machine; `store_row*` undoes exactly what
//! `load_row*` did, so the order inside a row never shows outside.

/// One bit slice of a batch: `LANES` 64-bit lanes side by side.
///
/// The operations (here, in the paths' word types, and the S-box, schedule
/// and transposition helpers built on them) are inlined in optimised builds;
/// at opt-level 0 (`cfg(skinny_unoptimized)`, see `build.rs`) they are calls,
/// since there every inlined copy keeps stack slots of its own for all its
/// temporaries and never shares them (one inlined S-box needed 56 KiB on
/// AVX2): as calls, each has one small frame, reused.
///
/// Only the word operations: how a word type runs whole rounds (out of line,
/// compiled with its target feature) is [`super::round::RoundWord`], a trait of
/// its own so that the word sits below the round code built on it.
pub(crate) trait Word: Copy {
    /// Lanes of 64 blocks each (1 for `u64`, 4 for an AVX2 register).
    const LANES: usize;
    /// All bits zero, made without any instruction of the word's target
    /// feature: the call's buffers are made outside the `#[target_feature]`
    /// functions that use them (see `work::Words`).
    const ZERO: Self;
    /// Every lane set to `x`.
    fn splat(x: u64) -> Self;
    /// Every bit set to the bits of `m`, which is 0 or all ones (a round-tweakey
    /// mask: 32 bits wide so that building and wiping the masks per call costs
    /// half as much; the widening is one sign-extending or broadcasting load).
    fn splat_mask(m: u32) -> Self;
    fn xor(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `¬self ∧ other`, one instruction on x86 (`andn`, `vpandn`).
    fn andnot(self, other: Self) -> Self;
    fn not(self) -> Self;
    /// Left shift of every 64-bit lane by `n` (a constant at every call site).
    fn shl(self, n: u32) -> Self;
    /// Right shift of every 64-bit lane by `n`.
    fn shr(self, n: u32) -> Self;
    /// Row `i` of a batch of 8-byte blocks (each block read little-endian).
    fn load_row8(blocks: &[u8], i: usize) -> Self;
    /// Writes row `i` back, the inverse of [`Word::load_row8`].
    fn store_row8(self, blocks: &mut [u8], i: usize);
    /// Row `i` of a batch of 16-byte blocks: (first halves, second halves).
    fn load_row16(blocks: &[u8], i: usize) -> (Self, Self);
    /// Writes row `i` back, the inverse of [`Word::load_row16`].
    fn store_row16(lo: Self, hi: Self, blocks: &mut [u8], i: usize);
    /// Overwrites `words` with zeros by writes the compiler may not drop (for
    /// scratch that held tweakey bits).
    fn wipe(words: &mut [Self]);

    // Three-input operations. Each is one instruction where the machine has a
    // three-input logic instruction (AVX-512's `vpternlogq`, see
    // [`Word::TERNARY`]); the defaults build them from the two-input operations
    // above, so code that uses them costs the same as before on `u64` and AVX2.

    /// Whether the three-input operations below are single instructions. The
    /// S-box circuits and the transposition pick their formulation by it (a
    /// constant, so the choice is made at compile time).
    const TERNARY: bool = false;
    /// `self ⊕ a ⊕ b`.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor3(self, a: Self, b: Self) -> Self {
        self.xor(a).xor(b)
    }
    /// `self ⊕ (a ∨ b)`.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_or(self, a: Self, b: Self) -> Self {
        self.xor(a.or(b))
    }
    /// `self ⊕ (a ∧ b)`.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_and(self, a: Self, b: Self) -> Self {
        self.xor(a.and(b))
    }
    /// `self ⊕ (¬a ∧ b)`.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_andnot(self, a: Self, b: Self) -> Self {
        self.xor(a.andnot(b))
    }
    /// `self ⊕ ¬(a ∨ b)`: the SKINNY S-box gate whole (three operations by
    /// default, which is why the S-boxes only use it where [`Word::TERNARY`]).
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_nor(self, a: Self, b: Self) -> Self {
        self.xor(a.or(b).not())
    }
    /// The bits of `other` where `mask` is set, the bits of `self` elsewhere.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn blend(self, other: Self, mask: Self) -> Self {
        self.xor(self.xor(other).and(mask))
    }
}

/// Reads 8 bytes at `at` as a little-endian word.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn read_u64(bytes: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Writes a word as 8 little-endian bytes at `at`.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn write_u64(bytes: &mut [u8], at: usize, v: u64) {
    bytes[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

impl Word for u64 {
    const ZERO: Self = 0;
    const LANES: usize = 1;

    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn splat(x: u64) -> Self {
        x
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn splat_mask(m: u32) -> Self {
        // Sign extension copies bit 31 into the upper half: 0 stays 0, all ones stays all ones.
        i64::from(m as i32) as u64
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn andnot(self, other: Self) -> Self {
        !self & other
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn not(self) -> Self {
        !self
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn load_row8(blocks: &[u8], i: usize) -> Self {
        read_u64(blocks, 8 * i)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn store_row8(self, blocks: &mut [u8], i: usize) {
        write_u64(blocks, 8 * i, self)
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn load_row16(blocks: &[u8], i: usize) -> (Self, Self) {
        (read_u64(blocks, 16 * i), read_u64(blocks, 16 * i + 8))
    }
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn store_row16(lo: Self, hi: Self, blocks: &mut [u8], i: usize) {
        write_u64(blocks, 16 * i, lo);
        write_u64(blocks, 16 * i + 8, hi);
    }
    fn wipe(words: &mut [Self]) {
        zeroize::Zeroize::zeroize(words);
    }
}

/// A `u64` word that claims three-input operations ([`Word::TERNARY`]), so that
/// the formulations chosen for AVX-512 (S-box gates without complement
/// tracking, the transposition by bit selects, the fused key XORs) are tested on
/// every machine, AVX-512 or not; its operations are the defaults.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TernaryU64(pub(crate) u64);

#[cfg(test)]
impl Word for TernaryU64 {
    const LANES: usize = 1;
    const ZERO: Self = Self(0);
    const TERNARY: bool = true;

    fn splat(x: u64) -> Self {
        Self(x)
    }
    fn splat_mask(m: u32) -> Self {
        Self(u64::splat_mask(m))
    }
    fn xor(self, other: Self) -> Self {
        Self(self.0 ^ other.0)
    }
    fn and(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }
    fn or(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
    fn andnot(self, other: Self) -> Self {
        Self(!self.0 & other.0)
    }
    fn not(self) -> Self {
        Self(!self.0)
    }
    fn shl(self, n: u32) -> Self {
        Self(self.0 << n)
    }
    fn shr(self, n: u32) -> Self {
        Self(self.0 >> n)
    }
    fn load_row8(blocks: &[u8], i: usize) -> Self {
        Self(u64::load_row8(blocks, i))
    }
    fn store_row8(self, blocks: &mut [u8], i: usize) {
        self.0.store_row8(blocks, i)
    }
    fn load_row16(blocks: &[u8], i: usize) -> (Self, Self) {
        let (lo, hi) = u64::load_row16(blocks, i);
        (Self(lo), Self(hi))
    }
    fn store_row16(lo: Self, hi: Self, blocks: &mut [u8], i: usize) {
        u64::store_row16(lo.0, hi.0, blocks, i)
    }
    fn wipe(words: &mut [Self]) {
        for w in words {
            zeroize::Zeroize::zeroize(&mut w.0);
        }
    }
}
