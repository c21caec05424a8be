//! Cell patterns (truncated differences) on the differential: exact one-round
//! probabilities from the S-box's difference table (cells 0 and 10 active:
//! ShiftRows puts both in column 0, whose output cells 0 and 12 are zero
//! exactly when the two S-box output differences are equal), the pattern
//! ANDed with a bit condition, counts and kept pairs against a query-by-query
//! recomputation on both CPU engines and from later rounds, and findings that
//! merge exactly (and refuse a changed or broken pattern).

use skinny::hazmat::partial::encrypt_rounds;
use skinny::hazmat::spec::sbox::{sbox4, sbox8};
use skinny::hazmat::spec::{pack_cells, unpack_cells};
use skinny::Variant;
use skinny_lab::stats::clopper_pearson;
use skinny_lab::{
    CellCondition, CellPattern, Common, Control, Differential, Experiment, Findings, FindingsError, MergeError,
    Placement, Rig, Shard, Threads, TweakeyAt,
};

const VERSION: &str = "test 1.0";

/// The S-box's difference table row of input difference `a`.
fn ddt_row(v: Variant, a: u8) -> Vec<u64> {
    let (n, s): (usize, fn(u8) -> u8) = if v.block_bytes() == 16 { (256, sbox8) } else { (16, sbox4) };
    let mut row = vec![0u64; n];
    for x in 0..n {
        row[(s(x as u8) ^ s(x as u8 ^ a)) as usize] += 1;
    }
    row
}

fn block(v: Variant, cells: [u8; 16]) -> Vec<u8> {
    let mut b = vec![0u8; v.block_bytes()];
    pack_cells(v.cell_width(), &cells, &mut b);
    b
}

/// Whether `p` lies in the 1 - 10^-9 interval of `hits` in `queries`.
fn within(p: f64, hits: u64, queries: u64) -> bool {
    let (lo, hi) = clopper_pearson(hits, queries, 1e-9);
    lo <= p && p <= hi
}

#[test]
fn one_round_probabilities_are_the_sbox_s_ddt() {
    for v in [Variant::Skinny64_64, Variant::Skinny64_192, Variant::Skinny128_128, Variant::Skinny128_256] {
        let n = if v.block_bytes() == 16 { 256u64 } else { 16 };
        for (a0, a2) in [(1u8, 1u8), (2, 3), (5, 5)] {
            let (r0, r2) = (ddt_row(v, a0), ddt_row(v, a2));
            // P(b0 == b2), and P(b0 == b2 == t) for the likeliest t.
            let equal = r0.iter().zip(&r2).map(|(x, y)| x * y).sum::<u64>() as f64 / (n * n) as f64;
            let t = (1..n as usize).max_by_key(|&b| r0[b] * r2[b]).unwrap();
            let equal_t = (r0[t] * r2[t]) as f64 / (n * n) as f64;
            let mut active = [0u8; 16];
            (active[0], active[10]) = (a0, a2);
            let dp = block(v, active);
            let mut at4 = [0u8; 16];
            at4[4] = (n - 1) as u8;
            let mut t4 = [0u8; 16];
            t4[4] = t as u8;
            for (start, key_every) in [(1, 1), (1, 5000), (9, 3)] {
                let queries = 1 << 14;
                let mut c = Common::new(v, 1, queries);
                (c.start_round, c.key_every, c.seed) = (start, key_every, u64::from(a0) << 8 | u64::from(a2));
                let what = format!("{v} a = {a0:x}, {a2:x} from round {start}, key every {key_every}");
                let cancel: CellPattern = "0000 x000 x000 0000".parse().unwrap();
                let o = Differential::truncated(c.clone(), dp.clone(), cancel).run().unwrap();
                assert!(within(equal, o.hits, o.queries), "{what}: {} hits, exact {equal}", o.hits);
                let apart: CellPattern = "x000 x000 x000 x000".parse().unwrap();
                let o = Differential::truncated(c.clone(), dp.clone(), apart).run().unwrap();
                assert!(within(1.0 - equal, o.hits, o.queries), "{what}: {} hits apart", o.hits);
                // ANDed with cell 4 (= cell 0's S-box output) fixed to t.
                let mut d = Differential::truncated(c.clone(), dp.clone(), cancel);
                (d.dc, d.dc_mask) = (block(v, t4), block(v, at4));
                let o = d.run().unwrap();
                assert!(within(equal_t, o.hits, o.queries), "{what}: {} hits with cell 4 = {t:x}", o.hits);
                // The bits alone (the pattern all free) are the plain differential.
                let mut plain = Differential::new(c, dp.clone(), block(v, t4));
                plain.dc_mask = block(v, at4);
                let mut free = plain.clone();
                free.cells = Some(CellPattern::FREE);
                assert_eq!(free.run().unwrap().hits, plain.run().unwrap().hits, "{what}");
            }
        }
    }
}

