//! Samples per second of the neural-pairs kernels on a GPU (the target: 10^9
//! pairs a second for 7-round SKINNY-64-64 on an H200; a sample is two
//! 7-round encryptions, each under its own tweakey), into device memory, and
//! a check of the first samples against the CPU's. Also the kernels'
//! registers and spills.
//!
//! `cargo run --release -p skinny-lab --features cuda --example pairs_speed -- [LOG2_SAMPLES]`

use skinny::Variant;
use skinny_lab::gpu::PairsKernel;
use skinny_lab::pairs::{Negatives, NeuralPairs};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let gpu = match skinny_cuda::Gpu::open(0) {
        Ok(g) => Arc::new(g),
        Err(e) => {
            println!("no GPU: {e}");
            return;
        }
    };
    println!("{}", gpu.describe());
    for (v, rounds) in [(Variant::Skinny64_64, 7), (Variant::Skinny64_192, 7), (Variant::Skinny128_128, 7)] {
        for negatives in [Negatives::RandomCiphertexts, Negatives::RandomPlaintexts] {
            let mut diff = vec![0u8; v.block_bytes()];
            diff[7] = 0x40;
            let set = NeuralPairs::new(v, rounds, &diff, &vec![0; v.tweakey_bytes()], 1, negatives).expect("valid");
            let mut kernel = PairsKernel::new(&gpu, &set).expect("the pairs kernel loads");
            // A buffer of 2^26 samples refilled (the work is per sample, the
            // memory is the caller's).
            let chunk = 1usize << 26;
            let stream = kernel.stream().clone();
            let mut x = stream.alloc_zeros::<u8>(chunk * set.row_bytes()).expect("device memory");
            let mut y = stream.alloc_zeros::<u8>(chunk).expect("device memory");
            kernel.fill(0, &mut x, &mut y).expect("warm-up");
            // The first samples against the CPU's.
            let (hx, hy) = (stream.clone_dtoh(&x).expect("copy"), stream.clone_dtoh(&y).expect("copy"));
            let check = 1 << 16;
            let (mut cx, mut cy) = (vec![0u8; check * set.row_bytes()], vec![0u8; check]);
            set.fill(0, &mut cx, &mut cy);
            let same = hx[..cx.len()] == cx[..] && hy[..check] == cy[..];
            let total = 1u64 << log2;
            let t = Instant::now();
            let mut first = 0u64;
            while first < total {
                kernel.fill(first, &mut x, &mut y).expect("a fill");
                first += chunk as u64;
            }
            let s = t.elapsed().as_secs_f64();
            let (regs, spill) = kernel.kernel_resources().unwrap_or((-1, -1));
            println!(
                "{v} {rounds} rounds {:<18} {:.3e} pairs/s ({:.3e} encryptions/s)  regs {regs} spill {spill} B  first {check} equal to the CPU's: {same}",
                format!("{negatives:?}"),
                first as f64 / s,
                2.0 * first as f64 / s
            );
        }
    }
}
