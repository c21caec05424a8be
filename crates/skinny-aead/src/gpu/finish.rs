//! The CPU's part of a message whose whole blocks the GPU ran: the counter
//! after them, the tweakey the kernels' masks are made from, and the end of
//! the message (its partial block, the tag block, the AD), by the mode's own
//! code. Shared by [`GpuAead`](super::GpuAead) and [`GpuChunks`](super::GpuChunks).

use super::inputs::lfsr_advance;
use crate::engine::bitsliced::BitslicedEngine;
use crate::engine::single::SingleEngine;
use crate::engine::BlockEngine;
use crate::member::Member;
use crate::mode::{self, finish_message, xor_into};
use crate::tweakey::{Lfsr, BLOCK};
use skinny::hazmat::bitsliced::Direction;
use std::vec::Vec;
use zeroize::Zeroizing;

/// The mode's counter after `steps` blocks from its start (the GPU ran them).
pub(crate) fn counter_after(m: Member, steps: u64) -> Lfsr {
    let layout = m.layout();
    Lfsr::at(layout, lfsr_advance(layout.counter_bits(), Lfsr::new(layout).value(), steps))
}

/// The tweakey a run of blocks in `domain` shares (the counter cells zero):
/// what the kernels' masks are made from.
pub(crate) fn run_tweakey(m: Member, key: &[u8; 16], nonce: &[u8], domain: u8) -> Zeroizing<Vec<u8>> {
    let layout = m.layout();
    let mut tk = Zeroizing::new(layout.base_tweakey(key, nonce).to_vec());
    tk.truncate(layout.variant().tweakey_bytes());
    let mut counter = Lfsr::new(layout);
    layout.set_tweak(&mut tk, m.tweak(&mut counter, domain));
    tk[..layout.counter_bits() as usize / 8].fill(0);
    tk
}

/// AD shorter than this goes block by block through the single-block engine
/// (as the bitsliced engine sends runs under 1/16 of a batch).
const SHORT_AD_BYTES: usize = 16 * BLOCK;

/// The tag block of a message whose whole blocks the GPU ran (`gpu_part`:
/// how many, and their checksum), its AD short enough for the CPU: the partial
/// last block `last` (input to output in place, `dir`), the tag block, the
/// AD's part.
pub(crate) fn finish_on_cpu(
    m: Member,
    key: &[u8; 16],
    nonce: &[u8],
    ad: &[u8],
    gpu_part: (u64, &[u8; BLOCK]),
    last: &mut [u8],
    dir: Direction,
) -> Zeroizing<[u8; BLOCK]> {
    // A sealed file's chunk has a short AD (24 or 32 bytes): with the partial
    // block and the tag, about four blocks, which the bitsliced engine hands to the
    // single-block engine anyway. Building that engine (its per-domain ciphers
    // make it a struct of about 86 KB) for each chunk cost more than the
    // blocks (the GPU engine in memory fell from 4.8 to 3.6 GB/s on the H200).
    if ad.len() < SHORT_AD_BYTES {
        finish_with(m, &SingleEngine::new(m.layout(), key, nonce), ad, gpu_part, last, dir)
    } else {
        finish_with(m, &BitslicedEngine::new(m.layout(), key, nonce), ad, gpu_part, last, dir)
    }
}

fn finish_with<E: BlockEngine>(
    m: Member,
    engine: &E,
    ad: &[u8],
    gpu_part: (u64, &[u8; BLOCK]),
    last: &mut [u8],
    dir: Direction,
) -> Zeroizing<[u8; BLOCK]> {
    let (blocks, sum) = gpu_part;
    let mut counter = counter_after(m, blocks);
    let mut sum = Zeroizing::new(*sum);
    let mut tag = Zeroizing::new(finish_message(m, engine, &mut counter, &mut sum, last, dir));
    xor_into(&mut tag, &mode::authenticate(m, engine, ad));
    tag
}
