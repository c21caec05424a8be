//! The difference distribution table (DDT).

use super::{Sbox, Table};

/// The difference distribution table: `DDT[a][b] = #{x : S(x) ⊕ S(x ⊕ a) = b}`
/// (Biham and Shamir, "Differential Cryptanalysis of DES-like
/// Cryptosystems", CRYPTO 1990), so a difference `a` becomes `b` through S
/// with probability `DDT[a][b] / 2^n`.
///
/// Indices `[a, b]` (input, output difference); entries `u16` (at most 2^n).
/// Every row sums to 2^n and `DDT[0][0] = 2^n`. Time O(4^n), 2^(2n) entries.
pub fn ddt(sbox: &Sbox) -> Table<u16> {
    let size = sbox.size();
    let mut t = Table::filled(sbox.bits(), 2, 0u16);
    let cells = t.cells_mut();
    for a in 0..size {
        let row = &mut cells[a * size..(a + 1) * size];
        for x in 0..size {
            row[sbox.s(x) ^ sbox.s(x ^ a)] += 1;
        }
    }
    t
}
