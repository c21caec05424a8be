//! The experiments against answers known without them: 1-round SKINNY-64-64
//! differentials from the S-box's difference table, boomerangs that must always
//! return, and invariance of the results under threads, batches and shards.

use skinny::hazmat::spec::sbox::sbox4;
use skinny::{Skinny, Variant};
use skinny_lab::{stats, Boomerang, Common, Differential, Outcome, Pair, Shard};

/// Many checks at 95 % would each fail one time in 20; these use a
/// 1 - 10^-9 interval, so a failure means a wrong count, not bad luck.
fn within(hits: u64, queries: u64, p: f64) -> bool {
    let e = stats::estimate_at(hits, queries, 1e-9);
    e.log2_lower.unwrap() <= p.log2() && p.log2() <= e.log2_upper
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap()
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

/// The 4-bit S-box's difference distribution table, from the specification's S-box.
fn ddt() -> [[u32; 16]; 16] {
    let mut t = [[0u32; 16]; 16];
    for a in 0..16u8 {
        for x in 0..16u8 {
            t[a as usize][(sbox4(x) ^ sbox4(x ^ a)) as usize] += 1;
        }
    }
    t
}

/// A block of SKINNY-64-64 with nibble `v` in cells 0, 4 and 12 (high nibbles of
/// bytes 0, 2 and 6): where one round sends a difference in cell 0 after the
/// S-box. ShiftRows leaves row 0 alone, and MixColumns maps a column
/// (a, 0, 0, 0) to (a, a, 0, a).
fn one_round_output(v: u8) -> Vec<u8> {
    let mut b = vec![0u8; 8];
    b[0] = v << 4;
    b[2] = v << 4;
    b[6] = v << 4;
    b
}

fn input_diff(d: u8) -> Vec<u8> {
    let mut b = vec![0u8; 8];
    b[0] = d << 4;
    b
}

#[test]
fn brute_force_agrees_with_the_ddt_for_one_round() {
    // Over all 2^16 values of the first four cells (other cells and key fixed,
    // they carry no difference), the count of each output difference is 2^12
    // times the DDT entry: the derivation of `one_round_output` is right.
    let t = ddt();
    let key = hex("f5269826fc681238");
    let cipher = Skinny::with_rounds(Variant::Skinny64_64, &key, 1).unwrap();
    for d in [1u8, 2, 9, 0xf] {
        let mut counts = std::collections::HashMap::new();
        for v in 0..=0xffffu32 {
            let mut p = hex("06034f957724d19d");
            p[0] = (v >> 8) as u8;
            p[1] = v as u8;
            let mut q = p.clone();
            q[0] ^= d << 4;
            cipher.encrypt_block(&mut p);
            cipher.encrypt_block(&mut q);
            let diff: Vec<u8> = p.iter().zip(&q).map(|(a, b)| a ^ b).collect();
            *counts.entry(diff).or_insert(0u32) += 1;
        }
        for out in 0..16u8 {
            let got = counts.get(&one_round_output(out)).copied().unwrap_or(0);
            assert_eq!(got, t[d as usize][out as usize] << 12, "d {d:x} -> {out:x}");
        }
    }
}

#[test]
fn one_round_rate_is_in_its_interval() {
    let t = ddt();
    // For each input difference, the most and a least likely nonzero output.
    for d in [1u8, 4, 0xb] {
        for out in 1..16u8 {
            let count = t[d as usize][out as usize];
            if count == 0 {
                continue;
            }
            let mut common = Common::new(Variant::Skinny64_64, 1, 1 << 16);
            common.key_every = 1024;
            common.seed = 42 + u64::from(d);
            let r = Differential::new(common, input_diff(d), one_round_output(out)).run().unwrap();
            let p = count as f64 / 16.0;
            assert!(within(r.hits, r.queries, p), "{d:x}->{out:x}: {p} vs {} / {}", r.hits, r.queries);
            // And the 95 % interval is at least of the right width.
            let e = r.estimate();
            assert!(e.log2_upper - e.log2_lower.unwrap() < 0.2);
        }
    }
    // An impossible output difference is never hit.
    let r = Differential::new(Common::new(Variant::Skinny64_64, 1, 1 << 14), input_diff(1), one_round_output(1))
        .run()
        .unwrap();
    assert_eq!(t[1][1], 0);
    assert_eq!(r.hits, 0);
}

#[test]
fn mask_selects_bits() {
    // Masking the output to cell 0 only: the same probability as the full
    // difference (cells 4 and 12 always equal cell 0 after one round).
    let t = ddt();
    let mut common = Common::new(Variant::Skinny64_64, 1, 1 << 14);
    common.key_every = 1;
    let mut exp = Differential::new(common, input_diff(2), one_round_output(5));
    let full = exp.run().unwrap();
    exp.dc_mask = hex("f000000000000000");
    let masked = exp.run().unwrap();
    assert_eq!(full.hits, masked.hits);
    assert!(t[2][5] > 0 && full.hits > 0);
    // An all-zero mask makes every query a hit.
    exp.dc_mask = vec![0; 8];
    assert_eq!(exp.run().unwrap().hits, 1 << 14);
}

/// A 2-round SKINNY-64-128 differential with a related key, masked to one
/// cell: it hits often (about 1/16), so there are right pairs to compare.
fn busy() -> Differential {
    let mut common = Common::new(Variant::Skinny64_128, 2, 50_000);
    common.key_every = 700;
    common.seed = 0x5eed;
    common.show = 25;
    let mut exp = Differential::new(common, input_diff(1), vec![0; 8]);
    // Mask all but a few bits, so that a fair share of queries hit.
    // Cell 9 (low nibble of byte 4) is active after two rounds whatever the
    // key difference in cell 15 of TK1 does (it reaches cell 1 in round 2).
    exp.dc_mask = hex("000000000f000000");
    exp.dc = hex("0000000001000000");
    exp.dk = hex("00000000000000010000000000000000");
    exp
}

#[test]
fn results_do_not_depend_on_threads_or_shards() {
    let exp = busy();
    let whole = pool(1).install(|| exp.run().unwrap());
    assert!(whole.hits > 100, "{}", whole.hits);
    assert_eq!(whole.queries, 50_000);
    assert_eq!(whole.right.len(), 25);
    assert!(whole.right.windows(2).all(|w| w[0].query < w[1].query));
    let two = pool(2).install(|| exp.run().unwrap());
    let three = pool(3).install(|| exp.run().unwrap());
    for r in [&two, &three] {
        assert_eq!((r.queries, r.hits, &r.right), (whole.queries, whole.hits, &whole.right));
    }
    // Shards, merged in any order, give the whole.
    for n in [2u64, 3, 7, 100] {
        let mut parts: Vec<Outcome<Pair>> = (0..n)
            .map(|i| {
                let mut e = exp.clone();
                e.common.shard = Shard::new(i, n).unwrap();
                e.run().unwrap()
            })
            .collect();
        parts.reverse();
        let mut it = parts.into_iter();
        let first = it.next().unwrap();
        assert!(!first.is_complete() || n == 1);
        let merged = it.fold(first, |a, b| a.merge(b).unwrap());
        assert!(merged.is_complete());
        assert_eq!((merged.queries, merged.hits, &merged.right), (whole.queries, whole.hits, &whole.right), "{n}");
    }
}

#[test]
fn right_pairs_are_right() {
    // Big key groups (bitsliced, two engines) and a key per query (one-block code).
    let mut small = busy();
    small.common.key_every = 1;
    small.common.queries = 5000;
    let big = busy().run().unwrap();
    let one = small.run().unwrap();
    assert_eq!(one.right.len(), 25);
    for p in big.right.iter().chain(&one.right) {
        let a = Skinny::with_rounds(Variant::Skinny64_128, &p.k, 2).unwrap();
        let b = Skinny::with_rounds(Variant::Skinny64_128, &p.k2, 2).unwrap();
        let (mut c, mut c2) = (p.p.clone(), p.p2.clone());
        a.encrypt_block(&mut c);
        b.encrypt_block(&mut c2);
        assert_eq!((&c, &c2), (&p.c, &p.c2));
        assert_eq!((c[4] ^ c2[4]) & 0x0f, 1);
        assert_eq!(p.p[0] ^ p.p2[0], 0x10);
        assert_eq!(p.k[7] ^ p.k2[7], 1);
    }
}

#[test]
fn merge_refuses_mismatches() {
    let mut exp = busy();
    exp.common.queries = 2000;
    exp.common.shard = Shard::new(0, 2).unwrap();
    let a = exp.run().unwrap();
    assert!(a.clone().merge(a.clone()).is_err());
    let mut other = exp.clone();
    other.common.seed += 1;
    other.common.shard = Shard::new(1, 2).unwrap();
    assert!(a.merge(other.run().unwrap()).is_err());
}

#[test]
fn shards_tile_the_groups() {
    for groups in [0u64, 1, 5, 1000, u64::MAX] {
        for n in [1u64, 2, 3, 64] {
            let mut next = 0;
            for i in 0..n {
                let r = Shard::new(i, n).unwrap().groups(groups);
                assert_eq!(r.start, next);
                next = r.end;
            }
            assert_eq!(next, groups);
        }
    }
    assert!(Shard::new(2, 2).is_err());
    assert!(Shard::new(0, 0).is_err());
}

#[test]
fn bad_parameters_are_refused() {
    let common = Common::new(Variant::Skinny128_256, 49, 10);
    assert!(Differential::new(common, vec![0; 16], vec![0; 16]).run().is_err());
    let common = Common::new(Variant::Skinny128_256, 10, 10);
    assert!(Differential::new(common.clone(), vec![0; 8], vec![0; 16]).run().is_err());
    let mut e = Differential::new(common.clone(), vec![0; 16], vec![0; 16]);
    e.dk = vec![0; 16];
    assert!(e.run().is_err());
    let mut c = common;
    c.key_every = 0;
    assert!(Differential::new(c, vec![0; 16], vec![0; 16]).run().is_err());
}

#[test]
fn trivial_boomerangs_always_return() {
    for (variant, rounds) in [(Variant::Skinny64_64, 5), (Variant::Skinny128_256, 18), (Variant::Skinny128_384, 56)] {
        let bb = variant.block_bytes();
        let tk = variant.tweakey_bytes();
        for key_every in [1u64, 300] {
            let mut common = Common::new(variant, rounds, 1000);
            common.key_every = key_every;
            common.show = 3;
            // dp = dc = 0, no key differences: every query returns.
            let r = Boomerang::new(common.clone(), vec![0; bb], vec![0; bb]).run().unwrap();
            assert_eq!(r.hits, 1000);
            // dc = 0 and dk2 = 0: C3 = C1, C4 = C2 under the same keys, so the
            // pair comes back as it went, for any dp and dk1.
            let mut b = Boomerang::new(common.clone(), vec![0x35; bb], vec![0; bb]);
            b.dk1 = vec![0xa7; tk];
            let r = b.run().unwrap();
            assert_eq!(r.hits, 1000);
            let q = &r.right[1];
            assert_eq!(q.query, 1);
            assert_eq!((&q.p[2], &q.p[3]), (&q.p[0], &q.p[1]));
            // dp = 0 and no dk1: C1 = C2, so C3 = C4, and K3 = K4 whatever
            // dk2 is: P3 = P4 for any dc, a return every time.
            let mut b = Boomerang::new(common, vec![0; bb], vec![0; bb]);
            b.dc[0] = 1;
            b.dk2 = vec![0x11; tk];
            let r = b.run().unwrap();
            assert_eq!(r.hits, 1000);
        }
    }
}

#[test]
fn one_round_boomerang_matches_brute_force() {
    // One round of SKINNY-64-64, dp in cell 0, dc = one_round_output(b): the
    // quartet returns when the lower pair also goes back through the S-box with
    // difference dp. Count it exactly over the 16 values of cell 0 (the only
    // active cell; other cells cannot matter) and compare with the run.
    let key = hex("f5269826fc681238");
    let cipher = Skinny::with_rounds(Variant::Skinny64_64, &key, 1).unwrap();
    let (d, b) = (3u8, 0xau8);
    let mut returns = 0u32;
    for v in 0..16u8 {
        let mut p1 = hex("06034f957724d19d");
        p1[0] = (p1[0] & 0x0f) | (v << 4);
        let mut p2 = p1.clone();
        p2[0] ^= d << 4;
        let (mut c1, mut c2) = (p1.clone(), p2.clone());
        cipher.encrypt_block(&mut c1);
        cipher.encrypt_block(&mut c2);
        let dc = one_round_output(b);
        let (mut c3, mut c4): (Vec<u8>, Vec<u8>) =
            (c1.iter().zip(&dc).map(|(x, y)| x ^ y).collect(), c2.iter().zip(&dc).map(|(x, y)| x ^ y).collect());
        cipher.decrypt_block(&mut c3);
        cipher.decrypt_block(&mut c4);
        if c3.iter().zip(&c4).map(|(x, y)| x ^ y).collect::<Vec<_>>() == input_diff(d) {
            returns += 1;
        }
    }
    let mut common = Common::new(Variant::Skinny64_64, 1, 1 << 18);
    common.key_every = 512;
    let r = Boomerang::new(common, input_diff(d), one_round_output(b)).run().unwrap();
    let p = f64::from(returns) / 16.0;
    assert!(returns > 0);
    assert!(within(r.hits, r.queries, p), "{p} vs {} / {}", r.hits, r.queries);
}

#[test]
fn a_stopped_run_says_so_and_cannot_be_merged() {
    let c = Common::new(Variant::Skinny64_64, 3, 100_000);
    let exp = Differential::new(c, hex("1000000000000000"), hex("0000000000000000"));
    let control = skinny_lab::Control::new();
    control.stop();
    let stopped = exp.run_with(&control).unwrap();
    assert!(stopped.interrupted);
    assert_eq!(stopped.queries, 0);
    assert_eq!(control.done(), 0);
    let whole = exp.run().unwrap();
    assert!(!whole.interrupted);
    assert_eq!(whole.queries, 100_000);
    assert!(stopped.merge(whole).is_err(), "an interrupted run is not merged");
    // A control left alone counts every query.
    let control = skinny_lab::Control::new();
    let again = exp.run_with(&control).unwrap();
    assert_eq!(control.done(), 100_000);
    assert_eq!(again.hits, exp.run().unwrap().hits);
}

#[test]
fn shard_query_ranges_tile_the_run() {
    for (queries, key_every, shards) in [(100_000u64, 4096u64, 7u64), (10, 3, 4), (1 << 40, 4096, 3), (5, 1, 5)] {
        let mut c = Common::new(Variant::Skinny64_64, 3, queries);
        c.key_every = key_every;
        let mut next = 0;
        for i in 0..shards {
            c.shard = Shard::new(i, shards).unwrap();
            let r = c.shard_queries();
            assert_eq!(r.start, next, "{queries} {key_every} {i}/{shards}");
            let by_groups: u64 = if queries < 1 << 30 {
                c.shard.groups(c.groups()).map(|g| c.group_queries(g)).map(|q| q.end - q.start).sum()
            } else {
                r.end - r.start
            };
            assert_eq!(r.end - r.start, by_groups);
            next = r.end;
        }
        assert_eq!(next, queries);
    }
}
