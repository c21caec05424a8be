//! Writes, for the host-side simulator of the kernels (`hostsim/`, run by
//! `scripts/kernels/hostsim.sh`), one test case per variant: the `__constant__`
//! data of both kernels for a random key, random blocks, and what the CPU
//! reference makes of them in every mode. No GPU needed.
//!
//! `cargo run --example hostsim_vectors -- OUT_DIR`

use skinny::{Skinny, Variant};
use skinny_cuda::constants;
use std::fmt::Write as _;

fn hex(b: &[u8]) -> String {
    b.iter().fold(String::new(), |mut s, x| {
        let _ = write!(s, "{x:02x}");
        s
    })
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u8 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 24) as u8
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next()).collect()
    }
}

fn counter_add(c: &[u8], n: u64) -> Vec<u8> {
    let mut out = c.to_vec();
    let mut carry = u128::from(n);
    for b in out.iter_mut().rev() {
        let s = u128::from(*b) + (carry & 0xff);
        *b = s as u8;
        carry = (carry >> 8) + (s >> 8);
    }
    out
}

fn main() {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".into());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Every variant at its full round count, and at 7 rounds (an odd count:
    // reduced-round SKINNY for cryptanalysis).
    for (v, rounds) in Variant::ALL.into_iter().flat_map(|v| [(v, v.rounds()), (v, 7)]) {
        let key = rng.bytes(v.tweakey_bytes());
        let c = Skinny::with_rounds(v, &key, rounds).expect("key length and rounds");
        let bs = v.block_bytes();
        let n = 2100; // three warps' worth and a partial one
        let data = rng.bytes(n * bs);
        // A counter whose low 64 bits are about to carry, and for 64-bit
        // blocks about to wrap.
        let mut iv = vec![0xffu8; bs];
        iv[0] = rng.next();
        iv[bs - 1] = 0xf0;
        let mut out = String::new();
        let _ = writeln!(out, "variant {} {} {}", v.name(), bs, c.rounds());
        let mut syms = vec![constants::bitsliced_masks(&c), constants::bitsliced_masks_reversed(&c)];
        if bs == 16 {
            syms.extend(constants::paper_symbols(&c));
        }
        for s in &syms {
            let _ = write!(out, "sym {} {}", s.name, s.words.len());
            for w in s.words.iter() {
                let _ = write!(out, " {w:08x}");
            }
            out.push('\n');
        }
        let _ = writeln!(out, "n {n}");
        let _ = writeln!(out, "data {}", hex(&data));
        let _ = writeln!(out, "iv {}", hex(&iv));
        let mut enc = data.clone();
        c.encrypt_blocks(&mut enc);
        let _ = writeln!(out, "ecb_enc {}", hex(&enc));
        let mut dec = data.clone();
        c.decrypt_blocks(&mut dec);
        let _ = writeln!(out, "ecb_dec {}", hex(&dec));
        let mut ctr = data.clone();
        for (i, b) in ctr.chunks_exact_mut(bs).enumerate() {
            let mut k = counter_add(&iv, i as u64);
            c.encrypt_block(&mut k);
            b.iter_mut().zip(&k).for_each(|(x, y)| *x ^= y);
        }
        let _ = writeln!(out, "ctr {}", hex(&ctr));
        let mut cbc = dec.clone();
        for i in 0..n {
            let prev = if i == 0 { &iv[..] } else { &data[(i - 1) * bs..i * bs] };
            cbc[i * bs..(i + 1) * bs].iter_mut().zip(prev).for_each(|(x, y)| *x ^= y);
        }
        let _ = writeln!(out, "cbc_dec {}", hex(&cbc));
        let mut cfb = data.clone();
        for i in 0..n {
            let mut k = if i == 0 { iv.clone() } else { data[(i - 1) * bs..i * bs].to_vec() };
            c.encrypt_block(&mut k);
            cfb[i * bs..(i + 1) * bs].iter_mut().zip(&k).for_each(|(x, y)| *x ^= y);
        }
        let _ = writeln!(out, "cfb_dec {}", hex(&cfb));
        let path = format!("{dir}/{}-r{rounds}.txt", v.name());
        std::fs::write(&path, out).expect("write vectors");
        println!("{path}");
    }
}
