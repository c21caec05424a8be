//! The lab's experiments on the GPU: differential and boomerang queries on
//! reduced-round SKINNY, each query with its own plaintext and tweakey drawn
//! on the device from the counter-based generator (`kernels/lab.cu`).
//!
//! This module knows the kernels' data layout and builds their tables; the
//! experiment itself (seeds, shards, statistics, right pairs) is the
//! `skinny-lab` crate's, which gives the generator's seeded stream states.
//!
//! The tweakey schedule in the kernels moves no data: a thread's 32 tweakeys
//! sit bitsliced in shared memory, word `u·32 + p` holding bit `p` of 32-bit
//! word `u` of every one of them; the cell permutation and the LFSRs' shifts
//! are renamings, tracked here ([`ScheduleTables`]); only the LFSRs' one XOR per
//! cell is done on the device, in place.

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

/// The tweakey schedule's renamings repeat after this many rounds (the cell
/// permutation has order 16 and every cell takes 8 LFSR steps in 16 rounds,
/// a whole turn of an 8-bit and two of a 4-bit LFSR); a test checks it.
const PERIOD: usize = 16;

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

/// Where the kernels find each tweakey bit, round by round (shared-memory word
/// indices, not yet scaled to bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleTables {
    /// Per round: for each TK array `z` and each `8·c + ... ` index `c·CB + i`
    /// (cell `c` of rows 0 and 1, bit `i`), the word holding it.
    pub ark: Vec<[[u32; 64]; 3]>,
    /// Per round: the LFSR updates after it, `(a, b)` meaning word a ^= word b.
    pub lfsr: Vec<Vec<(u32, u32)>>,
}

impl ScheduleTables {
    /// Follows the schedule of `variant` for `rounds` rounds.
    // Index loops over TK arrays, cells and bits read like the specification.
    #[allow(clippy::needless_range_loop)]
    pub fn new(variant: Variant, rounds: usize) -> Self {
        let width = variant.cell_width();
        let cb = match width {
            CellWidth::Byte => 8,
            CellWidth::Nibble => 4,
        };
        let nw = variant.block_bytes() / 4;
        let z_count = variant.tk_count();
        let mut ark = vec![[[0u32; 64]; 3]; rounds];
        let mut lfsr = vec![Vec::new(); rounds];
        for z in 0..z_count {
            // at[pos]: the original cell now at position pos; off[cell]: how far
            // its logical bits have turned within its CB words.
            let mut at: [usize; 16] = core::array::from_fn(|i| i);
            let mut off = [0usize; 16];
            let word = |cell: usize, bit: usize, off: &[usize; 16]| {
                (z * nw * 32 + reg_of(width, cell, (bit + off[cell]) % cb)) as u32
            };
            for r in 0..rounds {
                for c in 0..8 {
                    for i in 0..cb {
                        ark[r][z][c * cb + i] = word(at[c], i, &off);
                    }
                }
                let before = at;
                for (i, a) in at.iter_mut().enumerate() {
                    *a = before[PT[i]];
                }
                for &x in &at[..8] {
                    match z {
                        // TK2: bits move up one, the new bit 0 (x_top ^ x_{top-2} for
                        // 8-bit cells: x7 ^ x5; 4-bit: x3 ^ x2) takes the top bit's word.
                        1 => {
                            let (top, tap) = if cb == 8 { (7, 5) } else { (3, 2) };
                            lfsr[r].push((word(x, top, &off), word(x, tap, &off)));
                            off[x] = (off[x] + cb - 1) % cb;
                        }
                        // TK3: bits move down one, the new top bit (x0 ^ x6; 4-bit:
                        // x0 ^ x3) takes bit 0's word.
                        2 => {
                            let tap = if cb == 8 { 6 } else { 3 };
                            lfsr[r].push((word(x, 0, &off), word(x, tap, &off)));
                            off[x] = (off[x] + 1) % cb;
                        }
                        _ => {}
                    }
                }
            }
        }
        Self { ark, lfsr }
    }

