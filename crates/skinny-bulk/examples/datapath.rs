//! Where a user's data spends its time on the GPU, measured on the machine it
//! runs on (docs/data-path.md has the H200 figures):
//!
//! 1. start-up: loading the driver and NVRTC, `cuInit`, the context, the kernel
//!    module (disk cache warm), a key's constants, the first call's buffers;
//! 2. the host path of [`GpuCipher::run`] by [`HostPath`] (pageable, staged,
//!    registered, keystream, and the one `Auto` takes) for 64 MiB to 4 GiB of
//!    pageable memory, the paths taking turns, every path checked against the
//!    pageable one;
//! 3. device-resident data ([`GpuCipher::run_device`]), out of place and in place.
//!
//! `cargo run --release -p skinny-bulk --features cuda --example datapath [MAX_MIB]`

use skinny::{Skinny, Variant};
use skinny_bulk::gpu::{GpuCipher, HostPath, KernelKind, Op};
use skinny_cuda::cudarc::driver::{sys, CudaContext, CudaSlice};
use skinny_cuda::device::probe_libraries;
use skinny_cuda::Gpu;
use std::sync::Arc;
use std::time::Instant;
use support::{median, random};

mod support;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let max_mib: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(4096);
    let key = random(32, 0x1234);
    let cipher = Skinny::new(Variant::Skinny128_256, &key).expect("key length");

    println!("# start-up, one process, ms (the kernel cache on disk is warm if an earlier run filled it)");
    let t0 = Instant::now();
    let t = Instant::now();
    if let Err(e) = probe_libraries() {
        println!("no usable GPU: {e}");
        return;
    }
    println!("load libcuda and libnvrtc (dlopen)   {:8.1}", ms(t));
    let t = Instant::now();
    let count = CudaContext::device_count().expect("cuInit");
    println!("cuInit, device count ({count})            {:8.1}", ms(t));
    let t = Instant::now();
    let gpu = Arc::new(Gpu::open(0).expect("open GPU 0"));
    println!("context and device attributes        {:8.1}", ms(t));
    let t = Instant::now();
    let module = gpu.load_module(&skinny_cuda::kernels::BITSLICED).expect("kernels");
    println!("kernel module (cache or NVRTC)       {:8.1}", ms(t));
    drop(module);
    let t = Instant::now();
    let mut g = GpuCipher::new(&gpu, KernelKind::Bitsliced, &cipher).expect("cipher");
    println!("key: module load, constants upload   {:8.1}", ms(t));
    let mut small = random(1 << 20, 7);
    let t = Instant::now();
    g.run(Op::Ctr, &[1; 16], &mut small).expect("first call");
    println!("first 1 MiB CTR call (buffers)       {:8.1}", ms(t));
    let t = Instant::now();
    g.run(Op::Ctr, &[1; 16], &mut small).expect("second call");
    println!("second 1 MiB CTR call                {:8.1}", ms(t));
    let t = Instant::now();
    let mut big = random(64 << 20, 8);
    let alloc_ms = ms(t);
    let t = Instant::now();
    g.run(Op::Ctr, &[1; 16], &mut big).expect("first 64 MiB call");
    println!("first 64 MiB CTR call (lanes, pinning) {:6.1}  (making the data: {alloc_ms:.1})", ms(t));
    println!("total so far                         {:8.1}", ms(t0));

    println!();
    println!("# host path: GpuCipher::run on pageable memory, SKINNY-128-256, median of 3 after a warm-up,");
    println!("# the paths taking turns (each round in another order), so that a drift of the machine's speed");
    println!("# falls on every path alike; `auto` names the path it took");
    println!("# link measured on this machine earlier: 55 GB/s host to device, 51 GB/s back");
    let mut sizes = vec![64usize, 256, 1024, 4096];
    sizes.retain(|&m| m <= max_mib);
    for mib in sizes {
        let data = random(mib << 20, 9 + mib as u64);
        let mut buf = data.clone();
        for op in [Op::Ctr, Op::EcbEncrypt] {
            let iv: &[u8] = if op == Op::Ctr { &[3; 16] } else { &[] };
            // The keystream path is CTR's: other operations take staging under that name.
            let paths: Vec<HostPath> =
                [HostPath::Pageable, HostPath::Staged, HostPath::Registered, HostPath::Keystream, HostPath::Auto]
                    .into_iter()
                    .filter(|&p| op == Op::Ctr || p != HostPath::Keystream)
                    .collect();
            let mut times = vec![Vec::new(); paths.len()];
            let mut outputs: Vec<Option<Vec<u8>>> = vec![None; paths.len()];
            for round in 0..4 {
                for k in (0..paths.len()).map(|k| (k + round) % paths.len()) {
                    g.set_host_path(paths[k]);
                    buf.copy_from_slice(&data);
                    let t = Instant::now();
                    g.run(op, iv, &mut buf).expect("host path");
                    if round > 0 {
                        times[k].push(ms(t));
                    }
                    if round == 3 {
                        outputs[k] = Some(buf.clone());
                    }
                }
            }
            g.set_host_path(HostPath::Auto);
            let took = g.path_for(op, &buf);
            for (k, path) in paths.iter().enumerate() {
                let same = match (k, &outputs[0], &outputs[k]) {
                    (0, _, _) => "reference",
                    (_, Some(r), Some(o)) if r == o => "same output",
                    _ => "MISMATCH",
                };
                let label = if *path == HostPath::Auto { format!("Auto={took:?}") } else { format!("{path:?}") };
                let m = median(&mut times[k]);
                println!(
                    "{mib:>5} MiB {:<12} {label:<16} {m:9.1} ms {:7.1} GB/s  {same}",
                    format!("{op:?}"),
                    (mib << 20) as f64 / (m * 1e-3) / 1e9
                );
            }
        }
    }
    g.set_host_path(HostPath::Auto);

    println!();
    println!(
        "# host path from page-locked memory (Gpu::alloc_host), GpuCipher::run in place, median of 3 after a warm-up"
    );
    for mib in [64usize, 1024, 4096] {
        if mib > max_mib {
            continue;
        }
        let data = random(mib << 20, 21);
        let mut pinned = gpu.alloc_host(mib << 20).expect("pinned memory");
        for op in [Op::Ctr, Op::EcbEncrypt] {
            let iv: &[u8] = if op == Op::Ctr { &[3; 16] } else { &[] };
            let mut times = Vec::new();
            for i in 0..4 {
                let buf = pinned.as_mut_slice().expect("pinned");
                buf.copy_from_slice(&data);
                let t = Instant::now();
                g.run(op, iv, buf).expect("pinned run");
                if i > 0 {
                    times.push(ms(t));
                }
            }
            let mut want = data.clone();
            g.run(op, iv, &mut want).expect("pageable run");
            let same = if pinned.as_mut_slice().expect("pinned")[..] == want[..] { "same output" } else { "MISMATCH" };
            let m = median(&mut times);
            println!(
                "{mib:>5} MiB {:<12} {:<16} {m:9.1} ms {:7.1} GB/s  {same} as pageable",
                format!("{op:?}"),
                format!("pinned, {:?}", g.path_for(op, pinned.as_mut_slice().expect("pinned"))),
                (mib << 20) as f64 / (m * 1e-3) / 1e9
            );
        }
    }

    println!();
    println!("# page-locking alone: cuMemHostRegister + cuMemHostUnregister of pageable memory");
    for mib in [64usize, 1024] {
        if mib > max_mib {
            continue;
        }
        let mut buf = random(mib << 20, 3);
        gpu.context().bind_to_thread().expect("bind");
        let t = Instant::now();
        // SAFETY: the buffer outlives its registration, unregistered right after.
        unsafe {
            sys::cuMemHostRegister_v2(buf.as_mut_ptr().cast(), buf.len(), 0).result().expect("register");
        }
        let reg = ms(t);
        let t = Instant::now();
        // SAFETY: registered just above.
        unsafe { sys::cuMemHostUnregister(buf.as_mut_ptr().cast()).result().expect("unregister") };
        println!("{mib:>5} MiB register {reg:8.1} ms, unregister {:8.1} ms", ms(t));
    }

    println!();
    println!(
        "# device-resident: GpuCipher::run_device, SKINNY-128-256, 1 GiB, median of 10 (host clock around a sync)"
    );
    let mib = 1024usize.min(max_mib);
    let nblocks = ((mib << 20) / 16) as u64;
    let stream = gpu.new_stream().expect("stream");
    let host = random(mib << 20, 11);
    let input: CudaSlice<u8> = stream.clone_htod(&host).expect("upload");
    let mut output: CudaSlice<u8> = stream.alloc_zeros(host.len()).expect("alloc");
    for (op, iv) in [(Op::EcbEncrypt, &[][..]), (Op::Ctr, &[5u8; 16][..]), (Op::EcbDecrypt, &[][..])] {
        for in_place in [false, true] {
            let mut times = Vec::new();
            for i in 0..13 {
                stream.synchronize().expect("sync");
                let t = Instant::now();
                if in_place {
                    g.run_device_in_place(op, iv, &mut output, nblocks, Some(&stream)).expect("run");
                } else {
                    g.run_device(op, iv, &input, &mut output, nblocks, Some(&stream)).expect("run");
                }
                stream.synchronize().expect("sync");
                if i >= 3 {
                    times.push(ms(t));
                }
            }
            let m = median(&mut times);
            println!(
                "{:<12} {:<12} {m:8.3} ms {:7.1} GB/s",
                format!("{op:?}"),
                if in_place { "in place" } else { "out of place" },
                (mib << 20) as f64 / (m * 1e-3) / 1e9
            );
        }
    }
    // The device result against the host path on the same data.
    let mut want = host.clone();
    g.run(Op::Ctr, &[5; 16], &mut want).expect("host run");
    g.run_device(Op::Ctr, &[5; 16], &input, &mut output, nblocks, Some(&stream)).expect("run");
    let got = stream.clone_dtoh(&output).expect("download");
    println!("device CTR == host-path CTR over {mib} MiB: {}", if got == want { "yes" } else { "NO: MISMATCH" });
}
