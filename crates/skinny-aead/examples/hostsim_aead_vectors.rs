//! Writes cases for the AEAD kernels' host simulator (`hostsim/aead.cpp` of
//! `skinny-cuda`, run by scripts/kernels/hostsim.sh): the masks and counter tables
//! exactly as `skinny_aead::gpu` builds them (`gpu::inputs`), random blocks,
//! and the expected outputs and sums computed block by block with the
//! specification code (each block's whole tweakey assembled from its counter).
//! `cargo run --release --example hostsim_aead_vectors -p skinny-aead --features cuda -- FILE`

use skinny::{Skinny, Variant};
use skinny_aead::gpu::inputs::{chunk_counters, chunk_key_bits, lfsr_advance, power_table, AeadCounter, WARP_BLOCKS};
use skinny_cuda::constants::{bitsliced_masks, bitsliced_masks_reversed};
use std::fmt::Write as _;

/// splitmix64, for reproducible cases.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn words(out: &mut String, tag: &str, w: impl IntoIterator<Item = u32>) {
    let w: Vec<u32> = w.into_iter().collect();
    write!(out, "{tag} {}", w.len()).unwrap();
    for x in w {
        write!(out, " {x:x}").unwrap();
    }
    out.push('\n');
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: hostsim_aead_vectors FILE");
    let mut rng = Rng(0xae4d);
    let mut out = String::new();
    for counter in [AeadCounter::Lfsr64, AeadCounter::Lfsr24] {
        let (bits, v): (u32, Variant) = (counter.bits(), counter.variant());
        let x1024 = lfsr_advance(bits, 1, 1024);
        let x262144 = lfsr_advance(bits, 1, 1024 * 256);
        let table = |step: u64| power_table(bits, step);
        for (op, n) in [(0, 1u64), (0, 33), (1, 33), (2, 33), (0, 1024), (1, 1025), (2, 1500), (0, 2100), (1, 2100)] {
            let tweakey = rng.bytes(v.tweakey_bytes());
            let mask = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
            let start = (rng.next() & mask).max(1);
            let mut shared = tweakey.clone();
            shared[..counter.counter_bytes()].fill(0);
            let cipher = Skinny::new(v, &shared).expect("length");
            let input = rng.bytes(n as usize * 16);
            let mut output = vec![0u8; input.len()];
            let mut sum = [0u8; 16];
            for (g, (i, o)) in input.chunks_exact(16).zip(output.chunks_exact_mut(16)).enumerate() {
                let mut tk = shared.clone();
                let c = lfsr_advance(bits, start, g as u64);
                tk[..counter.counter_bytes()].copy_from_slice(&c.to_le_bytes()[..counter.counter_bytes()]);
                let block_cipher = Skinny::new(v, &tk).expect("length");
                o.copy_from_slice(i);
                if op == 1 {
                    block_cipher.decrypt_block(o);
                } else {
                    block_cipher.encrypt_block(o);
                }
                let summed: &[u8] = match op {
                    0 => i,
                    _ => o,
                };
                for (s, b) in sum.iter_mut().zip(summed) {
                    *s ^= b;
                }
            }
            if op == 2 {
                output.fill(0);
            }
            writeln!(out, "case {bits} {op} {} {n} {start:x}", v.rounds()).unwrap();
            words(&mut out, "masks", bitsliced_masks(&cipher).words.iter().copied());
            words(&mut out, "masks_rev", bitsliced_masks_reversed(&cipher).words.iter().copied());
            words(&mut out, "pow_lo", table(x1024).iter().flat_map(|&x| [x as u32, (x >> 32) as u32]));
            words(&mut out, "pow_hi", table(x262144).iter().flat_map(|&x| [x as u32, (x >> 32) as u32]));
            let le =
                |b: &[u8]| b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>();
            words(&mut out, "input", le(&input));
            words(&mut out, "output", le(&output));
            words(&mut out, "sum", le(&sum));
        }
    }
    chunk_cases(&mut rng, &mut out);
    std::fs::write(&path, out).expect("writing the cases");
}

/// Cases of the chunk kernels (many messages a launch): chunks of 2^14 and
/// 2^15 bytes, each with its own random tweakey (as each sealed chunk has its
/// own nonce), the counters restarting at the mode's start (1) in every chunk,
/// a short last chunk (whole blocks only reach the kernel), one sum a chunk.
/// Expected values block by block with the specification code.
fn chunk_cases(rng: &mut Rng, out: &mut String) {
    let u64_words = |v: &[u64]| v.iter().flat_map(|&x| [x as u32, (x >> 32) as u32]).collect::<Vec<u32>>();
    let le = |b: &[u8]| b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>();
    for counter in [AeadCounter::Lfsr64, AeadCounter::Lfsr24] {
        let (bits, v): (u32, Variant) = (counter.bits(), counter.variant());
        // (op: 0 encrypt, 1 decrypt; chunk_log2; chunks; whole blocks in the last chunk)
        for (op, chunk_log2, nchunks, last_blocks) in [
            (0, 14u32, 3usize, 1024u64),
            (1, 14, 3, 1024),
            (0, 14, 4, 517),
            (1, 15, 3, 1),
            (0, 15, 2, 2047),
            (1, 14, 1, 0),
            (0, 16, 2, 3000),
            (1, 16, 3, 4096),
        ] {
            let chunk_blocks = 1u64 << (chunk_log2 - 4);
            let n = (nchunks as u64 - 1) * chunk_blocks + last_blocks;
            let input = rng.bytes(n as usize * 16);
            let mut output = vec![0u8; input.len()];
            let mut key_bits = vec![0u64; nchunks * v.rounds()];
            let mut sums = vec![0u8; nchunks * 16];
            for c in 0..nchunks {
                let mut shared = rng.bytes(v.tweakey_bytes());
                shared[..counter.counter_bytes()].fill(0);
                let cipher = Skinny::new(v, &shared).expect("length");
                chunk_key_bits(&cipher, &mut key_bits[c * v.rounds()..]);
                let first = c as u64 * chunk_blocks;
                for g in first..n.min(first + chunk_blocks) {
                    let (i, o) = (&input[g as usize * 16..][..16], &mut output[g as usize * 16..][..16]);
                    let mut tk = shared.clone();
                    let ctr = lfsr_advance(bits, 1, g - first);
                    tk[..counter.counter_bytes()].copy_from_slice(&ctr.to_le_bytes()[..counter.counter_bytes()]);
                    let block_cipher = Skinny::new(v, &tk).expect("length");
                    o.copy_from_slice(i);
                    if op == 1 {
                        block_cipher.decrypt_block(o);
                    } else {
                        block_cipher.encrypt_block(o);
                    }
                    let summed: &[u8] = if op == 0 { i } else { o };
                    for (s, b) in sums[c * 16..][..16].iter_mut().zip(summed) {
                        *s ^= b;
                    }
                }
            }
            writeln!(out, "chunks {bits} {op} {} {chunk_log2} {nchunks} {n}", v.rounds()).unwrap();
            words(out, "key_bits", u64_words(&key_bits));
            let warps = (1usize << chunk_log2) / (16 * WARP_BLOCKS as usize);
            words(out, "counters", u64_words(&chunk_counters(bits, 1, warps)));
            words(out, "input", le(&input));
            words(out, "output", le(&output));
            words(out, "sums", le(&sums));
        }
    }
}
