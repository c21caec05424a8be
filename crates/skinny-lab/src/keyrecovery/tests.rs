use super::plan::{sources, unmixed};
use super::*;
use crate::Control;
use skinny::hazmat::spec::round::{mix_columns_inv, round_inv, shift_rows_inv};
use skinny::hazmat::spec::{pack_cells, unpack_cells};
use skinny::hazmat::RoundTweakeys;
use skinny::{Skinny, Variant};

/// A small deterministic generator for test data (splitmix64).
struct Mix(u64);
impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// (last round, rounds undone, predicted (cell, difference)).
type Case<'a> = (usize, usize, &'a [(usize, u64)]);

/// The targets under `guess` by the specification's inverse rounds, with the
/// guessed cells put into the key's true round tweakeys.
#[allow(clippy::too_many_arguments)]
fn reference(
    v: Variant,
    tweakey: &[u8],
    last: usize,
    peeled: usize,
    guessed: &[GuessedCell],
    guess: u64,
    ct: &[u8],
    targets: &[usize],
) -> Vec<u8> {
    let bits = if v.block_bytes() == 8 { 4 } else { 8 };
    let rtk = RoundTweakeys::expand_rounds(v, tweakey, last);
    let mut keys: Vec<[u8; 8]> = rtk.as_cells().to_vec();
    for (j, g) in guessed.iter().enumerate() {
        keys[g.round - 1][g.cell] = ((guess >> (bits * j)) & ((1 << bits) - 1)) as u8;
    }
    let mut s = [0u8; 16];
    unpack_cells(v.cell_width(), ct, &mut s);
    for round in (last + 1 - peeled..=last).rev() {
        round_inv(v.cell_width(), &mut s, round - 1, &keys[round - 1]);
    }
    targets.iter().map(|&t| s[t]).collect()
}

#[test]
fn unmixed_cells_are_the_inverse_linear_layer() {
    let mut rng = Mix(1);
    for _ in 0..50 {
        let x: [u8; 16] = core::array::from_fn(|_| rng.next() as u8);
        let mut s = x;
        mix_columns_inv(&mut s);
        shift_rows_inv(&mut s);
        for i in 0..16u8 {
            assert_eq!(unmixed(&x, i), s[usize::from(i)], "cell {i}");
            let from_sources = sources(usize::from(i)).fold(0, |acc, c| acc ^ x[c]);
            assert_eq!(from_sources, s[usize::from(i)], "sources of cell {i}");
        }
    }
}

#[test]
fn partial_decryption_equals_the_specification_under_every_guess() {
    let mut rng = Mix(2);
    let cases: &[(Variant, usize, usize, &[usize])] = &[
        (Variant::Skinny64_64, 5, 1, &[0, 3, 4, 9, 15]),
        (Variant::Skinny64_64, 6, 2, &[2, 8, 13]),
        (Variant::Skinny64_192, 7, 2, &[0]),
        (Variant::Skinny64_64, 4, 3, &[12]),
        (Variant::Skinny128_256, 9, 1, &[1, 7, 10]),
        (Variant::Skinny128_128, 3, 2, &[11]),
    ];
    for &(v, last, peeled, targets) in cases {
        let pd = PartialDecryption::new(v, last, peeled, targets).unwrap();
        assert_eq!(pd.targets(), targets);
        let tk = rng.bytes(v.tweakey_bytes());
        let cts = rng.bytes(5 * v.block_bytes());
        let right = pd.guess_of(&tk).unwrap();
        let mut guesses: Vec<u64> = (0..6).map(|_| rng.next() % pd.guesses()).collect();
        guesses.push(right);
        for &g in &guesses {
            let out = pd.decrypt(&cts, g..g + 1, &Control::new()).unwrap();
            for (i, ct) in cts.chunks(v.block_bytes()).enumerate() {
                let want = reference(v, &tk, last, peeled, pd.guessed(), g, ct, targets);
                assert_eq!(
                    &out[i * targets.len()..(i + 1) * targets.len()],
                    &want[..],
                    "{v} {last} {peeled} guess {g}"
                );
            }
        }
        // Under the right guess: the state after round last - peeled itself.
        let mut cipher_state = Vec::new();
        for ct in cts.chunks(v.block_bytes()) {
            let mut b = ct.to_vec();
            skinny::hazmat::partial::decrypt_rounds(v, &tk, Default::default(), last + 1 - peeled, peeled, &mut b)
                .unwrap();
            let mut s = [0u8; 16];
            unpack_cells(v.cell_width(), &b, &mut s);
            cipher_state.extend(targets.iter().map(|&t| s[t]));
        }
        assert_eq!(pd.decrypt(&cts, right..right + 1, &Control::new()).unwrap(), cipher_state);
    }
}

