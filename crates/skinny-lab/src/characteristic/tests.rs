use super::evaluate::mix_columns_transpose;
use super::*;
use crate::stats;
use crate::{Common, Linear};
use skinny::hazmat::spec::round::{mix_columns, shift_rows, shift_rows_inv, State};
use skinny::hazmat::RoundTweakeys;
use skinny::Variant;

/// The upper 8-round related-tweakey trail of SKINNY-64-128 of Liu, Ghosh and
/// Song ("Security Analysis of SKINNY under Related-Tweakey Settings", ToSC
/// 2017(3), ePrint 2016/1108), as Peyrin and Tan's key-dependency tool
/// transcribes it (QuanQuanTan/key-dependency-tool, commit 32450f95,
/// `skinny_cpp/src/trails.cpp`, `TK2_2016_1108`, `alpha` and `key_diff_1`,
/// rows of cells written here as hex strings): cell 8 of TK1 and TK2 (6 and
/// 9) cancel in rounds 2 to 6, so that rounds 3 to 6 have no active S-box.
const LGS_UPPER: [&str; 9] = [
    "0000000000000001",
    "0080000000000000",
    "0000000000000000",
    "0000000000000000",
    "0000000000000000",
    "0000000000000000",
    "00000000000b0000",
    "0100000001000100",
    "8808080000c80808",
];
const LGS_UPPER_TWEAKEY: &str = "0000000060000000 0000000090000000";

fn lgs_upper() -> DifferentialCharacteristic {
    DifferentialCharacteristic::from_hex(Variant::Skinny64_128, &LGS_UPPER, LGS_UPPER_TWEAKEY).expect("valid")
}

#[test]
fn published_trail_gets_its_exact_probability() {
    let e = lgs_upper().evaluate().unwrap();
    assert_eq!(e.impossible, None);
    // One active S-box in rounds 1, 2 and 7 (2^-2 each), three in round 8
    // (1 -> 8, 2^-2 each): weight 12, as the paper's trail.
    let weights: Vec<f64> = e.steps.iter().map(|s| s.log2.unwrap()).collect();
    assert_eq!(weights, [-2.0, -2.0, 0.0, 0.0, 0.0, 0.0, -2.0, -6.0]);
    assert_eq!(e.log2, Some(-12.0));
    assert_eq!(e.exact.as_ref().map(ToString::to_string).as_deref(), Some("1/2^12"));
    assert_eq!(e.prefix_log2(), [-2.0, -4.0, -4.0, -4.0, -4.0, -4.0, -6.0, -12.0]);
    // Round 2: the S-box makes 8 into 5, which the round tweakey difference
    // (TK1's 6 and TK2's 9 through the LFSR, 3, in cell 2) cancels.
    assert_eq!(hex::encode(&e.steps[1].sbox_output), "0050000000000000");
    assert_eq!(hex::encode(&e.steps[1].round_tweakey), "00500000");
    assert_eq!(e.steps.iter().map(|s| s.active).collect::<Vec<_>>(), [1, 1, 0, 0, 0, 0, 1, 3]);
}

#[test]
fn published_trail_round_by_round_counts_agree() {
    // 2^18 pairs, 256 keys: the full 8 rounds expect 64 pairs.
    let exp =
        CharacteristicExperiment { characteristic: lgs_upper(), queries: 1 << 18, key_every: 1 << 10, seed: 2017 };
    let counts = exp.run().unwrap();
    assert_eq!((counts.queries, counts.keys, counts.prefixes.len()), (1 << 18, 256, 8));
    for p in &counts.prefixes {
        assert!(p.agrees(counts.queries, 1e-6) == Some(true), "prefix {} rounds: {p:?}", p.rounds);
    }
    // Rounds 3-6 lose no pair: their S-boxes are all inactive.
    let pairs: Vec<u64> = counts.prefixes.iter().map(|p| p.pairs).collect();
    assert!(pairs[1..6].windows(2).all(|w| w[0] == w[1]), "{pairs:?}");
    assert!(pairs[7] > 0);
    // The same seed counts the same pairs (thread count aside).
    assert_eq!(exp.run().unwrap().prefixes, counts.prefixes);
}

