//! The linear experiment: exact one-round correlations from the S-box's
//! linear approximation table (an input mask on one S-box of the rows that
//! get no tweakey and no constant, an output mask that the linear layer
//! sends back onto that S-box alone), a key-dependent sign with one fixed
//! key, counts and kept witnesses against a query-by-query recomputation on
//! both CPU engines and from later start rounds, and findings that merge
//! exactly.

use skinny::hazmat::partial::{encrypt_rounds, TweakeyAt};
use skinny::hazmat::spec::round::{mix_columns, shift_rows};
use skinny::hazmat::spec::sbox::{sbox4, sbox8};
use skinny::hazmat::spec::{pack_cells, unpack_cells};
use skinny::Variant;
use skinny_lab::stats::{clopper_pearson, correlation};
use skinny_lab::{
    Common, Control, Experiment, Findings, KnownPlaintext, Linear, MergeError, Placement, Rig, Shard, Threads,
};

const VERSION: &str = "test 1.0";

fn bits(v: Variant) -> u32 {
    if v.block_bytes() == 16 {
        8
    } else {
        4
    }
}

/// The S-box's linear approximation table entry as a correlation:
/// `2^-n Σ_x (-1)^(a·x ^ b·S(x))`, computed exhaustively.
fn lat_correlation(v: Variant, a: u8, b: u8) -> f64 {
    let n = 1u32 << bits(v);
    let s = |x: u8| if bits(v) == 4 { sbox4(x) } else { sbox8(x) };
    let sum: i64 =
        (0..n).map(|x| if ((x as u8 & a) ^ (s(x as u8) & b)).count_ones().is_multiple_of(2) { 1 } else { -1 }).sum();
    sum as f64 / f64::from(n)
}

/// A block with `x` in cell `c` only.
fn in_cell(v: Variant, c: usize, x: u8) -> Vec<u8> {
    let mut cells = [0u8; 16];
    cells[c] = x;
    let mut b = vec![0u8; v.block_bytes()];
    pack_cells(v.cell_width(), &cells, &mut b);
    b
}

fn parity(mask: &[u8], x: &[u8]) -> bool {
    x.iter().zip(mask).map(|(x, m)| (x & m).count_ones()).sum::<u32>() % 2 == 1
}

/// An output mask `beta` with `parity(beta & L(y)) == parity(m_c & y)` for
/// every `y` (L = MixColumns after ShiftRows, `m_c` = `m` in cell `c`): the
/// candidates put `m` in a subset of one column's cells, and the equation is
/// checked on every unit vector (both sides are linear in `y`).
fn mask_back_to(v: Variant, c: usize, m: u8) -> Vec<u8> {
    let want = in_cell(v, c, m);
    let w = v.cell_width();
    let fits = |beta: &[u8]| {
        (0..8 * v.block_bytes()).all(|i| {
            let mut y = vec![0u8; v.block_bytes()];
            y[i / 8] = 1 << (i % 8);
            let mut cells = [0u8; 16];
            unpack_cells(w, &y, &mut cells);
            shift_rows(&mut cells);
            mix_columns(&mut cells);
            let mut ly = vec![0u8; v.block_bytes()];
            pack_cells(w, &cells, &mut ly);
            parity(beta, &ly) == parity(&want, &y)
        })
    };
    for col in 0..4 {
        for subset in 1..16u32 {
            let mut cells = [0u8; 16];
            for row in 0..4 {
                if subset >> row & 1 == 1 {
                    cells[4 * row + col] = m;
                }
            }
            let mut beta = vec![0u8; v.block_bytes()];
            pack_cells(w, &cells, &mut beta);
            if fits(&beta) {
                return beta;
            }
        }
    }
    panic!("no output mask of one column reaches cell {c} alone");
}

/// Whether the exact correlation `exact` lies in the 1 - 10^-9 interval of
/// `hits` in `queries` (mapped from the binomial one).
fn within(exact: f64, hits: u64, queries: u64) -> bool {
    let (lo, hi) = clopper_pearson(hits, queries, 1e-9);
    (2.0 * lo - 1.0) <= exact && exact <= (2.0 * hi - 1.0)
}

/// Masks with large, small, zero and negative correlations of the S-box.
fn mask_pairs(v: Variant) -> Vec<(u8, u8)> {
    let top = if bits(v) == 4 { 15u8 } else { 255 };
    let mut out = Vec::new();
    for a in [1u8, 6, top] {
        let by_size = |b: &u8| (lat_correlation(v, a, *b).abs() * 1e6) as i64;
        let best = (1..=top).max_by_key(by_size).unwrap();
        let zero = (1..=top).find(|b| lat_correlation(v, a, *b) == 0.0).unwrap();
        let negative = (1..=top).find(|b| lat_correlation(v, a, *b) < 0.0).unwrap();
        out.extend([(a, best), (a, zero), (a, negative)]);
    }
    out
}

