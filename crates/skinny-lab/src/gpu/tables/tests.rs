//! The tables against the specification's tweakey schedule and the kernel
//! source: every bit where the kernels read it, round by round.

use super::*;
use crate::gpu::layout::{LfsrStep, SLOT_OF};
use crate::gpu::source::LAB;
use skinny::hazmat::spec::tweakey::PT;
use skinny::hazmat::spec::tweakey::{lfsr_tk2, lfsr_tk3};

fn random_tweakey(v: Variant, seed: &mut u64) -> Vec<u8> {
    (0..v.tweakey_bytes())
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            *seed as u8
        })
        .collect()
}

/// The specification's rows 0-1 of every TK array, round by round.
fn spec_round_cells(v: Variant, tk: &[u8]) -> Vec<Vec<[u8; 16]>> {
    let cells = |z: usize| skinny::hazmat::spec::tweakey::load_tk(v.cell_width(), tk, z);
    let mut spec: Vec<[u8; 16]> = (0..v.tk_count()).map(cells).collect();
    let mut rounds = Vec::new();
    for _ in 0..v.rounds() {
        rounds.push(spec.clone());
        for (z, arr) in spec.iter_mut().enumerate() {
            let before = *arr;
            for (i, x) in arr.iter_mut().enumerate() {
                *x = before[PT[i]];
            }
            for x in arr.iter_mut().take(8) {
                *x = match z {
                    1 => lfsr_tk2(v.cell_width(), *x),
                    2 => lfsr_tk3(v.cell_width(), *x),
                    _ => *x,
                };
            }
        }
    }
    rounds
}

/// Checks that `w` holds round `r`'s rows 0-1 where the kernels read them.
fn check_round(t: &TweakeyLayout, v: Variant, w: &[bool], spec: &[[u8; 16]], r: usize, what: &str) {
    for (z, arr) in spec.iter().enumerate() {
        for (c, cell) in arr.iter().take(8).enumerate() {
            let (h, slot) = TweakeyLayout::round_cell(r, c);
            for i in 0..t.cb {
                let want = (cell >> i) & 1 == 1;
                assert_eq!(w[t.word(z, h, slot, i)], want, "{v} {what} round {r} TK{z} cell {c} bit {i}");
            }
        }
    }
}

/// The layout's steps give, round by round, the specification's round
/// tweakeys bit by bit, forward (encryption) and back (decryption), for
/// random tweakeys of every variant; and undoing a whole schedule as the
/// differential kernels do (each half back as often as it served) restores
/// the start.
#[test]
fn layout_follows_the_specification_schedule() {
    let mut seed = 0x1234_5678_9abc_def1u64;
    for v in Variant::ALL {
        for _ in 0..4 {
            let t = TweakeyLayout::new(v);
            let tk = random_tweakey(v, &mut seed);
            let spec = spec_round_cells(v, &tk);
            let start = t.load(&tk);
            let mut w = start.clone();
            for (r, cells) in spec.iter().enumerate() {
                check_round(&t, v, &w, cells, r, "forward");
                t.step_half(&mut w, r & 1, LfsrStep::Forward);
            }
            let end = w.clone();
            for (r, cells) in spec.iter().enumerate().rev() {
                t.step_half(&mut w, r & 1, LfsrStep::Back);
                check_round(&t, v, &w, cells, r, "backward");
            }
            assert_eq!(w, start, "{v}: back to the start");
            for rounds in [1, 2, 7, 18, v.rounds()] {
                let mut w = start.clone();
                for r in 0..rounds {
                    t.step_half(&mut w, r & 1, LfsrStep::Forward);
                }
                for _ in 0..rounds.div_ceil(2) {
                    t.step_half(&mut w, 0, LfsrStep::Back);
                }
                for _ in 0..rounds / 2 {
                    t.step_half(&mut w, 1, LfsrStep::Back);
                }
                assert_eq!(w, start, "{v}: unschedule after {rounds} rounds");
            }
            let set = t.scheduled_words(&tk, v.rounds());
            assert_eq!(set, end.iter().enumerate().filter(|(_, &b)| b).map(|(i, _)| i as u32).collect::<Vec<_>>());
        }
    }
}

