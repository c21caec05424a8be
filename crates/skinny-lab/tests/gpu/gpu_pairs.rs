//! Neural-distinguisher data made on the GPU against the CPU's definition
//! (`skinny_lab::pairs`): every variant, both kinds of negatives, a tweakey
//! difference, a start off zero, a count that is not a multiple of a launch's
//! batches, and more samples than one launch takes. Byte for byte.
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use skinny::Variant;
use skinny_lab::gpu::{PairsKernel, LAUNCH_SAMPLES};
use skinny_lab::pairs::{Negatives, NeuralPairs};
use std::sync::Arc;

fn gpu() -> Arc<skinny_cuda::Gpu> {
    skinny_test_support::gpu::open(skinny_cuda::Gpu::first)
}

fn check(g: &Arc<skinny_cuda::Gpu>, set: &NeuralPairs, first: u64, n: usize) {
    let mut kernel = PairsKernel::new(g, set).expect("the pairs kernel loads");
    let stream = kernel.stream().clone();
    let mut x = stream.alloc_zeros::<u8>(n * set.row_bytes()).expect("device memory");
    let mut y = stream.alloc_zeros::<u8>(n).expect("device memory");
    kernel.fill(first, &mut x, &mut y).expect("a fill");
    let (gx, gy) = (stream.clone_dtoh(&x).expect("copy"), stream.clone_dtoh(&y).expect("copy"));
    let (mut cx, mut cy) = (vec![0u8; n * set.row_bytes()], vec![0u8; n]);
    set.fill(first, &mut cx, &mut cy);
    assert!(gy == cy, "{} labels differ", set.variant());
    let row = set.row_bytes();
    if let Some(i) = (0..n).find(|&i| gx[i * row..(i + 1) * row] != cx[i * row..(i + 1) * row]) {
        panic!("{} {:?}: sample {} differs", set.variant(), set.negatives(), first + i as u64);
    }
}

fn pairs_match_the_cpu() {
    let g = gpu();
    for (k, v) in Variant::ALL.into_iter().enumerate() {
        for negatives in [Negatives::RandomCiphertexts, Negatives::RandomPlaintexts] {
            for rounds in [1, 7, v.rounds()] {
                let mut diff = vec![0u8; v.block_bytes()];
                diff[k % v.block_bytes()] = 0x21;
                let mut key_diff = vec![0u8; v.tweakey_bytes()];
                key_diff[(5 * k) % v.tweakey_bytes()] = 0x08;
                let set = NeuralPairs::new(v, rounds, &diff, &key_diff, 77 + k as u64, negatives).unwrap();
                check(&g, &set, 12_345, 100_003);
            }
        }
    }
}

fn more_samples_than_a_launch() {
    let g = gpu();
    let v = Variant::Skinny64_64;
    let set = NeuralPairs::new(v, 7, &[0, 0, 0, 0, 0, 0, 0, 0x40], &[0; 8], 1, Negatives::RandomCiphertexts).unwrap();
    check(&g, &set, 3, LAUNCH_SAMPLES as usize + 1000);
}

skinny_test_support::gpu_test_group! {
    probe: skinny_cuda::Gpu::first,
    gpu: [pairs_match_the_cpu, more_samples_than_a_launch],
}
