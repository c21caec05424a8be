//! The lab kernels' tweakey layout in shared memory, on the host: where each
//! bit of each tweakey cell sits, and the LFSR steps the kernels make in
//! place. [`super::tables`] builds the kernels' data with it and
//! [`super::query`] the related-tweakey differences.

use skinny::hazmat::spec::tweakey::PT;
use skinny::{CellWidth, Variant};

use super::source::LAB_THREADS;

/// `SLOT_OF[c]`: the slot of cell `c` of rows 0-1 in round 0. The slots hold
/// the cells in the order of the cycle of `P = PT[0..8] - 8` (0, 1, 7, 3, 5,
/// 6, 4, 2), so that each renaming by `P` turns them by one slot. `lab.cu`
/// has it as `lab_slot_of`; a test checks both against `PT`.
pub(crate) const SLOT_OF: [usize; 8] = [0, 1, 7, 3, 6, 4, 5, 2];

/// Register (and shared word, within one block-sized array) of bit `i` of
/// cell `c`, as `reg_of` in `bitsliced_round.cuh`.
pub(crate) fn reg_of(width: CellWidth, c: usize, i: usize) -> usize {
    match width {
        CellWidth::Byte => (c >> 2) * 32 + 8 * (c & 3) + i,
        CellWidth::Nibble => (c >> 3) * 32 + 8 * ((c & 7) >> 1) + if c & 1 == 1 { 0 } else { 4 } + i,
    }
}

/// The kernels' tweakey layout and schedule, on the host, in shared-memory
/// word indices (not yet scaled to bytes): bit `i` of the cell in slot `slot`
/// of half `h` of TK`z` is word `((z·2 + h)·8 + slot)·CB + i`. Half `r & 1`
/// is rows 0-1 in round `r`, with cell `c` in slot `(SLOT_OF[c] + r/2) mod 8`;
/// a round that reads a TK2/TK3 cell steps it by its LFSR (forward), and
/// decryption steps it back; half 1 starts one step ahead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TweakeyLayout {
    width: CellWidth,
    pub(crate) cb: usize,
    nw: usize,
    z_count: usize,
}

impl TweakeyLayout {
    /// The layout for `variant`.
    pub fn new(variant: Variant) -> Self {
        let width = variant.cell_width();
        let cb = match width {
            CellWidth::Byte => 8,
            CellWidth::Nibble => 4,
        };
        Self { width, cb, nw: variant.block_bytes() / 4, z_count: variant.tk_count() }
    }

    /// Words a tweakey takes.
    pub fn words(&self) -> usize {
        self.z_count * 16 * self.cb
    }

    /// The word of bit `i` of the cell in `slot` of half `h` of TK`z`.
    pub fn word(&self, z: usize, h: usize, slot: usize, i: usize) -> usize {
        ((z * 2 + h) * 8 + slot) * self.cb + i
    }

    /// Where word `w` is in a thread's column of shared memory, in bytes: in
    /// fours, `LAB_QUAD` (16 x the threads of a warp) apart, an 8-bit cell's
    /// even bits in its first four and odd bits in the next (lab.cu's
    /// `lab_bit_at`).
    pub fn byte_offset(&self, w: u32) -> u32 {
        let cb = self.cb as u32;
        let (cell, i) = (w - w % cb, w % cb);
        let at = cell + if cb == 8 { (i % 2) * 4 + i / 2 } else { i };
        (at / 4) * (LAB_THREADS * 16) + (at % 4) * 4
    }

    /// Round `r`'s cell `c` of rows 0-1: its half and slot.
    pub fn round_cell(r: usize, c: usize) -> (usize, usize) {
        (r & 1, (SLOT_OF[c] + r / 2) % 8)
    }

    /// Where the tweakey puts original cell `c`: rows 0-1 (half 0) in the
    /// slots of round 0; rows 2-3 (half 1) where round 1 finds them, cell
    /// `P[j]` at round 1's position `j`.
    fn home(c: usize) -> (usize, usize) {
        if c < 8 {
            return (0, SLOT_OF[c]);
        }
        let j = (0..8).find(|&j| PT[j] == c).expect("PT maps rows 2-3 onto rows 0-1");
        (1, SLOT_OF[j])
    }

