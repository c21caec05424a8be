//! Checks the many-message kernels' logic on the CPU, with no GPU: lays random
//! batches of every scheme (Romulus-N, -M, SKINNY-AEAD M1-M6) out as the GPU
//! engine does (its `layout` module,
//! included from the crate's source), runs the kernels' C++ compiled for the
//! host (`crates/skinny-cuda/hostsim/many.cpp`, built by
//! scripts/kernels/hostsim.sh) over each image, and compares the results with
//! the single-message `skinny-romulus` and `skinny-aead` types, tampered
//! messages included.
//!
//! `cargo run -p skinny-many --features cuda --example many_gpu_hostsim -- <many-hostsim binary> [messages]`

#![allow(dead_code)]

use skinny_aead::Member;
use skinny_many::{Batch, Flat, MessageError, Output, Scheme};
use skinny_romulus::aead::{AeadInOut, KeyInit};
use skinny_romulus::{RomulusM, RomulusN};
use std::process::Command;

#[path = "../src/gpu/assemble.rs"]
mod assemble;
#[path = "../src/gpu/layout.rs"]
mod layout;
use layout::Pass;

/// SplitMix64, for reproducible inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seal_with<A: AeadInOut + KeyInit>(key: &[u8], nonce: &[u8], ad: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut buf = msg.to_vec();
    let tag = A::new_from_slice(key)
        .unwrap()
        .encrypt_inout_detached(nonce.try_into().unwrap(), ad, buf.as_mut_slice().into())
        .unwrap();
    buf.extend_from_slice(&tag);
    buf
}

fn cpu_seal(scheme: Scheme, key: &[u8], nonce: &[u8], ad: &[u8], msg: &[u8]) -> Vec<u8> {
    match scheme {
        Scheme::RomulusN => seal_with::<RomulusN>(key, nonce, ad, msg),
        Scheme::RomulusM => seal_with::<RomulusM>(key, nonce, ad, msg),
        Scheme::SkinnyAead(Member::M1) => seal_with::<skinny_aead::SkinnyAeadM1>(key, nonce, ad, msg),
        Scheme::SkinnyAead(Member::M2) => seal_with::<skinny_aead::SkinnyAeadM2>(key, nonce, ad, msg),
        Scheme::SkinnyAead(Member::M3) => seal_with::<skinny_aead::SkinnyAeadM3>(key, nonce, ad, msg),
        Scheme::SkinnyAead(Member::M4) => seal_with::<skinny_aead::SkinnyAeadM4>(key, nonce, ad, msg),
        Scheme::SkinnyAead(Member::M5) => seal_with::<skinny_aead::SkinnyAeadM5>(key, nonce, ad, msg),
        Scheme::SkinnyAead(Member::M6) => seal_with::<skinny_aead::SkinnyAeadM6>(key, nonce, ad, msg),
    }
}

/// `lab_rc`, as the engine uploads it.
fn round_constants() -> Vec<u32> {
    let mut rc = vec![0u32; 56 * 6];
    for (r, c) in skinny::hazmat::spec::round::ROUND_CONSTANTS.iter().take(56).enumerate() {
        for b in 0..6 {
            rc[r * 6 + b] = 0u32.wrapping_sub(u32::from((c >> b) & 1));
        }
    }
    rc
}

/// Runs the host-compiled kernels over `batch` for `pass`.
fn hostsim(binary: &str, batch: &Batch, pass: Pass) -> Output {
    let flat: Flat<'_> = batch.flat();
    let chunks = layout::plan(&flat, batch.scheme(), pass, 1 << 20);
    let dir = std::env::temp_dir().join(format!("many-hostsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut images = Vec::new();
    for c in &chunks {
        let s = c.sections;
        let mut file = Vec::new();
        let scheme = Scheme::ALL.iter().position(|&s| s == batch.scheme()).unwrap() as u32;
        for w in [scheme, u32::from(pass == Pass::Open), c.groups(), c.messages.len() as u32] {
            file.extend_from_slice(&w.to_le_bytes());
        }
        for x in [
            s.in_len,
            s.out_len,
            s.lanes,
            s.ad_ends,
            s.data_ends,
            s.out_ends,
            s.keys,
            s.nonces,
            s.ad,
            s.data,
            s.out,
            s.status,
        ] {
            file.extend_from_slice(&(x as u64).to_le_bytes());
        }
        for w in round_constants() {
            file.extend_from_slice(&w.to_le_bytes());
        }
        let mut image = vec![0u8; s.in_len];
        layout::write_input(&flat, batch.scheme(), c, &mut image);
        file.extend_from_slice(&image);
        let (inp, out) = (dir.join("in"), dir.join("out"));
        std::fs::write(&inp, &file).unwrap();
        let st = Command::new(binary).arg(&inp).arg(&out).status().expect("runs the hostsim binary");
        assert!(st.success(), "hostsim failed");
        images.push(std::fs::read(&out).unwrap());
    }
    let _ = std::fs::remove_dir_all(&dir);
    assemble::output(&chunks, pass, |k| &images[k])
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let binary = args.get(1).expect("the many-hostsim binary");
    let n: usize = args.get(2).map_or(300, |s| s.parse().expect("a message count"));
    let mut failures = 0;
    for scheme in Scheme::ALL {
        let mut rng = Rng(0x6d61_6e79 ^ scheme.name().len() as u64);
        let mut plain = Batch::new(scheme);
        let mut sealed = Batch::new(scheme);
        let mut want = Vec::new();
        let mut tampered = Vec::new();
        for i in 0..n {
            // Mostly short lengths (classes repeat), sometimes long.
            let pick = |rng: &mut Rng| if rng.below(8) == 0 { rng.below(600) } else { rng.below(40) };
            let (ad_len, msg_len) = if i % 5 == 0 { (0, 64) } else { (pick(&mut rng), pick(&mut rng)) };
            let (key, nonce) = (rng.bytes(16), rng.bytes(scheme.nonce_len()));
            let (ad, msg) = (rng.bytes(ad_len), rng.bytes(msg_len));
            let ct = cpu_seal(scheme, &key, &nonce, &ad, &msg);
            plain.push(&key, &nonce, &ad, &msg).unwrap();
            let mut bad = ct.clone();
            let tamper = i % 7 == 3;
            if tamper {
                let at = rng.below(bad.len());
                bad[at] ^= 1 << rng.below(8);
            }
            sealed.push(&key, &nonce, &ad, &bad).unwrap();
            tampered.push(tamper);
            want.push((ct, msg));
        }
        // A too-short ciphertext fails alone.
        sealed.push(&[7; 16], &vec![9; scheme.nonce_len()], b"", &[1, 2, 3]).unwrap();
        let out = hostsim(binary, &plain, Pass::Seal);
        let bad_seal = (0..n).filter(|&i| out.message(i).ok() != Some(&want[i].0[..])).count();
        let out = hostsim(binary, &sealed, Pass::Open);
        let bad_open = (0..n)
            .filter(|&i| {
                let got = out.message(i);
                if tampered[i] {
                    got != Err(MessageError::Forged)
                } else {
                    got.ok() != Some(&want[i].1[..])
                }
            })
            .count();
        let short_ok = out.message(n) == Err(MessageError::Forged);
        println!(
            "{scheme}: seal {} of {n} match, open {} of {n} right ({} tampered refused), short refused: {short_ok}",
            n - bad_seal,
            n - bad_open,
            tampered.iter().filter(|&&t| t).count()
        );
        failures += bad_seal + bad_open + usize::from(!short_ok);
    }
    if failures > 0 {
        println!("{failures} failed");
        std::process::exit(1);
    }
    println!("all match");
}
