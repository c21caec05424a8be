//! The GPU against the CPU for the experiments added with start rounds:
//! differential-linear runs (fresh tweakey per query or shared, from round 1
//! and later), and differentials and boomerangs from a later start round with
//! tweakeys at the master or at the start. Same queries, same counts, same
//! pairs.
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use crate::support;

use skinny::Variant;
use skinny_lab::{Boomerang, Common, Control, Differential, DifferentialLinear, TweakeyAt};
use support::{gpu, same, Rng};

fn common(v: Variant, start: usize, rounds: usize, key_every: u64, queries: u64, rng: &mut Rng) -> Common {
    let mut c = Common::new(v, rounds, queries);
    c.start_round = start;
    c.key_every = key_every;
    c.seed = rng.next();
    c.show = 5;
    c
}

fn differential_linear_matches_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0xd1_11ea_0000_0001);
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        for (start, rounds, key_every, queries) in
            [(1, 1, 1, 50_000), (1, 3, 7, 70_001), (4, 5, 4096, 100_000), (9, 6, 1, 40_000), (1, v.rounds(), 3, 20_000)]
        {
            for at in [TweakeyAt::Master, TweakeyAt::Start] {
                let mut c = common(v, start, rounds, key_every, queries, &mut rng);
                c.tk_at = at;
                let mut e = DifferentialLinear::new(c, rng.sparse(bb, 2), rng.sparse(bb, 3));
                e.dk = rng.sparse(tk, 2);
                let what = format!("{v} rounds {start}+{rounds}, key every {key_every}, {at:?}");
                let gpu = e.run_gpu(&g, &Control::new()).expect("gpu run");
                let cpu = e.run().expect("cpu run");
                same(&what, &gpu, &cpu);
            }
        }
    }
}

fn later_start_rounds_match_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0x57a2_7000_0000_0001);
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        for (start, rounds, key_every) in [(2, 1, 1), (7, 4, 9), (v.rounds() - 5, 6, 4096)] {
            for at in [TweakeyAt::Master, TweakeyAt::Start] {
                let mut c = common(v, start, rounds, key_every, 60_000, &mut rng);
                c.tk_at = at;
                let mut d = Differential::new(c.clone(), rng.sparse(bb, 2), vec![0; bb]);
                d.dk = rng.sparse(tk, 2);
                d.dc_mask = rng.sparse(bb, 4);
                let what = format!("differential {v} rounds {start}+{rounds}, key every {key_every}, {at:?}");
                same(&what, &d.run_gpu(&g, &Control::new()).expect("gpu"), &d.run().expect("cpu"));
                // dc = 0 and dk2 = 0: every quartet returns, if decryption
                // takes the start round's constants and states too.
                let mut b = Boomerang::new(c, rng.sparse(bb, 3), vec![0; bb]);
                b.dk1 = rng.sparse(tk, 3);
                let what = format!("boomerang {v} rounds {start}+{rounds}, key every {key_every}, {at:?}");
                let gpu = b.run_gpu(&g, &Control::new()).expect("gpu");
                assert_eq!(gpu.hits, gpu.queries, "{what}");
                same(&what, &gpu, &b.run().expect("cpu"));
            }
        }
    }
}

skinny_test_support::gpu_test_group! {
    probe: skinny_cuda::Gpu::first,
    gpu: [differential_linear_matches_the_cpu, later_start_rounds_match_the_cpu],
}