    /// The words set in the schedule state after `rounds` updates of the
    /// tweakey `d` (a difference), as the kernels lay it out.
    pub fn scheduled_words(&self, d: &[u8], rounds: usize) -> Vec<u32> {
        let mut bits = tweakey_bits(d);
        for step in &self.lfsr[..rounds] {
            for &(a, b) in step {
                bits[a as usize] ^= bits[b as usize];
            }
        }
        bits.iter().enumerate().filter(|(_, &b)| b).map(|(w, _)| w as u32).collect()
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
    let stride = LAB_THREADS * 4;
    let tables = ScheduleTables::new(v, PERIOD.max(setup.rounds));
    let mut ark = vec![0u32; PERIOD * 3 * 64];
    let mut lfsr = vec![0u32; PERIOD * 16 * 2];
    for r in 0..PERIOD {
        for z in 0..3 {
            for ci in 0..64 {
                ark[(r * 3 + z) * 64 + ci] = tables.ark[r][z][ci] * stride;
            }
        }
        for (i, &(a, b)) in tables.lfsr[r].iter().enumerate() {
            lfsr[(r * 16 + i) * 2] = a * stride;
            lfsr[(r * 16 + i) * 2 + 1] = b * stride;
        }
    }
    let mut rc = vec![0u32; MAX_ROUNDS * 6];
    for (r, c) in ROUND_CONSTANTS.iter().take(MAX_ROUNDS).enumerate() {
        for b in 0..6 {
            rc[r * 6 + b] = 0u32.wrapping_sub(u32::from((c >> b) & 1));
        }
    }
    let list = |words: Vec<u32>| {
        let mut l = vec![words.len() as u32];
        l.extend(words.iter().map(|w| w * stride));
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
        symbol("lab_ark", ark),
        symbol("lab_lfsr", lfsr),
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

    /// The tables' renamings give, round by round, the specification's round
    /// tweakeys: bit by bit, for random tweakeys of every variant.
    #[test]
    fn tables_follow_the_specification_schedule() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for v in Variant::ALL {
            let rounds = v.rounds();
            let tables = ScheduleTables::new(v, rounds);
            let tk: Vec<u8> = (0..v.tweakey_bytes())
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
                .collect();
            let mut bits = tweakey_bits(&tk);
            let cells = |z: usize| skinny::hazmat::spec::tweakey::load_tk(v.cell_width(), &tk, z);
            let mut spec: Vec<[u8; 16]> = (0..v.tk_count()).map(cells).collect();
            let cb = if v.cell_width() == CellWidth::Byte { 8 } else { 4 };
            for r in 0..rounds {
                for (z, arr) in spec.iter().enumerate() {
                    for c in 0..8 {
                        for i in 0..cb {
                            let want = (arr[c] >> i) & 1 == 1;
                            assert_eq!(
                                bits[tables.ark[r][z][c * cb + i] as usize],
                                want,
                                "{v} round {r} TK{z} cell {c} bit {i}"
                            );
                        }
                    }
                }
                for &(a, b) in &tables.lfsr[r] {
                    bits[a as usize] ^= bits[b as usize];
                }
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
        }
    }

    /// The kernels keep 16 rounds of tables and index them by `r % 16`.
    #[test]
    fn tables_repeat_every_16_rounds() {
        for v in Variant::ALL {
            let t = ScheduleTables::new(v, MAX_ROUNDS);
            for r in PERIOD..MAX_ROUNDS {
                assert_eq!(t.ark[r], t.ark[r - PERIOD], "{v} ark round {r}");
                assert_eq!(t.lfsr[r], t.lfsr[r - PERIOD], "{v} lfsr round {r}");
            }
            assert_eq!(t.lfsr[0].len(), 8 * (v.tk_count() - 1));
        }
    }

    #[test]
    fn undoing_the_updates_restores_the_tweakey() {
        let v = Variant::Skinny128_384;
        let t = ScheduleTables::new(v, 20);
        let d: Vec<u8> = (0..48u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
        let mut bits = tweakey_bits(&d);
        for step in &t.lfsr {
            for &(a, b) in step {
                bits[a as usize] ^= bits[b as usize];
            }
        }
        for step in t.lfsr.iter().rev() {
            for &(a, b) in step.iter().rev() {
                bits[a as usize] ^= bits[b as usize];
            }
        }
        assert_eq!(bits, tweakey_bits(&d));
        assert_eq!(t.scheduled_words(&d, 0).len(), tweakey_bits(&d).iter().filter(|b| **b).count());
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
        let sizes = [16 * 3 * 64, 16 * 16 * 2, MAX_ROUNDS * 6, 128, 128, 128, 128, 385, 385];
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
