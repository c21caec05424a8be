//! A shard counted in segments of its key groups, stopped and resumed from
//! checkpoints (through JSON, as stored), finds exactly what one
//! uninterrupted run finds, for every experiment and both CPU paths (key
//! groups of their own and batches across small groups); checkpoints of
//! another run, version or format, and edited ones, are refused.

use skinny::Variant;
use skinny_lab::{
    Boomerang, Checkpoint, CheckpointError, Common, Control, Differential, DifferentialLinear, Experiment, Findings,
    LabError, Placement, ResumeError, Rig, SegmentedRun, Shard, Step, Threads,
};
use std::time::Duration;

const VERSION: &str = "test 1.0";

fn common(queries: u64, key_every: u64, shard: Shard) -> Common {
    let mut c = Common::new(Variant::Skinny64_128, 2, queries);
    c.key_every = key_every;
    c.seed = 11;
    c.show = 5;
    c.shard = shard;
    c
}

fn hex(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

/// Every experiment, with hits about 1/16 of the time (right pairs to keep).
fn experiments(queries: u64, key_every: u64, shard: Shard) -> Vec<Experiment> {
    let c = common(queries, key_every, shard);
    let mut d = Differential::new(c.clone(), hex("1000000000000000"), hex("0000000001000000"));
    d.dc_mask = hex("000000000f000000");
    let mut b = Boomerang::new(c.clone(), hex("1000000000000000"), hex("0000000001000000"));
    b.common.rounds = 1;
    let l = DifferentialLinear::new(c, hex("1000000000000000"), hex("0000000001000000"));
    vec![d.into(), b.into(), l.into()]
}

fn rig(exp: &Experiment) -> Rig {
    Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(2)) }, exp.common()).unwrap()
}

/// Findings with the time measured taken out.
fn timeless(mut f: Findings) -> Findings {
    f.seconds = 0.0;
    f.rate_per_s = 0.0;
    f
}

/// Through the stored form and back.
fn stored(c: &Checkpoint) -> Checkpoint {
    serde_json::from_str(&serde_json::to_string(c).unwrap()).unwrap()
}

