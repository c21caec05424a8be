use super::*;
use crate::{Common, Differential, Placement, Threads};
use skinny::Variant;

const VERSION: &str = "test 1.0";

fn experiment(seed: u64) -> Experiment {
    let mut c = Common::new(Variant::Skinny64_128, 2, 1 << 12);
    c.key_every = 1 << 8;
    c.seed = seed;
    c.show = 3;
    let mut d =
        Differential::new(c, hex::decode("1000000000000000").unwrap(), hex::decode("0000000001000000").unwrap());
    d.dc_mask = hex::decode("000000000f000000").unwrap();
    d.into()
}

fn rig(exp: &Experiment) -> Rig {
    Rig::open(&Placement::Cpu { threads: Threads::from_count(Some(1)) }, exp.common()).unwrap()
}

fn timeless(mut f: Findings) -> Findings {
    f.seconds = 0.0;
    f.rate_per_s = 0.0;
    f
}

/// The checkpoint after the first of `exp`'s one-group segments.
fn first_checkpoint(exp: &Experiment) -> Checkpoint {
    let mut run = SegmentedRun::new(exp.clone(), Duration::ZERO).unwrap();
    match run.step(&rig(exp), &Control::new(), VERSION).unwrap() {
        Step::Saved(c) => c,
        other => panic!("not a checkpoint: {other:?}"),
    }
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

#[test]
fn a_run_goes_on_from_its_file_to_the_uninterrupted_findings_and_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let exp = experiment(11);
    let whole = rig(&exp).run(&exp, &Control::new(), VERSION).unwrap();
    let file = CheckpointFile::new(dir.join("shard.ckpt")).unwrap();
    let saved = first_checkpoint(&exp);
    file.write(&saved).unwrap();
    assert_eq!(listing(&dir), ["shard.ckpt"]);
    assert_eq!(file.read().unwrap(), Some(saved.clone()));

    let mut run = CheckpointedRun::start(exp.clone(), Duration::ZERO, file.clone(), VERSION).unwrap();
    assert_eq!(run.resumed_queries(), Some(saved.findings.queries));
    assert!(run.rest().common().shard_queries().start > 0, "the rest starts past the checkpoint");
    let Ended::Done(found) = run.run(&rig(&exp), &Control::new(), VERSION).unwrap() else { panic!("not done") };
    assert_eq!(timeless(found), timeless(whole.clone()));
    // The file kept the last segment's checkpoint until told to go.
    assert_eq!(listing(&dir), ["shard.ckpt"]);
    file.remove().unwrap();
    file.remove().unwrap();
    assert_eq!(listing(&dir), Vec::<String>::new());

    // From the start: no file, and one written after every segment.
    let mut run = CheckpointedRun::start(exp.clone(), Duration::ZERO, file.clone(), VERSION).unwrap();
    assert_eq!(run.resumed_queries(), None);
    let Ended::Done(found) = run.run(&rig(&exp), &Control::new(), VERSION).unwrap() else { panic!("not done") };
    assert_eq!(timeless(found), timeless(whole));
    assert_eq!(listing(&dir), ["shard.ckpt"]);
}

