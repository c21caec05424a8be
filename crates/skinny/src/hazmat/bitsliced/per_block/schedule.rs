//! The tweakey schedule of per-block tweakeys, run between the rounds on the
//! sliced TK arrays.
//!
//! The schedule between rounds needs no table and no data-dependent choice:
//! - PT sends rows 0–1 to rows 2–3 unchanged (`PT[8 + j] = j`) and rows 2–3,
//!   permuted by [`P`], to rows 0–1. So the two halves of eight cells simply
//!   swap roles (in round `r` the rows 0–1 are half `r mod 2`), and only the half
//!   that becomes rows 0–1 is rewritten: its cells are moved by `P` (a renaming,
//!   whole cells copied) and go through the LFSR.
//! - The LFSRs of TK2 and TK3 shift the bits of a cell, which on slices is a
//!   renaming of the cell's words, and XOR two bits into the one shifted in: one
//!   word XOR per cell.
//!
//! Decryption first runs the schedule forward to the last round (only the
//! permutation and the LFSRs, no rounds), then steps it back round by round with
//! the inverse LFSRs and `P⁻¹`.

use crate::hazmat::bitsliced::round::State;
use crate::hazmat::bitsliced::sbox::Cell;
use crate::hazmat::bitsliced::word::Word;
use crate::spec::tweakey::PT;

/// Cell `i` of the new rows 0–1 is cell `P[i]` of the old rows 2–3 (cell
/// `PT[i]` of the whole array, `PT[i] ≥ 8`).
const P: [usize; 8] = {
    let mut p = [0; 8];
    let mut i = 0;
    while i < 8 {
        assert!(PT[i] >= 8 && PT[8 + i] == i, "PT swaps the halves");
        p[i] = PT[i] - 8;
        i += 1;
    }
    p
};

/// The bitsliced TK arrays of one batch: TK1..TKz, each 16 cells as a [`State`].
/// Half `h` is cells `8h .. 8h + 8`.
pub(crate) type Tks<W, const Z: usize> = [State<W>; Z];

/// The LFSR of TK(z+1)'s first two rows on one cell's slices (TK1: none). Bit
/// `b` of the result is one slice of the input, except the bit shifted in, which
/// costs one XOR (see `spec::tweakey::lfsr_tk2`, `lfsr_tk3`).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn lfsr<W: Word, const BITS: usize>(z: usize, x: &Cell<W>) -> Cell<W> {
    let mut y = *x;
    match (z, BITS) {
        // TK2, 8-bit: (x7..x0) -> (x6..x0, x7 ^ x5).
        (1, 8) => {
            y[0] = x[7].xor(x[5]);
            y[1..8].copy_from_slice(&x[0..7]);
        }
        // TK3, 8-bit: (x7..x0) -> (x0 ^ x6, x7..x1).
        (2, 8) => {
            y[7] = x[0].xor(x[6]);
            y[0..7].copy_from_slice(&x[1..8]);
        }
        // TK2, 4-bit: (x3..x0) -> (x2, x1, x0, x3 ^ x2).
        (1, _) => {
            y[0] = x[3].xor(x[2]);
            y[1..4].copy_from_slice(&x[0..3]);
        }
        // TK3, 4-bit: (x3..x0) -> (x0 ^ x3, x3, x2, x1).
        (2, _) => {
            y[3] = x[0].xor(x[3]);
            y[0..3].copy_from_slice(&x[1..4]);
        }
        _ => {}
    }
    y
}

/// The inverse of [`lfsr`]: the bit shifted out is recovered from the one
/// shifted in and the bit it was XORed with (now one place further on).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn lfsr_inv<W: Word, const BITS: usize>(z: usize, y: &Cell<W>) -> Cell<W> {
    let mut x = *y;
    match (z, BITS) {
        (1, 8) => {
            x[0..7].copy_from_slice(&y[1..8]);
            x[7] = y[0].xor(y[6]);
        }
        (2, 8) => {
            x[1..8].copy_from_slice(&y[0..7]);
            x[0] = y[7].xor(y[5]);
        }
        (1, _) => {
            x[0..3].copy_from_slice(&y[1..4]);
            x[3] = y[0].xor(y[3]);
        }
        (2, _) => {
            x[1..4].copy_from_slice(&y[0..3]);
            x[0] = y[3].xor(y[2]);
        }
        _ => {}
    }
    x
}

