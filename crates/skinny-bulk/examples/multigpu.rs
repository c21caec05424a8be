//! Scaling over the GPUs of one host (docs/multi-gpu.md), for N = 1 .. all:
//!
//! - `resident`: device-resident kernel throughput, SKINNY-128-256 ECB
//!   encryption, every GPU of the N running its own buffers at once (one host
//!   thread each, started together), aggregate GB/s from the wall time of the
//!   slowest;
//! - `host`: host memory to host memory through [`MultiGpuCipher::run`] (CTR,
//!   in place), page-locked (portable, from [`Gpu::alloc_host`]) and pageable
//!   buffers of max(4 GiB, N GiB), median of 3 after a warm-up;
//! - `membw`: the host's memory bandwidth reference: a multi-threaded memcpy
//!   of 4 GiB (one read and one write of host memory per byte), with all cores.
//!
//! `multigpu [resident|host|membw|all] [MAX_N]`; one line per measurement,
//! `key=value` fields for scripts/device/multigpu.sh.

use skinny::{Skinny, Variant};
use skinny_bulk::gpu::{GpuCipher, HostPath, KernelKind, MultiGpuCipher, Op};
use skinny_cuda::{Gpu, GpuSet};
use std::sync::{Arc, Barrier};
use std::time::Instant;

const GIB: usize = 1 << 30;

