//! The GPU engine's speed on the case (SKINNY-128-384+, 64-byte
//! messages, no AD, each with its own key and nonce): messages per second with
//! the batch on the device, and GB/s of message bytes from page-locked host
//! memory to page-locked host memory; beside them, the link's own copy rates
//! (the floor of the page-locked path) and the bytes each message moves.
//!
//! Every scheme runs the same shape (SKINNY-AEAD with its own nonce and tag
//! lengths); the third argument picks the schemes (names as `Scheme::name`,
//! comma-separated, or `all`; default Romulus-N and -M).
//!
//! `cargo run --release -p skinny-many --features cuda --example many_gpu_speed -- [log2 messages] [repeats] [schemes]`

use skinny_aead::Member;
use skinny_cuda::cudarc::driver::CudaSlice;
use skinny_many::gpu::{GpuMany, Pass};
use skinny_many::{Batch, Scheme};
use skinny_romulus::aead::{AeadInOut, KeyInit};
use skinny_romulus::{RomulusM, RomulusN};
use std::time::Instant;

/// SplitMix64, so that no run times zeros.
struct Rng(u64);
impl Rng {
    fn fill(&mut self, out: &mut [u8]) {
        for c in out.chunks_mut(8) {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^= z >> 31;
            c.copy_from_slice(&z.to_le_bytes()[..c.len()]);
        }
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median seconds of `repeats` runs of `f` (after one warm-up run).
fn time(repeats: usize, mut f: impl FnMut()) -> f64 {
    f();
    median(
        (0..repeats)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64()
            })
            .collect(),
    )
}

fn seal_with<A: AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut buf = msg.to_vec();
    let tag = A::new_from_slice(key)
        .expect("key")
        .encrypt_inout_detached(nonce.try_into().expect("nonce"), b"", buf.as_mut_slice().into())
        .expect("length");
    buf.extend_from_slice(&tag);
    buf
}

fn cpu_seal(scheme: Scheme, key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    match scheme {
        Scheme::RomulusN => seal_with::<RomulusN>(key, nonce, msg),
        Scheme::RomulusM => seal_with::<RomulusM>(key, nonce, msg),
        Scheme::SkinnyAead(Member::M1) => seal_with::<skinny_aead::SkinnyAeadM1>(key, nonce, msg),
        Scheme::SkinnyAead(Member::M2) => seal_with::<skinny_aead::SkinnyAeadM2>(key, nonce, msg),
        Scheme::SkinnyAead(Member::M3) => seal_with::<skinny_aead::SkinnyAeadM3>(key, nonce, msg),
        Scheme::SkinnyAead(Member::M4) => seal_with::<skinny_aead::SkinnyAeadM4>(key, nonce, msg),
        Scheme::SkinnyAead(Member::M5) => seal_with::<skinny_aead::SkinnyAeadM5>(key, nonce, msg),
        Scheme::SkinnyAead(Member::M6) => seal_with::<skinny_aead::SkinnyAeadM6>(key, nonce, msg),
    }
}

fn batch(scheme: Scheme, n: usize, seed: u64) -> Batch {
    let mut rng = Rng(seed);
    let mut b = Batch::with_capacity(scheme, n, n * 64);
    let mut buf = [0u8; 96];
    let nl = scheme.nonce_len();
    for _ in 0..n {
        rng.fill(&mut buf);
        b.push(&buf[..16], &buf[16..16 + nl], b"", &buf[32..]).expect("lengths");
    }
    b
}