#[test]
fn the_schedule_gives_the_round_tweakey_differences() {
    let ch = lgs_upper();
    let derived = ch.derived_round_tweakeys().unwrap();
    // Against the core crate's schedule run on two keys: RTK(k) ^ RTK(k ^ dk).
    let k: Vec<u8> = (0..16u8).map(|i| i.wrapping_mul(0x9d) ^ 0x5a).collect();
    let k2: Vec<u8> = k.iter().zip(&ch.tweakey).map(|(a, b)| a ^ b).collect();
    let (a, b) = (RoundTweakeys::expand(ch.variant, &k), RoundTweakeys::expand(ch.variant, &k2));
    for (i, d) in derived.iter().enumerate() {
        let cells: [u8; 8] = core::array::from_fn(|j| a.as_cells()[i][j] ^ b.as_cells()[i][j]);
        assert_eq!(*d, half_block(ch.variant.cell_width(), &cells), "round {}", i + 1);
    }
    // Listed as derived: consistent; one changed: the first mismatch named,
    // and the evaluation stops there.
    let mut listed = ch.clone();
    listed.round_tweakeys = Some(derived.clone());
    assert_eq!(listed.check_tweakey_schedule(), Ok(None));
    assert_eq!(listed.evaluate().unwrap().log2, Some(-12.0));
    let mut wrong = derived;
    wrong[3][0] ^= 0x10;
    listed.round_tweakeys = Some(wrong);
    let m = listed.check_tweakey_schedule().unwrap().expect("a mismatch");
    assert_eq!(m.round, 4);
    let e = listed.evaluate().unwrap();
    let why = e.impossible.expect("impossible");
    assert_eq!((why.round, why.cell, e.steps.len()), (4, None, 3));
    assert!(why.reason.contains("not the schedule's"), "{}", why.reason);
    // From a later start round, given at the master tweakey or at the start
    // round's state: the same round differences.
    let mut later = lgs_upper();
    later.states.truncate(4);
    later.start_round = 5;
    let mut at_start = later.clone();
    at_start.tk_at = TweakeyAt::Start;
    at_start.tweakey = later.tweakey_at_start();
    assert_eq!(later.derived_round_tweakeys(), at_start.derived_round_tweakeys());
}

#[test]
fn the_first_impossible_round_is_named() {
    // Round 8's three active cells (1) cannot become 0.
    let mut ch = lgs_upper();
    ch.states[8] = vec![0; 8];
    let e = ch.evaluate().unwrap();
    let why = e.impossible.clone().expect("impossible");
    assert_eq!((why.round, why.cell, e.log2, e.exact.clone()), (8, Some(1), None, None));
    assert!(why.reason.contains("DDT[0x1][0x0] = 0"), "{why}");
    assert_eq!(e.prefix_log2().len(), 7);
    // No difference into round 3's S-boxes, one out of them.
    let mut ch = lgs_upper();
    ch.states[3] = parse_hex("", "1000000000000000").unwrap();
    let why = ch.evaluate().unwrap().impossible.expect("impossible");
    assert_eq!(why.round, 3);
    assert!(why.reason.contains("no difference enters"), "{why}");
    // The experiment predicts nothing from there and agrees only with no pair.
    let counts =
        CharacteristicExperiment { characteristic: ch, queries: 4096, key_every: 4096, seed: 1 }.run().unwrap();
    assert_eq!(counts.prefixes[2].predicted_log2, None);
    assert_eq!(counts.prefixes[2].pairs, 0);
    assert_eq!(counts.prefixes[2].agrees(4096, 1e-6), Some(true));
}