fn cipher() -> Skinny {
    let key: Vec<u8> = (0..32u8).map(|i| i.wrapping_mul(37).wrapping_add(11)).collect();
    Skinny::new(Variant::Skinny128_256, &key).expect("a 32-byte tweakey")
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// Launches a resident measurement times: 100 x 2 GiB is about 0.4 s a GPU.
/// (Run 26 used 10, about 40 ms: a few milliseconds of start-up skew between the
/// GPUs' threads then weighed 10 % or more.)
const RESIDENT_RUNS: usize = 100;

/// Every GPU of `gpus` runs `runs` ECB launches over `bytes` resident bytes at
/// once; returns the aggregate GB/s (wall time from a common start).
fn resident(gpus: &[Arc<Gpu>], bytes: usize, runs: usize) -> Result<f64, String> {
    let c = cipher();
    let barrier = Barrier::new(gpus.len());
    let nblocks = (bytes / 16) as u64;
    let times: Vec<Result<f64, String>> = std::thread::scope(|sc| {
        let hs: Vec<_> = gpus
            .iter()
            .map(|g| {
                let (c, barrier) = (&c, &barrier);
                sc.spawn(move || -> Result<f64, String> {
                    let e = |e: skinny_cuda::GpuError| format!("GPU {}: {e}", g.ordinal());
                    let gc = GpuCipher::new(g, KernelKind::Bitsliced, c).map_err(e)?;
                    let stream = g.new_stream().map_err(e)?;
                    let d = |e: skinny_cuda::cudarc::driver::DriverError| format!("GPU {}: {e}", g.ordinal());
                    let input = stream.alloc_zeros::<u8>(bytes).map_err(d)?;
                    let mut output = stream.alloc_zeros::<u8>(bytes).map_err(d)?;
                    for _ in 0..2 {
                        gc.run_device(Op::EcbEncrypt, &[], &input, &mut output, nblocks, Some(&stream)).map_err(e)?;
                    }
                    stream.synchronize().map_err(d)?;
                    barrier.wait();
                    let t = Instant::now();
                    for _ in 0..runs {
                        gc.run_device(Op::EcbEncrypt, &[], &input, &mut output, nblocks, Some(&stream)).map_err(e)?;
                    }
                    stream.synchronize().map_err(d)?;
                    Ok(t.elapsed().as_secs_f64())
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or_else(|_| Err("a thread panicked".into()))).collect()
    });
    let mut slowest = 0.0f64;
    let mut each = Vec::new();
    for (g, t) in gpus.iter().zip(times) {
        let t = t?;
        each.push(format!("GPU {} {:.1} GB/s in {:.3} s", g.ordinal(), (bytes * runs) as f64 / t / 1e9, t));
        slowest = slowest.max(t);
    }
    // Each GPU's own rate beside the aggregate: tells a slow device from a
    // shared bottleneck when the scaling falls short.
    println!("resident per GPU ({} at once): {}", gpus.len(), each.join(", "));
    Ok((gpus.len() * bytes * runs) as f64 / slowest / 1e9)
}

/// GB/s of `MultiGpuCipher::run` (CTR, in place) on `data`: median of 3 after a warm-up.
fn host_rate(m: &mut MultiGpuCipher, data: &mut [u8]) -> Result<f64, String> {
    let iv = [7u8; 16];
    m.run(Op::Ctr, &iv, data).map_err(|e| e.to_string())?;
    let mut rates = Vec::new();
    for _ in 0..3 {
        let t = Instant::now();
        m.run(Op::Ctr, &iv, data).map_err(|e| e.to_string())?;
        rates.push(data.len() as f64 / t.elapsed().as_secs_f64() / 1e9);
    }
    Ok(median(rates))
}

/// Multi-threaded memcpy of `bytes`: GB/s copied (each byte read once and
/// written once), median of 3 after a warm-up.
fn membw(bytes: usize) -> f64 {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let src = vec![1u8; bytes];
    let mut dst = vec![0u8; bytes];
    let per = bytes.div_ceil(threads).div_ceil(4096) * 4096;
    let mut rates = Vec::new();
    for i in 0..4 {
        let t = Instant::now();
        std::thread::scope(|sc| {
            for (d, s) in dst.chunks_mut(per).zip(src.chunks(per)) {
                sc.spawn(move || d.copy_from_slice(s));
            }
        });
        if i > 0 {
            rates.push(bytes as f64 / t.elapsed().as_secs_f64() / 1e9);
        }
    }
    std::hint::black_box(&dst);
    println!("membw threads={threads} bytes={bytes} copy_gbps={:.1}", median(rates.clone()));
    median(rates)
}

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    let max_n: Option<usize> = std::env::args().nth(2).and_then(|s| s.parse().ok());
    let set = match GpuSet::all() {
        Ok(s) => s,
        Err(e) => {
            println!("no GPU: {e}");
            if what == "membw" {
                membw(4 * GIB);
            }
            return;
        }
    };
    let all = set.gpus().to_vec();
    let top = max_n.unwrap_or(all.len()).clamp(1, all.len());
    println!("gpus={} ({})", all.len(), set.describe());
    let ns: Vec<usize> = (1..=top).collect();
    if what == "all" || what == "membw" {
        membw(4 * GIB);
    }
    if what == "all" || what == "resident" {
        // Every GPU alone first (is one device slower than another?).
        for g in &all[1..top] {
            if let Err(e) = resident(std::slice::from_ref(g), 2 * GIB, RESIDENT_RUNS) {
                println!("resident GPU {} alone error: {e}", g.ordinal());
            }
        }
        let mut one = None;
        for &n in &ns {
            match resident(&all[..n], 2 * GIB, RESIDENT_RUNS) {
                Ok(r) => {
                    let base = *one.get_or_insert(r);
                    println!(
                        "resident n={n} gbps={r:.1} per_gpu={:.1} scaling={:.3}",
                        r / n as f64,
                        r / (base * n as f64)
                    );
                }
                Err(e) => println!("resident n={n} error: {e}"),
            }
        }
    }
    if what == "all" || what == "host" {
        let c = cipher();
        let biggest = (4 * GIB).max(top * GIB);
        let mut locked = match all[0].alloc_host(biggest) {
            Ok(b) => Some(b),
            Err(e) => {
                println!("host page-locked: cannot allocate {biggest} bytes: {e}");
                None
            }
        };
        let mut pageable = vec![3u8; biggest];
        let (mut one_locked, mut one_pageable) = (None, None);
        for &n in &ns {
            let bytes = (4 * GIB).max(n * GIB);
            let sub = GpuSet::from_gpus(all[..n].to_vec()).expect("n >= 1");
            let mut m = match MultiGpuCipher::new(&sub, KernelKind::Bitsliced, &c) {
                Ok(m) => m,
                Err(e) => {
                    println!("host n={n} error: {e}");
                    continue;
                }
            };
            if let Some(buf) = locked.as_mut() {
                match buf.as_mut_slice().map_err(|e| e.to_string()).and_then(|s| host_rate(&mut m, &mut s[..bytes])) {
                    Ok(r) => {
                        let base = *one_locked.get_or_insert(r);
                        println!(
                            "host kind=page-locked n={n} bytes={bytes} gbps={r:.1} scaling={:.3}",
                            r / (base * n as f64)
                        );
                    }
                    Err(e) => println!("host kind=page-locked n={n} error: {e}"),
                }
            }
            m.set_host_path(HostPath::Auto);
            match host_rate(&mut m, &mut pageable[..bytes]) {
                Ok(r) => {
                    let base = *one_pageable.get_or_insert(r);
                    println!("host kind=pageable n={n} bytes={bytes} gbps={r:.1} scaling={:.3}", r / (base * n as f64));
                }
                Err(e) => println!("host kind=pageable n={n} error: {e}"),
            }
        }
    }
}