/// `P` as one cycle: `CYCLE[k + 1] = P[CYCLE[k]]`, so new cell `CYCLE[k]` takes
/// old cell `CYCLE[k + 1]` (indices mod 8). P is a single 8-cycle, so a half is
/// permuted in place with one cell of temporary instead of a copy of the half.
const CYCLE: [usize; 8] = {
    let mut c = [0; 8];
    let mut k = 1;
    while k < 8 {
        c[k] = P[c[k - 1]];
        assert!(c[k] != 0, "P is a single cycle");
        k += 1;
    }
    assert!(P[c[7]] == 0, "P is a single cycle");
    c
};

/// Where TK1's cells are in round `r`: cell `j` of TK1 in round `r` is cell
/// `TK1_CELLS[r mod 16][j]` of the TK1 given (TK1 has no LFSR, so its schedule
/// is the permutation `PT` alone, whose period is 16). With TK1 as the only
/// per-block array, the rounds read its slices through this table instead of
/// moving them: the indices depend on the public round number only.
pub(crate) const TK1_CELLS: [[usize; 16]; 16] = {
    let mut q = [[0usize; 16]; 16];
    let mut j = 0;
    while j < 16 {
        q[0][j] = j;
        j += 1;
    }
    let mut r = 1;
    while r < 16 {
        let mut j = 0;
        while j < 16 {
            q[r][j] = q[r - 1][PT[j]];
            j += 1;
        }
        r += 1;
    }
    q
};

/// Copies the `BITS` used slices of a cell (4-bit cells leave slices 4..8 zero,
/// so they are never read or written).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn put<W: Word, const BITS: usize>(dst: &mut Cell<W>, src: &Cell<W>) {
    dst[..BITS].copy_from_slice(&src[..BITS]);
}

/// One step of the schedule, round `r` to `r + 1`: half `h` (`(r + 1) mod 2`,
/// holding rows 2–3) becomes the new rows 0–1, `P` then the LFSR; the other half,
/// the old rows 0–1, is now rows 2–3 as it is. With TK1 alone nothing moves:
/// the rounds find its cells through `TK1_CELLS`.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn step<W: Word, const BITS: usize, const Z: usize>(tks: &mut Tks<W, Z>, h: usize) {
    if Z == 1 {
        return;
    }
    for (z, tk) in tks.iter_mut().enumerate() {
        let half = &mut tk[8 * h..8 * h + 8];
        let first = half[CYCLE[0]];
        for k in 0..7 {
            let y = lfsr::<W, BITS>(z, &half[CYCLE[k + 1]]);
            put::<W, BITS>(&mut half[CYCLE[k]], &y);
        }
        put::<W, BITS>(&mut half[CYCLE[7]], &lfsr::<W, BITS>(z, &first));
    }
}

/// The inverse of [`step`] on the same half: from round `r + 1` back to `r`
/// (old cell `CYCLE[k + 1]` is the inverse LFSR of new cell `CYCLE[k]`).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(super) fn step_back<W: Word, const BITS: usize, const Z: usize>(tks: &mut Tks<W, Z>, h: usize) {
    if Z == 1 {
        return;
    }
    for (z, tk) in tks.iter_mut().enumerate() {
        let half = &mut tk[8 * h..8 * h + 8];
        let last = half[CYCLE[7]];
        for k in (1..8).rev() {
            let x = lfsr_inv::<W, BITS>(z, &half[CYCLE[k - 1]]);
            put::<W, BITS>(&mut half[CYCLE[k]], &x);
        }
        put::<W, BITS>(&mut half[CYCLE[0]], &lfsr_inv::<W, BITS>(z, &last));
    }
}

#[cfg(test)]
mod tests;
