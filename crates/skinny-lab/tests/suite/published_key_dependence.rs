//! A key-dependent characteristic of Peyrin and Tan ("Mind Your Path: On
//! (Key) Dependencies in Differential Characteristics", ToSC 2022(4);
//! repository QuanQuanTan/key-dependency-tool, `skinny_cpp/src/results/
//! skinny64/res_4_1.txt`, trail 1 = their `SK_2020_1402`): the first two
//! S-boxes of that single-key SKINNY-64 trail, cell 2 of round 1 taking the
//! difference 4 to 2 and cell 6 of round 2 taking 2 to 1, are linked through
//! one cell of round 1's subkey, and their tool reports a "key space
//! reduction" of 2^-2: the two transitions can hold together for a quarter of
//! the values of that key cell only.
//!
//! The lab counts differentials, not characteristics: the experiment here is
//! the 2-round differential with `dp` = 4 in cell 2 and the output cell 11
//! (where round 2's MixColumns puts cell 6's S-box output, alone in its
//! column) equal to 1, `dc_mask` selecting cell 11. Its probability for a
//! fixed key depends only on the nibble `k` of the master key in cell 2 and is
//! computed exactly here from the S-box: `P_k = #{x : S(S(x)^k) ^ S(S(x^4)^k)
//! = 1} / 16`. The test checks the tool's claim on the characteristic (4 of 16
//! key nibbles), then the lab's counts key by key (one key per run, as the
//! `--per-key` runs will do): no hit ever for a key whose `P_k` is 0 (half of
//! them), and the others inside their binomial band; and the key average.
//! docs/lab-validation.md has the mapping and the long runs.

use skinny::hazmat::spec::sbox::sbox4;
use skinny::Variant;
use skinny_lab::{stats, Common, Differential};

const ALPHA: f64 = 1e-6;
const DP: [u8; 8] = [0x00, 0x40, 0, 0, 0, 0, 0, 0];
const DC: [u8; 8] = [0, 0, 0, 0, 0, 0x01, 0, 0];
const DC_MASK: [u8; 8] = [0, 0, 0, 0, 0, 0x0f, 0, 0];

/// Solutions `x` (of 16) of the 2-round differential for key nibble `k`.
fn differential_count(k: u8) -> usize {
    (0..16u8).filter(|&x| sbox4(sbox4(x) ^ k) ^ sbox4(sbox4(x ^ 4) ^ k) == 1).count()
}

/// Solutions of the characteristic 4 -> 2 (round 1), 2 -> 1 (round 2).
fn characteristic_count(k: u8) -> usize {
    (0..16u8).filter(|&x| sbox4(x) ^ sbox4(x ^ 4) == 2 && sbox4(sbox4(x) ^ k) ^ sbox4(sbox4(x ^ 4) ^ k) == 1).count()
}

/// The master key's nibble in cell 2 (SKINNY-64-64: round 1's subkey there;
/// cell 2 gets no round constant).
fn cell2(key: &[u8]) -> u8 {
    key[1] >> 4
}

fn experiment(queries: u64, key_every: u64, seed: u64) -> Differential {
    let mut c = Common::new(Variant::Skinny64_64, 2, queries);
    c.key_every = key_every;
    c.seed = seed;
    let mut d = Differential::new(c, DP.to_vec(), DC.to_vec());
    d.dc_mask = DC_MASK.to_vec();
    d
}

#[test]
fn the_characteristic_holds_for_a_quarter_of_the_key_nibbles() {
    let ddt = |a: u8, b: u8| (0..16u8).filter(|&x| sbox4(x) ^ sbox4(x ^ a) == b).count();
    // The Markov estimate of the two transitions: 4/16 each.
    assert_eq!((ddt(4, 2), ddt(2, 1)), (4, 4));
    let good: Vec<u8> = (0..16).filter(|&k| characteristic_count(k) > 0).collect();
    assert_eq!(good, [0, 2, 8, 10], "Peyrin-Tan: a key space reduction of 2^-2");
    // Where it holds it has probability 4/16, not (4/16)^2.
    assert!(good.iter().all(|&k| characteristic_count(k) == 4));
    // The differential: half the key nibbles never reach the output difference.
    let counts: Vec<usize> = (0..16).map(differential_count).collect();
    assert_eq!(counts.iter().filter(|&&c| c == 0).count(), 8);
    assert_eq!(counts.iter().sum::<usize>(), 40, "key average 40/256");
}

#[test]
fn per_key_counts_follow_the_key_nibble() {
    let queries = 256;
    let (mut zero_keys, mut zero_hits) = (0, 0);
    for seed in 0..64 {
        let d = experiment(queries, queries, seed);
        let k = cell2(&d.common.key(0));
        let hits = d.run().unwrap().hits;
        let exact = differential_count(k) as f64 / 16.0;
        if exact == 0.0 {
            assert_eq!(hits, 0, "seed {seed}: key nibble {k:x} cannot reach the output difference");
            zero_keys += 1;
        } else {
            let est = stats::estimate_at(hits, queries, ALPHA);
            let lower = est.log2_lower.unwrap_or(f64::NEG_INFINITY);
            assert!(lower <= exact.log2() && exact.log2() <= est.log2_upper, "seed {seed}: {hits} of {queries}");
        }
        zero_hits += u64::from(hits == 0);
    }
    // With 256 queries a key of probability 1/8 or more hits (but for
    // (7/8)^256 < 2^-49): the keys without hits are exactly the impossible ones.
    assert_eq!(zero_hits, zero_keys);
    assert!((16..=48).contains(&zero_keys), "{zero_keys} of 64 keys impossible (half expected)");
}

#[test]
fn the_key_average_is_40_of_256() {
    // A fresh key every query: the queries are independent with p = 40/256.
    let r = experiment(1 << 20, 1, 2022).run().unwrap();
    let est = stats::estimate_at(r.hits, r.queries, ALPHA);
    let exact = (40.0f64 / 256.0).log2();
    assert!(est.log2_lower.unwrap() <= exact && exact <= est.log2_upper, "{} of {}", r.hits, r.queries);

    // A key every 256 queries: given the keys drawn, the expected count is
    // the sum of their exact probabilities; the spread of the key nibbles
    // comes on top of the binomial interval of the whole run.
    let d = experiment(1 << 20, 256, 2022);
    let r = d.run().unwrap();
    let (mut mean, mut var) = (0.0, 0.0);
    for g in 0..d.common.groups() {
        let p = differential_count(cell2(&d.common.key(g))) as f64 / 16.0;
        mean += 256.0 * p;
        var += 256.0 * p * (1.0 - p);
    }
    let z = (r.hits as f64 - mean) / var.sqrt();
    assert!(z.abs() < 5.0, "{} hits, {mean:.0} expected from the keys drawn, z = {z:.2}", r.hits);
}
