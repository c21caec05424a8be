//! The differential-linear experiment: exact correlations of one round
//! (from the S-box: the output difference of one active S-box, spread by
//! the linear layer, read through a mask on one cell), the correlation's
//! interval, and findings that merge exactly like a differential's.

use skinny::hazmat::spec::sbox::{sbox4, sbox8};
use skinny::Variant;
use skinny_lab::stats::correlation;
use skinny_lab::{
    Common, Control, DifferentialLinear, Experiment, Findings, MergeError, Placement, Rig, Shard, Threads,
};

const VERSION: &str = "test 1.0";

/// (1/2^n) Σ_x (-1)^(u · (S(x) ^ S(x ^ a))): the exact correlation of one
/// S-box for input difference `a` and output mask `u`.
fn sbox_correlation(width_bits: u32, a: u8, u: u8) -> f64 {
    let n = 1u32 << width_bits;
    let s = |x: u8| if width_bits == 4 { sbox4(x) } else { sbox8(x) };
    let sum: i64 = (0..n)
        .map(|x| {
            let d = s(x as u8) ^ s(x as u8 ^ a);
            if (d & u).count_ones().is_multiple_of(2) {
                1
            } else {
                -1
            }
        })
        .sum();
    sum as f64 / f64::from(n)
}

/// One round with cell 0 active (difference `a`): the S-box difference b
/// lands in cells 0, 4 and 12 after ShiftRows and MixColumns (column 0 of
/// MixColumns maps (b, 0, 0, 0) to (b, b, 0, b)); constants and tweakeys
/// cancel in the difference. A mask `u` on cell 0 reads u · b.
#[test]
fn one_round_correlations_are_the_sbox_s() {
    for (v, bits, cases) in [
        (Variant::Skinny64_64, 4u32, vec![(1u8, 1u8), (2, 8), (9, 6), (0xf, 0xf)]),
        (Variant::Skinny128_128, 8, vec![(1, 1), (0x40, 0x02), (0x81, 0x80), (0xff, 0x0f)]),
    ] {
        let bb = v.block_bytes();
        for (a, u) in cases {
            let exact = sbox_correlation(bits, a, u);
            let (mut dp, mut mask) = (vec![0u8; bb], vec![0u8; bb]);
            // Cell 0 is the high nibble of byte 0 with 4-bit cells.
            let shift = if bits == 4 { 4 } else { 0 };
            dp[0] = a << shift;
            mask[0] = u << shift;
            let queries = 1 << 16;
            let mut c = Common::new(v, 1, queries);
            c.key_every = 1;
            c.seed = u64::from(a) * 256 + u64::from(u);
            let e = DifferentialLinear::new(c, dp, mask);
            let o = e.run().unwrap();
            let got = o.correlation();
            let est = got.correlation.unwrap();
            // Five standard deviations of an estimate from 2^16 pairs.
            let sigma = ((1.0 - exact * exact) / queries as f64).sqrt().max(1e-9);
            assert!((est - exact).abs() <= 5.0 * sigma + 1e-12, "{v} a={a:x} u={u:x}: {est} vs {exact}");
            assert!(got.interval[0] <= est && est <= got.interval[1]);
        }
    }
}

#[test]
fn a_mask_on_cells_without_difference_always_hits() {
    // One round, cell 0 active: cells 8 and 1 carry no difference.
    let v = Variant::Skinny64_128;
    let mut c = Common::new(v, 1, 5000);
    c.key_every = 3;
    let e = DifferentialLinear::new(c, vec![0x30, 0, 0, 0, 0, 0, 0, 0], vec![0x0f, 0, 0, 0, 0xf0, 0, 0, 0]);
    let o = e.run().unwrap();
    assert_eq!(o.hits, o.queries);
    let c = o.correlation();
    assert_eq!(c.correlation, Some(1.0));
    assert_eq!(c.log2_abs, Some(0.0));
    assert_eq!(c.interval[1], 1.0);
}

