//! Every official known-answer test through the batch engine, each KAT file
//! as one batch (sealed and opened), on one thread and on several. The files
//! are the single-message crates' (their READMEs name the sources).

mod common;

use common::{batch_of, cases, Case};
use skinny_aead::Member;
use skinny_exec::Threads;
use skinny_many::{cpu, Scheme};

const ROMULUS_N: &str = include_str!("../../skinny-romulus/tests/kat/romulus-n.txt");
const ROMULUS_M: &str = include_str!("../../skinny-romulus/tests/kat/romulus-m.txt");
const M1: &str = include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M1.txt");
const M2: &str = include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M2.txt");
const M3: &str = include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M3.txt");
const M4: &str = include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M4.txt");
const M5: &str = include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M5.txt");
const M6: &str = include_str!("../../skinny-aead/tests/data/SKINNY-AEAD-M6.txt");

/// Seals and opens the whole file as one batch on `threads`.
fn check(scheme: Scheme, file: &str, threads: usize) {
    let cases: Vec<Case> = cases(file);
    assert_eq!(cases.len(), 1089, "{scheme}: every case");
    let threads = Threads::from_count(Some(threads));
    let sealed = cpu::seal(threads, &batch_of(scheme, &cases, true)).expect("seal");
    let opened = cpu::open(threads, &batch_of(scheme, &cases, false)).expect("open");
    assert_eq!(sealed.len(), cases.len());
    for (i, c) in cases.iter().enumerate() {
        let at = format!("{scheme} Count = {}", c.count);
        assert_eq!(hex::encode_upper(sealed.message(i).expect("sealed")), hex::encode_upper(&c.ct), "{at}: seal");
        assert_eq!(opened.message(i).expect("authentic"), &c.pt[..], "{at}: open");
    }
}

fn both(scheme: Scheme, file: &str) {
    check(scheme, file, 1);
    check(scheme, file, 3);
}

#[test]
fn romulus_n() {
    both(Scheme::RomulusN, ROMULUS_N);
}

#[test]
fn romulus_m() {
    both(Scheme::RomulusM, ROMULUS_M);
}

#[test]
fn skinny_aead_m1_to_m6() {
    for (m, file) in
        [(Member::M1, M1), (Member::M2, M2), (Member::M3, M3), (Member::M4, M4), (Member::M5, M5), (Member::M6, M6)]
    {
        both(Scheme::SkinnyAead(m), file);
    }
}