    /// The tweakey `bytes` (or a difference) as the kernels hold it before
    /// round 0, one bool per word.
    pub fn load(&self, bytes: &[u8]) -> Vec<bool> {
        let src = tweakey_bits(bytes);
        let mut w = vec![false; self.words()];
        for z in 0..self.z_count {
            for c in 0..16 {
                let (h, slot) = Self::home(c);
                for i in 0..self.cb {
                    w[self.word(z, h, slot, i)] = src[z * self.nw * 32 + reg_of(self.width, c, i)];
                }
            }
        }
        self.step_half(&mut w, 1, LfsrStep::Forward);
        w
    }

    /// `lab_load_cell`: for 32-bit tweakey word `u` and group `g` (its bits
    /// `g·CB ..`), the word of bit 0 of the cell they go to, at `u·8 + g`.
    pub fn load_cells(&self) -> Vec<u32> {
        let mut t = vec![0u32; 12 * 8];
        for u in 0..self.z_count * self.nw {
            for g in 0..32 / self.cb {
                let j = u * 32 + g * self.cb;
                let (z, within) = (j / (self.nw * 32), j % (self.nw * 32));
                let c = (0..16).find(|&c| reg_of(self.width, c, 0) == within).expect("a group is a cell");
                let (h, slot) = Self::home(c);
                t[u * 8 + g] = self.word(z, h, slot, 0) as u32;
            }
        }
        t
    }

    /// One LFSR step (or its undoing) of every TK2/TK3 cell of half `h`.
    pub fn step_half(&self, w: &mut [bool], h: usize, step: LfsrStep) {
        let cb = self.cb;
        let (tap2, tap3) = if cb == 8 { (5, 6) } else { (2, 3) };
        for z in 1..self.z_count {
            for slot in 0..8 {
                let at = self.word(z, h, slot, 0);
                let v: Vec<bool> = w[at..at + cb].to_vec();
                let cell = &mut w[at..at + cb];
                match (z, step) {
                    // TK2: bits move up one, the new bit 0 is x7 ^ x5 (x3 ^ x2).
                    (1, LfsrStep::Forward) => {
                        cell[1..].copy_from_slice(&v[..cb - 1]);
                        cell[0] = v[cb - 1] ^ v[tap2];
                    }
                    (1, LfsrStep::Back) => {
                        cell[..cb - 1].copy_from_slice(&v[1..]);
                        cell[cb - 1] = v[0] ^ v[tap2 + 1];
                    }
                    // TK3: bits move down one, the new top bit is x0 ^ x6 (x0 ^ x3).
                    (_, LfsrStep::Forward) => {
                        cell[..cb - 1].copy_from_slice(&v[1..]);
                        cell[cb - 1] = v[0] ^ v[tap3];
                    }
                    (_, LfsrStep::Back) => {
                        cell[1..].copy_from_slice(&v[..cb - 1]);
                        cell[0] = v[cb - 1] ^ v[tap3 - 1];
                    }
                }
            }
        }
    }

    /// The words set in the kernels' state after `rounds` rounds of the
    /// tweakey `d` (a difference).
    pub fn scheduled_words(&self, d: &[u8], rounds: usize) -> Vec<u32> {
        let mut w = self.load(d);
        for r in 0..rounds {
            self.step_half(&mut w, r & 1, LfsrStep::Forward);
        }
        w.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i as u32).collect()
    }
}

/// Which way [`TweakeyLayout::step_half`] steps the LFSRs: as a round of
/// encryption does, or back, as decryption does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LfsrStep {
    /// One step, as the next round of encryption.
    Forward,
    /// One step undone, as decryption.
    Back,
}

/// Bit `p` of little-endian 32-bit word `u` of `bytes`, at index `u·32 + p`.
pub(crate) fn tweakey_bits(bytes: &[u8]) -> Vec<bool> {
    let mut bits = Vec::with_capacity(bytes.len() * 8);
    for w in bytes.chunks_exact(4) {
        let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        bits.extend((0..32).map(|p| (v >> p) & 1 == 1));
    }
    bits
}
