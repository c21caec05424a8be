//! Writes data sets for the host-side simulator of the neural-pairs kernels
//! (`hostsim/pairs.cpp`, run by `scripts/kernels/hostsim.sh`): each with the
//! kernels' `__constant__` tables, the generator's stream states and the
//! samples the CPU makes ([`NeuralPairs::fill`]), which the kernels' C++ must
//! reproduce byte for byte. No GPU needed.
//!
//! `cargo run -p skinny-lab --features cuda --example hostsim_pairs_vectors -- OUT_FILE`

use skinny::Variant;
use skinny_lab::gpu::pairs_constants;
use skinny_lab::pairs::{Negatives, NeuralPairs};
use std::fmt::Write as _;

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: hostsim_pairs_vectors OUT_FILE");
    let mut out = String::new();
    // A partial last batch (count not a multiple of 32) and a start off 0.
    let (first, count) = (1000u64, 1000usize);
    for (k, v) in Variant::ALL.iter().copied().enumerate() {
        for negatives in [Negatives::RandomCiphertexts, Negatives::RandomPlaintexts] {
            for rounds in [1, 7, v.rounds()] {
                let mut diff = vec![0u8; v.block_bytes()];
                diff[k % v.block_bytes()] = 0x21;
                let mut key_diff = vec![0u8; v.tweakey_bytes()];
                if k % 2 == 1 {
                    key_diff[(3 * k) % v.tweakey_bytes()] = 0x80;
                }
                let seed = 0x5eed + k as u64 * 77 + rounds as u64;
                let set = NeuralPairs::new(v, rounds, &diff, &key_diff, seed, negatives).expect("valid");
                let mut x = vec![0u8; count * set.row_bytes()];
                let mut y = vec![0u8; count];
                set.fill(first, &mut x, &mut y);
                let neg = if negatives == Negatives::RandomPlaintexts { 1 } else { 0 };
                let _ = writeln!(out, "pairs {v} {} {} {rounds} {neg} {first} {count}", v.block_bytes(), v.tk_count());
                let states: Vec<String> = set.stream_states().iter().map(|s| s.to_string()).collect();
                let _ = writeln!(out, "states {}", states.join(" "));
                for s in pairs_constants(&set).expect("valid") {
                    let words: Vec<String> = s.words.iter().map(|w| format!("{w:x}")).collect();
                    let _ = writeln!(out, "sym {} {} {}", s.name, words.len(), words.join(" "));
                }
                let _ = writeln!(out, "y {}", hex(&y));
                let _ = writeln!(out, "x {}", hex(&x));
            }
        }
    }
    std::fs::write(&path, out).expect("writing the vectors");
}
