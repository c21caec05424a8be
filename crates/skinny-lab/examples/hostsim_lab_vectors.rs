//! Writes experiments for the host-side simulator of the lab kernels
//! (`hostsim/lab.cpp`, run by `scripts/kernels/hostsim.sh`): each with the
//! kernels' `__constant__` tables and the query indices that hit, found here
//! with the specification code, query by query. No GPU needed.
//!
//! `cargo run -p skinny-lab --features cuda --example hostsim_lab_vectors -- OUT_FILE`

use skinny::hazmat::partial::{encrypt_rounds, partial_cipher, TweakeyAt};
use skinny::hazmat::spec::round::{mix_columns, shift_rows};
use skinny::hazmat::spec::sbox::{sbox4, sbox8};
use skinny::hazmat::spec::tweakey::load_tk;
use skinny::hazmat::spec::{pack_cells, unpack_cells, CellWidth};
use skinny::Variant;
use skinny_lab::gpu::{kernel_constants, KernelQuery, KernelSetup};
use skinny_lab::rng::mix64;
use skinny_lab::{CellCondition, CellPattern};
use std::fmt::Write as _;

/// Item `index` of the stream whose seeded state is `state`, as
/// [`skinny_lab::rng::CounterRng`] draws it (here from a state given outright,
/// as the kernels are).
fn item(state: u64, index: u64, len: usize) -> Vec<u8> {
    let i = mix64(state ^ index);
    (0..len.div_ceil(8) as u64)
        .flat_map(|w| mix64(i ^ (w + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)).to_le_bytes())
        .take(len)
        .collect()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
    /// A few random bits set.
    fn sparse(&mut self, n: usize, bits: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        for _ in 0..bits {
            let b = (self.next() % (8 * n as u64)) as usize;
            v[b / 8] |= 1 << (b % 8);
        }
        v
    }
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// The queries of `setup` that hit, start .. start + count, by the specification code.
fn hits(setup: &KernelSetup, start: u64, count: u64) -> Vec<u64> {
    let v = setup.variant;
    // The kernels draw start-round tweakey states; the differences are theirs.
    let cipher =
        |k: &[u8]| partial_cipher(v, k, TweakeyAt::Start, setup.start_round, setup.rounds).expect("lengths and rounds");
    let mut out = Vec::new();
    for q in start..start + count {
        let p = item(setup.plain_state, q, v.block_bytes());
        let k = item(setup.key_state, q / setup.key_every, v.tweakey_bytes());
        let hit = match &setup.query {
            KernelQuery::Differential { dp, dc, dc_mask, dk, cells } => {
                let mut c1 = p.clone();
                cipher(&k).encrypt_block(&mut c1);
                let mut c2 = xor(&p, dp);
                cipher(&xor(&k, dk)).encrypt_block(&mut c2);
                (0..c1.len()).all(|i| (c1[i] ^ c2[i]) & dc_mask[i] == dc[i] & dc_mask[i])
                    && cells.is_none_or(|c| c.matches(v.cell_width(), &xor(&c1, &c2)))
            }
            KernelQuery::Linear { in_mask, out_mask } => {
                let mut c = p.clone();
                encrypt_rounds(v, &k, TweakeyAt::Start, setup.start_round, setup.rounds, &mut c).expect("valid");
                let ones = |m: &[u8], x: &[u8]| (0..x.len()).map(|i| (m[i] & x[i]).count_ones()).sum::<u32>();
                (ones(in_mask, &p) + ones(out_mask, &c)).is_multiple_of(2)
            }
            KernelQuery::Boomerang { dp, dc, dk1, dk2 } => {
                let k2 = xor(&k, dk1);
                let mut x1 = p.clone();
                cipher(&k).encrypt_block(&mut x1);
                let mut x2 = xor(&p, dp);
                cipher(&k2).encrypt_block(&mut x2);
                let mut x3 = xor(&x1, dc);
                let mut x4 = xor(&x2, dc);
                cipher(&xor(&k, dk2)).decrypt_block(&mut x3);
                cipher(&xor(&k2, dk2)).decrypt_block(&mut x4);
                xor(&x3, &x4) == *dp
            }
            KernelQuery::DifferentialLinear { dp, mask, dk } => {
                let mut c1 = p.clone();
                encrypt_rounds(v, &k, TweakeyAt::Start, setup.start_round, setup.rounds, &mut c1).expect("valid");
                let mut c2 = xor(&p, dp);
                let k2 = xor(&k, dk);
                encrypt_rounds(v, &k2, TweakeyAt::Start, setup.start_round, setup.rounds, &mut c2).expect("valid");
                let ones: u32 = (0..c1.len()).map(|i| ((c1[i] ^ c2[i]) & mask[i]).count_ones()).sum();
                ones.is_multiple_of(2)
            }
        };
        if hit {
            out.push(q);
        }
    }
    out
}

/// The cell pattern of the output difference of query `q` of a differential
/// (`dk` at the start state, as the kernels take it), with every cell whose
/// bit is set in `free` left free: a pattern that some queries meet.
fn pattern_of(setup: &KernelSetup, dp: &[u8], dk: &[u8], q: u64, free: u16) -> CellPattern {
    let v = setup.variant;
    let p = item(setup.plain_state, q, v.block_bytes());
    let k = item(setup.key_state, q / setup.key_every, v.tweakey_bytes());
    let mut c1 = p.clone();
    encrypt_rounds(v, &k, TweakeyAt::Start, setup.start_round, setup.rounds, &mut c1).expect("valid");
    let mut c2 = xor(&p, dp);
    encrypt_rounds(v, &xor(&k, dk), TweakeyAt::Start, setup.start_round, setup.rounds, &mut c2).expect("valid");
    let mut cells = [0u8; 16];
    unpack_cells(v.cell_width(), &xor(&c1, &c2), &mut cells);
    CellPattern::new(core::array::from_fn(|c| match (free >> c & 1, cells[c]) {
        (1, _) => CellCondition::Free,
        (_, 0) => CellCondition::Zero,
        _ => CellCondition::NonZero,
    }))
}

/// A 1-round boomerang that returns with the S-box's BCT probability: dp
/// active in cell 0 only, dc = MC(SR(round-0 tweakey difference of dk2, plus
/// `b` in cell 0)), so that the keys cancel and only cell 0's S-box decides.
fn one_round_dc(v: Variant, dk2: &[u8], b: u8) -> Vec<u8> {
    let w = v.cell_width();
    let mut t = [0u8; 16];
    for z in 0..v.tk_count() {
        let cells = load_tk(w, dk2, z);
        for c in 0..8 {
            t[c] ^= cells[c];
        }
    }
    t[0] ^= b;
    shift_rows(&mut t);
    mix_columns(&mut t);
    let mut out = vec![0u8; v.block_bytes()];
    pack_cells(w, &t, &mut out);
    out
}

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "lab-vectors.txt".into());
    let mut rng = Rng(0x5eed_1ab5_0123_4567);
    let mut out = String::new();
    let start = 1000u64; // the simulator runs queries 1000 .. 1000 + count
    let count = 700u64; // 22 threads, the last one partial
    for v in Variant::ALL {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        let cell_mask = if v.cell_width() == CellWidth::Byte { 0xff } else { 0xf };
        // (start round, rounds, key_every, query).
        let mut cases: Vec<(usize, usize, u64, KernelQuery)> = Vec::new();
        for (start_round, rounds, key_every) in [(1, 1, 1), (1, 2, 3), (1, 7, 64), (1, v.rounds(), 5), (9, 3, 1)] {
            // About 4 ciphertext bits compared: hits are frequent.
            let dc_mask = rng.sparse(bb, 4);
            let dc = rng.bytes(bb).iter().zip(&dc_mask).map(|(a, m)| a & m).collect();
            cases.push((
                start_round,
                rounds,
                key_every,
                KernelQuery::Differential { dp: rng.sparse(bb, 2), dc, dc_mask, dk: rng.sparse(tk, 3), cells: None },
            ));
        }
        // Linear: about half the queries hit, whatever the rounds.
        for (start_round, rounds, key_every) in [(1, 1, 1), (1, 2, 5), (3, 4, 64), (v.rounds() - 6, 7, 1)] {
            let query = KernelQuery::Linear { in_mask: rng.sparse(bb, 3), out_mask: rng.sparse(bb, 2) };
            cases.push((start_round, rounds, key_every, query));
        }
        // Differential-linear: about half the pairs hit, whatever the rounds;
        // from round 1 and from later rounds (their constants and states).
        for (start_round, rounds, key_every) in [(1, 1, 1), (1, 3, 7), (5, 2, 1), (v.rounds() - 3, 4, 40), (2, 17, 3)] {
            cases.push((
                start_round,
                rounds,
                key_every,
                KernelQuery::DifferentialLinear {
                    dp: rng.sparse(bb, 2),
                    mask: rng.sparse(bb, 3),
                    dk: rng.sparse(tk, 2),
                },
            ));
        }
        for rounds in [1, 7, v.rounds()] {
            // dc = 0, dk2 = 0: every quartet returns when decryption undoes
            // encryption under the scheduled tweakeys.
            cases.push((
                1,
                rounds,
                1,
                KernelQuery::Boomerang {
                    dp: rng.sparse(bb, 3),
                    dc: vec![0; bb],
                    dk1: rng.sparse(tk, 5),
                    dk2: vec![0; tk],
                },
            ));
        }
        for key_every in [1, 9] {
            let dk2 = rng.bytes(tk);
            let a = (rng.next() as u8 & cell_mask).max(1);
            let b = (rng.next() as u8 & cell_mask).max(1);
            let mut dp = vec![0u8; bb];
            dp[0] = if v.cell_width() == CellWidth::Byte { a } else { a << 4 };
            let dc = one_round_dc(v, &dk2, b);
            cases.push((1, 1, key_every, KernelQuery::Boomerang { dp, dc, dk1: rng.bytes(tk), dk2 }));
        }
        // Two rounds, everything random: whatever the specification says.
        cases.push((
            1,
            2,
            2,
            KernelQuery::Boomerang {
                dp: rng.sparse(bb, 1),
                dc: rng.sparse(bb, 1),
                dk1: rng.sparse(tk, 1),
                dk2: rng.sparse(tk, 1),
            },
        ));
        // A boomerang from a later round (dk2 = 0, dc = 0: every quartet
        // returns only if decryption takes the same constants).
        cases.push((
            4,
            5,
            3,
            KernelQuery::Boomerang { dp: rng.sparse(bb, 2), dc: vec![0; bb], dk1: rng.sparse(tk, 2), dk2: vec![0; tk] },
        ));
        let mut setups: Vec<KernelSetup> = cases
            .into_iter()
            .map(|(start_round, rounds, key_every, query)| KernelSetup {
                variant: v,
                rounds,
                start_round,
                key_every,
                plain_state: rng.next(),
                key_state: rng.next(),
                query,
            })
            .collect();
        // Cell patterns. One round with cells 0 and 10 active (ShiftRows puts
        // both in column 0): cells 0 and 12 of the output are zero exactly
        // when the two S-box output differences are equal, so the pattern
        // `0000 x000 x000 0000` is met by some queries, `x*** x*** x*** x***`
        // by most; alone, with cell 4 fixed, and from a later round.
        let two_cells = {
            let mut cells = [0u8; 16];
            (cells[0], cells[10]) = (1, 1);
            let mut dp = vec![0u8; bb];
            pack_cells(v.cell_width(), &cells, &mut dp);
            dp
        };
        // Cell 4 is cell 0's S-box output difference: fixed to its likeliest.
        let likeliest = {
            let (n, s): (u16, fn(u8) -> u8) = if bb == 16 { (256, sbox8) } else { (16, sbox4) };
            let times = |b: u8| (0..n).filter(|&x| s(x as u8) ^ s(x as u8 ^ 1) == b).count();
            (1..n).map(|b| b as u8).max_by_key(|&b| times(b)).expect("some output")
        };
        let (mut cell4, mut cell4_value) = ([0u8; 16], [0u8; 16]);
        (cell4[4], cell4_value[4]) = (if bb == 16 { 0xff } else { 0xf }, likeliest);
        let mut cell4_diff = vec![0u8; bb];
        let mut cell4_mask = vec![0u8; bb];
        pack_cells(v.cell_width(), &cell4_value, &mut cell4_diff);
        pack_cells(v.cell_width(), &cell4, &mut cell4_mask);
        for (start_round, key_every, pattern, fixed) in [
            (1, 1, "0000 x000 x000 0000", false),
            (1, 7, "x*** x*** x*** x***", false),
            (1, 32, "0000 x000 x000 0000", true),
            (6, 3, "x*** x*** x*** x***", true),
        ] {
            let (dc_mask, dc) =
                if fixed { (cell4_mask.clone(), cell4_diff.clone()) } else { (vec![0; bb], vec![0; bb]) };
            let cells = Some(pattern.parse().expect("a pattern"));
            let query = KernelQuery::Differential { dp: two_cells.clone(), dc, dc_mask, dk: vec![0; tk], cells };
            let (plain_state, key_state) = (rng.next(), rng.next());
            setups.push(KernelSetup { variant: v, rounds: 1, start_round, key_every, plain_state, key_state, query });
        }
        // Two rounds: the pattern of one query's output difference, some
        // cells freed; and two cells flipped, which few queries meet.
        for (start_round, key_every, flip) in [(1, 3, false), (5, 32, false), (1, 1, true)] {
            let (dp, dk) = (rng.sparse(bb, 1), rng.sparse(tk, 1));
            let mut setup = KernelSetup {
                variant: v,
                rounds: 2,
                start_round,
                key_every,
                plain_state: rng.next(),
                key_state: rng.next(),
                query: KernelQuery::Linear { in_mask: vec![], out_mask: vec![] },
            };
            let mut pattern = pattern_of(&setup, &dp, &dk, start + 5, rng.next() as u16 & rng.next() as u16);
            if flip {
                let mut cells = *pattern.cells();
                cells[(rng.next() % 16) as usize] = CellCondition::NonZero;
                cells[(rng.next() % 16) as usize] = CellCondition::Zero;
                pattern = CellPattern::new(cells);
            }
            let (dc, dc_mask) = (vec![0; bb], vec![0; bb]);
            setup.query = KernelQuery::Differential { dp, dc, dc_mask, dk, cells: Some(pattern) };
            setups.push(setup);
        }
        for setup in setups {
            let exp = match setup.query {
                KernelQuery::Differential { .. } => "differential",
                KernelQuery::Boomerang { .. } => "boomerang",
                KernelQuery::DifferentialLinear { .. } => "differential-linear",
                KernelQuery::Linear { .. } => "linear",
            };
            let _ = writeln!(
                out,
                "lab {} {} {} {} {} {} {} {} {}",
                v.name(),
                bb,
                v.tk_count(),
                setup.rounds,
                exp,
                setup.key_every,
                setup.plain_state,
                setup.key_state,
                count
            );
            for s in kernel_constants(&setup).expect("valid setup") {
                let words: Vec<String> = s.words.iter().map(|w| format!("{w:x}")).collect();
                let _ = writeln!(out, "sym {} {} {}", s.name, words.len(), words.join(" "));
            }
            let h: Vec<String> = hits(&setup, start, count).iter().map(u64::to_string).collect();
            let _ = writeln!(out, "hits {}", h.join(" "));
        }
    }
    std::fs::write(&path, out).expect("writing the vectors");
}
