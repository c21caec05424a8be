//! The throughput table of issue 5: every variant, every parallel operation,
//! 1 GiB and 4 GiB resident on the GPU, the bitsliced kernels (`gpu`) against
//! the paper's T-table kernel (`gpu-paper`). Kernel time only, CUDA events,
//! median of the timed runs after warm-up, random data.
//!
//! `cargo run --release --example gpu_bench -p skinny-bulk --features cuda [-- SIZES_MIB RUNS [VARIANTS]]`
//! e.g. `-- 1024,4096 10 skinny-128-256`. Prints one line per measurement and a
//! summary. The paper's kernel (about 1 GB/s: a second per GiB) is measured on
//! the first size only; `SKINNY_BENCH_NO_PAPER=1` leaves it out.

use skinny::{Skinny, Variant};
use skinny_bulk::gpu::{GpuCipher, HostPath, KernelKind, Op};
use skinny_cuda::{Gpu, GpuOptions};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let sizes: Vec<usize> =
        args.get(1).map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect()).unwrap_or_else(|| vec![1024, 4096]);
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10);
    let variants: Vec<Variant> = args
        .get(3)
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| Variant::ALL.to_vec());
    let warmup = 3;
    // Tuning experiments pass extra NVRTC options (e.g. `-DBS_MIN_BLOCKS=2`)
    // through this variable; the library itself reads no environment.
    let extra: Vec<String> = std::env::var("SKINNY_NVRTC_OPTIONS")
        .map(|v| v.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let gpu = match Gpu::open_with(0, &GpuOptions::with_nvrtc_options(extra)).map(std::sync::Arc::new) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("skip: no usable GPU: {e}");
            return;
        }
    };
    println!("# {}", gpu.describe());
    println!("# kernel time (CUDA events), median of {runs} runs after {warmup} warm-up runs, random data resident on the GPU; GB = 1e9 bytes, Tb = 1e12 bits");
    println!(
        "{:<15} {:<10} {:<8} {:>6} {:>10} {:>10} {:>8} {:>9} {:>5} {:>6}",
        "variant", "backend", "op", "MiB", "median_ms", "spread_%", "GB/s", "Tb/s", "regs", "spill"
    );
    let mut summary = Vec::new();
    let key: Vec<u8> = (0..48u8).map(|i| i.wrapping_mul(73).wrapping_add(19)).collect();
    for v in variants {
        let c = Skinny::new(v, &key[..v.tweakey_bytes()]).expect("key length");
        for kind in [KernelKind::Bitsliced, KernelKind::Paper] {
            if !kind.supports(v) || (kind == KernelKind::Paper && std::env::var_os("SKINNY_BENCH_NO_PAPER").is_some()) {
                continue;
            }
            let backend = if kind == KernelKind::Paper { "gpu-paper" } else { "gpu" };
            let mut g = match GpuCipher::new(&gpu, kind, &c) {
                Ok(g) => g,
                Err(e) => {
                    println!("{v} {backend}: {e}");
                    continue;
                }
            };
            // The paper's kernel takes about a second per GiB: the first size for
            // its own variant (SKINNY-128-256), at most 256 MiB for the others
            // (its throughput is flat from a few MiB on), one warm-up run.
            let paper_first = if v == Variant::Skinny128_256 { sizes[0] } else { sizes[0].min(256) };
            let kind_sizes = if kind == KernelKind::Paper { vec![paper_first] } else { sizes.clone() };
            let warmup = if kind == KernelKind::Paper { 1 } else { warmup };
            for &mib in &kind_sizes {
                for op in Op::ALL {
                    if !g.has_kernel(op) {
                        continue;
                    }
                    let bytes = mib << 20;
                    let (regs, spill) = g.kernel_resources(op).unwrap_or((-1, -1));
                    match g.time_kernel(op, bytes, warmup, runs) {
                        Ok(mut t) => {
                            let lo = t.iter().copied().fold(f64::INFINITY, f64::min);
                            let hi = t.iter().copied().fold(0.0, f64::max);
                            let m = median(&mut t);
                            let gbs = bytes as f64 / (m * 1e-3) / 1e9;
                            println!(
                                "{:<15} {:<10} {:<8} {:>6} {:>10.3} {:>10.1} {:>8.1} {:>9.3} {:>5} {:>6}",
                                v.name(),
                                backend,
                                format!("{op:?}").to_lowercase().replace("encrypt", "_enc").replace("decrypt", "_dec"),
                                mib,
                                m,
                                (hi - lo) / m * 100.0,
                                gbs,
                                gbs * 8.0 / 1000.0,
                                regs,
                                spill
                            );
                            summary.push((v, backend, op, mib, gbs));
                        }
                        Err(e) => println!("{v} {backend} {op:?} {mib} MiB: {e}"),
                    }
                }
            }
        }
    }
    host_path(&gpu, &key, sizes[0]);
    println!();
    println!("# summary: SKINNY-128-256, gpu warm-up 3, gpu-paper warm-up 1 (target: ECB/CTR encryption >= 300 GB/s = 2.4 Tb/s, decryption within 15 %)");
    for (v, backend, op, mib, gbs) in &summary {
        if *v == Variant::Skinny128_256 {
            println!(
                "{:<10} {:<12} {:>5} MiB {:>8.1} GB/s {:>7.3} Tb/s",
                backend,
                format!("{op:?}"),
                mib,
                gbs,
                gbs * 8.0 / 1000.0
            );
        }
    }
}

/// The whole path a user's data takes (from pageable host memory: copy to the
/// GPU, kernel, copy back) through `GpuCipher::run`, SKINNY-128-256, with the
/// pinned double-buffered path and with plain pageable copies: what the CLI
/// gets, against the kernel-only figures above.
fn host_path(gpu: &std::sync::Arc<Gpu>, key: &[u8], mib: usize) {
    let c = Skinny::new(Variant::Skinny128_256, &key[..32]).expect("key length");
    let Ok(mut g) = GpuCipher::new(gpu, KernelKind::Bitsliced, &c) else {
        return;
    };
    let mut data = vec![0u8; mib << 20];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for chunk in data.chunks_exact_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    let iv = [7u8; 16];
    for (path, host_path) in
        [("pinned, double-buffered", HostPath::Staged), ("pageable, one piece at a time", HostPath::Pageable)]
    {
        g.set_host_path(host_path);
        for op in [Op::Ctr, Op::EcbEncrypt] {
            let mut times = Vec::new();
            for i in 0..4 {
                let t = std::time::Instant::now();
                if let Err(e) = g.run(op, if op == Op::Ctr { &iv } else { &[] }, &mut data) {
                    println!("host path {op:?}: {e}");
                    return;
                }
                if i > 0 {
                    times.push(t.elapsed().as_secs_f64() * 1e3);
                }
            }
            let m = median(&mut times);
            println!(
            "# host path ({path}: copies + kernel), skinny-128-256 {op:?} {mib} MiB from pageable memory: median {m:.1} ms of 3 = {:.1} GB/s",
            (mib << 20) as f64 / (m * 1e-3) / 1e9
        );
        }
    }
}
