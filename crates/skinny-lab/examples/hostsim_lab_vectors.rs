//! Writes experiments for the host-side simulator of the lab kernels
//! (`hostsim/lab.cpp`, run by `scripts/gpu-hostsim.sh`): each with the
//! kernels' `__constant__` tables and the query indices that hit, found here
//! with the specification code, query by query. No GPU needed.
//!
//! `cargo run -p skinny-lab --features cuda --example hostsim_lab_vectors -- OUT_FILE`

use skinny::hazmat::partial::{encrypt_rounds, partial_cipher, TweakeyAt};
use skinny::hazmat::spec::round::{mix_columns, shift_rows};
use skinny::hazmat::spec::tweakey::load_tk;
use skinny::hazmat::spec::{pack_cells, CellWidth};
use skinny::Variant;
use skinny_lab::gpu::{kernel_constants, KernelQuery, KernelSetup};
use skinny_lab::rng::mix64;
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
            KernelQuery::Differential { dp, dc, dc_mask, dk } => {
                let mut c1 = p.clone();
                cipher(&k).encrypt_block(&mut c1);
                let mut c2 = xor(&p, dp);
                cipher(&xor(&k, dk)).encrypt_block(&mut c2);
                (0..c1.len()).all(|i| (c1[i] ^ c2[i]) & dc_mask[i] == dc[i] & dc_mask[i])
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
                KernelQuery::Differential { dp: rng.sparse(bb, 2), dc, dc_mask, dk: rng.sparse(tk, 3) },
            ));
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
        for (start_round, rounds, key_every, query) in cases {
            let exp = match query {
                KernelQuery::Differential { .. } => "differential",
                KernelQuery::Boomerang { .. } => "boomerang",
                KernelQuery::DifferentialLinear { .. } => "differential-linear",
            };
            let setup = KernelSetup {
                variant: v,
                rounds,
                start_round,
                key_every,
                plain_state: rng.next(),
                key_state: rng.next(),
                query,
            };
            let _ = writeln!(
                out,
                "lab {} {} {} {} {} {} {} {} {}",
                v.name(),
                bb,
                v.tk_count(),
                rounds,
                exp,
                key_every,
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
