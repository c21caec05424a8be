//! Shared by the lab's tests: a small seeded generator of test inputs, the
//! comparison of a GPU outcome with the CPU's, the first GPU. Each test
//! crate uses part of it.
#![allow(dead_code)]

use skinny_lab::{Outcome, Witness};

/// xorshift64: test inputs from a seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `n` bytes with `bits` random bits set.
    pub fn sparse(&mut self, n: usize, bits: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        for _ in 0..bits {
            let b = (self.next() % (8 * n as u64)) as usize;
            v[b / 8] |= 1 << (b % 8);
        }
        v
    }

    /// `n` bytes: a few bits set (`bits` > 0) or all random (`bits` == 0).
    pub fn bytes(&mut self, n: usize, bits: usize) -> Vec<u8> {
        if bits == 0 {
            return (0..n).map(|_| self.next() as u8).collect();
        }
        self.sparse(n, bits)
    }
}

/// The GPU's outcome is the CPU's: counts, kept hits, per-key histograms.
pub fn same<W: Witness + PartialEq + std::fmt::Debug>(what: &str, gpu: &Outcome<W>, cpu: &Outcome<W>) {
    assert_eq!((gpu.queries, gpu.hits, gpu.interrupted), (cpu.queries, cpu.hits, cpu.interrupted), "{what}");
    assert_eq!(gpu.right, cpu.right, "{what}: kept hits");
    assert_eq!(gpu.per_key, cpu.per_key, "{what}: per-key histograms");
}

/// The first GPU, in a GPU test (which runs only where one was found, or
/// is required: `skinny_test_support::gpu`).
#[cfg(feature = "cuda")]
pub fn gpu() -> std::sync::Arc<skinny_cuda::Gpu> {
    skinny_test_support::gpu::open(skinny_cuda::Gpu::first)
}
