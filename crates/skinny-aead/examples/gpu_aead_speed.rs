//! SKINNY-AEAD on data resident on the GPU against the same GPU's ECB kernel of
//! the member's SKINNY variant, same buffer, same run: `seal_device` and
//! `open_device` of 1 GiB (16 bytes of AD), and `GpuCipher::run_device_in_place`
//! ECB encryption, each timed around a synchronised call (wall clock), one
//! warm-up then `RUNS` runs, best and median (figures in docs/aead.md).
//! `cargo run --release -p skinny-aead --features cuda --example gpu_aead_speed [MIB] [RUNS]`
//!
//! `SKINNY_EXAMPLE_NVRTC` (space-separated NVRTC options, e.g. `-DAEAD_MIN_BLOCKS=2`)
//! compiles the kernels with tuning switches, to compare them in one run.

use skinny::{Skinny, Variant};
use skinny_aead::gpu::{GpuAead, GpuDevice};
use skinny_aead::Member;
use skinny_bulk::gpu::{GpuCipher, KernelKind, Op};
use skinny_cuda::{Gpu, GpuOptions};
use std::time::Instant;

fn stats(mut t: Vec<f64>) -> (f64, f64) {
    t.sort_by(f64::total_cmp);
    (t[0], t[t.len() / 2])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mib: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1024);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let len = mib << 20;
    let extra: Vec<String> =
        std::env::var("SKINNY_EXAMPLE_NVRTC").unwrap_or_default().split_whitespace().map(String::from).collect();
    if !extra.is_empty() {
        println!("NVRTC options: {}", extra.join(" "));
    }
    // One context for both: the AEAD's device shares skinny-cuda's GPU.
    let gpu = std::sync::Arc::new(Gpu::open_with(0, &GpuOptions::with_nvrtc_options(extra))?);
    let device = GpuDevice::from(gpu.clone());
    println!("{}", gpu.describe());
    let stream = gpu.context().default_stream();
    let host: Vec<u8> =
        (0..len).map(|i| (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17) as u8).collect();
    let mut dev = stream.clone_htod(&host)?;
    drop(host);
    for (member, variant) in [(Member::M1, Variant::Skinny128_384), (Member::M5, Variant::Skinny128_256)] {
        // M5's 24-bit counter allows 2^24 - 3 blocks (256 MiB less 48 bytes).
        let len = if member == Member::M5 { len.min((1 << 28) - 64) } else { len };
        let key = [0x5au8; 16];
        let nonce = vec![7u8; member.nonce_len()];
        let mut aead = GpuAead::new(&device, member, &key)?;
        let mut tag = aead.seal_device(&nonce, &[1u8; 16], &mut dev, len)?;
        aead.open_device(&nonce, &[1u8; 16], &mut dev, len, &tag)?;
        let (mut seal, mut open, mut ecb) = (Vec::new(), Vec::new(), Vec::new());
        let cipher = Skinny::new(variant, &vec![3u8; variant.tweakey_bytes()])?;
        let ecb_cipher = GpuCipher::new(&gpu, KernelKind::Bitsliced, &cipher)?;
        let blocks = (len / 16) as u64;
        let tbps = |s: f64| (len as f64) * 8.0 / s / 1e12;
        ecb_cipher.run_device_in_place(Op::EcbEncrypt, &[], &mut dev, blocks, Some(&stream))?;
        stream.synchronize()?;
        for _ in 0..runs {
            let t = Instant::now();
            tag = aead.seal_device(&nonce, &[1u8; 16], &mut dev, len)?;
            seal.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            aead.open_device(&nonce, &[1u8; 16], &mut dev, len, &tag)?;
            open.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            ecb_cipher.run_device_in_place(Op::EcbEncrypt, &[], &mut dev, blocks, Some(&stream))?;
            stream.synchronize()?;
            ecb.push(t.elapsed().as_secs_f64());
        }
        let ((sb, sm), (ob, om), (eb, em)) = (stats(seal), stats(open), stats(ecb));
        println!(
            "{member} {} MiB resident: seal {:.2} Tb/s (median {:.2}), open {:.2} ({:.2}); {variant} ECB kernel {:.2} ({:.2}); \
             seal/ECB {:.2} (median {:.2}), open/seal {:.2} ({:.2})",
            len >> 20,
            tbps(sb),
            tbps(sm),
            tbps(ob),
            tbps(om),
            tbps(eb),
            tbps(em),
            eb / sb,
            em / sm,
            sb / ob,
            sm / om
        );
    }
    Ok(())
}
