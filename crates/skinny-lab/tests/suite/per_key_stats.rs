//! Per-key statistics: a differential whose probability depends on the key
//! (predicted key by key by exhausting the one plaintext cell it depends on)
//! gives the predicted keys without a hit and a tiny dispersion p-value, a
//! key-independent one does not; the dispersion test on synthetic binomial
//! data and on a mixture of two probabilities; and stored per-key findings
//! are checked before a merge trusts them.

use skinny::hazmat::spec::sbox::sbox4;
use skinny::{Skinny, Variant};
use skinny_lab::{
    Common, Control, Differential, Experiment, Findings, FindingsError, KeyHistogram, MergeError, Placement, Rig,
    Shard, Threads,
};

/// SKINNY-64-64, two rounds, difference `a` in cell 0 (the high nibble of
/// byte 0), only cell 9 (the low nibble of byte 4) compared, to `b`. Round
/// 1's S-box makes cell 0's difference d = S(x) ^ S(x ^ a), x the
/// plaintext's cell 0; MixColumns copies cell 0 alone into cell 4 (row 1 is
/// row 0), so round 2's S-box in cell 4 sees the value S(x) ^ k ^ c (k the
/// round tweakey's cell 0, c a constant) and the difference d, and ShiftRows
/// and MixColumns carry its output difference alone to cell 9. So whether a
/// query hits depends on x and on the key's cell 0 only: each key's
/// probability is a count over the 16 values of x, 0 for some keys.
fn key_dependent(a: u8, b: u8, groups: u64, q: u64) -> Differential {
    let mut c = Common::new(Variant::Skinny64_64, 2, groups * q);
    c.key_every = q;
    c.seed = 2024;
    c.per_key = true;
    let mut e = Differential::new(c, vec![a << 4, 0, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, b, 0, 0, 0]);
    e.dc_mask = vec![0, 0, 0, 0, 0x0f, 0, 0, 0];
    e
}

/// Key `k`'s probability, out of 16: the plaintexts whose cell 0 is each x
/// (the other cells from `rest`), counted with the cipher.
fn sixteenths(e: &Differential, k: &[u8], rest: &[u8]) -> u32 {
    let s = Skinny::with_rounds(Variant::Skinny64_64, k, 2).unwrap();
    (0..16u8)
        .filter(|&x| {
            let mut p = rest.to_vec();
            p[0] = (x << 4) | (p[0] & 0x0f);
            let mut p2 = p.clone();
            p2[0] ^= e.dp[0];
            s.encrypt_block(&mut p);
            s.encrypt_block(&mut p2);
            (0..8).all(|i| (p[i] ^ p2[i]) & e.dc_mask[i] == e.dc[i])
        })
        .count() as u32
}

#[test]
fn a_key_dependent_differential_gives_the_predicted_histogram() {
    let (groups, q) = (64u64, 512u64);
    // The first (a, b) for which some keys never hit and others do.
    let mut found = None;
    'search: for a in 1..16u8 {
        for b in 1..16u8 {
            let e = key_dependent(a, b, groups, q);
            let p: Vec<u32> = (0..groups).map(|g| sixteenths(&e, &e.common.key(g), &[0; 8])).collect();
            if p.contains(&0) && p.iter().any(|&x| x >= 2) {
                found = Some((e, p));
                break 'search;
            }
        }
    }
    let (e, p) = found.expect("a key-dependent differential");
    // The claim: other plaintext cells change nothing.
    for g in 0..8 {
        let k = e.common.key(g);
        assert_eq!(sixteenths(&e, &k, &[0x5a, 0x3c, 0xff, 0x01, 0x70, 0x9e, 0x42, 0xd3]), p[g as usize]);
    }
    let o = e.run().expect("runs");
    let h = o.per_key.as_ref().expect("per-key counts");
    let d = h.distribution(false);
    // Keys of probability 0 never hit; the others (at least 1/16 each, 512
    // queries) miss all with probability (15/16)^512 < 1e-14.
    let never = p.iter().filter(|&&x| x == 0).count() as u64;
    assert_eq!(h.entries().next(), Some((0, never)), "{:?} against {p:?}", h.pairs());
    assert!((d.zero_hit_share.unwrap() - never as f64 / groups as f64).abs() < 1e-15);
    // The averaged model expects few keys without a hit.
    assert!(d.zero_hit_expected.unwrap() < 1e-6);
    // Every key's hits near 512 p: the mean near the predicted one, and a
    // dispersion far beyond one probability's.
    let mean: f64 = p.iter().map(|&x| f64::from(x) * 32.0).sum::<f64>() / groups as f64;
    assert!((d.mean_hits.unwrap() - mean).abs() < 5.0, "{} vs {mean}", d.mean_hits.unwrap());
    assert!(d.dispersion_p_value.unwrap() < 1e-12, "{d:?}");
    assert_eq!(d.dispersion_df, groups - 1);
}

