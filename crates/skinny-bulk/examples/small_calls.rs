//! Host calls of 1 to 64 MiB by host path and piece size, for both kernel
//! kinds: where a mid-sized call loses time (docs/data-path.md, "Mid-sized
//! calls"). Run 28 measured the paper's kernel end to end through the staged
//! path at 22 ms for 8 MiB, twice its plain pageable copies (11 ms), while the
//! bitsliced kernel's staged path was the faster one at every size.
//!
//! For each kind and size, median of 5 after a warm-up (refilling the input is
//! not timed), SKINNY-128-256 ECB:
//! the kernel alone on resident data (whole call, and in the pieces the staged
//! path would use, one after the other), then `GpuCipher::run` from pageable
//! memory by [`HostPath`], the pageable path in pieces of a quarter, and from
//! page-locked memory (the registered path's pieces over four streams). Every
//! output is checked against the pageable path's.
//!
//! `cargo run --release -p skinny-bulk --features cuda --example small_calls`

use skinny::{Skinny, Variant};
use skinny_bulk::gpu::{GpuCipher, HostPath, KernelKind, Op};
use skinny_cuda::cudarc::driver::CudaSlice;
use skinny_cuda::device::probe_libraries;
use skinny_cuda::Gpu;
use std::sync::Arc;
use std::time::Instant;
use support::{median, random};

mod support;

/// Median of the milliseconds `f` reports over 5 runs after one warm-up.
fn median_of(mut f: impl FnMut() -> f64) -> f64 {
    f();
    median(&mut (0..5).map(|_| f()).collect::<Vec<_>>())
}

/// Milliseconds `f` takes.
fn clocked(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

/// Median milliseconds of `f` over 5 runs after one warm-up.
fn time(mut f: impl FnMut()) -> f64 {
    median_of(|| clocked(&mut f))
}

fn main() {
    if let Err(e) = probe_libraries() {
        println!("no usable GPU: {e}");
        return;
    }
    let key = random(32, 0x1234);
    let cipher = Skinny::new(Variant::Skinny128_256, &key).expect("key length");
    let gpu = Arc::new(Gpu::open(0).expect("open GPU 0"));
    println!("# {}", gpu.describe());
    println!("# kind      MiB  path                      ms     GB/s  check");
    for kind in [KernelKind::Paper, KernelKind::Bitsliced] {
        let mut g = GpuCipher::new(&gpu, kind, &cipher).expect("cipher");
        let stream = gpu.new_stream().expect("stream");
        for mib in [1usize, 2, 4, 8, 16, 32, 64] {
            let len = mib << 20;
            let data = random(len, mib as u64);
            let row = |what: &str, ms: f64, check: &str| {
                println!(
                    "{:<9} {mib:>4}  {what:<22} {ms:9.2} {:8.2}  {check}",
                    format!("{kind:?}"),
                    len as f64 / ms / 1e6
                );
            };
            // The kernel alone: the whole call, then quarters one after the other.
            let input: CudaSlice<u8> = stream.clone_htod(&data).expect("upload");
            let mut output: CudaSlice<u8> = stream.alloc_zeros(len).expect("alloc");
            let nblocks = (len / 16) as u64;
            let whole = time(|| {
                g.run_device(Op::EcbEncrypt, &[], &input, &mut output, nblocks, Some(&stream)).expect("run");
                stream.synchronize().expect("sync");
            });
            row("kernel, whole", whole, "");
            let mut parts: Vec<(CudaSlice<u8>, CudaSlice<u8>)> = data
                .chunks(len / 4)
                .map(|c| (stream.clone_htod(c).expect("upload"), stream.alloc_zeros(c.len()).expect("alloc")))
                .collect();
            let quarters = time(|| {
                for (inp, out) in parts.iter_mut() {
                    g.run_device(Op::EcbEncrypt, &[], inp, out, nblocks / 4, Some(&stream)).expect("run");
                }
                stream.synchronize().expect("sync");
            });
            row("kernel, 4 quarters", quarters, "");
            // The quarters on four streams at once (as the staged and
            // registered paths overlap pieces).
            let streams: Vec<_> = (0..4).map(|_| gpu.new_stream().expect("stream")).collect();
            let concurrent = time(|| {
                for ((inp, out), s) in parts.iter_mut().zip(&streams) {
                    g.run_device(Op::EcbEncrypt, &[], inp, out, nblocks / 4, Some(s)).expect("run");
                }
                streams.iter().for_each(|s| s.synchronize().expect("sync"));
            });
            row("kernel, 4 streams", concurrent, "");
            drop((input, output, parts));

            // From pageable memory by path.
            let mut want = data.clone();
            g.set_host_path(HostPath::Pageable);
            g.run(Op::EcbEncrypt, &[], &mut want).expect("reference");
            let mut buf = data.clone();
            for path in [HostPath::Pageable, HostPath::Staged, HostPath::Auto] {
                g.set_host_path(path);
                let ms = median_of(|| {
                    buf.copy_from_slice(&data);
                    clocked(|| g.run(Op::EcbEncrypt, &[], &mut buf).expect("run"))
                });
                row(&format!("pageable mem, {path:?}"), ms, if buf == want { "same" } else { "MISMATCH" });
            }
            // The pageable path in quarters: pieces one after the other.
            g.set_host_path(HostPath::Pageable);
            g.set_piece_bytes(len / 4);
            let ms = median_of(|| {
                buf.copy_from_slice(&data);
                clocked(|| g.run(Op::EcbEncrypt, &[], &mut buf).expect("run"))
            });
            row("pageable, quarters", ms, if buf == want { "same" } else { "MISMATCH" });
            g.set_piece_bytes(64 << 20);
            g.set_host_path(HostPath::Auto);
            // Page-locked memory: the registered path.
            let mut pinned = gpu.alloc_host(len).expect("pinned");
            let ms = median_of(|| {
                let b = pinned.as_mut_slice().expect("pinned");
                b.copy_from_slice(&data);
                clocked(|| g.run(Op::EcbEncrypt, &[], b).expect("run"))
            });
            let same = pinned.as_mut_slice().expect("pinned")[..] == want[..];
            row("page-locked, Auto", ms, if same { "same" } else { "MISMATCH" });
        }
    }
}