#[test]
fn checkpoints_of_another_run_and_other_files_are_refused_and_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let path = dir.join("shard.ckpt");
    let file = CheckpointFile::new(&path).unwrap();
    let start = |seed| CheckpointedRun::start(experiment(seed), Duration::ZERO, file.clone(), VERSION);
    file.write(&first_checkpoint(&experiment(11))).unwrap();
    let before = fs::read(&path).unwrap();
    let e = start(12).unwrap_err();
    assert!(matches!(e, CheckpointFileError::Refused { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Input);
    assert!(e.to_string().contains("another experiment") && e.to_string().ends_with("refused, left as it is"), "{e}");
    for damaged in [&b""[..], b"{\"format\": \"skinny-lab checkpoint 1\"", b"\xff\xfe"] {
        fs::write(&path, damaged).unwrap();
        let e = start(11).unwrap_err();
        assert!(matches!(e, CheckpointFileError::NotACheckpoint { .. }), "{e:?}");
        assert_eq!(e.kind(), ErrorKind::Input);
        assert_eq!(fs::read(&path).unwrap(), damaged, "left as it was");
    }
    fs::write(&path, &before).unwrap();
    assert!(start(11).is_ok());
    // A folder, and a path that names none.
    assert!(matches!(CheckpointFile::new(&dir).unwrap().read(), Err(CheckpointFileError::NotAFile { .. })));
    assert!(matches!(CheckpointFile::new("/"), Err(CheckpointFileError::NotAFile { .. })));
}

#[test]
fn a_file_larger_than_any_checkpoint_is_refused_unread() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let path = dir.join("huge.ckpt");
    // Sparse: no disk used for the zeros.
    File::create(&path).unwrap().set_len(MAX_CHECKPOINT_BYTES + 1).unwrap();
    let e = CheckpointFile::new(&path).unwrap().read().unwrap_err();
    assert!(matches!(e, CheckpointFileError::TooLarge { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Input);
    assert_eq!(fs::metadata(&path).unwrap().len(), MAX_CHECKPOINT_BYTES + 1);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once_not_waited_on() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let path = dir.join("fifo.ckpt");
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if !made.is_ok_and(|s| s.success()) {
        println!("skip: no mkfifo here");
        return;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let start = CheckpointFile::new(&path).unwrap();
    std::thread::spawn(move || {
        let _ = tx.send(CheckpointedRun::start(experiment(11), Duration::ZERO, start, VERSION).map(|_| ()));
    });
    // Opening a FIFO to read waits for a writer: a refusal must come first.
    let e = rx.recv_timeout(Duration::from_secs(20)).expect("blocked on the FIFO").unwrap_err();
    assert!(matches!(e, CheckpointFileError::NotAFile { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Input);
    assert!(e.to_string().contains("not a regular file"), "{e}");
}

#[test]
fn a_failed_write_keeps_the_old_checkpoint_and_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let c = first_checkpoint(&experiment(11));
    // A non-empty folder cannot be replaced by a file: the rename fails.
    let taken = dir.join("taken");
    fs::create_dir(&taken).unwrap();
    fs::write(taken.join("inside"), b"keep").unwrap();
    let e = CheckpointFile::new(&taken).unwrap().write(&c).unwrap_err();
    assert!(matches!(e, CheckpointFileError::Write { .. }), "{e:?}");
    assert_eq!(e.kind(), ErrorKind::Failure);
    assert_eq!(listing(&dir), ["taken"]);
    assert_eq!(fs::read(taken.join("inside")).unwrap(), b"keep");
    // A folder that does not exist: nothing created anywhere.
    assert!(CheckpointFile::new(dir.join("no/such/file")).unwrap().write(&c).is_err());
    assert_eq!(listing(&dir), ["taken"]);
}

#[test]
fn a_killed_writers_temporary_file_is_cleaned_and_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let path = dir.join("shard.ckpt");
    let file = CheckpointFile::new(&path).unwrap();
    let c = first_checkpoint(&experiment(11));
    // What SIGKILL between creating and renaming leaves: the fixed temporary name.
    let stale = dir.join(".shard.ckpt.tmp");
    fs::write(&stale, b"half a checkp").unwrap();
    assert_eq!(file.read().unwrap(), None, "the temporary file is not the checkpoint");
    file.write(&c).unwrap();
    assert_eq!(listing(&dir), ["shard.ckpt"]);
    assert_eq!(file.read().unwrap(), Some(c));
    // The next run removes one before it counts; `remove` takes both.
    fs::write(&stale, b"half").unwrap();
    CheckpointedRun::start(experiment(11), Duration::ZERO, file.clone(), VERSION).unwrap();
    assert_eq!(listing(&dir), ["shard.ckpt"]);
    fs::write(&stale, b"half").unwrap();
    file.remove().unwrap();
    assert_eq!(listing(&dir), Vec::<String>::new());
}
