//! The S-boxes on bit slices: `c[b]` holds bit `b` (0 = least significant) of one
//! cell in every block of the batch. Each NOR/XOR layer of the specification's
//! circuit is two or three word operations; the wire crossings between layers are
//! renamings of array elements and cost nothing once compiled.

use super::word::Word;

/// One cell's bit slices (4-bit cells use `c[0..4]`).
pub(crate) type Cell<W> = [W; 8];

/// `x ^= NOR(a, b)`.
#[inline(always)]
fn xor_nor<W: Word>(x: W, a: W, b: W) -> W {
    x.xor(a.or(b)).not()
}

/// S8 layer: x4 ^= NOR(x7, x6); x0 ^= NOR(x3, x2).
#[inline(always)]
fn layer8<W: Word>(c: &mut Cell<W>) {
    c[4] = xor_nor(c[4], c[7], c[6]);
    c[0] = xor_nor(c[0], c[3], c[2]);
}

/// The wire crossing (x7..x0) → (x2, x1, x7, x6, x4, x0, x3, x5).
#[inline(always)]
fn permute8<W: Word>(c: &Cell<W>) -> Cell<W> {
    [c[5], c[3], c[0], c[4], c[6], c[7], c[1], c[2]]
}

/// The inverse crossing.
#[inline(always)]
fn permute8_inv<W: Word>(c: &Cell<W>) -> Cell<W> {
    [c[2], c[6], c[7], c[1], c[3], c[0], c[4], c[5]]
}

/// S8 on one cell of every block.
#[inline(always)]
pub(crate) fn sbox8<W: Word>(c: &mut Cell<W>) {
    layer8(c);
    *c = permute8(c);
    layer8(c);
    *c = permute8(c);
    layer8(c);
    *c = permute8(c);
    layer8(c);
    c.swap(1, 2);
}

/// S8⁻¹.
#[inline(always)]
pub(crate) fn sbox8_inv<W: Word>(c: &mut Cell<W>) {
    c.swap(1, 2);
    layer8(c);
    *c = permute8_inv(c);
    layer8(c);
    *c = permute8_inv(c);
    layer8(c);
    *c = permute8_inv(c);
    layer8(c);
}

/// S4 layer: x0 ^= NOR(x3, x2).
#[inline(always)]
fn layer4<W: Word>(c: &mut Cell<W>) {
    c[0] = xor_nor(c[0], c[3], c[2]);
}

/// Left rotation of the nibble (x3, x2, x1, x0) → (x2, x1, x0, x3).
#[inline(always)]
fn rotl4<W: Word>(c: &mut Cell<W>) {
    let (x0, x1, x2, x3) = (c[0], c[1], c[2], c[3]);
    c[0] = x3;
    c[1] = x0;
    c[2] = x1;
    c[3] = x2;
}

/// Right rotation, the inverse of [`rotl4`].
#[inline(always)]
fn rotr4<W: Word>(c: &mut Cell<W>) {
    let (x0, x1, x2, x3) = (c[0], c[1], c[2], c[3]);
    c[0] = x1;
    c[1] = x2;
    c[2] = x3;
    c[3] = x0;
}

/// S4 on one cell of every block.
#[inline(always)]
pub(crate) fn sbox4<W: Word>(c: &mut Cell<W>) {
    layer4(c);
    rotl4(c);
    layer4(c);
    rotl4(c);
    layer4(c);
    rotl4(c);
    layer4(c);
}

/// S4⁻¹.
#[inline(always)]
pub(crate) fn sbox4_inv<W: Word>(c: &mut Cell<W>) {
    layer4(c);
    rotr4(c);
    layer4(c);
    rotr4(c);
    layer4(c);
    rotr4(c);
    layer4(c);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::sbox;

    /// Every cell value in its own bit position of the slices, through the sliced
    /// S-box, against the specification's S-box.
    fn check(bits: usize, sliced: fn(&mut Cell<u64>), spec: fn(u8) -> u8) {
        let values = 1usize << bits;
        for base in (0..values).step_by(64) {
            let mut c: Cell<u64> = [0; 8];
            for j in 0..64.min(values) {
                let x = (base + j) as u64;
                for (b, slice) in c.iter_mut().enumerate().take(bits) {
                    *slice |= ((x >> b) & 1) << j;
                }
            }
            sliced(&mut c);
            for j in 0..64.min(values) {
                let got = (0..bits).fold(0u8, |acc, b| acc | ((((c[b] >> j) & 1) as u8) << b));
                assert_eq!(got, spec((base + j) as u8), "input {:#x}", base + j);
            }
        }
    }

    #[test]
    fn sliced_sboxes_match_the_specification() {
        check(4, sbox4, sbox::sbox4);
        check(4, sbox4_inv, sbox::sbox4_inv);
        check(8, sbox8, sbox::sbox8);
        check(8, sbox8_inv, sbox::sbox8_inv);
    }
}
