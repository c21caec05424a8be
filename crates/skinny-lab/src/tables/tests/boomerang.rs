//! The BCT, UBCT, LBCT and EBCT.

use super::super::{
    bct, ddt, ebct, ebct_entry, ebct_slice, lbct, lbct_entry, lbct_slice, ubct, ubct_entry, ubct_slice, Sbox,
    TableError,
};
use super::{inverse_by_search, random_sbox, sboxes, Samples};

/// The definitions, on an inverse found by search: `Some(n)` is the number
/// of x whose quartet returns and whose upper output difference `Δo` and
/// lower input difference `∇i` pass the filters (`None`: any).
struct Definitions {
    s: Sbox,
    inv: Vec<usize>,
}

impl Definitions {
    fn new(s: &Sbox) -> Self {
        Self { s: s.clone(), inv: inverse_by_search(s) }
    }

    fn count(&self, di: usize, dout: Option<usize>, ni: Option<usize>, no: usize) -> u16 {
        let (s, inv) = (&self.s, &self.inv);
        (0..s.size())
            .filter(|&x| {
                let (y0, y1) = (s.s(x), s.s(x ^ di));
                let returns = inv[y0 ^ no] ^ inv[y1 ^ no] == di;
                returns && dout.is_none_or(|d| y0 ^ y1 == d) && ni.is_none_or(|n| x ^ inv[y0 ^ no] == n)
            })
            .count() as u16
    }

    fn bct(&self, di: usize, no: usize) -> u16 {
        self.count(di, None, None, no)
    }
    fn ubct(&self, di: usize, dout: usize, no: usize) -> u16 {
        self.count(di, Some(dout), None, no)
    }
    fn lbct(&self, di: usize, ni: usize, no: usize) -> u16 {
        self.count(di, None, Some(ni), no)
    }
    fn ebct(&self, di: usize, dout: usize, ni: usize, no: usize) -> u16 {
        self.count(di, Some(dout), Some(ni), no)
    }
}

#[test]
fn bct_is_its_definition() {
    for s in sboxes() {
        let (t, def) = (bct(&s), Definitions::new(&s));
        let mut rng = Samples(7);
        for (i, v) in t.iter_indexed() {
            // Every entry up to 6 bits; for S8 one in about 64.
            if s.bits() <= 6 || rng.below(64) == 0 {
                assert_eq!(v, def.bct(i[0], i[1]), "{}-bit BCT{i:?}", s.bits());
            }
        }
    }
}

#[test]
fn bct_dominates_the_ddt_and_its_first_row_and_column_are_2n() {
    // Cid et al., EUROCRYPT 2018: BCT ≥ DDT entrywise, and a zero difference
    // on either side always returns.
    for s in sboxes() {
        let (b, d) = (bct(&s), ddt(&s));
        assert!(b.as_slice().iter().zip(d.as_slice()).all(|(b, d)| b >= d), "{}-bit", s.bits());
        let n = s.size() as u16;
        for i in 0..s.size() {
            assert_eq!((b.get(&[0, i]), b.get(&[i, 0])), (Some(n), Some(n)), "{}-bit, index {i:#x}", s.bits());
        }
    }
}

#[test]
fn ubct_and_lbct_are_their_definitions() {
    for s in sboxes() {
        let def = Definitions::new(&s);
        let (u, l) = (ubct(&s), lbct(&s));
        assert_eq!((u.shape(), l.shape()), (vec![s.size(); 3], vec![s.size(); 3]));
        let mut rng = Samples(11);
        for _ in 0..if s.bits() <= 5 { 1 << (3 * s.bits()) } else { 600 } {
            let i = [rng.below(s.size()), rng.below(s.size()), rng.below(s.size())];
            let want = (def.ubct(i[0], i[1], i[2]), def.lbct(i[0], i[1], i[2]));
            assert_eq!((u.get(&i).unwrap(), l.get(&i).unwrap()), want, "{}-bit UBCT, LBCT{i:?}", s.bits());
            let entries = (ubct_entry(&s, i[0], i[1], i[2]).unwrap(), lbct_entry(&s, i[0], i[1], i[2]).unwrap());
            assert_eq!(entries, want);
        }
    }
}

