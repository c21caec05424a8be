//! One GPU through the raw modes' GPU host code (`skinny_bulk::gpu`) against
//! the modes written out from their definitions
//! (`skinny_test_support::textbook`): every host path over inputs split into
//! many device pieces, data already on the device, and page-locked memory
//! taking the direct path. (The `gpu` and `gpu-paper` backends over it are
//! checked in `gpu.rs`.)
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use rand::Rng;
use skinny::Variant;
use skinny_bulk::gpu::{GpuCipher, HostMemory, HostPath, KernelKind, Op};
use skinny_cuda::cudarc::driver::{CudaSlice, CudaStream};
use skinny_cuda::{DeviceQueue, Gpu};
use skinny_test_support::gpu::open;
use skinny_test_support::rng::{random_bytes, random_cipher};
use std::sync::Arc;
use support::reference;

use crate::support;

/// The IV `GpuCipher::run` takes for `op`: none for ECB.
fn iv_of(op: Op, iv: &[u8]) -> &[u8] {
    if matches!(op, Op::EcbEncrypt | Op::EcbDecrypt) {
        &[]
    } else {
        iv
    }
}

fn inputs_split_over_device_pieces_match() {
    let gpu = open(Gpu::first);
    let mut rng = rand::rng();
    for (kind, v) in [
        (KernelKind::Bitsliced, Variant::Skinny128_384),
        (KernelKind::Bitsliced, Variant::Skinny64_192),
        (KernelKind::Paper, Variant::Skinny128_256),
    ] {
        let c = random_cipher(&mut rng, v);
        let bs = v.block_bytes();
        let mut g = GpuCipher::new(&gpu, kind, &c).unwrap();
        g.set_piece_bytes(16 * 1024); // one warp's work: many pieces
        for path in [HostPath::Pageable, HostPath::Staged, HostPath::Registered, HostPath::Keystream, HostPath::Direct]
        {
            g.set_host_path(path);
            let data = random_bytes(&mut rng, 20_000 * bs + 3);
            let iv = random_bytes(&mut rng, bs);
            let whole = &data[..20_000 * bs];
            for op in Op::ALL {
                if !g.has_kernel(op) {
                    continue;
                }
                // Whole blocks except for CTR.
                let input = if op == Op::Ctr { &data[..] } else { whole };
                let want = reference(&c, op, &iv, input);
                let mut got = input.to_vec();
                g.run(op, iv_of(op, &iv), &mut got).unwrap();
                assert!(got == want, "{kind:?} {v} {op:?} over pieces by {path:?} differs from the textbook modes");
            }
        }
    }
}

fn device_resident_data_matches_the_textbook_modes() {
    let gpu = open(Gpu::first);
    let mut rng = rand::rng();
    for v in [Variant::Skinny128_256, Variant::Skinny64_128] {
        let c = random_cipher(&mut rng, v);
        let bs = v.block_bytes();
        let g = GpuCipher::new(&gpu, KernelKind::Bitsliced, &c).unwrap();
        let stream: Arc<CudaStream> = gpu.new_stream().unwrap();
        let nblocks = 3000 + rng.random_range(0..3000u64);
        let data = random_bytes(&mut rng, nblocks as usize * bs);
        let iv = random_bytes(&mut rng, bs);
        for op in Op::ALL {
            let ivs = iv_of(op, &iv);
            let want = reference(&c, op, &iv, &data);
            // Out of place, on the caller's stream.
            let input: CudaSlice<u8> = stream.clone_htod(&data).unwrap();
            let mut output: CudaSlice<u8> = stream.alloc_zeros(data.len()).unwrap();
            g.run_device(op, ivs, &input, &mut output, nblocks, Some(&stream)).unwrap();
            let got = stream.clone_dtoh(&output).unwrap();
            assert!(got == want, "{v} {op:?} on device, out of place, differs from the textbook modes");
            assert_eq!(stream.clone_dtoh(&input).unwrap(), data, "{v} {op:?}: the input is left alone");
            // In place, on the cipher's own stream.
            let mut buf: CudaSlice<u8> = stream.clone_htod(&data).unwrap();
            stream.synchronize().unwrap();
            g.run_device_in_place(op, ivs, &mut buf, nblocks, None).unwrap();
            let got = stream.clone_dtoh(&buf).unwrap();
            assert!(got == want, "{v} {op:?} on device, in place, differs from the textbook modes");
        }
        // Wrong lengths are refused, not run.
        let small: CudaSlice<u8> = stream.alloc_zeros(bs).unwrap();
        let mut out: CudaSlice<u8> = stream.alloc_zeros(bs).unwrap();
        assert!(g.run_device(Op::EcbEncrypt, &[], &small, &mut out, 2, None).is_err());
        assert!(g.run_device(Op::Ctr, &[], &small, &mut out, 1, None).is_err());
    }
}