#[test]
fn a_key_independent_differential_passes_the_dispersion_test() {
    // One round: cell 0's difference is the S-box's, whatever the key (1 to
    // its likeliest output difference).
    let best = (0..16u8).max_by_key(|&b| (0..16u8).filter(|&x| sbox4(x) ^ sbox4(x ^ 1) == b).count()).unwrap();
    let mut e = key_dependent(1, 0, 200, 256);
    e.common.rounds = 1;
    e.dc = vec![best << 4, 0, 0, 0, 0, 0, 0, 0];
    e.dc_mask = vec![0xf0, 0, 0, 0, 0, 0, 0, 0];
    let d = e.run().unwrap().per_key.unwrap().distribution(false);
    let p = d.dispersion_p_value.unwrap();
    assert!(p > 1e-3, "{d:?}");
}

/// Binomial(q, p) by `q` draws of a xorshift generator.
fn binomial(state: &mut u64, q: u64, p: f64) -> u64 {
    (0..q)
        .filter(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            ((*state >> 11) as f64 / (1u64 << 53) as f64) < p
        })
        .count() as u64
}

#[test]
fn the_dispersion_test_on_synthetic_keys() {
    let mut state = 0x2545_f491_4f6c_dd1d;
    let (keys, q) = (2000, 400);
    let mut one = KeyHistogram::new(q);
    let mut two = KeyHistogram::new(q);
    for k in 0..keys {
        let hits = binomial(&mut state, q, 0.05);
        one.add(&KeyHistogram::from_pairs(q, &[[hits, 1]]).unwrap()).unwrap();
        // Half the keys at 0.05, half at 0.065.
        let hits = binomial(&mut state, q, if k % 2 == 0 { 0.05 } else { 0.065 });
        two.add(&KeyHistogram::from_pairs(q, &[[hits, 1]]).unwrap()).unwrap();
    }
    let (d1, d2) = (one.distribution(false), two.distribution(false));
    // One probability: the statistic near its 1999 degrees of freedom.
    assert!(d1.dispersion_p_value.unwrap() > 1e-3, "{d1:?}");
    assert!((d1.dispersion.unwrap() / 1999.0 - 1.0).abs() < 0.15);
    // Two: the variance grows by (0.0075 * 400)^2 = 9 over about 21.
    assert!(d2.dispersion_p_value.unwrap() < 1e-12, "{d2:?}");
}

fn findings(shard: Shard) -> Findings {
    let e: Experiment = {
        let mut e = key_dependent(3, 5, 40, 100);
        e.common.shard = shard;
        e.common.show = 2;
        e.into()
    };
    let rig = Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(1)) }, e.common()).unwrap();
    rig.run(&e, &Control::new(), "test").unwrap()
}

#[test]
fn stored_histograms_are_checked_before_a_merge() {
    let parts: Vec<Findings> = (0..2).map(|i| findings(Shard::new(i, 2).unwrap())).collect();
    let whole = findings(Shard::WHOLE);
    assert_eq!(Findings::merge(&parts, "test").unwrap().per_key, whole.per_key);
    // The statistics of a record are not read: recomputed from the histogram.
    let mut lying = parts.clone();
    let d = lying[1].per_key.as_mut().unwrap();
    (d.dispersion_p_value, d.zero_hit_share, d.mean_hits) = (Some(0.5), None, Some(-3.0));
    assert_eq!(Findings::merge(&lying, "test").unwrap().per_key, whole.per_key);
    // A record without them still reads.
    let mut json: serde_json::Value = serde_json::to_value(&parts[1]).unwrap();
    let pk = json["per_key"].as_object_mut().unwrap();
    pk.retain(|k, _| matches!(k.as_str(), "keys" | "queries_per_key" | "histogram"));
    let bare: Findings = serde_json::from_value(json).expect("reads");
    assert_eq!(Findings::merge(&[parts[0].clone(), bare], "test").unwrap().per_key, whole.per_key);

    let hist = parts[1].per_key.as_ref().unwrap().histogram.clone();
    let (h0, k0) = (hist[0][0], hist[0][1]);
    let last = hist.len() - 1;
    type Edit = Box<dyn Fn(&mut Findings)>;
    let edits: Vec<(&str, Edit)> = vec![
        ("a key too many", Box::new(move |f| f.per_key.as_mut().unwrap().histogram[0][1] = k0 + 1)),
        ("a hit moved", Box::new(move |f| f.per_key.as_mut().unwrap().histogram[last][0] += 1)),
        ("more hits than queries", Box::new(|f| f.per_key.as_mut().unwrap().histogram.push([101, 1]))),
        ("out of order", Box::new(|f| f.per_key.as_mut().unwrap().histogram.reverse())),
        ("an entry of no keys", Box::new(move |f| f.per_key.as_mut().unwrap().histogram.insert(0, [h0, 0]))),
        ("other queries per key", Box::new(|f| f.per_key.as_mut().unwrap().queries_per_key = 99)),
        ("keys that the histogram contradicts", Box::new(|f| f.per_key.as_mut().unwrap().keys += 1)),
    ];
    for (what, edit) in &edits {
        let mut bad = parts.clone();
        edit(&mut bad[1]);
        let err = Findings::merge(&bad, "test").expect_err(what);
        assert!(matches!(err, MergeError::Part { part: 1, source: FindingsError::PerKey(_) }), "{what}: {err:?}");
    }
    // Per-key findings with findings of the same run without: not one run.
    let mut without = parts.clone();
    without[1].per_key = None;
    assert!(Findings::merge(&without, "test").is_err());
}
