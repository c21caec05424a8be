//! Compiles the kernels to machine code with NVRTC alone (no GPU needed) and
//! writes `<name>.cubin` files, for reading with `cuobjdump` (registers, spills,
//! instruction mix) before spending GPU time.
//!
//! `cargo run --example compile_kernels -p skinny-cuda -- OUT_DIR [MAJOR MINOR]`;
//! `SKINNY_KERNELS=many,many_aead_m1` compiles only the modules named.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).cloned().unwrap_or_else(|| ".".into());
    let major = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let minor = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let only = std::env::var("SKINNY_KERNELS").ok();
    let all = [
        skinny_cuda::kernels::BITSLICED,
        skinny_cuda::kernels::PAPER,
        skinny_cuda::kernels::LAB,
        skinny_cuda::kernels::AEAD,
        skinny_cuda::kernels::MANY,
    ]
    .into_iter()
    .chain(skinny_cuda::kernels::MANY_AEAD);
    for src in all.filter(|s| only.as_deref().is_none_or(|o| o.split(',').any(|n| n == s.name))) {
        match skinny_cuda::device::compile_offline(&src, (major, minor)) {
            Ok(img) => {
                let path = format!("{dir}/{}.cubin", src.name);
                std::fs::write(&path, img).expect("write cubin");
                println!("{path}");
            }
            Err(e) => {
                eprintln!("{}: {e}", src.name);
                std::process::exit(1);
            }
        }
    }
}