#[test]
fn a_range_of_guesses_is_the_guesses_one_by_one() {
    let pd = PartialDecryption::new(Variant::Skinny64_64, 8, 2, &[0, 9]).unwrap();
    let cts = Mix(3).bytes(3 * 8);
    let all = pd.decrypt(&cts, 40..60, &Control::new()).unwrap();
    for g in 40..60u64 {
        let one = pd.decrypt(&cts, g..g + 1, &Control::new()).unwrap();
        let at = (g as usize - 40) * 3 * 2;
        assert_eq!(&all[at..at + 6], &one[..]);
    }
}

/// The counts by brute force: every guess, every pair, the reference.
fn brute_counts(
    v: Variant,
    last: usize,
    peeled: usize,
    kc: &KeyCounter,
    predicted: &[(usize, u64)],
    a: &[u8],
    b: &[u8],
) -> Vec<u32> {
    let targets: Vec<usize> = predicted.iter().map(|&(c, _)| c).collect();
    let tk = vec![0u8; v.tweakey_bytes()];
    (0..kc.guesses())
        .map(|g| {
            a.chunks(v.block_bytes())
                .zip(b.chunks(v.block_bytes()))
                .filter(|(x, y)| {
                    let (p, q) = (
                        reference(v, &tk, last, peeled, kc.guessed(), g, x, &targets),
                        reference(v, &tk, last, peeled, kc.guessed(), g, y, &targets),
                    );
                    predicted.iter().enumerate().all(|(j, &(_, d))| u64::from(p[j] ^ q[j]) == d)
                })
                .count() as u32
        })
        .collect()
}

#[test]
fn counts_equal_a_brute_force_count() {
    let mut rng = Mix(4);
    let v = Variant::Skinny64_64;
    let cases: &[Case] = &[
        (5, 1, &[(0, 0x3), (4, 0x0), (9, 0x5)]),
        (5, 1, &[(2, 0x1), (6, 0x8)]),
        (6, 2, &[(0, 0x2), (8, 0x0)]),
        (6, 2, &[(5, 0x0), (1, 0x9)]),
    ];
    for &(last, peeled, predicted) in cases {
        let kc = KeyCounter::new(v, last, peeled, predicted).unwrap();
        assert!(kc.guesses() <= 1 << 12, "{predicted:?}: {} guesses", kc.guesses());
        // Half the pairs show the predicted differences before the undone
        // rounds (encrypted through them under the zero tweakey the brute
        // force uses), so the right guess counts them; half are random.
        let mut a = Vec::new();
        let mut b = Vec::new();
        for i in 0..48 {
            let (x, y) = if i % 2 == 0 {
                let mut s: [u8; 16] = core::array::from_fn(|_| (rng.next() & 0xf) as u8);
                let mut t = s;
                for &(cell, d) in predicted {
                    t[cell] ^= d as u8;
                }
                for (j, cell) in t.iter_mut().enumerate() {
                    if !predicted.iter().any(|&(c, _)| c == j) && rng.next().is_multiple_of(4) {
                        *cell ^= (rng.next() & 0xf) as u8;
                    }
                }
                let (mut x, mut y) = (vec![0u8; 8], vec![0u8; 8]);
                pack_cells(v.cell_width(), &s, &mut x);
                pack_cells(v.cell_width(), &t, &mut y);
                let tk = [0u8; 8];
                let first = last + 1 - peeled;
                skinny::hazmat::partial::encrypt_rounds(v, &tk, Default::default(), first, peeled, &mut x).unwrap();
                skinny::hazmat::partial::encrypt_rounds(v, &tk, Default::default(), first, peeled, &mut y).unwrap();
                s.fill(0);
                (x, y)
            } else {
                (rng.bytes(8), rng.bytes(8))
            };
            a.extend(x);
            b.extend(y);
        }
        let counts = kc.count(&a, &b, &Control::new()).unwrap();
        let want = brute_counts(v, last, peeled, &kc, predicted, &a, &b);
        assert!(want.iter().any(|&c| c > 0), "{predicted:?}: the test pairs never count");
        assert_eq!(counts.counts(), &want[..], "{predicted:?}");
        assert_eq!(counts.pairs(), 48);
    }
}

