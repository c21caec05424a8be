//! Compiles the kernels to machine code with NVRTC alone (no GPU needed) and
//! writes `<name>.cubin` files, for reading with `cuobjdump` (registers, spills,
//! instruction mix) before spending GPU time.
//!
//! `cargo run --example compile_kernels -p skinny-cuda -- OUT_DIR [MAJOR MINOR]`;
//! `SKINNY_KERNELS=many,many_aead_m1` compiles only the modules named.
//!
//! The lab's and the many-message engine's sources take their products'
//! launch bounds; this tool, which sees neither product, compiles them with
//! the values their crates pass (`skinny-lab`'s `LAB_MAX_WARPS`,
//! `skinny-many`'s `MANY_THREADS`): for reading machine code, not running it.

use skinny_cuda::kernels::{KernelSource, AEAD, BITSLICED, LAB_TEXT, MANY_AEAD_TEXTS, MANY_TEXT, PAPER};

const LAB_DEFINES: &[(&str, u32)] = &[("SKINNY_LAB_MAX_WARPS", 8)];
const MANY_DEFINES: &[(&str, u32)] = &[("SKINNY_MANY_THREADS", 128)];
const MANY_AEAD_NAMES: [&str; 6] =
    ["many_aead_m1", "many_aead_m2", "many_aead_m3", "many_aead_m4", "many_aead_m5", "many_aead_m6"];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).cloned().unwrap_or_else(|| ".".into());
    let major = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let minor = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(0);
    let only = std::env::var("SKINNY_KERNELS").ok();
    let all = [
        BITSLICED,
        PAPER,
        KernelSource { name: "lab", text: LAB_TEXT, defines: LAB_DEFINES },
        AEAD,
        KernelSource { name: "many", text: MANY_TEXT, defines: MANY_DEFINES },
    ]
    .into_iter()
    .chain(MANY_AEAD_NAMES.into_iter().zip(MANY_AEAD_TEXTS).map(|(name, text)| KernelSource {
        name,
        text,
        defines: MANY_DEFINES,
    }));
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