#[test]
fn refuses_bad_characteristics() {
    let v = Variant::Skinny64_64;
    assert!(matches!(DifferentialCharacteristic::from_hex(v, &["00"], ""), Err(CharacteristicError::TooFewStates(1))));
    assert!(matches!(
        DifferentialCharacteristic::from_hex(v, &["0000000000000001", "00"], ""),
        Err(CharacteristicError::Length { .. })
    ));
    assert!(matches!(
        DifferentialCharacteristic::from_hex(v, &["000000000000000g", "0000000000000000"], ""),
        Err(CharacteristicError::Hex { .. })
    ));
    let states: Vec<&str> = vec!["0000000000000000"; 34];
    assert!(matches!(DifferentialCharacteristic::from_hex(v, &states, ""), Err(CharacteristicError::Rounds { .. })));
    let mut ch = lgs_upper();
    ch.round_tweakeys = Some(vec![vec![0; 4]; 3]);
    assert!(matches!(ch.evaluate(), Err(CharacteristicError::RoundTweakeyCount { rounds: 8, got: 3 })));
    for (queries, key_every) in [(0, 1), (1, 0)] {
        let exp = CharacteristicExperiment { characteristic: lgs_upper(), queries, key_every, seed: 0 };
        assert!(matches!(exp.run(), Err(CharacteristicError::Experiment(_))));
    }
}

#[test]
fn a_stopped_experiment_counts_what_it_did_and_says_so() {
    let exp = CharacteristicExperiment { characteristic: lgs_upper(), queries: 1 << 16, key_every: 1 << 10, seed: 5 };
    let control = crate::Control::new();
    let whole = exp.run_with(&control).unwrap();
    assert!(!whole.interrupted && whole.queries == 1 << 16 && control.done() == 1 << 16);
    control.stop();
    let none = exp.run_with(&control).unwrap();
    assert!(none.interrupted && none.queries == 0);
    assert!(none.prefixes.iter().all(|p| p.pairs == 0 && p.agrees(0, 1e-6).is_none()));
}

/// A small xorshift for test data.
fn random_state(seed: &mut u64, mask: u8) -> State {
    core::array::from_fn(|_| {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed as u8) & mask
    })
}

fn dot(a: &State, b: &State) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x & y).count_ones()).sum::<u32>() & 1
}

#[test]
fn masks_go_through_the_linear_layer_by_its_transpose() {
    let mut seed = 0x2545_f491_4f6c_dd1d;
    for _ in 0..1000 {
        let (z, gamma) = (random_state(&mut seed, 0xff), random_state(&mut seed, 0xff));
        let mut y = z;
        shift_rows(&mut y);
        mix_columns(&mut y);
        let mut beta = gamma;
        mix_columns_transpose(&mut beta);
        shift_rows_inv(&mut beta);
        assert_eq!(dot(&gamma, &y), dot(&beta, &z));
    }
}

#[test]
fn a_one_round_linear_trail_has_the_measured_correlation() {
    // Output mask 1 in cell 0: the S-box output mask has 1 in cells 0, 8 and
    // 12 (then ShiftRows undone); each input mask the best for its output.
    let width = Variant::Skinny64_64.cell_width();
    let mut gamma = [0u8; 16];
    gamma[0] = 1;
    let mut beta = gamma;
    mix_columns_transpose(&mut beta);
    shift_rows_inv(&mut beta);
    let lat = crate::tables::lat(&crate::tables::Sbox::s4());
    let alpha: State = core::array::from_fn(|i| {
        (0..16u8).max_by_key(|&a| lat.get(&[usize::from(a), usize::from(beta[i])]).unwrap().abs()).unwrap()
    });
    let ch = LinearCharacteristic::new(Variant::Skinny64_64, vec![block(width, &alpha), block(width, &gamma)]);
    let e = ch.evaluate().unwrap();
    assert_eq!(e.steps[0].active, 3);
    let c = e.exact.as_ref().unwrap().to_f64();
    assert_eq!(e.log2, Some(c.abs().log2()));
    // One key: the lab's linear experiment over the round measures ±c.
    let mut common = Common::new(Variant::Skinny64_64, 1, 1 << 18);
    common.key_every = 1 << 18;
    let run = Linear::new(common, ch.masks[0].clone(), ch.masks[1].clone()).run().unwrap();
    let measured = stats::correlation(run.hits, run.queries);
    let [lo, hi] = measured.interval;
    assert!(lo.abs().min(hi.abs()) <= c.abs() && c.abs() <= lo.abs().max(hi.abs()), "{c} {measured:?}");
    // A zero entry is named.
    let mut bad = ch.clone();
    bad.masks[0] = vec![0; 8];
    let why = bad.evaluate().unwrap().impossible.expect("impossible");
    assert!(why.reason.contains("no mask enters"), "{why}");
}