#[test]
fn zero_differences_need_no_key_of_the_deepest_round() {
    let kc = KeyCounter::new(Variant::Skinny64_64, 6, 1, &[(0, 0), (1, 0x4)]).unwrap();
    assert_eq!(kc.guessed(), &[GuessedCell { round: 6, cell: 1 }]);
    let pd = PartialDecryption::new(Variant::Skinny64_64, 6, 1, &[0, 1]).unwrap();
    assert_eq!(pd.guessed().len(), 2);
}

/// The worked example of docs/lab.md: 6-round SKINNY-64-64. A difference in
/// plaintext cell 0 leaves cells 5, 6, 10 and 14 without a difference after 4
/// rounds, whatever the key (a truncated differential of probability 1);
/// undoing rounds 6 and 5 reaches them through 4 cells of round 6's tweakey.
#[test]
fn the_worked_example_ranks_the_right_cells_first() {
    let v = Variant::Skinny64_64;
    let tweakey = [0xf5, 0x26, 0x98, 0x26, 0xfc, 0x68, 0x12, 0x38];
    let cipher = Skinny::with_rounds(v, &tweakey, 6).unwrap();
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for i in 0..16u64 {
        let mut p = (i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).to_be_bytes();
        let mut q = p;
        q[0] ^= 0x30; // cell 0: the high nibble of byte 0
        cipher.encrypt_block(&mut p);
        cipher.encrypt_block(&mut q);
        first.extend(p);
        second.extend(q);
    }
    let predicted = [(5, 0), (6, 0), (10, 0), (14, 0)];
    let kc = KeyCounter::new(v, 6, 2, &predicted).unwrap();
    let cells: Vec<(usize, usize)> = kc.guessed().iter().map(|g| (g.round, g.cell)).collect();
    assert_eq!(cells, [(6, 1), (6, 4), (6, 6), (6, 7)]);
    let counts = kc.count(&first, &second, &Control::new()).unwrap();
    let right = kc.guess_of(&tweakey).unwrap();
    assert_eq!(counts.rank(right).unwrap(), Rank { rank: 1, ties: 0, count: 16 });
    assert_eq!(counts.best(1), [(right, 16)]);
}

