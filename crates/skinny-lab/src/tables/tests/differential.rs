//! The DDT.

use super::super::{ddt, Sbox};
use super::sboxes;

/// `#{x : S(x) ⊕ S(x ⊕ a) = b}`, straight from the definition.
fn ddt_by_definition(s: &Sbox, a: usize, b: usize) -> u16 {
    let t = s.table();
    (0..s.size()).filter(|&x| usize::from(t[x] ^ t[x ^ a]) == b).count() as u16
}

#[test]
fn ddt_is_its_definition_everywhere() {
    for s in sboxes() {
        let d = ddt(&s);
        assert_eq!(d.shape(), vec![s.size(); 2]);
        for (i, v) in d.iter_indexed() {
            assert_eq!(v, ddt_by_definition(&s, i[0], i[1]), "{}-bit DDT{i:?}", s.bits());
        }
    }
}

#[test]
fn ddt_rows_sum_to_2n_and_the_origin_is_2n() {
    for s in sboxes() {
        let d = ddt(&s);
        let n = s.size() as u32;
        assert_eq!(d.get(&[0, 0]), Some(n as u16));
        for a in 0..s.size() {
            let row = d.row(&[a]).unwrap();
            assert_eq!(row.iter().map(|&v| u32::from(v)).sum::<u32>(), n, "row {a:#x}");
            // Solutions come in pairs (x and x ⊕ a).
            assert!(row.iter().all(|v| v % 2 == 0));
            if a != 0 {
                assert_eq!(row[0], 0, "a permutation maps no nonzero difference to 0");
            }
        }
    }
}

/// The largest entry off row 0: the differential uniformity.
pub(super) fn differential_uniformity(s: &Sbox) -> u16 {
    ddt(s).iter_indexed().filter(|(i, _)| i[0] != 0).map(|(_, v)| v).max().unwrap()
}

#[test]
fn skinny_sboxes_have_their_published_differential_uniformity() {
    // Beierle et al., "The SKINNY Family of Block Ciphers and its Low-Latency
    // Variant MANTIS", CRYPTO 2016: both S-boxes have maximal differential
    // probability 2^-2, i.e. 4/16 for S4 (an optimal 4-bit S-box) and 64/256
    // for S8.
    assert_eq!(differential_uniformity(&Sbox::s4()), 4);
    assert_eq!(differential_uniformity(&Sbox::s8()), 64);
}