/// Median seconds of a host-to-device (`up`) or device-to-host copy of `len`
/// page-locked bytes.
fn link(gpu: &GpuMany, len: usize, up: bool, repeats: usize) -> f64 {
    let ctx = gpu.gpu().context();
    let stream = gpu.gpu().new_stream().expect("stream");
    // SAFETY: plain page-locked memory, written before it is read.
    let mut host = unsafe { ctx.alloc_pinned_with_flags::<u8>(len, 0) }.expect("page-locked memory");
    host.as_mut_slice().expect("host").fill(0x5a);
    let mut dev: CudaSlice<u8> = stream.alloc_zeros(len).expect("device memory");
    let h = host.as_mut_slice().expect("host");
    time(repeats, || {
        if up {
            stream.memcpy_htod(&h[..], &mut dev).expect("copy in");
        } else {
            stream.memcpy_dtoh(&dev, &mut h[..]).expect("copy out");
        }
        stream.synchronize().expect("sync");
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let log2: u32 = args.get(1).map_or(24, |s| s.parse().expect("log2 of the message count"));
    let repeats: usize = args.get(2).map_or(5, |s| s.parse().expect("repeats"));
    let n = 1usize << log2;
    let schemes: Vec<Scheme> = match args.get(3).map(String::as_str) {
        None => vec![Scheme::RomulusN, Scheme::RomulusM],
        Some("all") => Scheme::ALL.to_vec(),
        Some(list) => list.split(',').map(|name| name.parse::<Scheme>().expect("a scheme name")).collect(),
    };
    let gpu = GpuMany::new(0).unwrap_or_else(|e| {
        eprintln!("no GPU: {e}");
        std::process::exit(2)
    });
    println!("{}", gpu.describe());
    for (name, regs, local) in gpu.kernel_resources() {
        println!("kernel {name}: {regs} registers, {local} local bytes a thread");
    }
    println!("{n} messages of 64 bytes, no AD, each its own key and nonce; median of {repeats}");

    for scheme in schemes {
        let plain = batch(scheme, n, 0x5eed + scheme.name().len() as u64);
        // Device-resident seal, checked on a sample against the CPU type.
        let dev = gpu.upload(&plain, Pass::Seal).expect("upload");
        let mut out = gpu.device_output(&dev).expect("device output");
        let t = time(repeats, || gpu.seal_device(&dev, &mut out).expect("seal"));
        let sealed_out = gpu.download(&dev, &out).expect("download");
        let checked = (0..n).step_by(n / 61 + 1).all(|i| {
            let key = &plain.flat().keys[16 * i..16 * i + 16];
            sealed_out.message(i) == Ok(&cpu_seal(scheme, key, plain.nonce(i), plain.data(i))[..])
        });
        println!(
            "{scheme:>10} device-resident seal: {:.3e} messages/s ({:.1} GB/s of message bytes), {:.2} ms; sample == CPU: {checked}",
            n as f64 / t,
            n as f64 * 64.0 / t / 1e9,
            t * 1e3
        );
        drop(out);
        drop(dev);
        // Device-resident open of what was sealed.
        let mut sealed = Batch::with_capacity(scheme, n, n * (64 + scheme.tag_len()));
        for i in 0..n {
            let key = &plain.flat().keys[16 * i..16 * i + 16];
            sealed.push(key, plain.nonce(i), b"", sealed_out.message(i).expect("sealed")).expect("lengths");
        }
        drop(sealed_out);
        let dev = gpu.upload(&sealed, Pass::Open).expect("upload");
        let mut out = gpu.device_output(&dev).expect("device output");
        let t = time(repeats, || gpu.open_device(&dev, &mut out).expect("open"));
        let opened = gpu.download(&dev, &out).expect("download");
        let all_ok =
            opened.ok_count() == n && (0..n).step_by(n / 61 + 1).all(|i| opened.message(i) == Ok(plain.data(i)));
        println!(
            "{scheme:>10} device-resident open: {:.3e} messages/s, {:.2} ms; all authentic and sample == plaintext: {all_ok}",
            n as f64 / t,
            t * 1e3
        );
        drop(out);
        drop(dev);
        drop(opened);
        // Page-locked host to page-locked host.
        let pinned = gpu.pin(&plain, Pass::Seal).expect("pin");
        let mut out = gpu.pinned_output(&pinned).expect("pinned output");
        let t = time(repeats, || gpu.run_pinned(&pinned, &mut out).expect("seal"));
        let result = out.to_output(&pinned).expect("output");
        let same = (0..n).step_by(n / 61 + 1).all(|i| {
            let key = &plain.flat().keys[16 * i..16 * i + 16];
            result.message(i) == Ok(&cpu_seal(scheme, key, plain.nonce(i), plain.data(i))[..])
        });
        let (inb, outb) = (pinned.image_bytes(), pinned.output_image_bytes());
        println!(
            "{scheme:>10} page-locked seal: {:.1} GB/s of message bytes ({:.3e} messages/s), {:.2} ms; in {:.1} B/message ({:.1} GB/s), out {:.1} B/message ({:.1} GB/s); sample == CPU: {same}",
            n as f64 * 64.0 / t / 1e9,
            n as f64 / t,
            t * 1e3,
            inb as f64 / n as f64,
            inb as f64 / t / 1e9,
            outb as f64 / n as f64,
            outb as f64 / t / 1e9
        );
    }

    // The link alone (page-locked, one direction at a time, 1 GiB).
    let len = 1 << 30;
    let up = link(&gpu, len, true, repeats);
    let down = link(&gpu, len, false, repeats);
    println!(
        "link: host to device {:.1} GB/s, device to host {:.1} GB/s (1 GiB page-locked copies)",
        len as f64 / up / 1e9,
        len as f64 / down / 1e9
    );
}
