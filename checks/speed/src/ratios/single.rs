//! One block at a time (`skinny::hazmat::single`): each path against the
//! portable-u64 one, the portable one against the specification code (the
//! anchor: plain scalar code that no one tunes), and the fixed-tweakey-part
//! route Romulus runs against a tweakey expanded once.
//!
//! Every timing is a chain, each block encrypted again in place: the serial
//! modes' (CBC, Romulus) latency-bound case that this code is built for.

use super::{filled, variant_name, Limit, Runner};
use skinny::hazmat::single::{self, FixedTweakeyPart, Path};
use skinny::hazmat::{round_tweakeys, spec};
use skinny::{CellWidth, Skinny, Variant};
use std::hint::black_box;

/// One variant per cell width: SKINNY-128-384 is Romulus's and the hashes'.
const VARIANTS: [Variant; 2] = [Variant::Skinny64_128, Variant::Skinny128_384];

/// Blocks in one timed chain.
const CHAIN: usize = 64;

// "Measured": the dev machine (an AMD EPYC VM, family 25 model 1, Zen 3:
// SSSE3, AVX2, no AVX-512), idle and under load; the runs are in
// runs/dev-2026-12-03-speed-guard/.

/// The path `Path::best_for` picks for the width, against portable-u64.
const CHOSEN_OVER_PORTABLE: Limit = Limit {
    threshold: 1.3,
    floor: "best_for picks a path only where it beat portable-u64. 8-bit cells, ssse3-split: 8 dependent \
            vector operations a round against about 31 scalar ones, measured 3.2x; 4-bit cells, S4 one \
            pshufb: 4 dependent operations a round against about 31, measured 3.5-4.4x (ssse3; avx512-gfni \
            2.4x on Zen 5 in docs/cpu-single-block.md)",
};

/// Any other vector path against portable-u64.
const OTHER_OVER_PORTABLE: Limit = Limit {
    threshold: 0.4,
    floor: "a path best_for does not pick may be near portable-u64 (ssse3 with 8-bit cells, 28 dependent \
            vector operations a round against about 31 scalar ones: measured 1.26-1.39x); an intrinsic \
            out of line costs 10x or more",
};

/// The portable path against the specification code.
const PORTABLE_OVER_SPEC: Limit = Limit {
    threshold: 1.3,
    floor: "the S-box circuit on eight cells a word and a u32-row linear layer against cell-by-cell code: \
            measured 2.0x (SKINNY-128-384) and 2.4-2.5x (SKINNY-64-128)",
};

/// Romulus's route (the fixed TK2 ‖ TK3 expanded once, TK1 added in the
/// rounds) against a tweakey expanded once (`Skinny::encrypt_block`).
const FIXED_PART_OVER_EXPANDED: Limit = Limit {
    threshold: 0.6,
    floor: "the same rounds plus one shuffle a round for TK1, off the dependency chain: 1.0 measured; a \
            schedule of the whole tweakey each call instead costs about two blocks (0.3-0.4)",
};

pub fn run(r: &mut Runner) {
    r.set_unit("blocks");
    let mut paths = Vec::new();
    for path in Path::ALL {
        if path.is_available() {
            paths.push(path);
        } else {
            r.skip(format!("single-block {}: not on this CPU", path.name()));
        }
    }
    for v in VARIANTS {
        paths_over_portable(r, v, &paths);
        portable_over_spec(r, v);
    }
    fixed_part(r);
}

/// Runs `step` on one block `CHAIN` times, each on the last one's output.
fn chain(block: &mut [u8], mut step: impl FnMut(&mut [u8])) {
    for _ in 0..CHAIN {
        step(black_box(&mut *block));
    }
}

fn paths_over_portable(r: &mut Runner, v: Variant, paths: &[Path]) {
    let cipher = Skinny::new(v, &filled(v.tweakey_bytes())).expect("a whole tweakey");
    let (rtk, width) = (round_tweakeys(&cipher), v.cell_width());
    let vn = variant_name(v);
    let (mut a, mut b) = (filled(v.block_bytes()), filled(v.block_bytes()));
    let chosen = Path::best_for(width);
    for &path in paths {
        if path == Path::Portable {
            continue;
        }
        // The split path runs the ssse3 code for 4-bit cells and the portable
        // code to decrypt: nothing of its own to time there.
        let split = path == Path::Ssse3Split;
        if split && width == CellWidth::Nibble {
            continue;
        }
        let limit = if path == chosen { CHOSEN_OVER_PORTABLE } else { OTHER_OVER_PORTABLE };
        for decrypt in [false, true] {
            if split && decrypt {
                continue;
            }
            let dir = if decrypt { "decrypt" } else { "encrypt" };
            let step = |p: Path, block: &mut [u8]| {
                let done = if decrypt {
                    single::decrypt_block_with(p, width, rtk, block)
                } else {
                    single::encrypt_block_with(p, width, rtk, block)
                };
                done.expect("the path was found available");
            };
            r.ratio(
                format!("single-block {} / portable-u64, {vn} {dir}", path.name()),
                limit,
                (&mut || chain(&mut a, |x| step(path, x)), CHAIN as f64),
                (&mut || chain(&mut b, |x| step(Path::Portable, x)), CHAIN as f64),
            );
        }
    }
}

fn portable_over_spec(r: &mut Runner, v: Variant) {
    let cipher = Skinny::new(v, &filled(v.tweakey_bytes())).expect("a whole tweakey");
    let (rtk, width) = (round_tweakeys(&cipher), v.cell_width());
    let (mut a, mut b) = (filled(v.block_bytes()), filled(v.block_bytes()));
    r.ratio(
        format!("single-block portable-u64 / specification code, {} encrypt", variant_name(v)),
        PORTABLE_OVER_SPEC,
        (
            &mut || {
                chain(&mut a, |x| single::encrypt_block_with(Path::Portable, width, rtk, x).expect("always available"))
            },
            CHAIN as f64,
        ),
        (&mut || chain(&mut b, |x| spec::encrypt_block(width, rtk, x)), CHAIN as f64),
    );
}

/// SKINNY-128-384+ (40 rounds) as Romulus calls it: TK2 ‖ TK3 fixed, a TK1
/// per call.
fn fixed_part(r: &mut Runner) {
    let v = Variant::Skinny128_384;
    let tweakey = filled(48);
    let part = FixedTweakeyPart::new(v, &tweakey[16..], 40).expect("two fixed arrays, 40 rounds");
    let expanded = Skinny::with_rounds(v, &tweakey, 40).expect("40 rounds");
    let tk1: [u8; 16] = tweakey[..16].try_into().expect("16 bytes");
    let (mut a, mut b) = (filled(16), filled(16));
    r.ratio(
        "fixed tweakey part / tweakey expanded once, SKINNY-128-384+ encrypt".into(),
        FIXED_PART_OVER_EXPANDED,
        (&mut || chain(&mut a, |x| part.encrypt_block(black_box(&tk1), x).expect("whole lengths")), CHAIN as f64),
        (&mut || chain(&mut b, |x| expanded.encrypt_block(x)), CHAIN as f64),
    );
}
