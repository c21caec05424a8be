//! The lab kernels' tables (`kernels/lab.cu` in `skinny-cuda`): what an
//! experiment is as the kernels take it, and the `__constant__` data built
//! for it on the host. All public data.
//!
//! A thread's 32 tweakeys sit bitsliced in shared memory, cell by cell, laid
//! out so that the cell permutation is a change of address ([`TweakeyLayout`]:
//! halves that alternate as rows 0-1, slots in the order of the permutation's
//! cycle); the LFSRs step the cells in place. This module places the tweakey
//! words and follows the same steps for the related-tweakey differences. The
//! kernels draw each query's plaintext and tweakey on the device from the
//! seeded stream states of [`crate::rng`].

use super::query::KernelQuery;
use super::source::{LAB_MAX_WARPS, LAB_THREADS};
use crate::error::LabError;
use skinny::hazmat::spec::round::ROUND_CONSTANTS;
use skinny::hazmat::spec::tweakey::PT;
use skinny::{CellWidth, Variant};
use skinny_cuda::constants::Symbol;
use skinny_cuda::kernels::MAX_ROUNDS;

/// `SLOT_OF[c]`: the slot of cell `c` of rows 0-1 in round 0. The slots hold
/// the cells in the order of the cycle of `P = PT[0..8] - 8` (0, 1, 7, 3, 5,
/// 6, 4, 2), so that each renaming by `P` turns them by one slot. `lab.cu`
/// has it as `lab_slot_of`; a test checks both against `PT`.
const SLOT_OF: [usize; 8] = [0, 1, 7, 3, 6, 4, 5, 2];

/// One experiment, as the kernels run it. All public data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelSetup {
    /// The variant.
    pub variant: Variant,
    /// Rounds run, from `start_round`, within the variant's.
    pub rounds: usize,
    /// The first round run, from 1: the kernels take its constants onwards.
    /// The tweakeys drawn are its tweakey states, and the differences of
    /// [`KernelQuery`] are differences of those states.
    pub start_round: usize,
    /// A new key every this many queries (>= 1).
    pub key_every: u64,
    /// The generator's seeded state of the plaintext stream: word `w` of
    /// query `q`'s plaintext is `mix(mix(plain_state ^ q) ^ (w+1)·φ)`, `mix`
    /// being SplitMix64's finalizer and φ = 0x9e3779b97f4a7c15.
    pub plain_state: u64,
    /// The same for the key stream, indexed by key group `q / key_every`.
    pub key_state: u64,
    /// What is counted.
    pub query: KernelQuery,
}

/// Register (and shared word, within one block-sized array) of bit `i` of
/// cell `c`, as `reg_of` in `bitsliced_round.cuh`.
fn reg_of(width: CellWidth, c: usize, i: usize) -> usize {
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
    cb: usize,
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
fn tweakey_bits(bytes: &[u8]) -> Vec<bool> {
    let mut bits = Vec::with_capacity(bytes.len() * 8);
    for w in bytes.chunks_exact(4) {
        let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        bits.extend((0..32).map(|p| (v >> p) & 1 == 1));
    }
    bits
}

/// 0 / all ones per bitsliced register of a block value (128 words; a 64-bit
/// block fills the first 64).
fn block_masks(block: &[u8]) -> Vec<u32> {
    let mut m: Vec<u32> = tweakey_bits(block).into_iter().map(|b| 0u32.wrapping_sub(u32::from(b))).collect();
    m.resize(128, 0);
    m
}

fn symbol(name: &'static str, words: Vec<u32>) -> Symbol {
    Symbol { name, words: words.into() }
}

/// Bytes of shared memory a warp of the kernel for `variant` needs: the
/// bitsliced tweakeys of its threads' 32 queries each.
pub fn shared_bytes(variant: Variant) -> usize {
    let nw = variant.block_bytes() / 4;
    variant.tk_count() * nw * 32 * LAB_THREADS as usize * 4
}

/// Warps a block of the kernel for `variant`, given the shared memory a block
/// may have (`max_shared`): as many regions as fit, at most
/// [`LAB_MAX_WARPS`](super::source::LAB_MAX_WARPS). Shared memory, not registers, held the one-warp blocks
/// of SKINNY-128-256 to six warps an SM (Nsight Compute on the H200: 32 KB
/// each plus the driver's 1 KB a block); one block of seven holds seven.
pub fn warps_per_block(variant: Variant, max_shared: usize) -> u32 {
    let fit = (max_shared / shared_bytes(variant)).max(1);
    (fit as u32).min(LAB_MAX_WARPS)
}

/// The `__constant__` data of the lab kernels for `setup` (public data).
///
/// # Errors
/// A round count out of range, `key_every` 0, or a difference of the wrong
/// length (as [`Differential::check`](crate::Differential::check) and
/// [`Boomerang::check`](crate::Boomerang::check) say).
pub fn kernel_constants(setup: &KernelSetup) -> Result<Vec<Symbol>, LabError> {
    let v = setup.variant;
    if !(1..=v.rounds()).contains(&setup.rounds) {
        return Err(LabError::Rounds { variant: v, max: v.rounds(), got: setup.rounds });
    }
    if skinny::hazmat::partial::check_rounds(v, setup.start_round, setup.rounds).is_err() {
        return Err(LabError::StartRound { variant: v, start: setup.start_round, rounds: setup.rounds });
    }
    if setup.key_every == 0 {
        return Err(LabError::KeyEvery);
    }
    let tables = TweakeyLayout::new(v);
    let bytes = |w: u32| tables.byte_offset(w);
    let load_cell: Vec<u32> = tables.load_cells().into_iter().map(bytes).collect();
    let mut rc = vec![0u32; MAX_ROUNDS * 6];
    // The kernels' round r is the cipher's round start_round + r.
    for (r, c) in ROUND_CONSTANTS.iter().skip(setup.start_round - 1).take(MAX_ROUNDS).enumerate() {
        for b in 0..6 {
            rc[r * 6 + b] = 0u32.wrapping_sub(u32::from((c >> b) & 1));
        }
    }
    let list = |words: Vec<u32>| {
        let mut l = vec![words.len() as u32];
        l.extend(words.into_iter().map(bytes));
        l.resize(385, 0);
        l
    };
    let q = setup.query.tables(v, setup.rounds, &tables)?;
    // 0 / all ones a cell, for the cells whose difference must be zero, or non-zero.
    let cell_words = |cells: u16| (0..16).map(|c| 0u32.wrapping_sub(u32::from(cells >> c & 1))).collect();
    Ok(vec![
        symbol("lab_load_cell", load_cell),
        symbol("lab_rc", rc),
        symbol("lab_dp", block_masks(&q.dp)),
        symbol("lab_dc", block_masks(&q.dc)),
        symbol("lab_target", block_masks(&q.target)),
        symbol("lab_mask", block_masks(&q.mask)),
        symbol("lab_in_mask", block_masks(&q.in_mask)),
        symbol("lab_cell_zero", cell_words(q.cells_zero)),
        symbol("lab_cell_nonzero", cell_words(q.cells_nonzero)),
        symbol("lab_delta_init", list(q.init)),
        symbol("lab_delta_fin", list(q.fin)),
    ])
}

#[cfg(test)]
mod tests;
