//! The GPU backends (`gpu`, `gpu-paper`) against the portable `cpu-serial`
//! backend: byte-identical results for random keys, IVs and data, every
//! variant, mode and direction, lengths around block and warp boundaries,
//! unaligned buffers, CTR counters that carry and wrap inside one launch,
//! streams, reduced rounds, and 1 GiB. (The GPU host code under them, its host
//! paths over many pieces, device-resident data and page-locked memory, is
//! checked in `gpu_cipher.rs`.)
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`). The 1 GiB
//! test is ignored unless `SKINNY_GPU_BIG=1` (scripts/gpu/check.sh sets it).

use rand::Rng;
use skinny::counter::Counter;
use skinny::Variant;
use skinny_bulk::backend::{self, Backend, BackendChoice, BlockEngine, Options};
use skinny_bulk::mode::{Direction, Mode};
use skinny_test_support::gpu::open;
use skinny_test_support::rng::{random_bytes, random_cipher};
use skinny_test_support::run::{cpu_serial, run};

/// The GPU backends.
fn gpu_backends() -> Vec<Box<dyn Backend>> {
    vec![
        open(|| backend::open(BackendChoice::Gpu, &Options::default())),
        backend::open(BackendChoice::GpuPaper, &Options::default()).expect("gpu-paper opens when gpu does"),
    ]
}

/// What an engine op does to `data`, on a copy.
#[derive(Clone, Copy, Debug)]
enum Op {
    Ecb(Direction),
    Ctr,
    CbcDec,
    CfbDec,
}

fn apply(e: &mut dyn BlockEngine, op: Op, iv: &[u8], data: &mut [u8]) {
    match op {
        Op::Ecb(d) => e.ecb(d, data),
        Op::Ctr => e.ctr(Counter::from_block(iv).unwrap(), data),
        Op::CbcDec => e.cbc_decrypt(iv, data),
        Op::CfbDec => e.cfb_decrypt(iv, data),
    }
    .unwrap_or_else(|err| panic!("{op:?} failed: {err}"));
}

fn check_same(gpu: &mut dyn BlockEngine, cpu: &mut dyn BlockEngine, op: Op, iv: &[u8], data: &[u8], what: &str) {
    let mut want = data.to_vec();
    apply(cpu, op, iv, &mut want);
    let mut got = data.to_vec();
    apply(gpu, op, iv, &mut got);
    if got != want {
        let first = got.iter().zip(&want).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{what} {op:?}: {} bytes differ from cpu-serial, the first at byte {first}",
            got.iter().zip(&want).filter(|(a, b)| a != b).count()
        );
    }
}

const BLOCK_COUNTS: [usize; 12] = [0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 4095, 4096, 4097 + 1024];

fn every_variant_mode_and_direction_matches_cpu_serial() {
    let gpus = gpu_backends();
    let mut rng = rand::rng();
    let cpu_be = cpu_serial();
    for be in &gpus {
        for v in Variant::ALL {
            if !be.supports(v) {
                continue;
            }
            let c = random_cipher(&mut rng, v);
            let bs = v.block_bytes();
            let mut gpu = be.engine(&c).unwrap();
            let mut cpu = cpu_be.engine(&c).unwrap();
            for n in BLOCK_COUNTS {
                let data = random_bytes(&mut rng, n * bs);
                let iv = random_bytes(&mut rng, bs);
                let what = format!("{} {v} {n} blocks", be.name());
                for op in [Op::Ecb(Direction::Encrypt), Op::Ecb(Direction::Decrypt), Op::Ctr, Op::CbcDec, Op::CfbDec] {
                    check_same(gpu.as_mut(), cpu.as_mut(), op, &iv, &data, &what);
                }
            }
            // CTR on lengths that are not whole blocks.
            for len in [1, bs - 1, bs + 1, 2 * bs - 1, 1000, 65_536 + 7, 100_003] {
                let data = random_bytes(&mut rng, len);
                let iv = random_bytes(&mut rng, bs);
                check_same(gpu.as_mut(), cpu.as_mut(), Op::Ctr, &iv, &data, &format!("{} {v} {len} bytes", be.name()));
            }
        }
    }
}

fn unaligned_buffers_match() {
    let gpus = gpu_backends();
    let mut rng = rand::rng();
    let cpu_be = cpu_serial();
    for be in &gpus {
        for v in [Variant::Skinny64_128, Variant::Skinny128_256] {
            if !be.supports(v) {
                continue;
            }
            let c = random_cipher(&mut rng, v);
            let bs = v.block_bytes();
            let mut gpu = be.engine(&c).unwrap();
            let mut cpu = cpu_be.engine(&c).unwrap();
            let backing = random_bytes(&mut rng, 3000 * bs + 64);
            let iv = random_bytes(&mut rng, bs);
            for offset in [1, 3, 7, 8, 13] {
                let data = &backing[offset..offset + 3000 * bs];
                let what = format!("{} {v} offset {offset}", be.name());
                for op in [Op::Ecb(Direction::Encrypt), Op::Ecb(Direction::Decrypt), Op::Ctr, Op::CbcDec, Op::CfbDec] {
                    // In place on a slice that starts at `offset` of its allocation.
                    let mut buf_gpu = backing.clone();
                    apply(gpu.as_mut(), op, &iv, &mut buf_gpu[offset..offset + data.len()]);
                    let mut buf_cpu = backing.clone();
                    apply(cpu.as_mut(), op, &iv, &mut buf_cpu[offset..offset + data.len()]);
                    assert!(buf_gpu == buf_cpu, "{what} {op:?}: differs from cpu-serial");
                }
            }
        }
    }
}

fn ctr_counter_carries_across_64_bits_and_wraps_inside_one_launch() {
    let gpus = gpu_backends();
    let mut rng = rand::rng();
    let cpu_be = cpu_serial();
    for be in &gpus {
        for v in Variant::ALL {
            if !be.supports(v) {
                continue;
            }
            let c = random_cipher(&mut rng, v);
            let bs = v.block_bytes();
            let mut gpu = be.engine(&c).unwrap();
            let mut cpu = cpu_be.engine(&c).unwrap();
            let data = random_bytes(&mut rng, 2500 * bs + 5);
            // Low 64 bits 5 short of carrying (for 64-bit blocks: of wrapping).
            let mut carry = random_bytes(&mut rng, bs);
            carry[bs - 8..].copy_from_slice(&(u64::MAX - 4).to_be_bytes());
            // The whole counter 700 short of wrapping.
            let mut wrap = vec![0xffu8; bs];
            wrap[bs - 2..].copy_from_slice(&(u16::MAX - 699).to_be_bytes());
            for (name, iv) in [("carry", carry), ("wrap", wrap)] {
                check_same(gpu.as_mut(), cpu.as_mut(), Op::Ctr, &iv, &data, &format!("{} {v} {name}", be.name()));
            }
        }
    }
}

fn streaming_processor_on_gpu_matches_cpu_serial() {
    let gpus = gpu_backends();
    let mut rng = rand::rng();
    let cpu_be = cpu_serial();
    for be in &gpus {
        for v in [Variant::Skinny64_64, Variant::Skinny128_128] {
            if !be.supports(v) {
                continue;
            }
            let c = random_cipher(&mut rng, v);
            let bs = v.block_bytes();
            for mode in Mode::ALL {
                for dir in [Direction::Encrypt, Direction::Decrypt] {
                    let len = 70_000 + rng.random_range(0..bs);
                    let mut data = random_bytes(&mut rng, len);
                    if matches!(mode, Mode::Ecb | Mode::Cbc) && dir == Direction::Decrypt {
                        data.truncate(len / bs * bs);
                    }
                    let iv = if mode.needs_iv() { Some(random_bytes(&mut rng, bs)) } else { None };
                    let pad = !(matches!(mode, Mode::Ecb | Mode::Cbc) && dir == Direction::Decrypt);
                    let pad = pad && mode.is_block_mode();
                    // In pieces of 17,000 bytes.
                    let cuts = vec![17_000; data.len() / 17_000];
                    let run_on = |b: &dyn Backend| run(b, &c, mode, dir, iv.as_deref(), pad, &data, &cuts).unwrap();
                    let got = run_on(be.as_ref());
                    let want = run_on(cpu_be.as_ref());
                    assert!(got == want, "{} {v} {mode} {dir:?}: differs from cpu-serial", be.name());
                }
            }
        }
    }
}

fn one_gib_matches_the_cpu() {
    let gpus = gpu_backends();
    let mut rng = rand::rng();
    let v = Variant::Skinny128_256;
    let c = random_cipher(&mut rng, v);
    let cpu_be = backend::open(BackendChoice::Cpu, &Options::default()).unwrap();
    let mut cpu = cpu_be.engine(&c).unwrap();
    let len = (1usize << 30) + 5;
    let data = random_bytes(&mut rng, len);
    let iv = random_bytes(&mut rng, 16);
    let mut want = data.clone();
    cpu.ctr(Counter::from_block(&iv).unwrap(), &mut want).unwrap();
    for be in &gpus {
        let mut g = be.engine(&c).unwrap();
        let mut got = data.clone();
        g.ctr(Counter::from_block(&iv).unwrap(), &mut got).unwrap();
        assert!(got == want, "{} CTR over 1 GiB + 5 differs from the cpu backend", be.name());
        // ECB both ways: encryption against the CPU on the same GiB, and back.
        let whole = &data[..1 << 30];
        let mut enc = whole.to_vec();
        g.ecb(Direction::Encrypt, &mut enc).unwrap();
        let mut cpu_enc = whole.to_vec();
        cpu.ecb(Direction::Encrypt, &mut cpu_enc).unwrap();
        assert!(enc == cpu_enc, "{} ECB encryption over 1 GiB differs from the cpu backend", be.name());
        g.ecb(Direction::Decrypt, &mut enc).unwrap();
        assert!(enc == whole, "{} ECB decryption over 1 GiB does not give the plaintext back", be.name());
    }
}

fn reduced_rounds_match_cpu_serial() {
    let gpus = gpu_backends();
    let mut rng = rand::rng();
    let serial = cpu_serial();
    for be in &gpus {
        for v in Variant::ALL.into_iter().filter(|&v| be.supports(v)) {
            let bs = v.block_bytes();
            for rounds in [1, 7, 12, v.rounds() - 1] {
                let key = random_bytes(&mut rng, v.tweakey_bytes());
                let c = skinny::Skinny::with_rounds(v, &key, rounds).unwrap();
                let mut g = be.engine(&c).unwrap();
                let mut s = serial.engine(&c).unwrap();
                let data = random_bytes(&mut rng, 5000 * bs);
                let iv = random_bytes(&mut rng, bs);
                for op in [Op::Ecb(Direction::Encrypt), Op::Ecb(Direction::Decrypt), Op::Ctr, Op::CbcDec] {
                    let mut want = data.clone();
                    apply(s.as_mut(), op, &iv, &mut want);
                    let mut got = data.clone();
                    apply(g.as_mut(), op, &iv, &mut got);
                    assert!(got == want, "{} {v} {rounds} rounds {op:?} differs from cpu-serial", be.name());
                }
            }
        }
    }
}

skinny_test_support::gpu_test_group! {
    probe: || backend::open(BackendChoice::Gpu, &Options::default()),
    gpu: [every_variant_mode_and_direction_matches_cpu_serial, unaligned_buffers_match, ctr_counter_carries_across_64_bits_and_wraps_inside_one_launch, streaming_processor_on_gpu_matches_cpu_serial, reduced_rounds_match_cpu_serial],
    big_gpu: [one_gib_matches_the_cpu],
}
