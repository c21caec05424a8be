//! Queries per second of the lab's experiments on a GPU (and, for comparison,
//! on every CPU core), for the figures in docs/lab.md: 18-round SKINNY-128-256
//! by default, differential, boomerang, differential-linear and linear, a
//! fresh key every query and every 4096 queries. Also the kernels' registers
//! and spills.
//!
//! `cargo run --release -p skinny-lab --features cuda --example lab_speed -- [LOG2_QUERIES] [CPU_LOG2_QUERIES]`
//! (CPU_LOG2_QUERIES = 0: GPU only)

use skinny::Variant;
use skinny_lab::gpu::{KernelQuery, KernelSetup, QueryKernel};
use skinny_lab::{Boomerang, Common, Control, Differential, DifferentialLinear, Linear};

fn main() {
    let log2: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(34);
    let cpu_log2: u32 = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(24);
    // Extra NVRTC options for the kernels, to compare variants from one build
    // (SKINNY_LAB_NVRTC="-DNAME=VALUE ...", for a kernel variant under test).
    let extra: Vec<String> =
        std::env::var("SKINNY_LAB_NVRTC").map(|s| s.split_whitespace().map(String::from).collect()).unwrap_or_default();
    let gpu = match skinny_cuda::Gpu::open_with(0, &skinny_cuda::GpuOptions::with_nvrtc_options(extra))
        .map(std::sync::Arc::new)
    {
        Ok(g) => Some(g),
        Err(e) => {
            println!("no GPU: {e}");
            None
        }
    };
    let v = Variant::Skinny128_256;
    let one = |i: usize| {
        let mut b = vec![0u8; 16];
        b[i] = 1;
        b
    };
    let mut dk = vec![0u8; 32];
    dk[16] = 0x20;
    if let Some(g) = &gpu {
        println!("{}", g.describe());
        for (what, query) in [
            (
                "differential",
                KernelQuery::Differential {
                    dp: one(0),
                    dc: one(3),
                    dc_mask: vec![0xff; 16],
                    dk: dk.clone(),
                    cells: None,
                },
            ),
            ("boomerang", KernelQuery::Boomerang { dp: one(0), dc: one(3), dk1: dk.clone(), dk2: dk.clone() }),
            ("differential-linear", KernelQuery::DifferentialLinear { dp: one(0), mask: one(3), dk: dk.clone() }),
            ("linear", KernelQuery::Linear { in_mask: one(0), out_mask: one(3) }),
        ] {
            let setup = KernelSetup {
                variant: v,
                rounds: 18,
                start_round: 1,
                key_every: 1,
                plain_state: 1,
                key_state: 2,
                query,
            };
            if let Ok(k) = QueryKernel::new(g, setup) {
                if let Some((regs, spill)) = k.kernel_resources() {
                    println!("{what} kernel: {regs} registers a thread, {spill} bytes of spills");
                }
            }
        }
    }
    println!(
        "{:<19} {:>9} {:>6} {:>8} {:>12} {:>16}  log2 rate",
        "experiment", "key every", "where", "queries", "seconds", "queries/s"
    );
    for key_every in [1u64, 4096] {
        for exp in ["differential", "boomerang", "differential-linear", "linear"] {
            let boom = exp == "boomerang";
            for on_gpu in [true, false] {
                let l = if on_gpu { log2 - u32::from(boom) } else { cpu_log2 - u32::from(boom) };
                // No GPU, or CPU_LOG2 = 0 (GPU only).
                if (on_gpu && gpu.is_none()) || (!on_gpu && cpu_log2 == 0) {
                    continue;
                }
                let mut c = Common::new(v, 18, 1u64 << l);
                c.key_every = key_every;
                c.seed = 7;
                let control = Control::new();
                let (queries, seconds) = if boom {
                    let mut e = Boomerang::new(c, one(0), one(3));
                    e.dk1 = dk.clone();
                    e.dk2 = dk.clone();
                    let o = if on_gpu { e.run_gpu(gpu.as_ref().unwrap(), &control) } else { e.run() }.expect("run");
                    (o.queries, o.seconds)
                } else if exp == "linear" {
                    let e = Linear::new(c, one(0), one(3));
                    let o = if on_gpu { e.run_gpu(gpu.as_ref().unwrap(), &control) } else { e.run() }.expect("run");
                    (o.queries, o.seconds)
                } else if exp == "differential-linear" {
                    let mut e = DifferentialLinear::new(c, one(0), one(3));
                    e.dk = dk.clone();
                    let o = if on_gpu { e.run_gpu(gpu.as_ref().unwrap(), &control) } else { e.run() }.expect("run");
                    (o.queries, o.seconds)
                } else {
                    let mut e = Differential::new(c, one(0), one(3));
                    e.dk = dk.clone();
                    let o = if on_gpu { e.run_gpu(gpu.as_ref().unwrap(), &control) } else { e.run() }.expect("run");
                    (o.queries, o.seconds)
                };
                let rate = queries as f64 / seconds;
                println!(
                    "{:<19} {:>9} {:>6} {:>8} {:>12.3} {:>16.4e}  {:.2}",
                    exp,
                    key_every,
                    if on_gpu { "gpu" } else { "cpu" },
                    format!("2^{l}"),
                    seconds,
                    rate,
                    rate.log2()
                );
            }
        }
    }
}