#[test]
fn one_round_correlations_are_the_sbox_s_lat() {
    // Cell 10 (row 2): no tweakey and no constant is added to it, so its
    // S-box decides alone, for every key and from every start round.
    let cell = 10;
    for v in [Variant::Skinny64_64, Variant::Skinny128_128, Variant::Skinny64_192, Variant::Skinny128_384] {
        for (a, b) in mask_pairs(v) {
            let exact = lat_correlation(v, a, b);
            for (start, key_every) in [(1, 1), (1, 1 << 20), (7, 3), (7, 1 << 20)] {
                let queries = 1 << 14;
                let mut c = Common::new(v, 1, queries);
                c.start_round = start;
                c.key_every = key_every;
                c.seed = u64::from(a) << 8 | u64::from(b);
                let e = Linear::new(c, in_cell(v, cell, a), mask_back_to(v, cell, b));
                let o = e.run().unwrap();
                let what = format!("{v} a={a:x} b={b:x} start {start} key every {key_every}: {} hits", o.hits);
                assert!(within(exact, o.hits, o.queries), "{what}, exact {exact}");
                assert_eq!(o.correlation(), correlation(o.hits, o.queries));
            }
        }
    }
}

#[test]
fn one_fixed_key_gives_its_own_sign_and_fresh_keys_average_it_out() {
    // Cell 1 (row 0) gets round 1's tweakey cell 1 (SKINNY-64-64: TK1's
    // cell 1) and no constant: with one key the correlation is the S-box's
    // times (-1)^(b · that key cell); over fresh keys it averages to 0.
    let v = Variant::Skinny64_64;
    let (cell, a) = (1, 6u8);
    let b = (1..16u8).max_by_key(|b| (lat_correlation(v, a, *b).abs() * 1e6) as i64).unwrap();
    let lat = lat_correlation(v, a, b);
    let queries = 1 << 14;
    for seed in 0..4 {
        let mut c = Common::new(v, 1, queries);
        c.key_every = queries;
        c.seed = seed;
        assert_eq!(c.groups(), 1);
        let mut key_cells = [0u8; 16];
        unpack_cells(v.cell_width(), &c.key(0), &mut key_cells);
        let sign = if (key_cells[cell] & b).count_ones() % 2 == 1 { -1.0 } else { 1.0 };
        let o = Linear::new(c.clone(), in_cell(v, cell, a), mask_back_to(v, cell, b)).run().unwrap();
        assert!(within(sign * lat, o.hits, o.queries), "seed {seed}: {} hits, exact {}", o.hits, sign * lat);
        c.key_every = 1;
        let o = Linear::new(c, in_cell(v, cell, a), mask_back_to(v, cell, b)).run().unwrap();
        assert!(within(0.0, o.hits, o.queries), "seed {seed}, fresh keys: {} hits", o.hits);
    }
}

/// The experiment counted query by query with `encrypt_rounds`, from its own
/// keys (as given) and plaintexts.
fn by_hand(e: &Linear) -> (u64, Vec<KnownPlaintext>) {
    let c = &e.common;
    let (mut hits, mut right) = (0, Vec::new());
    for q in c.shard_queries() {
        let k = c.key(q / c.key_every);
        let mut p = vec![0u8; c.variant.block_bytes()];
        c.plaintext(q, &mut p);
        let mut x = p.clone();
        encrypt_rounds(c.variant, &k, c.tk_at, c.start_round, c.rounds, &mut x).unwrap();
        if parity(&e.in_mask, &p) == parity(&e.out_mask, &x) {
            hits += 1;
            if right.len() < c.show {
                right.push(KnownPlaintext { query: q, p, c: x, k });
            }
        }
    }
    (hits, right)
}

#[test]
fn counts_and_kept_hits_are_the_specification_s_on_both_engines() {
    // Key groups under 256 from round 1: per-block tweakeys; 256 and more,
    // or any group from a later round: a cipher per key.
    let mut seed = 1u64;
    for v in Variant::ALL {
        for (start, rounds, key_every, at) in [
            (1, 2, 1, TweakeyAt::Master),
            (1, 3, 3, TweakeyAt::Master),
            (1, 2, 255, TweakeyAt::Master),
            (1, 2, 256, TweakeyAt::Master),
            (1, 4, 700, TweakeyAt::Start),
            (6, 2, 1, TweakeyAt::Master),
            (6, 3, 300, TweakeyAt::Start),
            (v.rounds() - 1, 2, 5, TweakeyAt::Master),
        ] {
            for shard in [Shard::WHOLE, Shard::new(1, 3).unwrap()] {
                seed += 1;
                let mut c = Common::new(v, rounds, 1500);
                (c.start_round, c.key_every, c.tk_at, c.seed, c.show, c.shard) =
                    (start, key_every, at, seed, 40, shard);
                // Masks of few bits: correlations far from 0 after few rounds.
                let bb = v.block_bytes();
                let mut alpha = vec![0u8; bb];
                alpha[(seed as usize * 5) % bb] = 0x12;
                let mut beta = vec![0u8; bb];
                beta[(seed as usize * 3) % bb] = 0x81;
                let e = Linear::new(c, alpha, beta);
                let o = e.run().unwrap();
                let (hits, right) = by_hand(&e);
                let what = format!("{v} rounds {start}+{rounds} key every {key_every} {at:?} {shard:?}");
                assert_eq!((o.queries, o.hits), (e.common.shard_queries().count() as u64, hits), "{what}");
                assert_eq!(o.right, right, "{what}");
                for w in &o.right {
                    assert_eq!(e.known_plaintext_at(w.query).as_ref(), Some(w), "{what}");
                }
            }
        }
    }
}

