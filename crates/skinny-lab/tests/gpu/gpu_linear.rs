//! The GPU against the CPU for the experiments of issue 29's second part:
//! linear runs (every variant family, fresh tweakeys and one fixed key,
//! from round 1 and later rounds, a shard) and differentials with a cell
//! pattern (alone, ANDed with a bit condition, from a later round). Same
//! queries, same counts, same kept hits.
//!
//! Without a usable GPU each test is ignored (one line says why); with
//! `SKINNY_REQUIRE_GPU=1` each fails (`skinny_test_support::gpu`).

use crate::support;

use skinny::hazmat::spec::pack_cells;
use skinny::Variant;
use skinny_lab::{CellPattern, Common, Control, Differential, Linear, Shard, TweakeyAt};
use support::{gpu, same, Rng};

fn common(v: Variant, start: usize, rounds: usize, key_every: u64, queries: u64, rng: &mut Rng) -> Common {
    let mut c = Common::new(v, rounds, queries);
    c.start_round = start;
    c.key_every = key_every;
    c.seed = rng.next();
    c.show = 7;
    c
}

fn linear_matches_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0x11ea_7000_0000_0001);
    for v in Variant::ALL {
        let bb = v.block_bytes();
        // Fresh keys, small groups, one fixed key (key_every >= queries), a
        // later start round, the full cipher.
        for (start, rounds, key_every, queries) in [
            (1, 1, 1, 50_000),
            (1, 3, 5, 70_001),
            (1, 4, 1 << 30, 60_000),
            (7, 5, 4096, 100_000),
            (9, 3, 1, 40_000),
            (1, v.rounds(), 3, 20_000),
        ] {
            for at in [TweakeyAt::Master, TweakeyAt::Start] {
                let mut c = common(v, start, rounds, key_every, queries, &mut rng);
                c.tk_at = at;
                let e = Linear::new(c, rng.sparse(bb, 3), rng.sparse(bb, 2));
                let what = format!("linear {v} rounds {start}+{rounds}, key every {key_every}, {at:?}");
                same(&what, &e.run_gpu(&g, &Control::new()).expect("gpu run"), &e.run().expect("cpu run"));
            }
        }
        let mut c = common(v, 2, 2, 7, 90_000, &mut rng);
        c.shard = Shard::new(2, 3).unwrap();
        let e = Linear::new(c, rng.sparse(bb, 2), rng.sparse(bb, 2));
        same(&format!("linear {v}, shard 2/3"), &e.run_gpu(&g, &Control::new()).unwrap(), &e.run().unwrap());
    }
}

fn cell_patterns_match_the_cpu() {
    let g = gpu();
    let mut rng = Rng(0xce11_5000_0000_0001);
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        // Cells 0 and 10 active: one round sends both to column 0, whose
        // cells 0 and 12 cancel when the S-box outputs are equal.
        let mut cells = [0u8; 16];
        (cells[0], cells[10]) = (1, 1);
        let mut two = vec![0u8; bb];
        pack_cells(v.cell_width(), &cells, &mut two);
        for (start, rounds, key_every, pattern, bits) in [
            (1, 1, 1, "0000 x000 x000 0000", false),
            (1, 1, 4096, "x*** x*** x*** x***", true),
            (6, 1, 3, "0000 x000 x000 0000", true),
            (1, 2, 5, "**** **** **** ****", false),
            (1, 2, 1, "x*** **** ***0 *x**", true),
            (4, 3, 300, "**** *0** **** ****", false),
        ] {
            let c = common(v, start, rounds, key_every, 60_000, &mut rng);
            let pattern: CellPattern = pattern.parse().unwrap();
            let mut d = Differential::truncated(c, two.clone(), pattern);
            if bits {
                d.dc_mask = rng.sparse(bb, 2);
                d.dc = rng.sparse(bb, 2);
            }
            if rounds > 1 {
                d.dk = rng.sparse(tk, 1);
            }
            let what = format!("cells {pattern} {v} rounds {start}+{rounds}, key every {key_every}, bits {bits}");
            let gpu = d.run_gpu(&g, &Control::new()).expect("gpu run");
            same(&what, &gpu, &d.run().expect("cpu run"));
        }
    }
}

skinny_test_support::gpu_test_group! {
    probe: skinny_cuda::Gpu::first,
    gpu: [linear_matches_the_cpu, cell_patterns_match_the_cpu],
}
