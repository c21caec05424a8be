//! The linear approximation table (LAT), and the Walsh-Hadamard transform it
//! and the DLCT are computed with.

use super::{Sbox, Table};

/// The linear approximation table, signed:
/// `LAT[a][b] = #{x : a·x = b·S(x)} − 2^(n−1)` (Matsui, "Linear
/// Cryptanalysis Method for DES Cipher", EUROCRYPT 1993), where `u·v` is the
/// parity of `u & v`. The correlation of the approximation `a → b` is
/// `LAT[a][b] / 2^(n−1)` and its bias `LAT[a][b] / 2^n`.
///
/// Convention: entries are the count minus half (not the count itself, nor
/// twice that, the Walsh coefficient). Indices `[a, b]` (input mask, output
/// mask); entries `i32` in `−2^(n−1) ..= 2^(n−1)`. `LAT[0][0] = 2^(n−1)` and,
/// for a permutation, every other entry of row 0 and column 0 is 0; the
/// squares of each row sum to 2^(2n−2) (Parseval). Time O(n·4^n) (one
/// Walsh-Hadamard transform per output mask), 2^(2n) entries.
pub fn lat(sbox: &Sbox) -> Table<i32> {
    let size = sbox.size();
    let mut t = Table::filled(sbox.bits(), 2, 0i32);
    let cells = t.cells_mut();
    let mut column = vec![0i32; size];
    for b in 0..size {
        // (−1)^(b·S(x)); its transform at a is Σ_x (−1)^(a·x ⊕ b·S(x)), twice the LAT entry.
        for (x, c) in column.iter_mut().enumerate() {
            *c = sign(b & sbox.s(x));
        }
        walsh_hadamard(&mut column);
        for (a, &w) in column.iter().enumerate() {
            cells[a * size + b] = w / 2;
        }
    }
    t
}

/// `(−1)^(parity of v)`.
#[inline]
pub(super) fn sign(v: usize) -> i32 {
    1 - 2 * (v.count_ones() & 1) as i32
}

/// The Walsh-Hadamard transform in place: `f[u] ← Σ_x (−1)^(u·x) f[x]`
/// (`f.len()` a power of two). The butterflies are exact in `i32` for every
/// table here: their values stay within 2^n · max |f| ≤ 2^16.
pub(super) fn walsh_hadamard(f: &mut [i32]) {
    let mut h = 1;
    while h < f.len() {
        for block in f.chunks_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            for (u, v) in lo.iter_mut().zip(hi.iter_mut()) {
                let (a, b) = (*u, *v);
                *u = a + b;
                *v = a - b;
            }
        }
        h *= 2;
    }
}
