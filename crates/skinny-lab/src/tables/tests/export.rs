//! The CSV, transition and PLA exports.

use super::super::export::{csv, pla, transitions, transitions_csv, Weight};
use super::super::{ddt, lat, ubct, Sbox, TableError};

#[test]
fn csv_reads_back_as_the_matrix() {
    for s in [Sbox::s4(), Sbox::s8()] {
        let (d, l) = (ddt(&s), lat(&s));
        let (dt, lt) = (csv(&d).unwrap(), csv(&l).unwrap());
        assert_eq!(dt.lines().count(), s.size());
        assert!(dt.ends_with('\n'));
        let back: Vec<u16> = dt.lines().flat_map(|r| r.split(',').map(|v| v.parse::<u16>().unwrap())).collect();
        assert_eq!(back, d.as_slice());
        let back: Vec<i32> = lt.lines().flat_map(|r| r.split(',').map(|v| v.parse::<i32>().unwrap())).collect();
        assert_eq!(back, l.as_slice());
    }
    assert!(csv(&ddt(&Sbox::s4())).unwrap().starts_with("16,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"));
}

#[test]
fn transitions_list_the_nonzero_entries_with_their_weights() {
    let s = Sbox::s4();
    let d = ddt(&s);
    let list = transitions(&d, Weight::Probability).unwrap();
    assert_eq!(list.len(), d.as_slice().iter().filter(|&&v| v > 0).count());
    for t in &list {
        let want = match t.entry {
            16 => 0.0,
            4 => 2.0,
            2 => 3.0,
            e => panic!("S4's DDT has no entry {e}"),
        };
        assert_eq!((t.weight, Some(t.entry as u16)), (want, d.get(&[t.input, t.output])));
    }
    let l = lat(&s);
    for t in transitions(&l, Weight::SquaredCorrelation).unwrap() {
        // Correlation ±1, ±1/2, ±1/4: squared, weights 0, 2, 4.
        let want = match t.entry.abs() {
            8 => 0.0,
            4 => 2.0,
            2 => 4.0,
            e => panic!("S4's LAT has no entry ±{e}"),
        };
        assert_eq!(t.weight, want, "{t:?}");
    }
    // S8: 48/256 has weight log2(16/3) = 2.4150 to four decimals.
    let s8 = transitions(&ddt(&Sbox::s8()), Weight::Probability).unwrap();
    let text = transitions_csv(&s8);
    assert!(text.starts_with("input,output,entry,weight\n0,0,256,0.0000\n"), "{}", &text[..60]);
    assert_eq!(text.lines().count(), s8.len() + 1);
    if let Some(t) = s8.iter().find(|t| t.entry == 48) {
        assert!(text.contains(&format!("{},{},48,2.4150\n", t.input, t.output)));
    }
}

#[test]
fn pla_is_the_one_hot_encoding_of_the_transitions() {
    for (s, weight) in [(Sbox::s4(), Weight::Probability), (Sbox::s8(), Weight::Probability)] {
        let d = ddt(&s);
        let text = pla(&d, weight).unwrap();
        check_pla(&text, s.bits() as usize, |a, b| i64::from(d.get(&[a, b]).unwrap()), |e| e > 0);
    }
    for s in [Sbox::s4(), Sbox::s8()] {
        let l = lat(&s);
        let text = pla(&l, Weight::SquaredCorrelation).unwrap();
        check_pla(&text, s.bits() as usize, |a, b| i64::from(l.get(&[a, b]).unwrap()), |e| e != 0);
    }
    // S4's DDT: p0 for 2/16 (weight 3), p1 for 4/16 (weight 2).
    let text = pla(&ddt(&Sbox::s4()), Weight::Probability).unwrap();
    assert!(text.contains("# p0: |entry| 2, w_0 = 3.0000\n# p1: |entry| 4, w_1 = 2.0000\n.i 10\n"), "{text}");
    assert!(text.contains(".ilb a0 a1 a2 a3 b0 b1 b2 b3 p0 p1\n"));
    assert!(text.contains("\n0000000000 1\n") && text.ends_with(".e\n"));
}

/// Reads the PLA back: every point listed is a transition with its weight's
/// one-hot code, and every transition is listed once.
fn check_pla(text: &str, bits: usize, entry: impl Fn(usize, usize) -> i64, valid: impl Fn(i64) -> bool) {
    let levels: Vec<u64> = text
        .lines()
        .filter_map(|l| l.strip_prefix("# p"))
        .map(|l| l.split("|entry| ").nth(1).unwrap().split(',').next().unwrap().parse().unwrap())
        .collect();
    let inputs: usize = text.lines().find_map(|l| l.strip_prefix(".i ")).unwrap().parse().unwrap();
    assert_eq!(inputs, 2 * bits + levels.len());
    let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with(['.', '#'])).collect();
    let count: usize = text.lines().find_map(|l| l.strip_prefix(".p ")).unwrap().parse().unwrap();
    assert_eq!(rows.len(), count);
    let mut seen = std::collections::HashSet::new();
    for row in rows {
        let point = &row[..inputs];
        let a = usize::from_str_radix(&point[..bits], 2).unwrap();
        let b = usize::from_str_radix(&point[bits..2 * bits], 2).unwrap();
        let e = entry(a, b);
        assert!(valid(e) && seen.insert((a, b)), "{row}");
        let ones: Vec<usize> = point[2 * bits..].match_indices('1').map(|(j, _)| j).collect();
        match ones[..] {
            [] => assert!(!levels.contains(&e.unsigned_abs()), "{row}: weight 0"),
            [j] => assert_eq!(levels[j], e.unsigned_abs(), "{row}"),
            _ => panic!("{row}: not one-hot"),
        }
    }
    let all = (0..1 << bits).flat_map(|a| (0..1 << bits).map(move |b| (a, b)));
    assert_eq!(seen.len(), all.filter(|&(a, b)| valid(entry(a, b))).count());
}

#[test]
fn exports_refuse_tables_of_another_rank() {
    let u = ubct(&Sbox::s4());
    assert_eq!(csv(&u), Err(TableError::Rank { what: "a CSV matrix", rank: 3 }));
    assert!(transitions(&u, Weight::Probability).is_err());
    assert_eq!(
        pla(&u, Weight::Probability).unwrap_err().to_string(),
        "a PLA truth table is written for tables of 2 indices only, not 3"
    );
}
