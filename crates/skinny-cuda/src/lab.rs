//! The lab's experiments on the GPU: differential and boomerang queries on
//! reduced-round SKINNY, each query with its own plaintext and tweakey drawn
//! on the device from the counter-based generator (`kernels/lab.cu`).
//!
//! This module knows the kernels' data layout and builds their tables; the
//! experiment itself (seeds, shards, statistics, right pairs) is the
//! `skinny-lab` crate's, which gives the generator's seeded stream states.
//!
//! A thread's 32 tweakeys sit bitsliced in shared memory, cell by cell, laid
//! out so that the cell permutation is a change of address ([`TweakeyLayout`]:
//! halves that alternate as rows 0-1, slots in the order of the permutation's
//! cycle); the LFSRs step the cells in place. This module places the tweakey
//! words and follows the same steps for the related-tweakey differences.

use crate::constants::{Symbol, MAX_ROUNDS};
use crate::device::Gpu;
use crate::kernels::{lab_entry_point, LabExperiment, LAB, LAB_MAX_WARPS, LAB_THREADS};
use crate::GpuError;
use cudarc::driver::{CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use skinny::hazmat::spec::round::ROUND_CONSTANTS;
use skinny::hazmat::spec::tweakey::PT;
use skinny::{CellWidth, Variant};
use std::sync::Arc;
use zeroize::Zeroizing;

/// `SLOT_OF[c]`: the slot of cell `c` of rows 0-1 in round 0. The slots hold
/// the cells in the order of the cycle of `P = PT[0..8] - 8` (0, 1, 7, 3, 5,
/// 6, 4, 2), so that each renaming by `P` turns them by one slot. `lab.cu`
/// has it as `lab_slot_of`; a test checks both against `PT`.
const SLOT_OF: [usize; 8] = [0, 1, 7, 3, 6, 4, 5, 2];

/// The most queries in one launch (see [`LabKernel::launch_queries`]).
const LAUNCH_QUERIES: u64 = 1 << 25;

/// One experiment, as the kernels run it. All public data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabSetup {
    /// The variant.
    pub variant: Variant,
    /// Rounds, 1 ..= the variant's.
    pub rounds: usize,
    /// A new key every this many queries (>= 1).
    pub key_every: u64,
    /// The generator's seeded state of the plaintext stream: word `w` of
    /// query `q`'s plaintext is `mix(mix(plain_state ^ q) ^ (w+1)·φ)`, `mix`
    /// being SplitMix64's finalizer and φ = 0x9e3779b97f4a7c15.
    pub plain_state: u64,
    /// The same for the key stream, indexed by key group `q / key_every`.
    pub key_state: u64,
    /// What is counted.
    pub query: LabQuery,
}

/// The experiment's differences (lengths: a block, or the whole tweakey).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabQuery {
    /// A hit when `(E_K(P) ^ E_{K^dk}(P ^ dp)) & dc_mask == dc & dc_mask`.
    Differential {
        /// Plaintext difference.
        dp: Vec<u8>,
        /// Ciphertext difference.
        dc: Vec<u8>,
        /// Which ciphertext bits count.
        dc_mask: Vec<u8>,
        /// Tweakey difference.
        dk: Vec<u8>,
    },
    /// The related-tweakey boomerang: K2 = K1^dk1, K3 = K1^dk2, K4 = K2^dk2,
    /// a return when `D_K3(E_K1(P) ^ dc) ^ D_K4(E_K2(P ^ dp) ^ dc) == dp`.
    Boomerang {
        /// Plaintext difference.
        dp: Vec<u8>,
        /// Ciphertext difference.
        dc: Vec<u8>,
        /// Tweakey difference of the upper trail.
        dk1: Vec<u8>,
        /// Tweakey difference of the lower trail.
        dk2: Vec<u8>,
    },
}

