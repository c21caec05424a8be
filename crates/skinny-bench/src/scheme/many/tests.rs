//! A many-message run end to end at tiny sizes: every scheme on the CPU
//! engine, well-formed records, tables, CSV and JSON; a GPU that cannot run
//! here is skipped, never a figure.

use super::*;
use crate::measure::Unobserved;
use crate::scheme::{Algorithm, Floor, Operation, ROMULUS_ROUNDS};
use skinny_exec::GpuSelection;

const BUILD: Build = Build { version: "0.0.0", commit: "test" };

fn report(algorithms: Vec<Algorithm>, sizes: &str, backends: Vec<Backend>) -> ManyReport {
    let plan = ManyPlan::new(ManyRequest {
        algorithms,
        sizes: Some(sizes),
        messages: Some(37),
        backends: Some(backends),
        threads: Some(2),
        gpus: GpuSelection::All,
        runs: Some(2),
        max_time_per_size: None,
        min_run_secs: 1e-5,
    })
    .unwrap();
    ManyBench::open(plan, BUILD).unwrap().measure(&mut Unobserved).unwrap()
}

#[test]
fn every_scheme_runs_on_the_cpu_engine_and_its_records_are_well_formed() {
    let r = report(many_algorithms(), "1,17", vec![Backend::Cpu]);
    // 8 schemes x (seal, open) x 2 sizes.
    assert_eq!(r.records.len(), 8 * 2 * 2);
    for rec in &r.records {
        assert_eq!((rec.messages, rec.threads, rec.ran_on), (37, 2, "cpu"), "{rec:?}");
        assert_eq!((rec.engine.times_ms.len(), rec.single.times_ms.len()), (2, 2));
        assert!(rec.messages_per_s() > 0.0 && rec.gb_s() > 0.0 && rec.ratio() > 0.0, "{rec:?}");
        assert!(rec.single_gb_s() > 0.0 && rec.ns_per_round() > 0.0);
        assert_eq!(rec.floor, rec.algorithm.floor(rec.bytes));
    }
    let tables = r.tables();
    assert!(tables.contains("\nAEAD seal, many messages per call (2 threads), beside one message per call\n"));
    assert!(tables.contains("\nAEAD open, many messages per call"), "{tables}");
    assert!(tables.contains("single M msg/s") && tables.contains("skinny-aead-m6"), "{tables}");
    assert!(r.header().contains("37 messages per batch"), "{}", r.header());

    let csv = r.csv();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), format!("{},machine", MANY_FIELDS.join(",")));
    let machine = format!(",{}", crate::report::format::csv_field(&r.info.machine_cell()));
    assert!(
        lines.all(|l| l.ends_with(&machine) && l[..l.len() - machine.len()].split(',').count() == MANY_FIELDS.len()),
        "{csv}"
    );
    let text = r.json().unwrap();
    let first = &text[text.find("\"records\"").unwrap()..];
    let at: Vec<usize> = MANY_FIELDS.iter().map(|f| first.find(&format!("\"{f}\":")).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((json["report"].as_str(), json["plan"]["threads"].as_u64()), (Some("many"), Some(2)));
    assert_eq!(
        (json["isa"].clone(), json["cpu_paths"]["bitsliced"].as_str()),
        (serde_json::json!(r.info.isa), Some(r.info.paths.bitsliced))
    );
    assert!(r.header().contains(&format!("\n{}\n", r.info.cpu_line())), "{}", r.header());
    let records = json["records"].as_array().unwrap();
    assert_eq!(records.len(), r.records.len());
    assert!(records.iter().all(|x| x["route"] == "many" && x["backend"] == "cpu"));
    let e = crate::saved::parse(&text).unwrap_err();
    assert_eq!(e, "a report of the many-message series: only the cipher bench's reports are read back");
}

#[test]
fn a_gpu_that_cannot_run_here_is_skipped_and_auto_stays_on_the_cpu() {
    let r =
        report(vec![Algorithm::RomulusN, Algorithm::SkinnyAead(skinny_aead::Member::M1)], "64", Backend::ALL.to_vec());
    // SKINNY-AEAD has no GPU kernels anywhere; Romulus-N's GPU runs only
    // where a GPU does (a test never fails for want of one).
    let m1 = |k: &ManySkipped| k.algorithm == Some(Algorithm::SkinnyAead(skinny_aead::Member::M1));
    assert!(r.skipped.iter().any(|k| k.backend == Backend::Gpu && (m1(k) || k.algorithm.is_none())), "{:?}", r.skipped);
    assert!(r.records.iter().all(|x| !(x.backend == Backend::Gpu && x.algorithm != Algorithm::RomulusN)));
    // A batch of 37 x 64 bytes is far below the rule's threshold: auto runs it on the CPU.
    let auto: Vec<&ManyRecord> = r.records.iter().filter(|x| x.backend == Backend::Auto).collect();
    assert_eq!(auto.len(), 2 * 2);
    assert!(auto.iter().all(|x| x.ran_on == "cpu"));
    assert!(r.tables().contains("GPU: not available"), "{}", r.tables());
    let json: serde_json::Value = serde_json::from_str(&r.json().unwrap()).unwrap();
    assert!(!json["skipped"].as_array().unwrap().is_empty());
    // Romulus-N at 64 bytes: 5 calls of 40 rounds.
    let n = r.records.iter().find(|x| x.algorithm == Algorithm::RomulusN && x.operation == Operation::Open).unwrap();
    assert_eq!(n.floor, Floor { calls: 5, rounds: ROMULUS_ROUNDS });
}