#[test]
fn ebct_is_its_definition() {
    for s in [Sbox::s4(), random_sbox(3, 1), random_sbox(5, 2), Sbox::s8()] {
        let def = Definitions::new(&s);
        let full = ebct(&s).ok();
        let mut rng = Samples(13);
        let samples = if s.bits() <= 4 { 1 << (4 * s.bits()) } else { 3000 };
        for _ in 0..samples {
            let i = [rng.below(s.size()), rng.below(s.size()), rng.below(s.size()), rng.below(s.size())];
            let want = def.ebct(i[0], i[1], i[2], i[3]);
            assert_eq!(ebct_entry(&s, i[0], i[1], i[2], i[3]).unwrap(), want, "{}-bit EBCT{i:?}", s.bits());
            assert_eq!(ebct_slice(&s, i[0], i[3]).unwrap().get(&[i[1], i[2]]), Some(want));
            if let Some(t) = &full {
                assert_eq!(t.get(&i), Some(want));
            }
        }
    }
}

#[test]
fn the_extended_tables_add_up_as_the_paper_states() {
    // Delaune, Derbez and Vavrille, ToSC 2020(4): the UBCT and the LBCT split
    // the BCT by Δo and by ∇i; the EBCT splits both; an upper (lower)
    // transition is also a DDT transition Δi → Δo (∇i → ∇o).
    for s in [Sbox::s4(), random_sbox(3, 1), random_sbox(5, 2), random_sbox(6, 3)] {
        let size = s.size();
        let (b, d, u, l, e) = (bct(&s), ddt(&s), ubct(&s), lbct(&s), ebct(&s).unwrap());
        for di in 0..size {
            for no in 0..size {
                let bv = u32::from(b.get(&[di, no]).unwrap());
                let su: u32 = (0..size).map(|x| u32::from(u.get(&[di, x, no]).unwrap())).sum();
                let sl: u32 = (0..size).map(|x| u32::from(l.get(&[di, x, no]).unwrap())).sum();
                assert_eq!((su, sl), (bv, bv), "{}-bit, Δi {di:#x}, ∇o {no:#x}", s.bits());
                for x in 0..size {
                    let uv = u.get(&[di, x, no]).unwrap();
                    let lv = l.get(&[di, x, no]).unwrap();
                    assert!(uv <= d.get(&[di, x]).unwrap() && lv <= d.get(&[x, no]).unwrap());
                    let over_ni: u16 = (0..size).map(|y| e.get(&[di, x, y, no]).unwrap()).sum();
                    let over_do: u16 = (0..size).map(|y| e.get(&[di, y, x, no]).unwrap()).sum();
                    assert_eq!((over_ni, over_do), (uv, lv), "{}-bit, Δi {di:#x}, {x:#x}, ∇o {no:#x}", s.bits());
                }
            }
        }
    }
}

#[test]
fn s8_slices_are_the_full_tables_parts_and_add_up() {
    let s = Sbox::s8();
    let (b, u, l) = (bct(&s), ubct(&s), lbct(&s));
    let mut rng = Samples(17);
    for _ in 0..6 {
        let di = rng.below(256);
        let (us, ls) = (ubct_slice(&s, di).unwrap(), lbct_slice(&s, di).unwrap());
        assert_eq!(us.as_slice(), &u.as_slice()[di << 16..(di + 1) << 16]);
        assert_eq!(ls.as_slice(), &l.as_slice()[di << 16..(di + 1) << 16]);
        for _ in 0..8 {
            let no = rng.below(256);
            let e = ebct_slice(&s, di, no).unwrap();
            for x in 0..256 {
                let over_ni: u16 = e.row(&[x]).unwrap().iter().sum();
                let over_do: u16 = (0..256).map(|y| e.get(&[y, x]).unwrap()).sum();
                assert_eq!((over_ni, over_do), (u.get(&[di, x, no]).unwrap(), l.get(&[di, x, no]).unwrap()));
            }
            let total: u16 = e.as_slice().iter().sum();
            assert_eq!(Some(total), b.get(&[di, no]));
        }
    }
}

#[test]
fn ebct_refuses_a_full_table_over_the_limit() {
    assert!(ebct(&random_sbox(6, 3)).is_ok());
    let e = ebct(&random_sbox(7, 4)).unwrap_err();
    assert_eq!(e, TableError::TooLarge { table: "EBCT", bits: 7, log2_entries: 28 });
    let e = ebct(&Sbox::s8()).unwrap_err();
    assert!(e.to_string().contains("2^32 entries"), "{e}");
}