/// `SLOT_OF` is the cycle of `P` (renaming by `P` turns the slots by one),
/// and lab.cu's `lab_slot_of` packs the same values.
#[test]
fn slots_follow_the_cycle_of_p() {
    for c in 0..8 {
        assert_eq!(SLOT_OF[PT[c] - 8], (SLOT_OF[c] + 1) % 8, "cell {c}");
    }
    let packed = SLOT_OF.iter().enumerate().fold(0u32, |a, (c, &s)| a | (s as u32) << (4 * c));
    assert!(LAB.text.contains(&format!("0x{packed:08x}")), "lab.cu packs SLOT_OF as 0x{packed:08x}");
}

/// The kernels' loading (`lab_load_cell`, then half 1 stepped once) puts
/// every bit where [`TweakeyLayout::load`] does.
#[test]
fn load_table_places_every_bit() {
    let mut seed = 0x0fed_cba9_8765_4321u64;
    for v in Variant::ALL {
        let t = TweakeyLayout::new(v);
        let tk = random_tweakey(v, &mut seed);
        let src = tweakey_bits(&tk);
        let cells = t.load_cells();
        let mut w = vec![false; t.words()];
        for (j, &bit) in src.iter().enumerate() {
            let (u, p) = (j / 32, j % 32);
            w[cells[u * 8 + p / t.cb] as usize + p % t.cb] = bit;
        }
        t.step_half(&mut w, 1, LfsrStep::Forward);
        assert_eq!(w, t.load(&tk), "{v}");
    }
}

#[test]
fn symbols_fit_the_kernel_arrays() {
    let setup = KernelSetup {
        variant: Variant::Skinny128_384,
        rounds: 56,
        start_round: 1,
        key_every: 1,
        plain_state: 1,
        key_state: 2,
        query: KernelQuery::Boomerang { dp: vec![1; 16], dc: vec![2; 16], dk1: vec![0xff; 48], dk2: vec![0xff; 48] },
    };
    let sizes = [
        ("lab_load_cell", 12 * 8),
        ("lab_rc", MAX_ROUNDS * 6),
        ("lab_dp", 128),
        ("lab_dc", 128),
        ("lab_target", 128),
        ("lab_mask", 128),
        ("lab_in_mask", 128),
        ("lab_cell_zero", 16),
        ("lab_cell_nonzero", 16),
        ("lab_delta_init", 385),
        ("lab_delta_fin", 385),
    ];
    let symbols = kernel_constants(&setup).unwrap();
    assert_eq!(symbols.len(), sizes.len());
    for (s, (name, n)) in symbols.iter().zip(sizes) {
        assert_eq!((s.name, s.words.len()), (name, n));
        assert!(LAB.text.contains(&format!("{}[", s.name)), "{} is declared in lab.cu", s.name);
    }
    assert!(shared_bytes(Variant::Skinny128_384) <= 227 * 1024);
}

#[test]
fn blocks_hold_as_many_warps_as_shared_memory_allows() {
    // An H200 lets a block have 227 KiB.
    let h200 = 227 * 1024;
    assert_eq!(warps_per_block(Variant::Skinny128_256, h200), 7);
    assert_eq!(warps_per_block(Variant::Skinny128_384, h200), 4);
    assert_eq!(warps_per_block(Variant::Skinny128_128, h200), LAB_MAX_WARPS);
    assert_eq!(warps_per_block(Variant::Skinny64_192, h200), LAB_MAX_WARPS);
    // Never none, even where one warp's region is more than the limit.
    assert_eq!(warps_per_block(Variant::Skinny128_384, 1024), 1);
    for v in Variant::ALL {
        assert!(shared_bytes(v) * warps_per_block(v, h200) as usize <= h200, "{v}");
    }
}