/// Right pairs of a differential with a nonzero predicted difference: the
/// deepest round's key cell is found from the pairs' differences.
#[test]
fn right_pairs_rank_the_right_cells_first() {
    let v = Variant::Skinny64_64;
    let tweakey = hex::decode("0123456789abcdef").unwrap();
    let cipher = Skinny::with_rounds(v, &tweakey, 4).unwrap();
    // Round 1 turns a difference `a` in cell 0 into some `b`, MixColumns
    // copies it into cells 0, 4 and 12; round 2's S-box in cell 0 turns `b`
    // into `delta`, copied into cell 0 again, while cells 8 and 10 stay
    // without a difference. From the DDT: the (a, delta) of highest
    // probability over both S-boxes (9 → 2, one of those at 48/256: three
    // times chance).
    let table = crate::tables::ddt(&crate::tables::Sbox::s4());
    let ddt = |x: usize, y: usize| u32::from(table.get(&[x, y]).unwrap());
    let (a, delta) = (9usize, 2usize);
    let weight = |a: usize, d: usize| (0..16).map(|b| ddt(a, b) * ddt(b, d)).sum::<u32>();
    let best = (1..16).flat_map(|a| (1..16).map(move |d| (a, d))).map(|(a, d)| weight(a, d)).max();
    assert_eq!((weight(a, delta), best), (48, Some(48)));
    let mut rng = Mix(6);
    let (mut first, mut second) = (Vec::new(), Vec::new());
    for _ in 0..1024 {
        let mut p = rng.bytes(8);
        let mut q = p.clone();
        q[0] ^= (a << 4) as u8;
        cipher.encrypt_block(&mut p);
        cipher.encrypt_block(&mut q);
        first.extend(p);
        second.extend(q);
    }
    let predicted = [(0, delta as u64), (7, 0), (10, 0), (13, 0)];
    let kc = KeyCounter::new(v, 4, 2, &predicted).unwrap();
    let cells: Vec<(usize, usize)> = kc.guessed().iter().map(|g| (g.round, g.cell)).collect();
    assert_eq!(cells, [(3, 0), (4, 0), (4, 4)]);
    let counts = kc.count(&first, &second, &Control::new()).unwrap();
    let right = kc.guess_of(&tweakey).unwrap();
    let rank = counts.rank(right).unwrap();
    // Round 3's key cell 0 is found up to XOR 5: for a difference 2 out of
    // S⁻¹, every set of solutions {x : S⁻¹(x) ⊕ S⁻¹(x ⊕ Δ) = 2} is closed under
    // x ⊕ 5, so k and k ⊕ 5 (the cell's value sits in the guess's low bits)
    // pass the same pairs, whatever the pairs.
    let inv = crate::tables::S4_INV;
    for d in 0..16 {
        let solves = |x: usize| inv[x] ^ inv[x ^ d] == 2;
        assert!((0..16).all(|x| solves(x) == solves(x ^ 5)), "difference {d}");
    }
    assert_eq!((rank.rank, rank.ties), (1, 1), "{rank:?} of {:?}", counts.best(4));
    let mut best: Vec<u64> = counts.best(2).into_iter().map(|(g, _)| g).collect();
    best.sort_unstable();
    let mut want = vec![right, right ^ 5];
    want.sort_unstable();
    assert_eq!(best, want);
}

