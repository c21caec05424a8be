//! Experiments from any start round, with tweakeys at the master or at the
//! start: counts and pairs against the one-block specification code
//! (`hazmat::partial`), both ways of giving tweakeys against each other, and
//! round 1 unchanged.

use skinny::hazmat::partial::{advance_tweakey, rewind_tweakey};
use skinny::Variant;
use skinny_lab::{Boomerang, Common, Differential, DifferentialLinear, LabError, TweakeyAt, MAX_SHOW};

fn common(v: Variant, start: usize, rounds: usize, key_every: u64, at: TweakeyAt) -> Common {
    let mut c = Common::new(v, rounds, 2_000);
    c.start_round = start;
    c.tk_at = at;
    c.key_every = key_every;
    c.seed = 11;
    c.show = MAX_SHOW;
    c
}

/// `n` bytes with a few bits set.
fn sparse(n: usize, seed: u64) -> Vec<u8> {
    let mut v = vec![0u8; n];
    for i in 0..3u64 {
        let b = (seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(7 * i as u32 + 3) % (8 * n as u64)) as usize;
        v[b / 8] |= 1 << (b % 8);
    }
    v
}

#[test]
fn counts_from_a_later_round_are_the_specification_s() {
    for v in [Variant::Skinny64_192, Variant::Skinny128_256] {
        let (bb, tk) = (v.block_bytes(), v.tweakey_bytes());
        // Key groups of 1 (a cipher per query) and of 300 (bitsliced masks).
        for (key_every, at) in [(1, TweakeyAt::Master), (300, TweakeyAt::Start), (300, TweakeyAt::Master)] {
            let c = common(v, 6, 2, key_every, at);
            let mut d = Differential::new(c.clone(), sparse(bb, 1), vec![0; bb]);
            d.dk = sparse(tk, 2);
            d.dc_mask = sparse(bb, 3);
            let o = d.run().unwrap();
            let want: Vec<_> = (0..c.queries).filter_map(|q| d.pair_at(q)).collect();
            assert!(!want.is_empty(), "{v}: some hits");
            assert_eq!(o.hits, want.len() as u64, "{v} {key_every} {at:?}");
            assert_eq!(&o.right[..], &want[..want.len().min(MAX_SHOW)], "{v} {key_every} {at:?}");

            let mut e = DifferentialLinear::new(c.clone(), sparse(bb, 4), sparse(bb, 5));
            e.dk = sparse(tk, 6);
            let o = e.run().unwrap();
            let want: Vec<_> = (0..c.queries).filter_map(|q| e.pair_at(q)).collect();
            assert_eq!(o.hits, want.len() as u64, "{v} {key_every} {at:?}: differential-linear");
            assert_eq!(&o.right[..], &want[..want.len().min(MAX_SHOW)]);

            // dc = 0, dk2 = 0: every quartet returns only if decryption runs
            // the same rounds.
            let mut b = Boomerang::new(c.clone(), sparse(bb, 7), vec![0; bb]);
            b.dk1 = sparse(tk, 8);
            b.common.show = 3;
            let o = b.run().unwrap();
            assert_eq!(o.hits, o.queries, "{v} {key_every} {at:?}: boomerang");
            assert_eq!(o.right[2], b.quartet_at(2).unwrap());
        }
    }
}

#[test]
fn tweakeys_at_the_master_or_at_the_start_are_the_same_queries() {
    let v = Variant::Skinny128_384;
    let (bb, tk, start) = (16, 48, 9);
    let dk = sparse(tk, 9);
    let mut dk_start = dk.clone();
    advance_tweakey(v, &mut dk_start, start - 1).unwrap();
    for key_every in [1, 500] {
        let mut m = Differential::new(common(v, start, 2, key_every, TweakeyAt::Master), sparse(bb, 1), vec![0; bb]);
        m.dk = dk.clone();
        m.dc_mask = sparse(bb, 3);
        let mut s = m.clone();
        s.common.tk_at = TweakeyAt::Start;
        s.dk = dk_start.clone();
        let (om, os) = (m.run().unwrap(), s.run().unwrap());
        assert_eq!(om.hits, os.hits);
        assert!(om.hits > 0);
        for (a, b) in om.right.iter().zip(&os.right) {
            assert_eq!((a.query, &a.c, &a.c2), (b.query, &b.c, &b.c2));
            // The keys shown: the master tweakeys, rewound from the states.
            let mut k = b.k.clone();
            rewind_tweakey(v, &mut k, start - 1).unwrap();
            assert_eq!(a.k, k);
        }
    }
}

#[test]
fn from_round_one_both_ways_are_the_old_experiment() {
    let v = Variant::Skinny64_128;
    let mut a = Differential::new(common(v, 1, 3, 64, TweakeyAt::Master), sparse(8, 1), vec![0; 8]);
    a.dc_mask = sparse(8, 2);
    a.dk = sparse(16, 3);
    let mut b = a.clone();
    b.common.tk_at = TweakeyAt::Start;
    let (oa, ob) = (a.run().unwrap(), b.run().unwrap());
    assert_eq!((oa.hits, &oa.right), (ob.hits, &ob.right));
    // The keys are the generator's as before start rounds existed.
    assert_eq!(oa.right[0].k, a.common.key(oa.right[0].query / 64));
}

#[test]
fn rounds_past_the_end_are_refused() {
    let v = Variant::Skinny64_64;
    // Rounds 30..32 fit SKINNY-64-64's 32; rounds 31..33 do not.
    let d = Differential::new(common(v, 30, 3, 1, TweakeyAt::Master), vec![0; 8], vec![0; 8]);
    assert!(d.check().is_ok());
    let d = Differential::new(common(v, 31, 3, 1, TweakeyAt::Master), vec![0; 8], vec![0; 8]);
    assert!(matches!(d.run(), Err(LabError::StartRound { start: 31, rounds: 3, .. })));
    let d = Differential::new(common(v, 0, 3, 1, TweakeyAt::Master), vec![0; 8], vec![0; 8]);
    assert!(d.check().is_err());
    let d = Differential::new(common(v, 31, 3, 1, TweakeyAt::Master), vec![0; 8], vec![0; 8]);
    assert!(!d.check().unwrap_err().to_string().is_empty());
}