impl LabQuery {
    fn experiment(&self) -> LabExperiment {
        match self {
            LabQuery::Differential { .. } => LabExperiment::Differential,
            LabQuery::Boomerang { .. } => LabExperiment::Boomerang,
        }
    }
}

/// The result of one launch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LabCounts {
    /// Hits among the queries run.
    pub hits: u64,
    /// Query indices of hits, in no particular order, at most the capacity asked for.
    pub recorded: Vec<u64>,
    /// More hits than the capacity: `recorded` is an arbitrary subset.
    pub overflow: bool,
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
        self.step_half(&mut w, 1, true);
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
    pub fn step_half(&self, w: &mut [bool], h: usize, forward: bool) {
        let cb = self.cb;
        let (tap2, tap3) = if cb == 8 { (5, 6) } else { (2, 3) };
        for z in 1..self.z_count {
            for slot in 0..8 {
                let at = self.word(z, h, slot, 0);
                let v: Vec<bool> = w[at..at + cb].to_vec();
                let cell = &mut w[at..at + cb];
                match (z, forward) {
                    // TK2: bits move up one, the new bit 0 is x7 ^ x5 (x3 ^ x2).
                    (1, true) => {
                        cell[1..].copy_from_slice(&v[..cb - 1]);
                        cell[0] = v[cb - 1] ^ v[tap2];
                    }
                    (1, false) => {
                        cell[..cb - 1].copy_from_slice(&v[1..]);
                        cell[cb - 1] = v[0] ^ v[tap2 + 1];
                    }
                    // TK3: bits move down one, the new top bit is x0 ^ x6 (x0 ^ x3).
                    (_, true) => {
                        cell[..cb - 1].copy_from_slice(&v[1..]);
                        cell[cb - 1] = v[0] ^ v[tap3];
                    }
                    (_, false) => {
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
            self.step_half(&mut w, r & 1, true);
        }
        w.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i as u32).collect()
    }
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

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

fn symbol(name: &'static str, words: Vec<u32>) -> Symbol {
    Symbol { name, words: Zeroizing::new(words) }
}

/// Bytes of shared memory a warp of the kernel for `variant` needs: the
/// bitsliced tweakeys of its threads' 32 queries each.
pub fn shared_bytes(variant: Variant) -> usize {
    let nw = variant.block_bytes() / 4;
    variant.tk_count() * nw * 32 * LAB_THREADS as usize * 4
}

/// Warps a block of the kernel for `variant`, given the shared memory a block
/// may have (`max_shared`): as many regions as fit, at most
/// [`LAB_MAX_WARPS`]. Shared memory, not registers, held the one-warp blocks
/// of SKINNY-128-256 to six warps an SM (Nsight Compute, run 32: 32 KB each
/// plus the driver's 1 KB a block); one block of seven holds seven.
pub fn warps_per_block(variant: Variant, max_shared: usize) -> u32 {
    let fit = (max_shared / shared_bytes(variant)).max(1);
    (fit as u32).min(LAB_MAX_WARPS)
}

/// The `__constant__` data of the lab kernels for `setup` (public data).
///
/// # Errors
/// A round count out of range or a difference of the wrong length.
pub fn lab_symbols(setup: &LabSetup) -> Result<Vec<Symbol>, GpuError> {
    let v = setup.variant;
    if !(1..=v.rounds()).contains(&setup.rounds) || setup.key_every == 0 {
        return Err(GpuError::BadSource("lab: rounds or key_every out of range"));
    }
    let block = v.block_bytes();
    let tk = v.tweakey_bytes();
    let tables = TweakeyLayout::new(v);
    let bytes = |w: u32| tables.byte_offset(w);
    let load_cell: Vec<u32> = tables.load_cells().into_iter().map(bytes).collect();
    let mut rc = vec![0u32; MAX_ROUNDS * 6];
    for (r, c) in ROUND_CONSTANTS.iter().take(MAX_ROUNDS).enumerate() {
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
    let check = |what: &'static str, x: &[u8], len: usize| {
        if x.len() == len {
            Ok(())
        } else {
            Err(GpuError::BadSource(what))
        }
    };
    let (dp, dc, target, mask, init, fin) = match &setup.query {
        LabQuery::Differential { dp, dc, dc_mask, dk } => {
            check("lab: dp length", dp, block)?;
            check("lab: dc length", dc, block)?;
            check("lab: dc_mask length", dc_mask, block)?;
            check("lab: dk length", dk, tk)?;
            let target: Vec<u8> = dc.iter().zip(dc_mask).map(|(d, m)| d & m).collect();
            (dp.clone(), vec![0; block], target, dc_mask.clone(), tables.scheduled_words(dk, 0), Vec::new())
        }
        LabQuery::Boomerang { dp, dc, dk1, dk2 } => {
            check("lab: dp length", dp, block)?;
            check("lab: dc length", dc, block)?;
            check("lab: dk1 length", dk1, tk)?;
            check("lab: dk2 length", dk2, tk)?;
            let init = tables.scheduled_words(&xor(dk1, dk2), 0);
            let fin = tables.scheduled_words(dk2, setup.rounds);
            (dp.clone(), dc.clone(), dp.clone(), vec![0xff; block], init, fin)
        }
    };
    Ok(vec![
        symbol("lab_load_cell", load_cell),
        symbol("lab_rc", rc),
        symbol("lab_dp", block_masks(&dp)),
        symbol("lab_dc", block_masks(&dc)),
        symbol("lab_target", block_masks(&target)),
        symbol("lab_mask", block_masks(&mask)),
        symbol("lab_delta_init", list(init)),
        symbol("lab_delta_fin", list(fin)),
    ])
}

/// One experiment loaded on a GPU: its kernel, constants and result buffers.
pub struct LabKernel {
    gpu: Arc<Gpu>,
    setup: LabSetup,
    stream: Arc<CudaStream>,
    // Kept alive for `func`.
    _module: Arc<CudaModule>,
    func: CudaFunction,
    hits: CudaSlice<u64>,
    rec_n: CudaSlice<u32>,
    rec: Option<CudaSlice<u64>>,
    /// A block per thread of a launch (the saved block of its queries).
    scratch: CudaSlice<u32>,
    /// Warps a block ([`warps_per_block`]).
    warps: u32,
}

impl LabKernel {
    /// Compiles (or loads from the cache) the lab kernels and uploads `setup`'s tables.
    ///
    /// # Errors
    /// Bad parameters, compilation, or the device.
    pub fn new(gpu: &Arc<Gpu>, setup: LabSetup) -> Result<Self, GpuError> {
        let symbols = lab_symbols(&setup)?;
        let v = setup.variant;
        let name = lab_entry_point(v.cell_width(), v.tk_count(), setup.query.experiment())
            .ok_or(GpuError::Internal("no lab kernel for this variant"))?;
        let module = gpu.load_module(&LAB)?;
        let stream = gpu.new_stream()?;
        let func = module.load_function(name).map_err(GpuError::driver("loading a lab kernel"))?;
        let max_shared = gpu
            .context()
            .attribute(cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
            .map_err(GpuError::driver("reading the shared memory a block may have"))?;
        let warps = warps_per_block(v, usize::try_from(max_shared).unwrap_or(0));
        let bytes = i32::try_from(shared_bytes(v) * warps as usize)
            .map_err(|_| GpuError::Internal("lab shared memory size"))?;
        func.set_attribute(
            cudarc::driver::sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes,
        )
        .map_err(GpuError::driver("allowing the lab kernel its shared memory"))?;
        crate::cipher::upload(&module, &stream, &symbols)?;
        let hits = stream.alloc_zeros::<u64>(1).map_err(GpuError::driver("allocating lab counters"))?;
        let rec_n = stream.alloc_zeros::<u32>(1).map_err(GpuError::driver("allocating lab counters"))?;
        // One saved block per thread of the largest launch: 512 MiB for 128-bit blocks.
        // Plus a block's worth: the last block's threads past the end run too.
        let threads = (LAUNCH_QUERIES / 32) as usize + (LAB_MAX_WARPS * 32) as usize;
        let words = threads * v.block_bytes() * 8;
        let scratch = stream.alloc_zeros::<u32>(words).map_err(GpuError::driver("allocating the lab scratch"))?;
        Ok(Self { gpu: gpu.clone(), setup, stream, _module: module, func, hits, rec_n, rec: None, scratch, warps })
    }

    /// The GPU.
    pub fn gpu(&self) -> &Arc<Gpu> {
        &self.gpu
    }

    /// The experiment.
    pub fn setup(&self) -> &LabSetup {
        &self.setup
    }

    /// Registers per thread and local (spill) bytes per thread of the kernel.
    pub fn kernel_resources(&self) -> Option<(i32, i32)> {
        Some((self.func.num_regs().ok()?, self.func.local_size_bytes().ok()?))
    }

    /// The most queries [`LabKernel::run`] takes at once: about 4 ms of an
    /// H200's work, so a stop request is seen quickly and the host's per-launch
    /// cost (about 50 us) stays near 1 %.
    pub fn launch_queries(&self) -> u64 {
        LAUNCH_QUERIES
    }

    /// Runs queries `start .. start + count` (`count` at most
    /// [`LabKernel::launch_queries`]) and waits for them; with `record > 0`
    /// keeps up to that many hits' query indices.
    ///
    /// # Errors
    /// A launch or copy failure; `count` too large.
    pub fn run(&mut self, start: u64, count: u64, record: u32) -> Result<LabCounts, GpuError> {
        if count == 0 {
            return Ok(LabCounts::default());
        }
        if count > LAUNCH_QUERIES {
            return Err(GpuError::LaunchTooLarge);
        }
        if record > 0 && self.rec.as_ref().is_none_or(|r| r.len() < record as usize) {
            self.rec = Some(
                self.stream
                    .alloc_zeros::<u64>(record as usize)
                    .map_err(GpuError::driver("allocating the hit record"))?,
            );
        }
        // A thread per batch of 32 queries, `warps` warps a block.
        let threads_per_block = LAB_THREADS * self.warps;
        let grid = count.div_ceil(32 * u64::from(threads_per_block)) as u32;
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (threads_per_block, 1, 1),
            shared_mem_bytes: (shared_bytes(self.setup.variant) * self.warps as usize) as u32,
        };
        self.stream.memset_zeros(&mut self.hits).map_err(GpuError::driver("clearing lab counters"))?;
        self.stream.memset_zeros(&mut self.rec_n).map_err(GpuError::driver("clearing lab counters"))?;
        let rounds = self.setup.rounds as i32;
        let cap = if record > 0 { record } else { 0 };
        {
            let mut b = self.stream.launch_builder(&self.func);
            b.arg(&start)
                .arg(&count)
                .arg(&self.setup.key_every)
                .arg(&self.setup.plain_state)
                .arg(&self.setup.key_state)
                .arg(&rounds)
                .arg(&mut self.hits)
                .arg(&mut self.rec_n);
            // A null record pointer when nothing is recorded (never written then).
            let null: u64 = 0;
            match self.rec.as_mut() {
                Some(r) => b.arg(r),
                None => b.arg(&null),
            };
            b.arg(&cap).arg(&mut self.scratch);
            // SAFETY: the arguments match the lab kernels' signature (start, count,
            // key_every, plain_state, key_state, rounds, hits, rec_n, rec,
            // rec_cap, scratch); the kernel writes rec only below rec_cap, the
            // record's length, and scratch in one slab of 32 lanes x the
            // block's bits per warp of the grid (count <= LAUNCH_QUERIES, so
            // within the scratch's length); the dynamic shared memory asked
            // for is the kernel's layout.
            unsafe { b.launch(cfg) }.map_err(GpuError::driver("lab kernel launch"))?;
        }
        let hits = self.stream.clone_dtoh(&self.hits).map_err(GpuError::driver("reading lab counts"))?[0];
        let n = self.stream.clone_dtoh(&self.rec_n).map_err(GpuError::driver("reading lab counts"))?[0];
        let mut recorded = Vec::new();
        if let (Some(rec), true) = (self.rec.as_ref(), cap > 0) {
            let kept = n.min(cap) as usize;
            if kept > 0 {
                recorded = self.stream.clone_dtoh(&rec.slice(..kept)).map_err(GpuError::driver("reading lab hits"))?;
            }
        }
        Ok(LabCounts { hits, recorded, overflow: n > cap })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skinny::hazmat::spec::tweakey::{lfsr_tk2, lfsr_tk3};

    fn random_tweakey(v: Variant, seed: &mut u64) -> Vec<u8> {
        (0..v.tweakey_bytes())
            .map(|_| {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                *seed as u8
            })
            .collect()
    }

    /// The specification's rows 0-1 of every TK array, round by round.
    fn spec_round_cells(v: Variant, tk: &[u8]) -> Vec<Vec<[u8; 16]>> {
        let cells = |z: usize| skinny::hazmat::spec::tweakey::load_tk(v.cell_width(), tk, z);
        let mut spec: Vec<[u8; 16]> = (0..v.tk_count()).map(cells).collect();
        let mut rounds = Vec::new();
        for _ in 0..v.rounds() {
            rounds.push(spec.clone());
            for (z, arr) in spec.iter_mut().enumerate() {
                let before = *arr;
                for (i, x) in arr.iter_mut().enumerate() {
                    *x = before[PT[i]];
                }
                for x in arr.iter_mut().take(8) {
                    *x = match z {
                        1 => lfsr_tk2(v.cell_width(), *x),
                        2 => lfsr_tk3(v.cell_width(), *x),
                        _ => *x,
                    };
                }
            }
        }
        rounds
    }

    /// Checks that `w` holds round `r`'s rows 0-1 where the kernels read them.
    fn check_round(t: &TweakeyLayout, v: Variant, w: &[bool], spec: &[[u8; 16]], r: usize, what: &str) {
        for (z, arr) in spec.iter().enumerate() {
            for (c, cell) in arr.iter().take(8).enumerate() {
                let (h, slot) = TweakeyLayout::round_cell(r, c);
                for i in 0..t.cb {
                    let want = (cell >> i) & 1 == 1;
                    assert_eq!(w[t.word(z, h, slot, i)], want, "{v} {what} round {r} TK{z} cell {c} bit {i}");
                }
            }
        }
    }

    /// The layout's steps give, round by round, the specification's round
    /// tweakeys bit by bit, forward (encryption) and back (decryption), for
    /// random tweakeys of every variant; and undoing a whole schedule as the
    /// differential kernels do (each half back as often as it served) restores
    /// the start.
    #[test]
    fn layout_follows_the_specification_schedule() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for v in Variant::ALL {
            for _ in 0..4 {
                let t = TweakeyLayout::new(v);
                let tk = random_tweakey(v, &mut seed);
                let spec = spec_round_cells(v, &tk);
                let start = t.load(&tk);
                let mut w = start.clone();
                for (r, cells) in spec.iter().enumerate() {
                    check_round(&t, v, &w, cells, r, "forward");
                    t.step_half(&mut w, r & 1, true);
                }
                let end = w.clone();
                for (r, cells) in spec.iter().enumerate().rev() {
                    t.step_half(&mut w, r & 1, false);
                    check_round(&t, v, &w, cells, r, "backward");
                }
                assert_eq!(w, start, "{v}: back to the start");
                for rounds in [1, 2, 7, 18, v.rounds()] {
                    let mut w = start.clone();
                    for r in 0..rounds {
                        t.step_half(&mut w, r & 1, true);
                    }
                    for _ in 0..rounds.div_ceil(2) {
                        t.step_half(&mut w, 0, false);
                    }
                    for _ in 0..rounds / 2 {
                        t.step_half(&mut w, 1, false);
                    }
                    assert_eq!(w, start, "{v}: unschedule after {rounds} rounds");
                }
                let set = t.scheduled_words(&tk, v.rounds());
                assert_eq!(set, end.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i as u32).collect::<Vec<_>>());
            }
        }
    }

    /// `SLOT_OF` is the cycle of `P` (renaming by `P` turns the slots by one),
    /// and lab.cu's `lab_slot_of` packs the same values.
    #[test]
    fn slots_follow_the_cycle_of_p() {
        for c in 0..8 {
            assert_eq!(SLOT_OF[PT[c] - 8], (SLOT_OF[c] + 1) % 8, "cell {c}");
        }
        let packed = SLOT_OF.iter().enumerate().fold(0u32, |a, (c, &s)| a | (s as u32) << (4 * c));
        assert!(LAB.text.contains(&format!("0x{packed:08x}")), "lab.cu packs SLOT_OF as 0x{packed:08x}");
    }

    /// The kernels' loading (`lab_load_cell`, then half 1 stepped once) puts
    /// every bit where [`TweakeyLayout::load`] does.
    #[test]
    fn load_table_places_every_bit() {
        let mut seed = 0x0fed_cba9_8765_4321u64;
        for v in Variant::ALL {
            let t = TweakeyLayout::new(v);
            let tk = random_tweakey(v, &mut seed);
            let src = tweakey_bits(&tk);
            let cells = t.load_cells();
            let mut w = vec![false; t.words()];
            for (j, &bit) in src.iter().enumerate() {
                let (u, p) = (j / 32, j % 32);
                w[cells[u * 8 + p / t.cb] as usize + p % t.cb] = bit;
            }
            t.step_half(&mut w, 1, true);
            assert_eq!(w, t.load(&tk), "{v}");
        }
    }

    #[test]
    fn symbols_fit_the_kernel_arrays() {
        let setup = LabSetup {
            variant: Variant::Skinny128_384,
            rounds: 56,
            key_every: 1,
            plain_state: 1,
            key_state: 2,
            query: LabQuery::Boomerang { dp: vec![1; 16], dc: vec![2; 16], dk1: vec![0xff; 48], dk2: vec![0xff; 48] },
        };
        let sizes = [12 * 8, MAX_ROUNDS * 6, 128, 128, 128, 128, 385, 385];
        for (s, n) in lab_symbols(&setup).unwrap().iter().zip(sizes) {
            assert_eq!(s.words.len(), n, "{}", s.name);
            assert!(LAB.text.contains(&format!("{}[", s.name)), "{} is declared in lab.cu", s.name);
        }
        assert!(shared_bytes(Variant::Skinny128_384) <= 227 * 1024);
    }

    #[test]
    fn blocks_hold_as_many_warps_as_shared_memory_allows() {
        // An H200 lets a block have 227 KiB.
        let h200 = 227 * 1024;
        assert_eq!(warps_per_block(Variant::Skinny128_256, h200), 7);
        assert_eq!(warps_per_block(Variant::Skinny128_384, h200), 4);
        assert_eq!(warps_per_block(Variant::Skinny128_128, h200), LAB_MAX_WARPS);
        assert_eq!(warps_per_block(Variant::Skinny64_192, h200), LAB_MAX_WARPS);
        // Never none, even where one warp's region is more than the limit.
        assert_eq!(warps_per_block(Variant::Skinny128_384, 1024), 1);
        for v in Variant::ALL {
            assert!(shared_bytes(v) * warps_per_block(v, h200) as usize <= h200, "{v}");
        }
    }
}