fn experiment(shard: Shard, key_every: u64) -> Experiment {
    let mut c = Common::new(Variant::Skinny128_256, 2, 20_000);
    (c.start_round, c.key_every, c.seed, c.show, c.shard) = (3, key_every, 9, 6, shard);
    let mut alpha = vec![0u8; 16];
    alpha[2] = 0x40;
    let mut beta = vec![0u8; 16];
    beta[9] = 0x11;
    Linear::new(c, alpha, beta).into()
}

fn findings(exp: &Experiment) -> Findings {
    let rig = Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(2)) }, exp.common()).unwrap();
    rig.run(exp, &Control::new(), VERSION).unwrap()
}

#[test]
fn findings_of_shards_merge_into_the_whole_run() {
    for key_every in [1, 7000] {
        let whole = findings(&experiment(Shard::WHOLE, key_every));
        assert_eq!(whole.experiment, "linear");
        assert!(whole.dp.is_empty() && whole.dc.is_empty() && whole.mask.is_none());
        assert_eq!(whole.in_mask, Some(format!("000040{}", "00".repeat(13))));
        assert_eq!(whole.out_mask, Some(format!("{}11{}", "00".repeat(9), "00".repeat(6))));
        assert_eq!(whole.right.len(), 6);
        assert!(whole.right.iter().all(|w| w.p.len() == 1 && w.c.len() == 1 && w.k.len() == 1));
        assert_eq!(whole.correlation, correlation(whole.hits, whole.queries).correlation);
        let parts: Vec<Findings> =
            (0..3).map(|i| findings(&experiment(Shard::new(i, 3).unwrap(), key_every))).collect();
        let merged = Findings::merge(&parts, VERSION).unwrap();
        assert!(merged.complete);
        assert_eq!((merged.hits, merged.queries, &merged.right), (whole.hits, whole.queries, &whole.right));
        assert_eq!((merged.correlation, merged.correlation_ci95), (whole.correlation, whole.correlation_ci95));
        let json: Vec<Findings> =
            parts.iter().map(|p| serde_json::from_str(&serde_json::to_string(p).unwrap()).unwrap()).collect();
        assert_eq!(Findings::merge(&json, VERSION).unwrap(), Findings { version: VERSION.into(), ..merged.clone() });

        // Refused: a shard twice, other masks, a forged hit, fields of other
        // experiments, masks of the wrong length.
        let twice = [parts[0].clone(), parts[0].clone()];
        assert!(matches!(Findings::merge(&twice, VERSION), Err(MergeError::Part { part: 1, .. })));
        let mut other = parts[1].clone();
        other.out_mask = Some("00".repeat(15) + "01");
        assert!(matches!(
            Findings::merge(&[parts[0].clone(), other], VERSION),
            Err(MergeError::OtherExperiment { .. })
        ));
        let mut forged = parts[0].clone();
        forged.right[0].c[0] = "00".repeat(16);
        assert!(Findings::merge(&[forged], VERSION).is_err());
        let mut two = parts[0].clone();
        let p0 = two.right[0].p[0].clone();
        two.right[0].p.push(p0);
        assert!(Findings::merge(&[two], VERSION).is_err());
        for edit in [
            (|f: &mut Findings| f.dp = "00".repeat(16)) as fn(&mut Findings),
            |f| f.dc = "00".repeat(16),
            |f| f.mask = Some("00".repeat(16)),
            |f| f.dk = Some("00".repeat(32)),
            |f| f.cells = Some("*".repeat(16)),
            |f| f.in_mask = Some("00".repeat(15)),
            |f| f.out_mask = None,
        ] {
            let mut f = parts[0].clone();
            edit(&mut f);
            assert!(Findings::merge(&[f], VERSION).is_err());
        }
    }
}

#[test]
fn masks_of_the_wrong_length_are_refused() {
    let c = Common::new(Variant::Skinny64_128, 3, 100);
    assert!(Linear::new(c.clone(), vec![0; 8], vec![0; 16]).run().is_err());
    assert!(Linear::new(c.clone(), vec![0; 7], vec![0; 8]).check().is_err());
    // Zero masks: parity 0 = 0, every query hits.
    let o = Linear::new(c, vec![0; 8], vec![0; 8]).run().unwrap();
    assert_eq!((o.hits, o.correlation().correlation), (100, Some(1.0)));
}