#[test]
fn skinny_128_trail_exact_with_odd_entries() {
    // One round of SKINNY-128: a difference `a` in cell 0 to an output
    // difference of a DDT entry with an odd factor (6, 10, 12, ..), then
    // ShiftRows and MixColumns.
    let width = Variant::Skinny128_128.cell_width();
    let ddt = crate::tables::ddt(&crate::tables::Sbox::s8());
    let (index, entry) =
        ddt.iter_indexed().find(|(i, e)| i[0] != 0 && *e > 2 && (e >> e.trailing_zeros()) > 1).unwrap();
    let (a, b) = (index[0] as u8, index[1] as u8);
    let expected = format!("{}/2^{}", entry >> entry.trailing_zeros(), 8 - entry.trailing_zeros());
    let mut out = [0u8; 16];
    out[0] = b;
    shift_rows(&mut out);
    mix_columns(&mut out);
    let mut input = [0u8; 16];
    input[0] = a;
    let ch = DifferentialCharacteristic::new(
        Variant::Skinny128_128,
        vec![block(width, &input), block(width, &out)],
        vec![0; 16],
    );
    let e = ch.evaluate().unwrap();
    assert_eq!(e.exact.as_ref().map(ToString::to_string), Some(expected));
    assert!((e.log2.unwrap() - (f64::from(entry) / 256.0).log2()).abs() < 1e-12);
    let counts =
        CharacteristicExperiment { characteristic: ch, queries: 1 << 16, key_every: 1, seed: 3 }.run().unwrap();
    assert_eq!(counts.keys, 1 << 16);
    assert_eq!(counts.prefixes[0].agrees(1 << 16, 1e-6), Some(true), "{counts:?}");
}

#[test]
fn exact_products_stay_exact() {
    use super::exact::{merge_into, Product};
    // 3^41 / 2^(7 * 41): past u64, still exact, by entries and by products.
    let mut p = Product::one();
    for _ in 0..41 {
        p.times(6, 8);
    }
    let e = p.exact();
    assert_eq!((e.numerator.as_str(), e.log2_denominator), ("36472996377170786403", 41 * 7));
    let (mut a, mut b) = (Product::one(), Product::one());
    for _ in 0..20 {
        a.times(-6, 8);
    }
    for _ in 0..21 {
        b.times(-6, 8);
    }
    merge_into(&mut a, &b);
    let negative = ExactValue { negative: true, ..e };
    assert_eq!(a.exact(), negative);
    let expected = -(41.0 * (3.0f64 / 128.0).log2()).exp2();
    assert!((negative.to_f64() / expected - 1.0).abs() < 1e-12, "{}", negative.to_f64());
    // Past f64's range on both sides: the quotient in logs.
    let mut huge = Product::one();
    for _ in 0..700 {
        huge.times(3, 2);
    }
    let h = huge.exact();
    assert!(h.numerator.len() > 330 && h.log2_denominator == 1400);
    let expected = (700.0 * (3.0f64 / 4.0).log2()).exp2();
    assert!((h.to_f64() / expected - 1.0).abs() < 1e-9, "{} {expected}", h.to_f64());
}
