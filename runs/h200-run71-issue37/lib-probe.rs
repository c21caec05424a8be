use skinny::hazmat::single::{self, FixedTweakeyPart, Lanes, Path};
use skinny::{Skinny, Variant};
use std::time::Instant;
fn main() {
    let n = 1_000_000usize;
    let c = Skinny::new(Variant::Skinny128_384, &[7u8; 48]).unwrap();
    let rtk = skinny::hazmat::round_tweakeys(&c);
    for path in Path::ALL.into_iter().filter(|p| p.is_available()) {
        let mut b = [1u8; 16];
        let t = Instant::now();
        for _ in 0..n { single::encrypt_block_with(path, skinny::CellWidth::Byte, rtk, &mut b).unwrap(); }
        let ns = t.elapsed().as_secs_f64() / n as f64 * 1e9;
        println!("{:<14} rtk 56 rounds: {ns:7.1} ns/call {:5.2} ns/round", path.name(), ns / 56.0);
        let lanes = Lanes::on_path(path).unwrap();
        let tk = [[7u8; 16]; 3];
        let refs = [&tk[0], &tk[1], &tk[2]];
        for nb in [1usize, 2, 3] {
            let mut bs = [[1u8; 16]; 3];
            let t = Instant::now();
            for _ in 0..n { lanes.encrypt(&refs, 40, &mut bs[..nb]).unwrap(); }
            let ns = t.elapsed().as_secs_f64() / n as f64 * 1e9;
            println!("{:<14} lanes {nb} blocks 40 rounds: {ns:7.1} ns/call {:5.2} ns/round", path.name(), ns / 40.0);
        }
        let p = FixedTweakeyPart::new(Variant::Skinny128_384, &[7u8; 32], 40).unwrap();
        let mut b = [1u8; 16];
        let t = Instant::now();
        for i in 0..n { let mut tk1 = [0u8; 16]; tk1[0] = i as u8; p.encrypt_block_with(path, &tk1, &mut b).unwrap(); }
        let ns = t.elapsed().as_secs_f64() / n as f64 * 1e9;
        println!("{:<14} fixed part tk1 40 rounds: {ns:7.1} ns/call {:5.2} ns/round", path.name(), ns / 40.0);
    }
}