/// Runs `exp` in segments of one key group each to the end, resuming from
/// checkpoints along the way too: each resumed run must end with
/// `whole`. Returns the checkpoints seen.
fn segmented_equals_whole(exp: &Experiment, whole: &Findings) -> Vec<Checkpoint> {
    let rig = rig(exp);
    let mut run = SegmentedRun::new(exp.clone(), Duration::ZERO).unwrap();
    let mut saved = Vec::new();
    let done = loop {
        match run.step(&rig, &Control::new(), VERSION).unwrap() {
            Step::Saved(c) => {
                assert!(!c.findings.complete && !c.findings.interrupted);
                assert_eq!(c.next_group(), Some(run.remaining().start));
                saved.push(stored(&c));
            }
            Step::Done(f) => break f,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(timeless(done), timeless(whole.clone()));
    // From the first, a middle and the last checkpoint (each resumed run
    // counts the rest again).
    let n = saved.len();
    for c in [0, n / 2, n.saturating_sub(1)].into_iter().filter(|&i| i < n).map(|i| &saved[i]) {
        let mut run = SegmentedRun::resume(exp.clone(), Duration::from_millis(1), c, VERSION).unwrap();
        let done = loop {
            match run.step(&rig, &Control::new(), VERSION).unwrap() {
                Step::Saved(_) => {}
                Step::Done(f) => break f,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(timeless(done), timeless(whole.clone()), "resumed from group {:?}", c.next_group());
    }
    saved
}

#[test]
fn segments_and_resumed_runs_find_what_one_run_finds() {
    // Key groups of 3 (batches across groups) and of 300 (a cipher per
    // group, the last one short); the whole run and a middle shard.
    for (queries, key_every) in [(2000, 3), (5000, 300)] {
        for shard in [Shard::WHOLE, Shard::new(1, 3).unwrap()] {
            for exp in experiments(queries, key_every, shard) {
                let whole = rig(&exp).run(&exp, &Control::new(), VERSION).unwrap();
                assert!(whole.hits > 5 && whole.right.len() == 5, "{whole:?}");
                let saved = segmented_equals_whole(&exp, &whole);
                let groups = exp.common().shard_groups();
                assert_eq!(saved.len() as u64, groups.end - groups.start - 1);
            }
        }
    }
}

#[test]
fn outcomes_of_consecutive_segments_join_to_the_whole() {
    let c = common(5000, 300, Shard::WHOLE);
    let mut d = Differential::new(c, hex("1000000000000000"), hex("0000000001000000"));
    d.dc_mask = hex("000000000f000000");
    let whole = d.run().unwrap();
    let part = |groups: std::ops::Range<u64>| {
        let mut e = d.clone();
        e.common.segment = Some(groups);
        e.run().unwrap()
    };
    let joined = part(0..1).then(part(1..7)).unwrap().then(part(7..17)).unwrap();
    assert_eq!((joined.queries, joined.hits, &joined.right), (whole.queries, whole.hits, &whole.right));
    assert_eq!(joined.common, whole.common);
    assert!(joined.is_complete());
    // Not in order, overlapping, or a segment merged as a shard: refused.
    assert!(matches!(part(1..7).then(part(0..1)), Err(LabError::Segments(_))));
    assert!(matches!(part(0..7).then(part(1..9)), Err(LabError::Segments(_))));
    assert!(matches!(part(0..7).merge(part(7..17)), Err(LabError::Merge(_))));
    assert!(!part(0..7).is_complete());
    // A segment outside the shard.
    let mut e = d.clone();
    e.common.segment = Some(3..18);
    assert!(matches!(e.run(), Err(LabError::Segment { .. })));
}

#[test]
fn a_stop_keeps_the_last_checkpoint_and_a_report_of_everything_counted() {
    let exp = experiments(5000, 300, Shard::WHOLE).remove(0);
    let rig = rig(&exp);
    let mut run = SegmentedRun::new(exp.clone(), Duration::ZERO).unwrap();
    let Step::Saved(first) = run.step(&rig, &Control::new(), VERSION).unwrap() else { panic!("a checkpoint") };
    let stop = Control::new();
    stop.stop();
    let Step::Stopped { findings, saved } = run.step(&rig, &stop, VERSION).unwrap() else { panic!("stopped") };
    assert_eq!(saved, first.findings.queries);
    assert!(findings.interrupted && !findings.complete);
    // The stopped segment is counted again when resumed.
    assert_eq!(run.remaining().start, first.next_group().unwrap());
}

#[test]
fn checkpoints_of_other_runs_and_edited_ones_are_refused() {
    let exp = experiments(5000, 300, Shard::new(1, 2).unwrap()).remove(0);
    let rig = rig(&exp);
    let mut run = SegmentedRun::new(exp.clone(), Duration::ZERO).unwrap();
    let Step::Saved(good) = run.step(&rig, &Control::new(), VERSION).unwrap() else { panic!("a checkpoint") };
    let every = Duration::ZERO;
    let refused =
        |exp: &Experiment, c: &Checkpoint, version: &str| match SegmentedRun::resume(exp.clone(), every, c, version) {
            Err(ResumeError::Checkpoint(e)) => e,
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("accepted: {:?} {:?}", exp.common(), c.findings.segment),
        };
    assert!(SegmentedRun::resume(exp.clone(), every, &good, VERSION).is_ok());
    assert!(matches!(refused(&exp, &good, "test 2.0"), CheckpointError::OtherVersion { .. }));
    let mut c = good.clone();
    c.format = "skinny-lab checkpoint 2".into();
    assert!(matches!(refused(&exp, &c, VERSION), CheckpointError::Format(_)));
    // Another seed, show, shard or experiment.
    for change in [
        (|c: &mut Common| c.seed = 12) as fn(&mut Common),
        |c| c.show = 4,
        |c| c.shard = Shard::new(0, 2).unwrap(),
        |c| c.queries = 5001,
        |c| c.rounds = 3,
    ] {
        let mut other = exp.clone();
        if let Experiment::Differential(d) = &mut other {
            change(&mut d.common);
        }
        assert!(matches!(refused(&other, &good, VERSION), CheckpointError::OtherExperiment));
    }
    let boomerang = experiments(5000, 300, Shard::new(1, 2).unwrap()).remove(1);
    assert!(matches!(refused(&boomerang, &good, VERSION), CheckpointError::OtherExperiment));
    // Edited queries, a forged pair, groups that are not the shard's first
    // (hits are checked against the queries, not counted again: as in a merge).
    let mut c = good.clone();
    c.findings.hits = c.findings.queries + 1;
    assert!(matches!(refused(&exp, &c, VERSION), CheckpointError::Findings(_)));
    let mut c = good.clone();
    c.findings.queries += 1;
    assert!(matches!(refused(&exp, &c, VERSION), CheckpointError::Findings(_)));
    let mut c = good.clone();
    c.findings.right[0].c[0] = "0000000000000000".into();
    assert!(matches!(refused(&exp, &c, VERSION), CheckpointError::Findings(_)));
    let mut c = good.clone();
    let [a, b] = c.findings.segment.unwrap();
    c.findings.segment = Some([a + 1, b + 1]);
    assert!(matches!(refused(&exp, &c, VERSION), CheckpointError::Findings(_) | CheckpointError::NotAPrefix));
    let mut c = good.clone();
    c.findings.interrupted = true;
    assert!(matches!(refused(&exp, &c, VERSION), CheckpointError::NotAPrefix));
    // A checkpoint does not merge as a shard.
    let other_shard = {
        let mut e = exp.clone();
        if let Experiment::Differential(d) = &mut e {
            d.common.shard = Shard::new(0, 2).unwrap();
        }
        rig.run(&e, &Control::new(), VERSION).unwrap()
    };
    assert!(Findings::merge(&[other_shard, good.findings.clone()], VERSION).is_err());
    // Unknown fields in the stored form are refused.
    let mut v = serde_json::to_value(&good).unwrap();
    v["next"] = 3.into();
    assert!(serde_json::from_value::<Checkpoint>(v).is_err());
}