#[test]
#[allow(clippy::reversed_empty_ranges)]
fn bad_input_is_refused_not_a_panic() {
    let v = Variant::Skinny64_64;
    assert!(matches!(KeyCounter::new(v, 0, 1, &[(0, 1)]), Err(KeyRecoveryError::LastRound { .. })));
    assert!(matches!(KeyCounter::new(v, 33, 1, &[(0, 1)]), Err(KeyRecoveryError::LastRound { .. })));
    assert!(matches!(KeyCounter::new(v, 2, 3, &[(0, 1)]), Err(KeyRecoveryError::Peeled { .. })));
    assert!(matches!(KeyCounter::new(v, 8, 4, &[(0, 1)]), Err(KeyRecoveryError::Peeled { .. })));
    assert!(matches!(KeyCounter::new(v, 8, 0, &[(0, 1)]), Err(KeyRecoveryError::Peeled { .. })));
    assert!(matches!(KeyCounter::new(v, 8, 1, &[]), Err(KeyRecoveryError::NoTargets)));
    assert!(matches!(KeyCounter::new(v, 8, 1, &[(16, 1)]), Err(KeyRecoveryError::Cell(16))));
    assert!(matches!(KeyCounter::new(v, 8, 1, &[(3, 1), (3, 2)]), Err(KeyRecoveryError::DuplicateCell(3))));
    assert!(matches!(KeyCounter::new(v, 8, 1, &[(3, 0x10)]), Err(KeyRecoveryError::Difference { .. })));
    let all: Vec<(usize, u64)> = (0..16).map(|c| (c, 1)).collect();
    assert!(matches!(KeyCounter::new(v, 8, 3, &all), Err(KeyRecoveryError::TooManyGuesses { .. })));
    let kc = KeyCounter::new(v, 8, 1, &[(3, 1)]).unwrap();
    let c = Control::new();
    assert!(matches!(kc.count(&[0; 7], &[0; 7], &c), Err(KeyRecoveryError::Length { .. })));
    assert!(matches!(kc.count(&[0; 8], &[0; 16], &c), Err(KeyRecoveryError::Length { .. })));
    assert!(matches!(kc.guess_of(&[0; 9]), Err(KeyRecoveryError::Length { .. })));
    let counts = kc.count(&[], &[], &c).unwrap();
    assert!(matches!(counts.rank(16), Err(KeyRecoveryError::Guess { .. })));
    assert!(counts.best(0).is_empty());
    assert_eq!(counts.best(100).len(), 16);
    let pd = PartialDecryption::new(v, 8, 1, &[3]).unwrap();
    assert!(matches!(pd.decrypt(&[0; 8], 0..17, &c), Err(KeyRecoveryError::Guess { .. })));
    assert!(matches!(pd.decrypt(&[0; 8], 5..3, &c), Err(KeyRecoveryError::Guess { .. })));
    assert!(matches!(pd.decrypt(&[0; 12], 0..1, &c), Err(KeyRecoveryError::Length { .. })));
    assert!(pd.decrypt(&[], 0..16, &c).unwrap().is_empty());
    c.stop();
    assert!(matches!(kc.count(&[0; 8], &[0; 8], &c), Err(KeyRecoveryError::Stopped)));
    assert!(matches!(pd.decrypt(&[0; 8], 0..16, &c), Err(KeyRecoveryError::Stopped)));
}

/// Guesses × pairs per second on one thread (`cargo test -p skinny-lab --lib
/// keyrecovery::tests::speed -- --ignored --nocapture`): a measurement, not a
/// check.
#[test]
#[ignore]
fn speed() {
    use std::time::Instant;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let v = Variant::Skinny64_64;
    let mut rng = Mix(7);
    let n = 1 << 12;
    let (a, b) = (rng.bytes(8 * n), rng.bytes(8 * n));
    let cases: &[(&str, Case)] = &[
        ("2 rounds, zero differences (16 outer bits)", (6, 2, &[(5, 0), (6, 0), (10, 0), (14, 0)])),
        ("2 rounds, one nonzero target (8 outer + 4 inner bits)", (4, 2, &[(0, 0x2), (7, 0), (10, 0)])),
        ("1 round, three nonzero targets (12 inner bits)", (6, 1, &[(0, 0x5), (3, 0x2), (4, 0x9)])),
    ];
    for &(name, (last, peeled, predicted)) in cases {
        let kc = KeyCounter::new(v, last, peeled, predicted).unwrap();
        let start = Instant::now();
        let counts = pool.install(|| kc.count(&a, &b, &Control::new())).unwrap();
        let s = start.elapsed().as_secs_f64();
        let rate = kc.guesses() as f64 * n as f64 / s;
        println!("count: {name}: {} guesses x {n} pairs in {s:.3} s: {rate:.3e} guess-pairs/s", kc.guesses());
        assert_eq!(counts.pairs(), n as u64);
    }
    let pd = PartialDecryption::new(v, 6, 2, &[5, 6, 10, 14]).unwrap();
    let start = Instant::now();
    let out = pool.install(|| pd.decrypt(&a, 0..4096, &Control::new())).unwrap();
    let s = start.elapsed().as_secs_f64();
    println!("decrypt: 4096 guesses x {n} ciphertexts in {s:.3} s: {:.3e} guess-ciphertexts/s", 4096.0 * n as f64 / s);
    assert_eq!(out.len(), 4096 * n * 4);
}
