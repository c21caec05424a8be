//! The machine word that holds one bit slice: bit `j` of lane `k` is one bit of
//! block `64·k + j` of the batch. Every operation is a plain bitwise one, so the
//! code built on it runs in the same time whatever the data.

/// One bit slice of a batch: `LANES` 64-bit lanes side by side.
pub(crate) trait Word: Copy {
    /// Lanes of 64 blocks each (1 for `u64`, 4 for an AVX2 register).
    const LANES: usize;
    /// Every lane set to `x` (round-tweakey masks are 0 or all ones).
    fn splat(x: u64) -> Self;
    fn xor(self, other: Self) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn not(self) -> Self;
    /// Left shift of every 64-bit lane by `n` (a constant at every call site).
    fn shl(self, n: u32) -> Self;
    /// Right shift of every 64-bit lane by `n`.
    fn shr(self, n: u32) -> Self;
    /// Builds a word from its lanes, lane `k` = `lane(k)`.
    fn from_lanes(lane: impl FnMut(usize) -> u64) -> Self;
    /// Hands each lane to `sink(k, value)`.
    fn to_lanes(self, sink: impl FnMut(usize, u64));
}

impl Word for u64 {
    const LANES: usize = 1;

    #[inline(always)]
    fn splat(x: u64) -> Self {
        x
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn not(self) -> Self {
        !self
    }
    #[inline(always)]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline(always)]
    fn from_lanes(mut lane: impl FnMut(usize) -> u64) -> Self {
        lane(0)
    }
    #[inline(always)]
    fn to_lanes(self, mut sink: impl FnMut(usize, u64)) {
        sink(0, self)
    }
}
