//! The boomerang connectivity tables: the BCT, and the upper, lower and
//! extended BCTs that follow a quartet's differences on both sides.
//!
//! All of them count one quartet per x: `x0 = x`, `x1 = x ⊕ Δi` through S
//! (`y0 = S(x0)`, `y1 = S(x1)`, upper output difference `Δo = y0 ⊕ y1`), then
//! back through S⁻¹ from `y2 = y0 ⊕ ∇o`, `y3 = y1 ⊕ ∇o` (`x2 = S⁻¹(y2)`,
//! `x3 = S⁻¹(y3)`, lower input difference `∇i = x0 ⊕ x2`). The boomerang
//! returns when `x2 ⊕ x3 = Δi` (then `x1 ⊕ x3 = ∇i` too).

use super::{Sbox, Table, TableError, MAX_ENTRIES};

/// One quartet from `x`: `Some((Δo, ∇i))` when it returns, else `None`.
#[inline]
fn quartet(sbox: &Sbox, x: usize, delta_in: usize, nabla_out: usize) -> Option<(usize, usize)> {
    let (y0, y1) = (sbox.s(x), sbox.s(x ^ delta_in));
    let (x2, x3) = (sbox.s_inv(y0 ^ nabla_out), sbox.s_inv(y1 ^ nabla_out));
    (x2 ^ x3 == delta_in).then_some((y0 ^ y1, x ^ x2))
}

/// The boomerang connectivity table:
/// `BCT[Δi][∇o] = #{x : S⁻¹(S(x) ⊕ ∇o) ⊕ S⁻¹(S(x ⊕ Δi) ⊕ ∇o) = Δi}` (Cid,
/// Huang, Peyrin, Sasaki and Song, "Boomerang Connectivity Table: A New
/// Cryptanalysis Tool", EUROCRYPT 2018): the quartets through one S-box layer
/// at the switch of a boomerang, probability `BCT[Δi][∇o] / 2^n`.
///
/// Indices `[Δi, ∇o]`; entries `u16` (at most 2^n). Row 0 and column 0 are
/// 2^n, and `BCT ≥ DDT` entrywise. Time O(8^n), 2^(2n) entries.
pub fn bct(sbox: &Sbox) -> Table<u16> {
    let size = sbox.size();
    let mut t = Table::filled(sbox.bits(), 2, 0u16);
    let cells = t.cells_mut();
    for di in 0..size {
        for no in 0..size {
            let returns = (0..size).filter(|&x| quartet(sbox, x, di, no).is_some()).count();
            // At most 2^n <= 256.
            cells[di * size + no] = returns as u16;
        }
    }
    t
}

/// The upper boomerang connectivity table (Delaune, Derbez and Vavrille,
/// "Catching the Fastest Boomerangs: Application to SKINNY", IACR ToSC
/// 2020(4)): the BCT split by the upper trail's output difference,
///
/// `UBCT[Δi][Δo][∇o] = #{x : S(x) ⊕ S(x ⊕ Δi) = Δo and
///                        S⁻¹(S(x) ⊕ ∇o) ⊕ S⁻¹(S(x ⊕ Δi) ⊕ ∇o) = Δi}`.
///
/// So `Σ_Δo UBCT[Δi][Δo][∇o] = BCT[Δi][∇o]` and `UBCT[Δi][Δo][∇o] ≤
/// DDT[Δi][Δo]`. Indices `[Δi, Δo, ∇o]`; entries `u16`. Time O(8^n); 2^(3n)
/// entries, 32 MiB for n = 8 (see [`ubct_slice`] and [`ubct_entry`]).
pub fn ubct(sbox: &Sbox) -> Table<u16> {
    let size = sbox.size();
    let mut t = Table::filled(sbox.bits(), 3, 0u16);
    for di in 0..size {
        fill_ubct_slice(sbox, di, &mut t.cells_mut()[di * size * size..(di + 1) * size * size]);
    }
    t
}

/// `UBCT[Δi]`: the entries for one `Δi`, indices `[Δo, ∇o]`. Time O(4^n),
/// 2^(2n) entries. Refused for `Δi` out of range.
pub fn ubct_slice(sbox: &Sbox, delta_in: usize) -> Result<Table<u16>, TableError> {
    let di = sbox.check(delta_in)?;
    let mut t = Table::filled(sbox.bits(), 2, 0u16);
    fill_ubct_slice(sbox, di, t.cells_mut());
    Ok(t)
}

fn fill_ubct_slice(sbox: &Sbox, di: usize, cells: &mut [u16]) {
    let size = sbox.size();
    for no in 0..size {
        for x in 0..size {
            if let Some((delta_out, _)) = quartet(sbox, x, di, no) {
                cells[delta_out * size + no] += 1;
            }
        }
    }
}

/// `UBCT[Δi][Δo][∇o]` alone. Time O(2^n). Refused for an index out of range.
pub fn ubct_entry(sbox: &Sbox, delta_in: usize, delta_out: usize, nabla_out: usize) -> Result<u16, TableError> {
    let (di, dout, no) = (sbox.check(delta_in)?, sbox.check(delta_out)?, sbox.check(nabla_out)?);
    Ok(count(sbox, di, no, |d, _| d == dout))
}