#[test]
fn the_correlation_interval_is_the_binomial_one_mapped() {
    let c = correlation(5, 10);
    assert_eq!(c.correlation, Some(0.0));
    assert_eq!(c.log2_abs, None);
    assert!((c.interval[0] - (2.0 * 0.187_086 - 1.0)).abs() < 1e-5, "{c:?}");
    assert!((c.interval[1] - (2.0 * 0.812_914 - 1.0)).abs() < 1e-5, "{c:?}");
    // 2^-20 of correlation in 2^44 pairs: 2h - n = 2^24.
    let n = 1u64 << 44;
    let c = correlation(n / 2 + (1 << 23), n);
    assert!((c.log2_abs.unwrap() + 20.0).abs() < 1e-12, "{c:?}");
    assert!(c.interval[0] < c.correlation.unwrap() && c.correlation.unwrap() < c.interval[1]);
    assert_eq!(correlation(0, 0).correlation, None);
}

fn experiment(shard: Shard, start_round: usize) -> Experiment {
    let mut c = Common::new(Variant::Skinny128_256, 3, 20_000);
    c.start_round = start_round;
    c.key_every = 1;
    c.seed = 5;
    c.show = 4;
    c.shard = shard;
    let mut dp = vec![0u8; 16];
    dp[3] = 0x21;
    let mut mask = vec![0u8; 16];
    mask[7] = 0x80;
    let mut e = DifferentialLinear::new(c, dp, mask);
    e.dk[20] = 0x04;
    e.into()
}

fn findings(exp: &Experiment) -> Findings {
    let rig = Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(2)) }, exp.common()).unwrap();
    rig.run(exp, &Control::new(), VERSION).unwrap()
}

#[test]
fn findings_of_shards_merge_into_the_whole_run() {
    let whole = findings(&experiment(Shard::WHOLE, 4));
    assert_eq!(whole.experiment, "differential-linear");
    assert_eq!((whole.start_round, whole.tk_at.as_str()), (4, "master"));
    assert!(whole.correlation.is_some() && whole.mask.is_some() && whole.dc.is_empty());
    let parts: Vec<Findings> = (0..3).map(|i| findings(&experiment(Shard::new(i, 3).unwrap(), 4))).collect();
    let merged = Findings::merge(&parts, VERSION).unwrap();
    assert!(merged.complete);
    assert_eq!((merged.hits, merged.queries, &merged.right), (whole.hits, whole.queries, &whole.right));
    assert_eq!((merged.correlation, merged.correlation_ci95), (whole.correlation, whole.correlation_ci95));
    // Through JSON, as the CLI stores them.
    let json: Vec<Findings> =
        parts.iter().map(|p| serde_json::from_str(&serde_json::to_string(p).unwrap()).unwrap()).collect();
    assert_eq!(Findings::merge(&json, VERSION).unwrap().hits, whole.hits);
    // A shard twice, another start round, another mask, a pair that is not one.
    let twice = [parts[0].clone(), parts[0].clone()];
    assert!(matches!(Findings::merge(&twice, VERSION), Err(MergeError::Part { part: 1, .. })));
    let other = findings(&experiment(Shard::new(1, 3).unwrap(), 5));
    assert!(matches!(Findings::merge(&[parts[0].clone(), other], VERSION), Err(MergeError::OtherExperiment { .. })));
    let mut masked = parts[1].clone();
    masked.mask = Some("00".repeat(15) + "01");
    assert!(matches!(Findings::merge(&[parts[0].clone(), masked], VERSION), Err(MergeError::OtherExperiment { .. })));
    let mut forged = parts[0].clone();
    forged.right[0].c[0] = "00".repeat(16);
    assert!(Findings::merge(&[forged], VERSION).is_err());
    let mut with_dc = parts[0].clone();
    with_dc.dc = "00".repeat(16);
    assert!(Findings::merge(&[with_dc], VERSION).is_err());
    let mut bad_at = parts[0].clone();
    bad_at.tk_at = "middle".into();
    assert!(Findings::merge(&[bad_at], VERSION).is_err());
}
