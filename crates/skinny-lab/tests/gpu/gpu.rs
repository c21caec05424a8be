//! The experiments on the GPU against the CPU: the same queries must give the
//! same counts and the same right pairs, for every variant, round counts from
//! 1 to full, keys every query or every few, sharded runs, and launches with
//! more hits than one launch records.
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` (the GPU machines) each fails
//! (`skinny_test_support::gpu`).

use crate::support;

use skinny::Variant;
use skinny_lab::{Boomerang, Common, Control, Differential, Shard};
use support::{gpu, same, Rng};

fn differentials_match_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        for (rounds, key_every, queries) in
            [(1, 1, 50_000), (2, 7, 70_001), (5, 4096, 100_000), (v.rounds(), 3, 40_000)]
        {
            let mut c = Common::new(v, rounds, queries);
            c.key_every = key_every;
            c.seed = rng.next();
            c.show = 7;
            let mut e = Differential::new(c, rng.bytes(bb, 2), vec![0; bb]);
            e.dk = rng.bytes(tk, 2);
            // About 5 compared bits: hits are frequent, so the counts say much.
            e.dc_mask = rng.bytes(bb, 5);
            e.dc = rng.bytes(bb, 0).iter().zip(&e.dc_mask).map(|(a, m)| a & m).collect();
            let what = format!("{v} {rounds} rounds, key every {key_every}");
            let gpu = e.run_gpu(&g, &Control::new()).expect("gpu run");
            let cpu = e.run().expect("cpu run");
            same(&what, &gpu, &cpu);
        }
    }
}

fn boomerangs_match_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0xfeed_beef_0000_0001);
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        for (rounds, key_every) in [(1, 1), (2, 5), (18.min(v.rounds()), 1), (v.rounds(), 4096)] {
            // Returns always (dc = 0, dk2 = 0), with one-block-sparse
            // differences, and with everything random.
            let cases = [
                (rng.bytes(bb, 3), vec![0; bb], rng.bytes(tk, 4), vec![0; tk]),
                (rng.bytes(bb, 1), rng.bytes(bb, 1), rng.bytes(tk, 1), rng.bytes(tk, 1)),
                (rng.bytes(bb, 0), rng.bytes(bb, 0), rng.bytes(tk, 0), rng.bytes(tk, 0)),
            ];
            for (dp, dc, dk1, dk2) in cases {
                let mut c = Common::new(v, rounds, 30_000);
                c.key_every = key_every;
                c.seed = rng.next();
                c.show = 5;
                let mut e = Boomerang::new(c, dp, dc);
                e.dk1 = dk1;
                e.dk2 = dk2;
                let what = format!("{v} {rounds} rounds, key every {key_every}, {:?}", e.dp);
                same(&what, &e.run_gpu(&g, &Control::new()).expect("gpu"), &e.run().expect("cpu"));
            }
        }
    }
}

fn shards_and_busy_launches_match_the_cpu() {
    let g = gpu();
    // 1-round SKINNY-64-64, cell 0 difference 1 -> 8 in cells 0, 4, 12: 4/16
    // of the queries hit, far more than a launch records, so the earliest
    // pairs are searched for again in parts.
    let mut c = Common::new(Variant::Skinny64_64, 1, 3_000_000);
    c.show = 10;
    c.key_every = 1000;
    let mut dp = vec![0u8; 8];
    dp[0] = 0x10;
    let dc = vec![0x80, 0, 0x80, 0, 0, 0, 0x80, 0];
    for shards in [1, 3] {
        for i in 0..shards {
            let mut c = c.clone();
            c.shard = Shard::new(i, shards).unwrap();
            let e = Differential::new(c, dp.clone(), dc.clone());
            let gpu = e.run_gpu(&g, &Control::new()).expect("gpu");
            assert!(gpu.hits > 100_000);
            same(&format!("shard {i}/{shards}"), &gpu, &e.run().expect("cpu"));
        }
    }
}

fn a_stopped_run_reports_what_it_did() {
    let g = gpu();
    let c = Common::new(Variant::Skinny128_256, 18, 1 << 40);
    let e = Differential::new(c, vec![1; 16], vec![2; 16]);
    let control = Control::new();
    control.stop();
    let o = e.run_gpu(&g, &control).expect("gpu");
    assert!(o.interrupted);
    assert_eq!(o.queries, 0);
}

/// Every GPU, and every GPU plus GPU 0 again (so striping is checked on a
/// machine with one GPU too).
fn gpu_sets() -> Vec<skinny_cuda::GpuSet> {
    let g = gpu();
    let all = skinny_cuda::GpuSet::all().expect("every GPU opens when GPU 0 does");
    let mut doubled = all.gpus().to_vec();
    doubled.push(g);
    vec![all, skinny_cuda::GpuSet::from_gpus(doubled).unwrap()]
}

fn several_gpus_give_the_outcome_of_one() {
    let g = gpu();
    let sets = gpu_sets();
    // Busy (many hits, right pairs searched again) and sparse experiments,
    // sharded and not: counts and the first right pairs must not depend on
    // how many GPUs share the queries.
    let mut c = Common::new(Variant::Skinny64_64, 1, 2_000_003);
    c.show = 10;
    c.key_every = 1000;
    let mut dp = vec![0u8; 8];
    dp[0] = 0x10;
    let dc = vec![0x80, 0, 0x80, 0, 0, 0, 0x80, 0];
    for shards in [1, 3] {
        let mut c = c.clone();
        c.shard = Shard::new(shards - 1, shards).unwrap();
        let e = Differential::new(c, dp.clone(), dc.clone());
        let one = e.run_gpu(&g, &Control::new()).expect("one gpu");
        for set in &sets {
            let many = e.run_gpus(set, &Control::new()).expect("gpus");
            same(&format!("{} GPUs, shard of {shards}", set.len()), &many, &one);
        }
        same("one GPU against the CPU", &one, &e.run().expect("cpu"));
    }
    let mut rng = Rng(0x5151_7777_0000_0003);
    let v = Variant::Skinny128_256;
    let mut c = Common::new(v, 6, 200_001);
    c.key_every = 1;
    c.seed = 42;
    c.show = 5;
    let mut b = Boomerang::new(c, rng.bytes(16, 1), vec![0; 16]);
    b.dk1 = rng.bytes(32, 2);
    let one = b.run_gpu(&g, &Control::new()).expect("one gpu");
    for set in &sets {
        same(&format!("boomerang, {} GPUs", set.len()), &b.run_gpus(set, &Control::new()).expect("gpus"), &one);
    }
}

fn a_stopped_run_on_several_gpus_reports_what_it_did() {
    let sets = gpu_sets();
    let c = Common::new(Variant::Skinny128_256, 18, 1 << 40);
    let e = Differential::new(c, vec![1; 16], vec![2; 16]);
    let control = Control::new();
    control.stop();
    for set in &sets {
        let o = e.run_gpus(set, &control).expect("gpus");
        assert!(o.interrupted);
        assert_eq!(o.queries, 0);
    }
}

skinny_test_support::gpu_test_group! {
    probe: skinny_cuda::Gpu::first,
    gpu: [differentials_match_the_cpu, boomerangs_match_the_cpu, shards_and_busy_launches_match_the_cpu, a_stopped_run_reports_what_it_did, several_gpus_give_the_outcome_of_one, a_stopped_run_on_several_gpus_reports_what_it_did],
}
