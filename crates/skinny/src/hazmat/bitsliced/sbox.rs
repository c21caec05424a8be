//! The S-boxes on bit slices: `c[b]` holds bit `b` (0 = least significant) of one
//! cell in every block of the batch. Each NOR/XOR gate of the specification's
//! circuit is two word operations (see [`Tracked`]); the wire crossings between
//! layers are renamings of array elements and cost nothing once compiled. S8 and
//! S8⁻¹ cost 16 gate operations + 4 NOTs, S4 and S4⁻¹ 8 + 2; on a word with a
//! three-input instruction ([`Word::TERNARY`], AVX-512) each gate is one
//! operation and no NOT is left: S8 8, S4 4.

use super::word::Word;

/// One cell's bit slices (4-bit cells use `c[0..4]`).
pub(crate) type Cell<W> = [W; 8];

/// A cell's slices while an S-box runs, each with a flag saying whether the word
/// holds the bit or its complement. The flags depend only on the circuit, never on
/// data: once the S-box is inlined they are constants and every test of them
/// disappears. They let each NOR/XOR gate cost two word operations instead of
/// three (the NOT of the NOR is absorbed by flipping a flag), and only the
/// outputs left complemented at the end pay one NOT each.
struct Tracked<W> {
    x: Cell<W>,
    inverted: [bool; 8],
}

impl<W: Word> Tracked<W> {
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn new(x: Cell<W>) -> Self {
        Self { x, inverted: [false; 8] }
    }

    /// `x[t] ^= NOR(x[a], x[b])` on the true values. With a' = ¬a stored:
    /// NOR(a, b) = ¬a ∧ ¬b = a' ∧ ¬b, and so on; with neither stored inverted,
    /// NOR(a, b) = ¬(a ∨ b), so XOR in `a ∨ b` and flip the flag of `t`.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn xor_nor(&mut self, t: usize, a: usize, b: usize) {
        let (x, va, vb) = (self.x[t], self.x[a], self.x[b]);
        self.x[t] = match (self.inverted[a], self.inverted[b]) {
            // With a three-input instruction the gate is one operation as it
            // stands: nothing is ever held complemented, no NOT is left at the end.
            (false, false) if W::TERNARY => x.xor_nor(va, vb),
            (false, false) => {
                self.inverted[t] = !self.inverted[t];
                x.xor_or(va, vb)
            }
            (true, false) => x.xor_andnot(vb, va),
            (false, true) => x.xor_andnot(va, vb),
            (true, true) => x.xor_and(va, vb),
        };
    }

    /// Renames the wires: new wire `i` is old wire `from[i]`.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn permute(&mut self, from: [usize; 8]) {
        let (x, inv) = (self.x, self.inverted);
        for i in 0..8 {
            self.x[i] = x[from[i]];
            self.inverted[i] = inv[from[i]];
        }
    }

    /// The true values: one NOT per wire still inverted.
    #[cfg_attr(skinny_unoptimized, inline(never))]
    #[cfg_attr(not(skinny_unoptimized), inline(always))]
    fn finish(self, c: &mut Cell<W>) {
        for i in 0..8 {
            c[i] = if self.inverted[i] { self.x[i].not() } else { self.x[i] };
        }
    }
}

/// S8 layer: x4 ^= NOR(x7, x6); x0 ^= NOR(x3, x2).
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
fn layer8<W: Word>(c: &mut Tracked<W>) {
    c.xor_nor(4, 7, 6);
    c.xor_nor(0, 3, 2);
}

/// The wire crossing (x7..x0) → (x2, x1, x7, x6, x4, x0, x3, x5).
const PERMUTE8: [usize; 8] = [5, 3, 0, 4, 6, 7, 1, 2];
/// The inverse crossing.
const PERMUTE8_INV: [usize; 8] = [2, 6, 7, 1, 3, 0, 4, 5];
/// The last crossing of S8 swaps x1 and x2 only.
const SWAP_1_2: [usize; 8] = [0, 2, 1, 3, 4, 5, 6, 7];
/// Nibble rotations (x3, x2, x1, x0) → (x2, x1, x0, x3) and back; wires 4..8 unused.
const ROTL4: [usize; 8] = [3, 0, 1, 2, 4, 5, 6, 7];
const ROTR4: [usize; 8] = [1, 2, 3, 0, 4, 5, 6, 7];

/// S8 on one cell of every block.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn sbox8<W: Word>(c: &mut Cell<W>) {
    let mut t = Tracked::new(*c);
    layer8(&mut t);
    t.permute(PERMUTE8);
    layer8(&mut t);
    t.permute(PERMUTE8);
    layer8(&mut t);
    t.permute(PERMUTE8);
    layer8(&mut t);
    t.permute(SWAP_1_2);
    t.finish(c);
}

/// S8⁻¹.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn sbox8_inv<W: Word>(c: &mut Cell<W>) {
    let mut t = Tracked::new(*c);
    t.permute(SWAP_1_2);
    layer8(&mut t);
    t.permute(PERMUTE8_INV);
    layer8(&mut t);
    t.permute(PERMUTE8_INV);
    layer8(&mut t);
    t.permute(PERMUTE8_INV);
    layer8(&mut t);
    t.finish(c);
}

/// S4 on one cell of every block: x0 ^= NOR(x3, x2), then rotate, four times.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn sbox4<W: Word>(c: &mut Cell<W>) {
    let mut t = Tracked::new(*c);
    t.xor_nor(0, 3, 2);
    t.permute(ROTL4);
    t.xor_nor(0, 3, 2);
    t.permute(ROTL4);
    t.xor_nor(0, 3, 2);
    t.permute(ROTL4);
    t.xor_nor(0, 3, 2);
    t.finish(c);
}

/// S4⁻¹.
#[cfg_attr(skinny_unoptimized, inline(never))]
#[cfg_attr(not(skinny_unoptimized), inline(always))]
pub(crate) fn sbox4_inv<W: Word>(c: &mut Cell<W>) {
    let mut t = Tracked::new(*c);
    t.xor_nor(0, 3, 2);
    t.permute(ROTR4);
    t.xor_nor(0, 3, 2);
    t.permute(ROTR4);
    t.xor_nor(0, 3, 2);
    t.permute(ROTR4);
    t.xor_nor(0, 3, 2);
    t.finish(c);
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
