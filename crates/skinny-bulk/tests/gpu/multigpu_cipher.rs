//! Several GPUs through the raw modes' GPU host code (`skinny_bulk::gpu`):
//! work striped over a set ([`MultiGpuCipher`]) against one GPU and the
//! modes written out from their definitions, on random keys, IVs and data, odd
//! lengths, CTR counters that carry across stripes, CBC and CFB decryption
//! chaining across stripes, pageable and page-locked memory, and device-resident
//! work on each GPU of a set. (The `gpu` backend over several GPUs is checked
//! in `multigpu.rs`, the set opened through the probe in skinny-cuda's tests.)
//!
//! The striping is checked on a machine with one GPU too: a set may list a GPU
//! more than once (each entry its own cipher, streams and buffers), so the
//! sets here are every GPU plus GPU 0 again (at least two entries).
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use rand::{Rng, RngCore};
use skinny::Variant;
use skinny_bulk::gpu::{GpuCipher, HostPath, KernelKind, MultiGpuCipher, Op};
use skinny_cuda::{Gpu, GpuSet};
use skinny_test_support::gpu::open;
use skinny_test_support::rng::{random_bytes, random_cipher};
use std::sync::Arc;
use support::reference;

use crate::support;

/// Every GPU.
fn all_gpus() -> Vec<Arc<Gpu>> {
    open(GpuSet::all).gpus().to_vec()
}

/// Every GPU and GPU 0 again: at least two stripes on any machine.
fn striping_set(gpus: &[Arc<Gpu>]) -> GpuSet {
    let mut list = gpus.to_vec();
    list.push(gpus[0].clone());
    GpuSet::from_gpus(list).unwrap()
}

/// An IV; for CTR every other one near the top, so the carry crosses stripes.
fn iv_for(rng: &mut impl RngCore, op: Op, bs: usize, near_top: bool) -> Vec<u8> {
    match op {
        Op::EcbEncrypt | Op::EcbDecrypt => Vec::new(),
        Op::Ctr if near_top => {
            let mut iv = vec![0xff; bs];
            iv[bs - 1] = 0xf0;
            iv
        }
        _ => random_bytes(rng, bs),
    }
}

fn striped_runs_match_one_gpu_and_the_textbook_modes() {
    let gpus = all_gpus();
    let set = striping_set(&gpus);
    let mut rng = rand::rng();
    for kind in [KernelKind::Bitsliced, KernelKind::Paper] {
        for v in Variant::ALL.into_iter().filter(|&v| kind.supports(v)) {
            let c = random_cipher(&mut rng, v);
            let bs = v.block_bytes();
            let mut multi = MultiGpuCipher::new(&set, kind, &c).unwrap();
            assert_eq!(multi.len(), gpus.len() + 1);
            // Small stripes and pieces: many boundaries in little data.
            multi.set_min_stripe_bytes(bs);
            multi.set_piece_bytes(4096);
            let mut one = GpuCipher::new(&gpus[0], kind, &c).unwrap();
            for len in [bs, 2 * bs, 3 * bs + 1, 1000 * bs + 7, 65_536 + 3, 777_777, (3 << 20) + 2 * bs] {
                let data = random_bytes(&mut rng, len);
                for (k, op) in Op::ALL.into_iter().enumerate() {
                    if !multi.has_kernel(op) {
                        continue;
                    }
                    // Whole blocks except for CTR.
                    let data = if op == Op::Ctr { &data[..] } else { &data[..len / bs * bs] };
                    let iv = iv_for(&mut rng, op, bs, k % 2 == 0);
                    let want = reference(&c, op, &iv, data);
                    let mut got = data.to_vec();
                    multi.run(op, &iv, &mut got).unwrap();
                    assert!(got == want, "{kind:?} {v} {op:?} {} bytes striped differs from the textbook", data.len());
                    let mut single = data.to_vec();
                    one.run(op, &iv, &mut single).unwrap();
                    assert!(single == got, "{kind:?} {v} {op:?} {} bytes: one GPU differs from striped", data.len());
                }
            }
        }
    }
}

fn large_striped_runs_match_one_gpu_pageable_and_page_locked() {
    let gpus = all_gpus();
    let mut rng = rand::rng();
    let v = Variant::Skinny128_256;
    let c = random_cipher(&mut rng, v);
    let set = if gpus.len() > 1 { GpuSet::from_gpus(gpus.clone()).unwrap() } else { striping_set(&gpus) };
    let mut multi = MultiGpuCipher::new(&set, KernelKind::Bitsliced, &c).unwrap();
    let mut one = GpuCipher::new(&gpus[0], KernelKind::Bitsliced, &c).unwrap();
    // The reference through the staged path (Auto takes the keystream path for CTR).
    one.set_host_path(HostPath::Staged);
    // Long enough for the default stripes (every GPU) and the staged pipeline.
    let len = 96 * (1 << 20) + 16 * rng.random_range(1..1000usize) + 5;
    let data = random_bytes(&mut rng, len);
    let mut locked = gpus[0].alloc_host(len).unwrap();
    for op in Op::ALL {
        let data = if op == Op::Ctr { &data[..] } else { &data[..len / 16 * 16] };
        let iv = iv_for(&mut rng, op, 16, true);
        let mut want = data.to_vec();
        one.run(op, &iv, &mut want).unwrap();
        for path in [HostPath::Auto, HostPath::Staged, HostPath::Registered, HostPath::Keystream, HostPath::Direct] {
            multi.set_host_path(path);
            let mut got = data.to_vec();
            multi.run(op, &iv, &mut got).unwrap();
            assert!(got == want, "{op:?} {path:?} {} bytes: striped differs from one GPU", data.len());
        }
        // Page-locked (portable) memory of GPU 0, copied straight to every GPU.
        multi.set_host_path(HostPath::Auto);
        let buf = &mut locked.as_mut_slice().unwrap()[..data.len()];
        buf.copy_from_slice(data);
        multi.run(op, &iv, buf).unwrap();
        assert!(buf[..] == want[..], "{op:?} page-locked {} bytes: striped differs from one GPU", data.len());
    }
}

fn device_resident_work_runs_on_each_gpu_of_a_set() {
    let gpus = all_gpus();
    let mut rng = rand::rng();
    let c = random_cipher(&mut rng, Variant::Skinny128_256);
    let set = GpuSet::from_gpus(gpus.clone()).unwrap();
    let multi = MultiGpuCipher::new(&set, KernelKind::Bitsliced, &c).unwrap();
    let n = 1000usize;
    let data = random_bytes(&mut rng, n * 16);
    let want = reference(&c, Op::EcbEncrypt, &[], &data);
    for (i, g) in multi.ciphers().iter().enumerate() {
        let stream = g.gpu().new_stream().unwrap();
        let input = stream.clone_htod(&data).unwrap();
        let mut output = stream.alloc_zeros::<u8>(data.len()).unwrap();
        g.run_device(Op::EcbEncrypt, &[], &input, &mut output, n as u64, Some(&stream)).unwrap();
        let got = stream.clone_dtoh(&output).unwrap();
        assert!(got == want, "GPU entry {i} (ordinal {}) differs from the textbook modes", g.gpu().ordinal());
    }
}

skinny_test_support::gpu_test_group! {
    probe: GpuSet::probe,
    gpu: [striped_runs_match_one_gpu_and_the_textbook_modes, large_striped_runs_match_one_gpu_pageable_and_page_locked, device_resident_work_runs_on_each_gpu_of_a_set],
}
