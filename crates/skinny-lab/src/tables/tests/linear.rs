//! The LAT, the DLCT and the DDLCT.

use super::super::{ddlct, ddt, dlct, lat, Sbox};
use super::{dot, sboxes, Samples};

/// `#{x : a·x = b·S(x)} − 2^(n−1)`, straight from the definition.
fn lat_by_definition(s: &Sbox, a: usize, b: usize) -> i32 {
    let agree = (0..s.size()).filter(|&x| dot(a, x) == dot(b, s.s(x))).count();
    agree as i32 - (s.size() / 2) as i32
}

/// `#{x : l·S(x) = l·S(x ⊕ a)} − 2^(n−1)`, straight from the definition.
fn dlct_by_definition(s: &Sbox, a: usize, l: usize) -> i32 {
    let agree = (0..s.size()).filter(|&x| dot(l, s.s(x)) == dot(l, s.s(x ^ a))).count();
    agree as i32 - (s.size() / 2) as i32
}

/// `#{(x, k) : l·S(S(x) ⊕ k) = l·S(S(x ⊕ a) ⊕ k)} − 2^(2n−1)`, straight from
/// the definition: two S-box layers with every key between them.
fn ddlct_by_definition(s: &Sbox, a: usize, l: usize) -> i32 {
    let size = s.size();
    let mut agree = 0i32;
    for x in 0..size {
        let (u, v) = (s.s(x), s.s(x ^ a));
        for k in 0..size {
            agree += i32::from(dot(l, s.s(u ^ k)) == dot(l, s.s(v ^ k)));
        }
    }
    agree - (size * size / 2) as i32
}

#[test]
fn lat_and_dlct_are_their_definitions_everywhere() {
    for s in sboxes() {
        let (l, d) = (lat(&s), dlct(&s));
        for (i, v) in l.iter_indexed() {
            assert_eq!(v, lat_by_definition(&s, i[0], i[1]), "{}-bit LAT{i:?}", s.bits());
        }
        for (i, v) in d.iter_indexed() {
            assert_eq!(v, dlct_by_definition(&s, i[0], i[1]), "{}-bit DLCT{i:?}", s.bits());
        }
    }
}

#[test]
fn ddlct_is_its_definition() {
    for s in sboxes() {
        let t = ddlct(&s);
        if s.bits() <= 5 {
            for (i, v) in t.iter_indexed() {
                assert_eq!(v, ddlct_by_definition(&s, i[0], i[1]), "{}-bit DDLCT{i:?}", s.bits());
            }
        } else {
            let mut rng = Samples(u64::from(s.bits()));
            for _ in 0..40 {
                let (a, l) = (rng.below(s.size()), rng.below(s.size()));
                assert_eq!(t.get(&[a, l]).unwrap(), ddlct_by_definition(&s, a, l), "{}-bit DDLCT[{a}, {l}]", s.bits());
            }
        }
    }
}

#[test]
fn lat_satisfies_parseval_with_the_signed_convention() {
    for s in sboxes() {
        let l = lat(&s);
        let half = (s.size() / 2) as i64;
        assert_eq!(l.get(&[0, 0]), Some(half as i32));
        for a in 0..s.size() {
            // Σ_b LAT[a][b]² = 2^(2n−2), and so for each column (S⁻¹'s LAT is the transpose).
            let row: i64 = l.row(&[a]).unwrap().iter().map(|&v| i64::from(v).pow(2)).sum();
            let column: i64 = (0..s.size()).map(|b| i64::from(l.get(&[b, a]).unwrap()).pow(2)).sum();
            assert_eq!((row, column), (half * half, half * half), "{}-bit LAT, index {a:#x}", s.bits());
            if a != 0 {
                assert_eq!((l.get(&[a, 0]), l.get(&[0, a])), (Some(0), Some(0)), "a permutation is balanced");
            }
        }
    }
}

#[test]
fn skinny_sboxes_have_their_published_linearity() {
    // Beierle et al., CRYPTO 2016: both S-boxes have maximal absolute linear
    // bias 2^-2, i.e. |LAT| at most 2^-2 · 2^n: 4 for S4 (optimal for 4 bits),
    // 64 for S8 (correlation 2^-1 for both).
    for (s, most) in [(Sbox::s4(), 4), (Sbox::s8(), 64)] {
        let l = lat(&s);
        let max = l.iter_indexed().filter(|(i, _)| i[1] != 0).map(|(_, v)| v.abs()).max();
        assert_eq!(max, Some(most), "{}-bit", s.bits());
    }
}

#[test]
fn dlct_is_the_walsh_transform_of_the_ddt_and_of_the_squared_lat() {
    // Bar-On et al., EUROCRYPT 2019: the DLCT row of a is the Walsh spectrum of
    // the DDT row of a, and a column of it the transform of the squared LAT.
    for s in sboxes() {
        let (d, dl, l) = (ddt(&s), dlct(&s), lat(&s));
        let n = s.bits() as i64;
        for a in 0..s.size() {
            for m in 0..s.size() {
                let from_ddt: i64 = (0..s.size())
                    .map(|b| if dot(m, b) == 0 { 1 } else { -1 } * i64::from(d.get(&[a, b]).unwrap()))
                    .sum();
                let from_lat: i64 = (0..s.size())
                    .map(|u| if dot(u, a) == 0 { 1 } else { -1 } * i64::from(l.get(&[u, m]).unwrap()).pow(2))
                    .sum();
                let v = i64::from(dl.get(&[a, m]).unwrap());
                assert_eq!(2 * v, from_ddt, "{n}-bit DLCT[{a}, {m}] against the DDT");
                assert_eq!(v << (n - 1), from_lat, "{n}-bit DLCT[{a}, {m}] against the LAT");
            }
        }
    }
}

#[test]
fn ddlct_is_a_dlct_followed_by_a_squared_lat() {
    // The two layers read the other way round: a differential-linear step
    // through the first S-box to a mask u, then u → l through the second.
    for s in sboxes().into_iter().filter(|s| s.bits() <= 6) {
        let (dd, dl, l) = (ddlct(&s), dlct(&s), lat(&s));
        let n = s.bits() as i64;
        for a in 0..s.size() {
            for m in 0..s.size() {
                let sum: i64 = (0..s.size())
                    .map(|u| i64::from(dl.get(&[a, u]).unwrap()) * i64::from(l.get(&[u, m]).unwrap()).pow(2))
                    .sum();
                assert_eq!(i64::from(dd.get(&[a, m]).unwrap()) << (n - 2), sum, "{n}-bit DDLCT[{a}, {m}]");
            }
        }
    }
}
