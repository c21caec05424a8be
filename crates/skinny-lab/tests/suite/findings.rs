//! Findings (what a run found, as plain values) and their merge, and the rig
//! that counts: merged shards give the whole run's findings; everything that
//! must not merge is refused, naming the part.

use skinny::Variant;
use skinny_lab::{
    Boomerang, Common, Control, Differential, Experiment, Findings, FindingsError, GpuSelection, LabError, MergeError,
    Placement, Rig, RigError, Shard, Threads, AUTO_GPU_QUERIES,
};

const VERSION: &str = "test 1.0";

/// A 2-round SKINNY-64-128 differential masked to one cell: frequent hits.
fn differential(shard: Shard) -> Experiment {
    let mut c = Common::new(Variant::Skinny64_128, 2, 30_000);
    c.key_every = 700;
    c.seed = 3;
    c.show = 5;
    c.shard = shard;
    let mut d = Differential::new(c, vec![0x10, 0, 0, 0, 0, 0, 0, 0], vec![0, 0, 0, 0, 1, 0, 0, 0]);
    d.dc_mask = vec![0, 0, 0, 0, 0x0f, 0, 0, 0];
    d.into()
}

fn cpu(exp: &Experiment, threads: usize) -> Rig {
    Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(threads)) }, exp.common()).unwrap()
}

fn findings(exp: &Experiment) -> Findings {
    cpu(exp, 2).run(exp, &Control::new(), VERSION).unwrap()
}

fn shards(n: u64) -> Vec<Findings> {
    (0..n).map(|i| findings(&differential(Shard::new(i, n).unwrap()))).collect()
}

/// `f` without what depends on the run's timing and hardware.
fn counts(f: &Findings) -> Findings {
    Findings { seconds: 0.0, rate_per_s: 0.0, backend: String::new(), threads: None, ..f.clone() }
}

#[test]
fn merged_shards_give_the_whole_run() {
    let whole = findings(&differential(Shard::WHOLE));
    assert!(whole.complete && whole.hits > 1000 && whole.right.len() == 5);
    assert_eq!((whole.backend.as_str(), whole.threads, whole.version.as_str()), ("cpu", Some(2), VERSION));
    let parts = shards(3);
    assert!(parts.iter().all(|p| !p.complete && p.shards.len() == 1));
    let merged = Findings::merge(&parts, "merger 2.0").unwrap();
    assert_eq!(merged.version, "merger 2.0");
    assert_eq!(merged.backend, "cpu");
    assert_eq!(merged.threads, None);
    assert_eq!(merged.shards, vec![0, 1, 2]);
    let seconds: f64 = parts.iter().map(|p| p.seconds).sum();
    assert!((merged.seconds - seconds).abs() < 1e-9);
    assert_eq!(merged.shard, "0/3");
    let as_whole = Findings { shard: "0/1".into(), shards: vec![0], version: VERSION.into(), ..counts(&merged) };
    assert_eq!(as_whole, counts(&whole));
    // In any order.
    let reversed: Vec<Findings> = parts.iter().rev().cloned().collect();
    assert_eq!(counts(&Findings::merge(&reversed, "merger 2.0").unwrap()), counts(&merged));
    // Shards counted by different hardware merge, and say so.
    let mut mixed = parts.clone();
    mixed[1].backend = "gpu".into();
    assert_eq!(Findings::merge(&mixed, VERSION).unwrap().backend, "mixed");
}

#[test]
fn a_boomerang_merges_back_into_itself() {
    let mut c = Common::new(Variant::Skinny128_384, 10, 5000);
    c.key_every = 1;
    c.show = 2;
    let exp: Experiment = Boomerang::new(c, vec![0; 16], vec![0; 16]).into();
    let f = findings(&exp);
    assert_eq!((f.hits, f.log2_p), (5000, Some(0.0)));
    assert_eq!(f.right[1].k.len(), 4);
    assert!(f.dk1.is_some() && f.dk.is_none());
    let again = Findings::merge(std::slice::from_ref(&f), VERSION).unwrap();
    assert_eq!(counts(&again), counts(&f));
}

/// A change that leaves findings unreadable.
type Spoil = fn(&mut Findings);

