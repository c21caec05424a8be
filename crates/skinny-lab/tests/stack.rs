//! The lab's CPU runs start from a 64 KiB stack, in the test profile and in
//! the dev profile at opt-level 0 (`cargo test --profile dev -p skinny-lab
//! --test stack`): a small differential and a small boomerang on rayon's
//! global pool (built with 64 KiB stacks in each child process, so the
//! batches' work is held to the bound too) and through a CPU [`Rig`] (whose
//! pool has skinny-exec's worker stacks), also in checkpointed segments
//! (`SegmentedRun::step`, whose merge of findings is the deepest call); a
//! linear run and a per-key run.
//! Each call runs in a child process
//! (see `skinny_test_support::stack`), so an overflow names the call.

use skinny::Variant;
use skinny_lab::{
    Boomerang, Common, Control, Differential, Experiment, Linear, Placement, Rig, SegmentedRun, Step, Threads,
};
use skinny_test_support::stack::{check, Case, LIMIT};
use std::time::Duration;

fn global_pool_of_small_stacks() {
    rayon::ThreadPoolBuilder::new().stack_size(LIMIT).build_global().expect("the global pool");
}

fn common(v: Variant) -> Common {
    let mut c = Common::new(v, 6, 1 << 16);
    c.key_every = 4096;
    c
}

fn differential(v: Variant) -> Differential {
    let b = v.block_bytes();
    let mut dp = vec![0; b];
    dp[0] = 0x10;
    Differential::new(common(v), dp, vec![0; b])
}

fn boomerang(v: Variant) -> Boomerang {
    let b = v.block_bytes();
    let mut dp = vec![0; b];
    dp[0] = 0x10;
    Boomerang::new(common(v), dp, vec![0; b])
}

#[test]
fn the_cpu_runs_start_from_64_kib_of_stack() {
    let mut cases = Vec::new();
    for v in [Variant::Skinny64_192, Variant::Skinny128_384] {
        cases.push(Case::new(format!("Differential::run {v}"), move || {
            global_pool_of_small_stacks();
            differential(v).run().expect("runs");
        }));
        cases.push(Case::new(format!("Boomerang::run {v}"), move || {
            global_pool_of_small_stacks();
            boomerang(v).run().expect("runs");
        }));
        cases.push(Case::new(format!("Linear::run and per-key Differential::run {v}"), move || {
            global_pool_of_small_stacks();
            let b = v.block_bytes();
            let mut mask = vec![0; b];
            mask[0] = 0x01;
            Linear::new(common(v), mask.clone(), mask).run().expect("runs");
            let mut d = differential(v);
            d.common.per_key = true;
            d.run().expect("runs");
        }));
        cases.push(Case::new(format!("SegmentedRun::step (cpu rig, 2 threads) {v}"), move || {
            let placement = Placement::Cpu { threads: Threads::from_count(Some(2)) };
            let rig = Rig::open(&placement, &common(v)).expect("a CPU rig");
            let control = Control::new();
            let mut run = SegmentedRun::new(Experiment::Differential(differential(v)), Duration::ZERO).expect("a run");
            while !matches!(run.step(&rig, &control, "test").expect("a step"), Step::Done(_)) {}
        }));
        cases.push(Case::new(format!("Rig (cpu, 2 threads) differential and boomerang {v}"), move || {
            let placement = Placement::Cpu { threads: Threads::from_count(Some(2)) };
            let rig = Rig::open(&placement, &common(v)).expect("a CPU rig");
            let control = Control::new();
            rig.run(&Experiment::Differential(differential(v)), &control, "test").expect("runs");
            rig.run(&Experiment::Boomerang(boomerang(v)), &control, "test").expect("runs");
        }));
    }
    check("the_cpu_runs_start_from_64_kib_of_stack", cases);
}
