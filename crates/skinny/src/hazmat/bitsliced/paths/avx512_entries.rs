//! The AVX-512 path's entry points for per-block tweakeys and lockstep groups:
//! each compiled with AVX-512F in a frame of its own (a child of `avx512`, so
//! it reaches the private word type).

use super::{detected, Avx512Word};
use crate::hazmat::bitsliced::batch::Direction;
use crate::hazmat::bitsliced::keys::SlicedTweakeys;
use crate::hazmat::bitsliced::per_block::{
    crypt_blocks_for, crypt_blocks_in as crypt_per_block_keyed, crypt_blocks_lfsr, BlockKeys, FixedKeys, PerBlockWord,
    Tks,
};
use crate::hazmat::bitsliced::round::State;
use crate::spec::CellWidth;

impl PerBlockWord for Avx512Word {
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn crypt_blocks_keyed<const BITS: usize, const Z: usize, G: FixedKeys<Self>>(
        rounds: usize,
        dir: Direction,
        data: &mut [u8],
        tweakeys: &[u8],
        fixed: &G,
        a: &mut State<Self>,
        b: &mut State<Self>,
        tks: &mut Tks<Self, Z>,
        halves: &mut [[Self; 64]; 2],
    ) {
        // SAFETY: only `crypt_blocks_for::<Self>` calls this, and only from
        // `crypt_per_block`, after AVX-512F was detected.
        unsafe { per_block_keyed_avx512::<BITS, Z, G>(rounds, dir, data, tweakeys, fixed, a, b, tks, halves) }
    }
    #[inline(always)]
    fn crypt_blocks_counted(
        shared: &SlicedTweakeys,
        rounds: usize,
        dir: Direction,
        data: &mut [u8],
        start: u64,
        bits: u32,
    ) {
        // SAFETY: as above.
        unsafe { per_block_counted_avx512(shared, rounds, dir, data, start, bits) }
    }
}

/// One per-block keying's batches compiled with AVX512, a frame of its own.
#[target_feature(enable = "avx512f")]
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn per_block_keyed_avx512<const BITS: usize, const Z: usize, G: FixedKeys<Avx512Word>>(
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    tweakeys: &[u8],
    fixed: &G,
    a: &mut State<Avx512Word>,
    b: &mut State<Avx512Word>,
    tks: &mut Tks<Avx512Word, Z>,
    halves: &mut [[Avx512Word; 64]; 2],
) {
    crypt_per_block_keyed::<Avx512Word, BITS, Z, G>(rounds, dir, data, tweakeys, fixed, [a, b], tks, halves);
}

/// The LFSR-counter batches compiled with AVX512, a frame of their own.
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn per_block_counted_avx512(
    shared: &SlicedTweakeys,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    start: u64,
    bits: u32,
) {
    crypt_blocks_lfsr::<Avx512Word>(shared, rounds, dir, data, start, bits);
}

/// Per-block tweakeys (see `bitsliced::per_block`) with every Avx512Word operation
/// compiled to AVX-512 instructions.
#[target_feature(enable = "avx512f")]
fn crypt_per_block_with_avx512(width: CellWidth, rounds: usize, dir: Direction, data: &mut [u8], keys: BlockKeys<'_>) {
    crypt_blocks_for::<Avx512Word>(width, rounds, dir, data, keys);
}

/// Encrypts or decrypts whole blocks in place with per-block tweakeys, 512 at a
/// time. Returns false, touching nothing, when this CPU has no AVX-512F.
pub(crate) fn crypt_per_block(
    width: CellWidth,
    rounds: usize,
    dir: Direction,
    data: &mut [u8],
    keys: BlockKeys<'_>,
) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `crypt_per_block_with_avx512` needs AVX-512F, which `detected` just confirmed.
    unsafe { crypt_per_block_with_avx512(width, rounds, dir, data, keys) };
    true
}

/// A lockstep operation (see `bitsliced::lockstep`) with every Avx512Word
/// operation compiled to AVX-512F instructions.
#[target_feature(enable = "avx512f")]
fn lockstep_with_avx512(op: crate::hazmat::bitsliced::lockstep::engine::Op<'_>) {
    crate::hazmat::bitsliced::lockstep::engine::run::<Avx512Word>(op);
}

/// Runs a lockstep operation. Returns false, touching nothing, when this CPU
/// has no AVX-512F.
pub(crate) fn lockstep(op: crate::hazmat::bitsliced::lockstep::engine::Op<'_>) -> bool {
    if !detected() {
        return false;
    }
    // SAFETY: `lockstep_with_avx512` needs AVX-512F, which `detected` just confirmed.
    unsafe { lockstep_with_avx512(op) };
    true
}
