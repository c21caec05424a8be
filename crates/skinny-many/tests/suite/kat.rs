//! Every official known-answer test through the batch engine, each KAT file
//! as one batch (sealed and opened), on one thread and on several. The files
//! are the single-message crates' (their READMEs name the sources).

use crate::common;

use common::{batch_of, cases, Case};
use skinny_aead::Member;
use skinny_exec::Threads;
use skinny_many::{cpu, Scheme};

const ROMULUS_N: &str = include_str!("../../../skinny-romulus/tests/kat/romulus-n.txt");
const ROMULUS_M: &str = include_str!("../../../skinny-romulus/tests/kat/romulus-m.txt");
const M1: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M1.txt");
const M2: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M2.txt");
const M3: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M3.txt");
const M4: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M4.txt");
const M5: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M5.txt");
const M6: &str = include_str!("../../../skinny-aead/tests/data/SKINNY-AEAD-M6.txt");

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

/// Every Romulus-N case as a lockstep group of its own: the case repeated a
/// whole bitsliced batch of times, on every path this CPU has.
#[test]
fn romulus_n_through_lockstep_groups() {
    let cases: Vec<Case> = cases(ROMULUS_N);
    let pool = skinny_exec::worker_pool(2).expect("threads");
    for path in skinny::hazmat::bitsliced::Path::ALL.into_iter().filter(|p| p.is_available()) {
        let w = path.batch_blocks();
        let tuning = cpu::Tuning { lockstep: true, path };
        let repeated: Vec<&Case> = cases.iter().flat_map(|c| std::iter::repeat_n(c, w)).collect();
        let (mut plain, mut sealed) =
            (skinny_many::Batch::new(Scheme::RomulusN), skinny_many::Batch::new(Scheme::RomulusN));
        for c in &repeated {
            plain.push(&c.key, &c.nonce, &c.ad, &c.pt).expect("lengths");
            sealed.push(&c.key, &c.nonce, &c.ad, &c.ct).expect("lengths");
        }
        let ct = cpu::seal_tuned(&pool, &plain, tuning);
        let pt = cpu::open_tuned(&pool, &sealed, tuning);
        for (i, c) in repeated.iter().enumerate() {
            let at = format!("{path} Count = {} (copy {})", c.count, i % w);
            assert_eq!(ct.message(i).expect("sealed"), &c.ct[..], "{at}: seal");
            assert_eq!(pt.message(i).expect("authentic"), &c.pt[..], "{at}: open");
        }
    }
}
