//! Per-key counts on the GPU against the CPU: the same histogram (and the
//! same counts and pairs) for differentials, boomerangs and
//! differential-linear runs with key groups of 1, 64, 1000 and 4096 queries
//! (within a thread's 32 queries, across threads, across warps), groups that
//! span two launches (1000 and 7 do not divide a launch's 2^25 queries),
//! shards, and sets of GPUs (the queries cut between key groups).
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use crate::support;

use skinny::Variant;
use skinny_lab::gpu::LAUNCH_QUERIES;
use skinny_lab::{Boomerang, Common, Control, Differential, DifferentialLinear, Outcome, Shard, Witness};
use support::{gpu, Rng};

/// As `support::same`, with per-key counts on the CPU.
fn same<W: Witness + PartialEq + std::fmt::Debug>(what: &str, gpu: &Outcome<W>, cpu: &Outcome<W>) {
    assert!(cpu.per_key.is_some(), "{what}: per-key counts on the CPU");
    support::same(what, gpu, cpu);
}

fn common(v: Variant, rounds: usize, key_every: u64, groups: u64, rng: &mut Rng) -> Common {
    let mut c = Common::new(v, rounds, key_every * groups);
    c.key_every = key_every;
    c.seed = rng.next();
    c.show = 4;
    c.per_key = true;
    c
}

/// (key every, groups): about 10^5 to 4 x 10^5 queries each.
const SHAPES: [(u64, u64); 4] = [(1, 100_000), (64, 2_000), (1000, 301), (4096, 97)];

fn per_key_histograms_match_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0x9e7_4e75_0000_0001);
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        for (key_every, groups) in SHAPES {
            for rounds in [2, 5] {
                let c = common(v, rounds, key_every, groups, &mut rng);
                let what = format!("{v} {rounds} rounds, key every {key_every}");
                // About 4 compared bits: hits spread over the keys.
                let mut d = Differential::new(c.clone(), rng.sparse(bb, 1), vec![0; bb]);
                d.dk = rng.sparse(tk, 1);
                d.dc_mask = rng.sparse(bb, 4);
                same(&format!("differential {what}"), &d.run_gpu(&g, &Control::new()).unwrap(), &d.run().unwrap());
                let mut l = DifferentialLinear::new(c.clone(), rng.sparse(bb, 1), rng.sparse(bb, 2));
                l.dk = rng.sparse(tk, 1);
                let name = format!("differential-linear {what}");
                same(&name, &l.run_gpu(&g, &Control::new()).unwrap(), &l.run().unwrap());
                // One round returns at the S-box's BCT rate, key by key alike.
                let mut b = Boomerang::new(common(v, 1, key_every, groups, &mut rng), rng.sparse(bb, 1), vec![0; bb]);
                b.dc = rng.sparse(bb, 1);
                b.dk1 = rng.sparse(tk, 1);
                b.dk2 = rng.sparse(tk, 1);
                same(&format!("boomerang {what}"), &b.run_gpu(&g, &Control::new()).unwrap(), &b.run().unwrap());
            }
        }
    }
}

fn groups_spanning_launches_match_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0x1a0c_4000_0000_0002);
    let v = Variant::Skinny64_64;
    for key_every in [1000u64, 7] {
        assert_ne!(LAUNCH_QUERIES % key_every, 0, "a group must span the launches");
        // A little over one launch, whole groups.
        let groups = LAUNCH_QUERIES / key_every + 50;
        let c = common(v, 1, key_every, groups, &mut rng);
        let mut d = Differential::new(c, vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0; 8]);
        d.dc_mask = vec![0xf0, 0, 0, 0, 0, 0, 0, 0];
        d.dc = vec![0x80, 0, 0, 0, 0, 0, 0, 0];
        let gpu = d.run_gpu(&g, &Control::new()).unwrap();
        same(&format!("key every {key_every} over two launches"), &gpu, &d.run().unwrap());
        // Shards (whose launches begin elsewhere) merge into the whole.
        let mut merged: Option<Outcome<_>> = None;
        for i in 0..3 {
            let mut part = d.clone();
            part.common.shard = Shard::new(i, 3).unwrap();
            let o = part.run_gpu(&g, &Control::new()).unwrap();
            merged = Some(match merged {
                None => o,
                Some(m) => m.merge(o).unwrap(),
            });
        }
        assert_eq!(merged.unwrap().per_key, gpu.per_key, "key every {key_every}: shards");
    }
}

fn several_gpus_give_the_histogram_of_one() {
    let g = gpu();
    let all = skinny_cuda::GpuSet::all().expect("every GPU opens when GPU 0 does");
    // The same GPU twice: the queries split even on a machine with one.
    let mut doubled = all.gpus().to_vec();
    doubled.push(g.clone());
    let sets = [all, skinny_cuda::GpuSet::from_gpus(doubled).unwrap()];
    let mut rng = Rng(0x5e7_0000_0000_0003);
    for (key_every, groups) in [(1000u64, 2_001u64), (3, 700_001)] {
        let c = common(Variant::Skinny128_256, 2, key_every, groups, &mut rng);
        let mut d = Differential::new(c, rng.sparse(16, 1), vec![0; 16]);
        d.dc_mask = rng.sparse(16, 3);
        let one = d.run_gpu(&g, &Control::new()).unwrap();
        for set in &sets {
            let many = d.run_gpus(set, &Control::new()).unwrap();
            same(&format!("{} GPUs, key every {key_every}", set.len()), &many, &one);
        }
        same("one GPU against the CPU", &one, &d.run().unwrap());
    }
}

skinny_test_support::gpu_test_group! {
    probe: skinny_cuda::Gpu::first,
    gpu: [per_key_histograms_match_the_cpu, groups_spanning_launches_match_the_cpu, several_gpus_give_the_histogram_of_one],
}
