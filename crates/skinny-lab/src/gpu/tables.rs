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

use super::layout::{tweakey_bits, TweakeyLayout};
use super::query::KernelQuery;
use super::source::{LAB_MAX_WARPS, LAB_THREADS};
use crate::error::LabError;
use skinny::hazmat::spec::round::ROUND_CONSTANTS;
use skinny::Variant;
use skinny_cuda::constants::Symbol;
use skinny_cuda::kernels::MAX_ROUNDS;

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
