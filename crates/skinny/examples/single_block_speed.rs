//! CBC encryption chained one block at a time, the workload of the serial modes:
//! MiB/s of one variant on one single-block path, with an FNV-1a 64 checksum of
//! the ciphertext so the output can be compared with another implementation fed
//! the same bytes (key byte i = 0x11·i + 3, IV byte i = i, data byte i =
//! 31·i + i/256, all mod 256). `docs/cpu-single-block.md` describes the method.
//!
//! ```text
//! cargo run -p skinny --release --example single_block_speed -- <variant> <path> [MiB]
//! ```
//! `<path>`: `best` (what `Skinny::encrypt_block` runs), `portable-u64`, `ssse3`, `avx512-gfni`, `spec` (the
//! specification code), or `rustcrypto` (the `cbc` crate over the typed cipher,
//! the route of `skinny-bulk`'s CBC encryption, on the best path).

use cipher::{BlockModeEncrypt, KeyIvInit};
use skinny::hazmat::{round_tweakeys, single, spec};
use skinny::{Skinny, Variant};
use std::time::Instant;

fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

fn cbc_rustcrypto(v: Variant, key: &[u8], iv: &[u8], data: &mut [u8]) {
    macro_rules! run {
        ($ty:ty) => {{
            let mut enc = cbc::Encryptor::<$ty>::new_from_slices(key, iv).expect("lengths");
            let (blocks, rest) = cipher::Array::slice_as_chunks_mut(data);
            assert!(rest.is_empty());
            enc.encrypt_blocks(blocks);
        }};
    }
    match v {
        Variant::Skinny64_64 => run!(skinny::Skinny64_64),
        Variant::Skinny64_128 => run!(skinny::Skinny64_128),
        Variant::Skinny64_192 => run!(skinny::Skinny64_192),
        Variant::Skinny128_128 => run!(skinny::Skinny128_128),
        Variant::Skinny128_256 => run!(skinny::Skinny128_256),
        Variant::Skinny128_384 => run!(skinny::Skinny128_384),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let v: Variant = args.first().map(String::as_str).unwrap_or("skinny-128-256").parse().expect("variant");
    let path_name = args.get(1).map(String::as_str).unwrap_or("best");
    let mib: usize = args.get(2).map(|s| s.parse().expect("MiB")).unwrap_or(64);

    let bs = v.block_bytes();
    let width = v.cell_width();
    let key: Vec<u8> = (0..v.tweakey_bytes()).map(|i| (0x11 * i + 3) as u8).collect();
    let iv: Vec<u8> = (0..bs).map(|i| i as u8).collect();
    let mut data: Vec<u8> = (0..mib << 20).map(|i| (i * 31 + (i >> 8)) as u8).collect();
    let cipher = Skinny::new(v, &key).expect("key length");
    let rtk = round_tweakeys(&cipher);

    let path = match path_name {
        "best" => Some(single::Path::best_for(width)),
        "spec" | "rustcrypto" => None,
        name => Some(*single::Path::ALL.iter().find(|p| p.name() == name).expect("path name")),
    };
    if let Some(p) = path {
        assert!(p.is_available(), "{} is not available on this CPU", p.name());
    }

    let start = Instant::now();
    if path_name == "rustcrypto" {
        cbc_rustcrypto(v, &key, &iv, &mut data);
    } else {
        let mut prev = [0u8; 16];
        prev[..bs].copy_from_slice(&iv);
        for block in data.chunks_exact_mut(bs) {
            for (b, p) in block.iter_mut().zip(&prev) {
                *b ^= p;
            }
            match path {
                Some(p) => single::encrypt_block_with(p, width, rtk, block).expect("available"),
                None => spec::encrypt_block(width, rtk, block),
            }
            prev[..bs].copy_from_slice(block);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let shown = path.map_or(path_name, |p| p.name());
    println!("{v} {shown} {:.2} MiB/s {:016x}", mib as f64 / secs, fnv1a(&data));
}