#[test]
fn what_must_not_merge_is_refused_naming_the_part() {
    let parts = shards(2);
    let refuse = |parts: &[Findings]| Findings::merge(parts, VERSION).unwrap_err();
    assert!(matches!(refuse(&[]), MergeError::Empty));
    let twice = refuse(&[parts[0].clone(), parts[0].clone()]);
    assert!(matches!(twice, MergeError::Part { part: 1, source: FindingsError::Lab(LabError::Merge(_)) }), "{twice}");
    assert!(twice.to_string().contains("is in both"), "{twice}");
    let mut other = parts[1].clone();
    other.version = "elsewhere".into();
    assert!(matches!(refuse(&[parts[0].clone(), other]), MergeError::OtherVersion { part: 1, .. }));
    let mut other = parts[1].clone();
    other.dp = "2000000000000000".into();
    assert!(matches!(refuse(&[parts[0].clone(), other]), MergeError::OtherExperiment { part: 1 }));
    let mut other = parts[0].clone();
    other.experiment = "impossible".into();
    assert!(matches!(refuse(&[other]), MergeError::UnknownExperiment(e) if e == "impossible"));
    // A differential's report named linear: fields a linear report never has.
    let mut other = parts[0].clone();
    other.experiment = "linear".into();
    assert!(matches!(refuse(&[other]), MergeError::Part { part: 0, source: FindingsError::Field { .. } }));
    let mut interrupted = parts[1].clone();
    interrupted.interrupted = true;
    assert!(matches!(refuse(&[parts[0].clone(), interrupted]), MergeError::Part { part: 1, .. }));
    // Values that do not read back.
    let broken: [(Spoil, &str); 6] = [
        (|f| f.cipher = "skinny-32-32".into(), "unknown cipher \"skinny-32-32\""),
        (|f| f.shard = "1".into(), "bad shard"),
        (|f| f.shards.clear(), "no shards"),
        (|f| f.shards = vec![5], "shard 5/2 is not one of"),
        (
            |f| {
                f.right[0].p.pop();
            },
            "a right pair with 1 values, not 2",
        ),
        (|f| f.right[0].k[1] = "zz".into(), "not hex: \"zz\""),
    ];
    for (spoil, says) in broken {
        let mut bad = parts[1].clone();
        spoil(&mut bad);
        let e = refuse(&[parts[0].clone(), bad]);
        assert!(matches!(e, MergeError::Part { part: 1, .. }), "{e}");
        assert!(e.to_string().contains(says), "{e} / {says}");
    }
    let mut bad = parts[0].clone();
    bad.dc = "0x".into();
    let mut bad1 = parts[1].clone();
    bad1.dc = "0x".into();
    assert!(matches!(refuse(&[bad, bad1]), MergeError::NotHex(s) if s == "0x"));
}

#[test]
fn rigs_count_where_asked_and_auto_keeps_small_shards_on_the_cpu() {
    let exp = differential(Shard::WHOLE);
    let rig = cpu(&exp, 3);
    assert_eq!((rig.backend().as_str(), rig.threads()), ("cpu", Some(3)));
    let all = Rig::open(&Placement::Cpu { threads: Threads::All }, exp.common()).unwrap();
    assert_eq!(all.threads(), Some(rayon::current_num_threads()));
    let auto = Placement::Auto { threads: Threads::from_count(Some(1)), gpus: GpuSelection::All };
    assert!(exp.common().queries < AUTO_GPU_QUERIES && !skinny_lab::gpu_repays(exp.common()));
    assert_eq!(Rig::open(&auto, exp.common()).unwrap().backend(), "cpu");
    // A big shard: the GPUs where there are any, else the CPU; never an error.
    let mut big = exp.common().clone();
    big.queries = AUTO_GPU_QUERIES;
    assert!(skinny_lab::gpu_repays(&big));
    let backend = Rig::open(&auto, &big).unwrap().backend();
    assert!(backend == "cpu" || backend.starts_with("gpu"), "{backend}");
    // The same findings from one thread as from three.
    let one = cpu(&exp, 1).run(&exp, &Control::new(), VERSION).unwrap();
    let three = rig.run(&exp, &Control::new(), VERSION).unwrap();
    assert_eq!((one.hits, &one.right), (three.hits, &three.right));
}

#[test]
fn gpus_asked_for_without_any_are_an_error() {
    let exp = differential(Shard::WHOLE);
    let cuda = cfg!(feature = "cuda");
    match Rig::open(&Placement::Gpu { threads: Threads::All, gpus: GpuSelection::All }, exp.common()) {
        Ok(rig) => assert!(cuda && rig.backend().starts_with("gpu")),
        Err(RigError::NoCuda) => assert!(!cuda),
        Err(e) => assert!(cuda, "{e}"),
    }
}

#[test]
fn a_stopped_run_says_so() {
    let exp = differential(Shard::WHOLE);
    let control = Control::new();
    control.stop();
    let f = cpu(&exp, 2).run(&exp, &control, VERSION).unwrap();
    assert!(f.interrupted && !f.complete);
    assert_eq!(f.queries, 0);
    // Alone it stands as it is (only merging with another shard is refused).
    assert!(Findings::merge(&[f], VERSION).unwrap().interrupted);
}
