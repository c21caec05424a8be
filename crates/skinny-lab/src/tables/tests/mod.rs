//! Every table against its definition, computed here the slow way (for S8
//! on seeded random samples where every entry would take too long in a debug
//! build), the relations between the tables, and published values.

mod boomerang;
mod differential;
mod export;
mod linear;
mod sbox;

use super::Sbox;

/// `u·v`: the parity of `u & v`.
fn dot(u: usize, v: usize) -> usize {
    (u & v).count_ones() as usize & 1
}

/// S⁻¹ found by searching S, independent of `Sbox::inverse`.
fn inverse_by_search(s: &Sbox) -> Vec<usize> {
    (0..s.size()).map(|y| (0..s.size()).find(|&x| usize::from(s.table()[x]) == y).unwrap()).collect()
}

/// A seeded generator for sample indices (splitmix64).
struct Samples(u64);

impl Samples {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % bound as u64) as usize
    }
}

/// A random permutation of `0..2^bits` (Fisher-Yates on the seeded generator).
fn random_sbox(bits: u32, seed: u64) -> Sbox {
    let mut rng = Samples(seed);
    let mut t: Vec<u8> = (0..1usize << bits).map(|x| x as u8).collect();
    for i in (1..t.len()).rev() {
        t.swap(i, rng.below(i + 1));
    }
    Sbox::new(&t).unwrap()
}

/// The S-boxes every relation is checked on: SKINNY's two and random ones of
/// 3 to 6 bits.
fn sboxes() -> Vec<Sbox> {
    vec![Sbox::s4(), Sbox::s8(), random_sbox(3, 1), random_sbox(5, 2), random_sbox(6, 3)]
}