#[test]
fn counts_and_pairs_are_the_specification_s_on_both_engines() {
    let mut seed = 0u64;
    for v in Variant::ALL {
        for (start, rounds, key_every, at) in [
            (1, 2, 1, TweakeyAt::Master),
            (1, 2, 3, TweakeyAt::Master),
            (1, 2, 300, TweakeyAt::Master),
            (5, 2, 2, TweakeyAt::Start),
        ] {
            for shard in [Shard::WHOLE, Shard::new(2, 3).unwrap()] {
                seed += 1;
                let mut c = Common::new(v, rounds, 1200);
                (c.start_round, c.key_every, c.tk_at, c.seed, c.show, c.shard) =
                    (start, key_every, at, seed, 30, shard);
                let mut active = [0u8; 16];
                (active[0], active[10]) = (1 + (seed % 3) as u8, 1 + (seed % 3) as u8);
                // Two rounds from cells 0 and 10: cell 0 is zero after the
                // second when the first cancelled (and rarely otherwise).
                let pattern: CellPattern = "0*** **** **** ****".parse().unwrap();
                let d = Differential::truncated(c.clone(), block(v, active), pattern);
                let o = d.run().unwrap();
                let mut hits = 0;
                let mut right = Vec::new();
                for q in c.shard_queries() {
                    let k = c.key(q / key_every);
                    let k2: Vec<u8> = k.iter().zip(&d.dk).map(|(a, b)| a ^ b).collect();
                    let mut p = vec![0u8; v.block_bytes()];
                    c.plaintext(q, &mut p);
                    let (mut x, mut y) = (p.clone(), p.iter().zip(&d.dp).map(|(a, b)| a ^ b).collect::<Vec<u8>>());
                    encrypt_rounds(v, &k, at, start, rounds, &mut x).unwrap();
                    encrypt_rounds(v, &k2, at, start, rounds, &mut y).unwrap();
                    let mut diff = [0u8; 16];
                    let xy: Vec<u8> = x.iter().zip(&y).map(|(a, b)| a ^ b).collect();
                    unpack_cells(v.cell_width(), &xy, &mut diff);
                    let meets = pattern.cells().iter().zip(diff).all(|(c, d)| match c {
                        CellCondition::Zero => d == 0,
                        CellCondition::NonZero => d != 0,
                        CellCondition::Free => true,
                    });
                    if meets {
                        hits += 1;
                        if right.len() < c.show {
                            right.push(d.pair_at(q).expect("a hit"));
                        }
                    }
                }
                let what = format!("{v} {start}+{rounds} key every {key_every} {shard:?}");
                assert!(hits > 0 && hits < o.queries, "{what}: {hits} hits, a pattern that decides");
                assert_eq!(o.hits, hits, "{what}");
                assert_eq!(o.right, right, "{what}");
            }
        }
    }
}

fn experiment(shard: Shard) -> Experiment {
    let mut c = Common::new(Variant::Skinny64_128, 2, 30_000);
    (c.key_every, c.seed, c.show, c.shard) = (3, 4, 5, shard);
    // Cells 0 and 10 active; cell 4 must differ, and cell 1's low bit not.
    let pattern = "**** x*** **** ****".parse().unwrap();
    let mut d = Differential::truncated(c, vec![0x10, 0, 0, 0, 0, 0x10, 0, 0], pattern);
    d.dc_mask[0] = 0x01;
    d.into()
}

fn findings(exp: &Experiment) -> Findings {
    let rig = Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(2)) }, exp.common()).unwrap();
    rig.run(exp, &Control::new(), VERSION).unwrap()
}

#[test]
fn findings_with_a_pattern_merge_and_refuse_a_changed_one() {
    let whole = findings(&experiment(Shard::WHOLE));
    assert_eq!(whole.cells.as_deref(), Some("****x***********"));
    assert_eq!((whole.dc.as_str(), whole.dc_mask.as_deref()), ("0000000000000000", Some("0100000000000000")));
    assert!(whole.hits > 0 && whole.hits < whole.queries);
    let parts: Vec<Findings> = (0..4).map(|i| findings(&experiment(Shard::new(i, 4).unwrap()))).collect();
    let json: Vec<Findings> =
        parts.iter().map(|p| serde_json::from_str(&serde_json::to_string(p).unwrap()).unwrap()).collect();
    let merged = Findings::merge(&json, VERSION).unwrap();
    assert_eq!((merged.hits, &merged.right, &merged.cells), (whole.hits, &whole.right, &whole.cells));
    // Another pattern is another experiment; a broken one does not read
    // back; one that the pairs kept do not meet is refused (their
    // recomputation is no hit).
    let mut other = parts[1].clone();
    other.cells = Some("****x**********0".into());
    assert!(matches!(Findings::merge(&[parts[0].clone(), other], VERSION), Err(MergeError::OtherExperiment { .. })));
    let mut broken = parts[0].clone();
    broken.cells = Some("****x**********".into());
    let refused = Findings::merge(&[broken], VERSION);
    assert!(matches!(refused, Err(MergeError::Part { source: FindingsError::Cells(_), .. })), "{refused:?}");
    let mut spaced = parts[0].clone();
    spaced.cells = Some("**** x*** **** ****".into());
    assert_eq!(Findings::merge(&[spaced], VERSION).unwrap().cells.as_deref(), Some("****x***********"));
    let mut unmet = parts[0].clone();
    unmet.cells = Some("0".repeat(16));
    let refused = Findings::merge(&[unmet], VERSION);
    assert!(matches!(refused, Err(MergeError::Part { source: FindingsError::RightFalse { .. }, .. })), "{refused:?}");
}

#[test]
fn differentials_without_a_pattern_are_unchanged() {
    let c = Common::new(Variant::Skinny128_128, 3, 100);
    let d = Differential::new(c, vec![1; 16], vec![2; 16]);
    assert_eq!((d.cells, d.dc_mask.clone()), (None, vec![0xff; 16]));
    let f = Findings::of_differential(
        &d,
        &d.run().unwrap(),
        skinny_lab::CountedBy { backend: "cpu".into(), threads: None, version: VERSION.into() },
    );
    assert!(f.cells.is_none() && !serde_json::to_string(&f).unwrap().contains("cells"));
}