fn device_addresses_match_the_textbook_modes() {
    let gpu = open(Gpu::first);
    let mut rng = rand::rng();
    for v in [Variant::Skinny128_384, Variant::Skinny64_64] {
        let c = random_cipher(&mut rng, v);
        let bs = v.block_bytes();
        let g = GpuCipher::new(&gpu, KernelKind::Bitsliced, &c).unwrap();
        let queue = DeviceQueue::new(&gpu).unwrap();
        let nblocks = 1 + rng.random_range(0..5000u64);
        let data = random_bytes(&mut rng, nblocks as usize * bs);
        let iv = random_bytes(&mut rng, bs);
        for op in Op::ALL {
            let ivs = iv_of(op, &iv);
            let want = reference(&c, op, &iv, &data);
            let input = queue.upload(&data).unwrap();
            let output = queue.zeroed(data.len()).unwrap();
            // SAFETY: both hold nblocks blocks of this GPU, disjoint, alive
            // past the wait below.
            unsafe { g.run_at(op, ivs, input.ptr(), output.ptr(), nblocks, &queue) }.unwrap();
            queue.synchronize().unwrap();
            let mut got = vec![0; data.len()];
            output.download(&mut got).unwrap();
            assert!(got == want, "{v} {op:?} at device addresses differs from the textbook modes");
            // In place where the kernels allow it; refused where they do not.
            // SAFETY: as above, the same address twice.
            let in_place = unsafe { g.run_at(op, ivs, input.ptr(), input.ptr(), nblocks, &queue) };
            queue.synchronize().unwrap();
            input.download(&mut got).unwrap();
            match op {
                Op::CbcDecrypt | Op::CfbDecrypt => {
                    assert!(in_place.is_err(), "{op:?} in place at device addresses is refused");
                    assert_eq!(got, data, "{op:?}: nothing written when refused");
                }
                _ => {
                    in_place.unwrap();
                    assert!(got == want, "{v} {op:?} in place at device addresses differs");
                }
            }
        }
        // A wrong IV is refused before anything runs.
        let buf = queue.zeroed(bs).unwrap();
        // SAFETY: one block of this GPU.
        assert!(unsafe { g.run_at(Op::Ctr, &[], buf.ptr(), buf.ptr(), 1, &queue) }.is_err());
    }
}

fn page_locked_memory_takes_the_direct_path_and_matches() {
    let gpu = open(Gpu::first);
    let mut rng = rand::rng();
    let v = Variant::Skinny128_256;
    let c = random_cipher(&mut rng, v);
    let mut g = GpuCipher::new(&gpu, KernelKind::Bitsliced, &c).unwrap();
    g.set_piece_bytes(1 << 20); // several pieces over the streams
    let len = (5 << 20) + 3;
    let data = random_bytes(&mut rng, len);
    let iv = random_bytes(&mut rng, 16);
    let mut pinned = gpu.alloc_host(len).unwrap();
    for (op, n) in [(Op::Ctr, len), (Op::EcbEncrypt, len - 3), (Op::CbcDecrypt, len - 3)] {
        let want = reference(&c, op, &iv, &data[..n]);
        let buf = &mut pinned.as_mut_slice().unwrap()[..n];
        buf.copy_from_slice(&data[..n]);
        assert_eq!(g.path_for(op, buf), HostPath::Direct, "{op:?} on page-locked memory");
        g.run(op, iv_of(op, &iv), buf).unwrap();
        assert!(buf[..] == want[..], "{op:?} on page-locked memory differs from the textbook modes");
    }
}

fn auto_takes_the_rules_path_for_pageable_memory() {
    let gpu = open(Gpu::first);
    let mut rng = rand::rng();
    let c = random_cipher(&mut rng, Variant::Skinny128_256);
    let g = GpuCipher::new(&gpu, KernelKind::Bitsliced, &c).unwrap();
    let big = vec![0u8; 8 << 20];
    for op in Op::ALL {
        for data in [&big[..16], &big[..]] {
            // Any piece of 16 bytes or more gives the same answer for these sizes.
            let want = HostPath::auto(op, data.len(), HostMemory::Pageable, 64 << 20);
            assert_eq!(g.path_for(op, data), want, "{op:?} over {} bytes", data.len());
        }
    }
}

skinny_test_support::gpu_test_group! {
    probe: Gpu::first,
    gpu: [inputs_split_over_device_pieces_match, device_resident_data_matches_the_textbook_modes, device_addresses_match_the_textbook_modes, page_locked_memory_takes_the_direct_path_and_matches, auto_takes_the_rules_path_for_pageable_memory],
}
