//! The S-box type and the table type.

use super::super::{Sbox, Table, TableError, S4, S4_INV, S8, S8_INV};
use super::random_sbox;

#[test]
fn skinny_sboxes_are_the_core_crate_tables() {
    assert_eq!(Sbox::s4().table(), &S4[..]);
    assert_eq!(Sbox::s4().inverse(), &S4_INV[..]);
    assert_eq!(Sbox::s8().table(), &S8[..]);
    assert_eq!(Sbox::s8().inverse(), &S8_INV[..]);
    // The specification's S4 (Beierle et al., CRYPTO 2016, Table 1).
    assert_eq!(S4, [0xc, 0x6, 0x9, 0x0, 0x1, 0xa, 0x2, 0xb, 0x3, 0x8, 0x5, 0xd, 0x4, 0xe, 0x7, 0xf]);
    assert_eq!(Sbox::new(&S8).unwrap(), Sbox::s8());
    assert_eq!((Sbox::s4().bits(), Sbox::s8().bits(), Sbox::s8().size()), (4, 8, 256));
}

#[test]
fn new_finds_the_inverse() {
    for bits in 1..=8 {
        let s = random_sbox(bits, u64::from(bits));
        assert_eq!(s.bits(), bits);
        for x in 0..s.size() {
            assert_eq!(usize::from(s.inverse()[usize::from(s.table()[x])]), x);
        }
    }
}

#[test]
fn new_refuses_what_is_not_a_permutation_of_a_power_of_two() {
    for len in [0, 1, 3, 12, 257, 512] {
        assert_eq!(Sbox::new(&vec![0u8; len]), Err(TableError::Size(len)), "length {len}");
    }
    let e = Sbox::new(&[0, 1, 2, 4]).unwrap_err();
    assert!(matches!(e, TableError::NotPermutation { size: 4, .. }), "{e}");
    assert!(e.to_string().contains("S(0x3) = 0x4 is out of range"), "{e}");
    let e = Sbox::new(&[0, 1, 1, 3]).unwrap_err();
    assert!(e.to_string().contains("0x1 appears twice"), "{e}");
}

#[test]
fn tables_index_row_major() {
    let t = super::super::ubct(&Sbox::s4());
    assert_eq!((t.bits(), t.side(), t.rank(), t.shape()), (4, 16, 3, vec![16, 16, 16]));
    assert_eq!(t.as_slice().len(), 4096);
    assert_eq!(t.get(&[1, 2, 3]), Some(t.as_slice()[(16 + 2) * 16 + 3]));
    assert_eq!(t.row(&[1, 2]), Some(&t.as_slice()[(16 + 2) * 16..(16 + 3) * 16]));
    for bad in [&[1, 2][..], &[1, 2, 3, 4], &[16, 0, 0], &[0, 0, 99]] {
        assert_eq!(t.get(bad), None, "{bad:?}");
    }
    assert_eq!(t.row(&[1]), None);
    assert_eq!(t.row(&[0, 16]), None);
    for (index, v) in t.iter_indexed().step_by(97) {
        assert_eq!(t.get(&index), Some(v), "{index:?}");
    }
    assert_eq!(t.iter_indexed().count(), 4096);
    let v: Table<u16> = t.clone();
    assert_eq!(v.into_vec(), t.as_slice());
}

#[test]
fn entries_and_slices_refuse_indices_out_of_range() {
    use super::super::{ebct_entry, ebct_slice, lbct_entry, lbct_slice, ubct_entry, ubct_slice};
    let s = Sbox::s4();
    let e = TableError::Index { index: 16, bits: 4 };
    assert_eq!(ubct_slice(&s, 16), Err(e.clone()));
    assert_eq!(lbct_slice(&s, 16), Err(e.clone()));
    assert_eq!(ebct_slice(&s, 0, 16), Err(e.clone()));
    assert_eq!(ubct_entry(&s, 0, 16, 0), Err(e.clone()));
    assert_eq!(lbct_entry(&s, 0, 0, 16), Err(e.clone()));
    assert_eq!(ebct_entry(&s, 0, 0, 16, 0), Err(e.clone()));
    assert_eq!(e.to_string(), "index 0x10 is out of range for a 4-bit S-box (0 to 0xf)");
}
