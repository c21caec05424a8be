//! The `gpu` and `gpu-paper` backends over several GPUs: each GPU alone
//! against `cpu-serial` (random keys, IVs and data, odd lengths, CTR counters
//! near the top), every GPU by default, and a chosen set, with the selections
//! that do not fit the machine refused. (Striping itself, [`MultiGpuCipher`]
//! against one GPU, is checked in `multigpu_cipher.rs`.)
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).
//!
//! [`MultiGpuCipher`]: skinny_bulk::gpu::MultiGpuCipher

use rand::RngCore;
use skinny::counter::Counter;
use skinny::Variant;
use skinny_bulk::backend::{self, BackendChoice, BlockEngine, GpuSelection, Options};
use skinny_bulk::gpu::Op;
use skinny_bulk::mode::Direction;
use skinny_cuda::{Gpu, GpuSet};
use skinny_test_support::rng::{random_bytes, random_cipher};
use skinny_test_support::run::cpu_serial;
use std::sync::Arc;

use skinny_test_support::gpu::open;

/// Every GPU.
fn all_gpus() -> Vec<Arc<Gpu>> {
    open(GpuSet::all).gpus().to_vec()
}

/// What the CPU gives for `op` on `data`.
fn cpu_result(c: &skinny::Skinny, op: Op, iv: &[u8], data: &[u8]) -> Vec<u8> {
    let be = cpu_serial();
    let mut e = be.engine(c).unwrap();
    let mut out = data.to_vec();
    cpu_apply(e.as_mut(), op, iv, &mut out);
    out
}

fn cpu_apply(e: &mut dyn BlockEngine, op: Op, iv: &[u8], data: &mut [u8]) {
    match op {
        Op::EcbEncrypt => e.ecb(Direction::Encrypt, data),
        Op::EcbDecrypt => e.ecb(Direction::Decrypt, data),
        Op::Ctr => e.ctr(Counter::from_block(iv).unwrap(), data),
        Op::CbcDecrypt => e.cbc_decrypt(iv, data),
        Op::CfbDecrypt => e.cfb_decrypt(iv, data),
    }
    .unwrap();
}

const OPS: [Op; 5] = [Op::EcbEncrypt, Op::EcbDecrypt, Op::Ctr, Op::CbcDecrypt, Op::CfbDecrypt];

/// An IV; for CTR every other one near the top, so the counter carries.
fn iv_for(rng: &mut impl RngCore, op: Op, bs: usize, near_top: bool) -> Vec<u8> {
    match op {
        Op::EcbEncrypt | Op::EcbDecrypt => Vec::new(),
        Op::Ctr if near_top => {
            let mut iv = vec![0xff; bs];
            iv[bs - 1] = 0xf0;
            iv
        }
        _ => random_bytes(rng, bs),
    }
}

fn each_gpu_alone_matches_cpu_serial() {
    let gpus = all_gpus();
    let mut rng = rand::rng();
    for g in &gpus {
        let i = g.ordinal();
        for paper in [false, true] {
            let choice = if paper { BackendChoice::GpuPaper } else { BackendChoice::Gpu };
            let be = backend::open(choice, &Options::default().gpus(GpuSelection::List(vec![i]))).unwrap();
            assert!(be.describe().contains(g.name()), "{}", be.describe());
            for v in Variant::ALL.into_iter().filter(|&v| be.supports(v)) {
                let c = random_cipher(&mut rng, v);
                let bs = v.block_bytes();
                let mut e = be.engine(&c).unwrap();
                for len in [0, bs, 33 * bs, 4097 * bs, (1 << 20) + 5 * bs] {
                    let data = random_bytes(&mut rng, len);
                    for (k, op) in OPS.into_iter().enumerate() {
                        let iv = iv_for(&mut rng, op, bs, k % 2 == 0);
                        let want = cpu_result(&c, op, &iv, &data);
                        let mut got = data.clone();
                        cpu_apply(e.as_mut(), op, &iv, &mut got);
                        assert!(got == want, "GPU {i} {choice} {v} {op:?} {len} bytes differs from cpu-serial");
                    }
                }
            }
        }
    }
}

fn the_gpu_backend_opens_every_gpu_by_default_and_a_chosen_set() {
    let gpus = all_gpus();
    let be = backend::open(BackendChoice::Gpu, &Options::default()).unwrap();
    if gpus.len() > 1 {
        assert!(be.describe().contains(&format!("striped over {} GPUs", gpus.len())), "{}", be.describe());
    } else {
        assert!(!be.describe().contains("striped"), "{}", be.describe());
    }
    let one = backend::open(BackendChoice::Gpu, &Options::default().gpus(GpuSelection::First(1))).unwrap();
    assert!(!one.describe().contains("striped"));
    let too_many = GpuSelection::First(gpus.len() + 1);
    let e = backend::open(BackendChoice::Gpu, &Options::default().gpus(too_many)).err().expect("refused");
    assert!(matches!(e, skinny_bulk::Error::GpuSelection(_)), "{e}");
    let e = backend::open(BackendChoice::Gpu, &Options::default().gpus(GpuSelection::List(vec![gpus.len()])))
        .err()
        .expect("refused");
    assert!(e.to_string().contains(&format!("no GPU number {}", gpus.len())), "{e}");
}

skinny_test_support::gpu_test_group! {
    probe: GpuSet::all,
    gpu: [each_gpu_alone_matches_cpu_serial, the_gpu_backend_opens_every_gpu_by_default_and_a_chosen_set],
}
