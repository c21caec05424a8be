use super::markdown::fmt_e;
use super::*;
use crate::report::format::fmt_ms;
use crate::timing::Timing;
use skinny_bulk::mode::Mode;

const JSON: &str = r#"{"version":"0.1.0","commit":"abc","cpu":"Test CPU","logical_cpus":16,"gpus":["G"],
  "records":[
    {"variant":"skinny-128-256","mode":"ecb","direction":"encrypt","backend":"cpu-serial","timing":"end-to-end",
     "label":"cpu-serial","bytes":16,"reps":100,"times_ms":[1.0,3.0,2.0]},
    {"variant":"skinny-128-256","mode":"ecb","direction":"encrypt","backend":"gpu-paper","timing":"cold",
     "label":"gpu-paper cold","bytes":16,"reps":1,"warmup_ms":9.0,"times_ms":[4.0,4.0]}
  ]}"#;

#[test]
fn reads_saved_results_and_pools_repeats() {
    let a = parse(JSON).unwrap();
    assert_eq!(a.records.len(), 2);
    assert_eq!(a.records[1].timing, Timing::Cold);
    assert_eq!(a.records[1].backend, "gpu-paper");
    // Written before the ISA was recorded: said so, not guessed.
    assert!(a.machine.contains("Test CPU, 16 CPUs, ISA not recorded; G"), "{}", a.machine);
    let with_isa = JSON.replacen(r#""logical_cpus":16,"#, r#""logical_cpus":16,"isa":["avx2"],"#, 1);
    assert!(parse(&with_isa).unwrap().machine.contains("Test CPU, 16 CPUs, avx2; G"));
    // A second repeat with only the GPU series: the baseline comes from the first.
    let mut b = a.clone();
    b.records.remove(0);
    b.records[0].times_ms = vec![2.0, 2.0];
    let p = pool(&[a, b]);
    assert_eq!(p.len(), 2);
    assert_eq!(p[1].record.times_ms, vec![4.0, 4.0, 2.0, 2.0]);
    assert_eq!(p[1].repeat_medians, vec![4.0, 2.0]);
    // Means: serial 2 ms, cold 3 ms: E = 2/3; medians: 2 and 3.
    let su = p[1].record.speedups.serial_mean.unwrap();
    assert!((su.speedup - 2.0 / 3.0).abs() < 1e-12);
    assert!(parse("{}").unwrap_err().contains("records"));
    assert!(parse(&JSON.replace("\"cold\"", "\"lukewarm\"")).unwrap_err().contains("record 1"));
}

const PAPER: &str = "# comment\n\
    table,mode,bytes,cpu_ms,cpu_ms_read,gpu_ms,gpu_ms_read,speedup,speedup_read,efficiency_pct,efficiency_pct_read,note\n\
    3,ecb,16,0.08,likely,0.27,guess,,unread,-237.5,derived,a note, with a comma\n\
    4,ctr,64,,unread,0.3,sure,2.5,sure,60,sure,\n";

#[test]
fn reads_the_transcription_and_marks_certainty() {
    let rows = parse_paper(PAPER).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].mode, Mode::Ecb);
    assert_eq!(rows[0].cpu_ms, Cell { value: Some(0.08), read: Certainty::Likely, raw: "0.08".into() });
    assert_eq!(rows[0].efficiency_pct.marked(), "[-237.5]");
    assert_eq!(rows[1].gpu_ms.marked(), "0.3");
    assert_eq!(rows[0].speedup.read, Certainty::Unread);
    assert_eq!(rows[1].cpu_ms.value, None);
    // E: from the times where not read, as read otherwise.
    let e = paper_speedups(&rows);
    assert_eq!(e.len(), 2);
    assert!((e[0].2 - 0.08 / 0.27).abs() < 1e-12);
    assert_eq!(e[1], (Mode::Ctr, 64, 2.5));
    assert_eq!(Certainty::Likely.mark(Some(0.08), fmt_ms), "0.08000~");
    assert_eq!(Certainty::Guess.mark(Some(0.27), |x| x.to_string()), "0.27?");
    assert_eq!(Certainty::Derived.mark(Some(2.0), fmt_e), "[2.00]");
    assert_eq!(Certainty::Unread.mark(Some(2.0), fmt_e), "-");
    assert!(parse_paper("table,mode\n").is_err());
    assert!(parse_paper(&PAPER.replace("likely", "maybe")).is_err());
    assert!(parse_paper(&PAPER.replace("0.3,sure", ",sure")).is_err());
}

#[test]
fn markdown_has_the_tables() {
    let rows = parse_paper(PAPER).unwrap();
    let p = pool(&[parse(JSON).unwrap()]);
    let md = markdown(&p, &rows, 1, &["m"]);
    assert!(md.contains("### ECB speed-up E: the paper's Table 3 beside ours"), "{md}");
    // 16 B: paper 0.08~ ms; ours: cpu-serial mean 2 ms of 3 runs; cold E = 2 / 4.
    let line = md.lines().find(|l| l.starts_with("| 16 B | 0.08~ | 0.27? | - |")).expect(&md);
    assert!(line.ends_with("| 2.000 (3) | 0.500 |"), "{line}");
    assert!(md.contains("| 16 B | 3 | 1.000 3.000 2.000 |"), "{md}");
    assert!(md.contains("| gpu-paper cold | 0.00003200 | - |"), "{md}");
}

#[test]
fn side_by_side_captions_each_machine_and_the_pooling() {
    let a = parse(JSON).unwrap();
    let mut b = a.clone();
    b.machine = "another machine".into();
    let side = SideBySide::of(&[a.clone(), b, a], parse_paper(PAPER).unwrap());
    assert_eq!(side.caption().len(), 3, "{:?}", side.caption());
    assert_eq!(side.caption()[2], "3 runs pooled point by point");
    assert!(side.markdown().starts_with("Results: 3 file(s), pooled point by point; "));
    let svg = side.speedup_svg();
    assert!(svg.contains("another machine") && svg.contains("data-series=\"paper (GTX TITAN X, its Tables 3-4) ctr\""));
    assert_eq!(side.throughput_svg().matches("<g class=\"chart\">").count(), 1);
}

#[test]
fn load_names_the_file_that_failed() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{}").unwrap();
    let e = SideBySide::load(std::slice::from_ref(&bad), None).unwrap_err();
    assert!(matches!(&e, SavedError::Malformed { path, reason } if *path == bad && reason.contains("records")), "{e}");
    let e = SideBySide::load(&[dir.path().join("missing.json")], None).unwrap_err();
    assert!(matches!(e, SavedError::Read { .. }), "{e}");
}
