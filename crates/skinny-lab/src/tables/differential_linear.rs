//! The differential-linear connectivity tables: the DLCT of one S-box and
//! the DDLCT of two S-box layers with a key between them.

use super::differential::ddt;
use super::linear::walsh_hadamard;
use super::{Sbox, Table};

/// The differential-linear connectivity table:
/// `DLCT[a][l] = #{x : l·S(x) = l·S(x ⊕ a)} − 2^(n−1)` (Bar-On, Dunkelman,
/// Keller and Weizman, "DLCT: A New Tool for Differential-Linear
/// Cryptanalysis", EUROCRYPT 2019), where `u·v` is the parity of `u & v`: the
/// correlation of `l·(S(x) ⊕ S(x ⊕ a))` over x is `DLCT[a][l] / 2^(n−1)`.
///
/// Same convention as [`lat`](super::lat): the count minus half. Indices
/// `[a, l]` (input difference, output mask); entries `i32` in
/// `−2^(n−1) ..= 2^(n−1)`. Row 0 and column 0 are all 2^(n−1).
///
/// It is the Walsh transform of the DDT's rows,
/// `DLCT[a][l] = ½ Σ_b (−1)^(l·b) DDT[a][b]`, and is computed so: time
/// O(n·4^n), 2^(2n) entries. Equivalently (Bar-On et al.) it is a transform of
/// the squared LAT, `DLCT[a][l] = 2^(1−n) Σ_u (−1)^(u·a) LAT[u][l]²`.
pub fn dlct(sbox: &Sbox) -> Table<i32> {
    let size = sbox.size();
    let counts = ddt(sbox);
    let mut t = Table::filled(sbox.bits(), 2, 0i32);
    let cells = t.cells_mut();
    for (a, row) in counts.as_slice().chunks(size).enumerate() {
        let out = &mut cells[a * size..(a + 1) * size];
        for (o, &c) in out.iter_mut().zip(row) {
            *o = i32::from(c);
        }
        walsh_hadamard(out);
        for o in out.iter_mut() {
            *o /= 2;
        }
    }
    t
}

/// The double differential-linear connectivity table: the DLCT of two S-box
/// layers with a uniformly random key `k` added between them, summed over
/// the keys,
///
/// `DDLCT[a][l] = #{(x, k) : l·S(S(x) ⊕ k) = l·S(S(x ⊕ a) ⊕ k)} − 2^(2n−1)
///              = Σ_d DDT[a][d] · DLCT[d][l]`,
///
/// as used by Hadipour, Derbez and Eichlseder ("Revisiting
/// Differential-Linear Attacks via a Boomerang Perspective", CRYPTO 2024) for
/// a middle part of two S-box layers; the key-averaged correlation is
/// `DDLCT[a][l] / 2^(2n−1)`.
///
/// Convention: the count minus half, like [`dlct`] (the authors' tool,
/// sboxanalyzer, tabulates the count of 0s minus the count of 1s, twice
/// this, and divides by 2^(2n)). Indices `[a, l]` (input difference, output
/// mask); entries `i32` in `−2^(2n−1) ..= 2^(2n−1)` (32768 for n = 8, past
/// `i16`). It also equals `2^(2−n) Σ_u DLCT[a][u] · LAT[u][l]²` (the second
/// layer as a linear approximation). Time O(8^n) at worst (the product skips
/// the DDT's zeros), 2^(2n) entries.
pub fn ddlct(sbox: &Sbox) -> Table<i32> {
    let size = sbox.size();
    let counts = ddt(sbox);
    let dl = dlct(sbox);
    let mut t = Table::filled(sbox.bits(), 2, 0i32);
    let cells = t.cells_mut();
    for (a, row) in counts.as_slice().chunks(size).enumerate() {
        let out = &mut cells[a * size..(a + 1) * size];
        for (d, &c) in row.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let c = i32::from(c);
            for (o, &v) in out.iter_mut().zip(&dl.as_slice()[d * size..(d + 1) * size]) {
                *o += c * v;
            }
        }
    }
    t
}
