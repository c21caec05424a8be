//! The sliced schedule against the specification's.

use super::*;
use crate::spec::tweakey::{lfsr_tk2, lfsr_tk3};
use crate::spec::CellWidth;

/// Spreads 64 cell values into slices (bit `b` of value `j` is bit `j` of slice `b`).
fn slice(values: &[u8; 64]) -> Cell<u64> {
    core::array::from_fn(|b| (0..64).fold(0u64, |w, j| w | (u64::from((values[j] >> b) & 1) << j)))
}

fn unslice(c: &Cell<u64>, bits: usize) -> [u8; 64] {
    core::array::from_fn(|j| (0..bits).fold(0u8, |v, b| v | ((((c[b] >> j) & 1) as u8) << b)))
}

/// TK1's cells by the table are the specification's schedule of TK1, for
/// more than one period.
#[test]
fn tk1_cells_follow_the_schedule() {
    let mut tk: [usize; 16] = core::array::from_fn(|j| j);
    for r in 0..40 {
        assert_eq!(TK1_CELLS[r % 16], tk, "round {r}");
        tk = core::array::from_fn(|j| tk[PT[j]]);
    }
}

/// Every 8-bit (and 4-bit) value through the sliced LFSRs and their inverses,
/// against the specification's.
#[test]
fn sliced_lfsrs_match_the_specification() {
    for chunk in 0..4u8 {
        let values: [u8; 64] = core::array::from_fn(|j| chunk * 64 + j as u8);
        let x = slice(&values);
        let nib: [u8; 64] = core::array::from_fn(|j| values[j] & 0xf);
        let xn = slice(&nib);
        for z in 1..3 {
            let spec = |width: CellWidth, v: u8| if z == 1 { lfsr_tk2(width, v) } else { lfsr_tk3(width, v) };
            let y = lfsr::<u64, 8>(z, &x);
            assert_eq!(unslice(&y, 8), values.map(|v| spec(CellWidth::Byte, v)), "TK{} 8-bit", z + 1);
            assert_eq!(lfsr_inv::<u64, 8>(z, &y), x, "TK{} 8-bit inverse", z + 1);
            let yn = lfsr::<u64, 4>(z, &xn);
            assert_eq!(unslice(&yn, 4), nib.map(|v| spec(CellWidth::Nibble, v)), "TK{} 4-bit", z + 1);
            assert_eq!(lfsr_inv::<u64, 4>(z, &yn), xn, "TK{} 4-bit inverse", z + 1);
        }
        assert_eq!(lfsr::<u64, 8>(0, &x), x, "TK1 has no LFSR");
    }
}