/// The lower boomerang connectivity table (Delaune, Derbez and Vavrille,
/// ToSC 2020(4), as [`ubct`]): the BCT split by the lower trail's input
/// difference,
///
/// `LBCT[Δi][∇i][∇o] = #{x : x ⊕ S⁻¹(S(x) ⊕ ∇o) = ∇i and
///                        S⁻¹(S(x) ⊕ ∇o) ⊕ S⁻¹(S(x ⊕ Δi) ⊕ ∇o) = Δi}`.
///
/// So `Σ_∇i LBCT[Δi][∇i][∇o] = BCT[Δi][∇o]` and `LBCT[Δi][∇i][∇o] ≤
/// DDT[∇i][∇o]`. Indices `[Δi, ∇i, ∇o]`; entries `u16`. Time O(8^n); 2^(3n)
/// entries, 32 MiB for n = 8 (see [`lbct_slice`] and [`lbct_entry`]).
pub fn lbct(sbox: &Sbox) -> Table<u16> {
    let size = sbox.size();
    let mut t = Table::filled(sbox.bits(), 3, 0u16);
    for di in 0..size {
        fill_lbct_slice(sbox, di, &mut t.cells_mut()[di * size * size..(di + 1) * size * size]);
    }
    t
}

/// `LBCT[Δi]`: the entries for one `Δi`, indices `[∇i, ∇o]`. Time O(4^n),
/// 2^(2n) entries. Refused for `Δi` out of range.
pub fn lbct_slice(sbox: &Sbox, delta_in: usize) -> Result<Table<u16>, TableError> {
    let di = sbox.check(delta_in)?;
    let mut t = Table::filled(sbox.bits(), 2, 0u16);
    fill_lbct_slice(sbox, di, t.cells_mut());
    Ok(t)
}

fn fill_lbct_slice(sbox: &Sbox, di: usize, cells: &mut [u16]) {
    let size = sbox.size();
    for no in 0..size {
        for x in 0..size {
            if let Some((_, nabla_in)) = quartet(sbox, x, di, no) {
                cells[nabla_in * size + no] += 1;
            }
        }
    }
}

/// `LBCT[Δi][∇i][∇o]` alone. Time O(2^n). Refused for an index out of range.
pub fn lbct_entry(sbox: &Sbox, delta_in: usize, nabla_in: usize, nabla_out: usize) -> Result<u16, TableError> {
    let (di, ni, no) = (sbox.check(delta_in)?, sbox.check(nabla_in)?, sbox.check(nabla_out)?);
    Ok(count(sbox, di, no, |_, n| n == ni))
}

/// The extended boomerang connectivity table (Delaune, Derbez and Vavrille,
/// ToSC 2020(4), as [`ubct`]): the returning quartets with all four
/// differences fixed,
///
/// `EBCT[Δi][Δo][∇i][∇o] = #{x : S(x) ⊕ S(x ⊕ Δi) = Δo and
///                            x ⊕ S⁻¹(S(x) ⊕ ∇o) = ∇i and
///                            S⁻¹(S(x) ⊕ ∇o) ⊕ S⁻¹(S(x ⊕ Δi) ⊕ ∇o) = Δi}`.
///
/// So `Σ_∇i EBCT = UBCT[Δi][Δo][∇o]` and `Σ_Δo EBCT = LBCT[Δi][∇i][∇o]`.
/// Indices `[Δi, Δo, ∇i, ∇o]`; entries `u16`. Time O(8^n); 2^(4n) entries, so
/// refused past [`MAX_ENTRIES`] (n ≤ 6 fits: 32 MiB; n = 8 would be 8 GiB):
/// for n = 8 take [`ebct_slice`] or [`ebct_entry`].
pub fn ebct(sbox: &Sbox) -> Result<Table<u16>, TableError> {
    let bits = sbox.bits();
    if 1u64 << (4 * bits) > MAX_ENTRIES as u64 {
        return Err(TableError::TooLarge { table: "EBCT", bits, log2_entries: 4 * bits });
    }
    let size = sbox.size();
    let mut t = Table::filled(bits, 4, 0u16);
    let cells = t.cells_mut();
    for di in 0..size {
        for no in 0..size {
            for x in 0..size {
                if let Some((dout, ni)) = quartet(sbox, x, di, no) {
                    cells[((di * size + dout) * size + ni) * size + no] += 1;
                }
            }
        }
    }
    Ok(t)
}

/// `EBCT[Δi][·][·][∇o]`: the entries for one `Δi` and one `∇o`, indices
/// `[Δo, ∇i]`. Time O(2^n) (each x lands in one cell), 2^(2n) entries.
/// Refused for an index out of range.
pub fn ebct_slice(sbox: &Sbox, delta_in: usize, nabla_out: usize) -> Result<Table<u16>, TableError> {
    let (di, no) = (sbox.check(delta_in)?, sbox.check(nabla_out)?);
    let size = sbox.size();
    let mut t = Table::filled(sbox.bits(), 2, 0u16);
    let cells = t.cells_mut();
    for x in 0..size {
        if let Some((dout, ni)) = quartet(sbox, x, di, no) {
            cells[dout * size + ni] += 1;
        }
    }
    Ok(t)
}

/// `EBCT[Δi][Δo][∇i][∇o]` alone. Time O(2^n). Refused for an index out of
/// range.
pub fn ebct_entry(
    sbox: &Sbox,
    delta_in: usize,
    delta_out: usize,
    nabla_in: usize,
    nabla_out: usize,
) -> Result<u16, TableError> {
    let (di, dout) = (sbox.check(delta_in)?, sbox.check(delta_out)?);
    let (ni, no) = (sbox.check(nabla_in)?, sbox.check(nabla_out)?);
    Ok(count(sbox, di, no, |d, n| d == dout && n == ni))
}

/// The returning quartets from `(Δi, ∇o)` whose `(Δo, ∇i)` pass `keep`.
fn count(sbox: &Sbox, di: usize, no: usize, keep: impl Fn(usize, usize) -> bool) -> u16 {
    let n = (0..sbox.size()).filter(|&x| quartet(sbox, x, di, no).is_some_and(|(d, n)| keep(d, n))).count();
    // At most 2^n <= 256.
    n as u16
}
