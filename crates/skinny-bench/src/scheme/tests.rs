//! A scheme run end to end: every algorithm at tiny sizes, well-formed
//! records, tables, CSV, JSON and chart.

use super::*;
use crate::measure::Unobserved;

const BUILD: Build = Build { version: "0.0.0", commit: "test" };

fn report(algorithms: Vec<Algorithm>, sizes: &str) -> SchemeReport {
    let plan = SchemePlan::new(SchemeRequest {
        algorithms,
        sizes: Some(sizes),
        runs: Some(2),
        max_time_per_size: None,
        min_run_secs: 1e-5,
    })
    .unwrap();
    SchemeBench::open(plan, BUILD).measure(&mut Unobserved).unwrap()
}

#[test]
fn every_algorithm_runs_and_its_records_are_well_formed() {
    let r = report(Algorithm::ALL.to_vec(), "1,16");
    // 9 AEAD schemes x (seal, open) + 3 hashes, at 2 sizes.
    assert_eq!(r.records.len(), (9 * 2 + 3) * 2);
    for rec in &r.records {
        assert_eq!(rec.runs(), 2, "{rec:?}");
        assert!(rec.reps >= 1 && rec.times_ms.iter().all(|t| t.is_finite() && *t > 0.0), "{rec:?}");
        assert!(rec.mib_s() > 0.0 && rec.ns_per_byte() > 0.0 && rec.ns_per_round() > 0.0);
        assert_eq!(rec.floor, rec.algorithm.floor(rec.bytes));
        assert!(rec.algorithm.operations().contains(&rec.operation));
    }
    let tables = r.tables();
    assert_eq!(tables.matches("\nAEAD seal, one message per call\n").count(), 1, "{tables}");
    assert_eq!(tables.matches("\nHash MiB/s by message size\n").count(), 1, "{tables}");
    assert!(tables.contains("ns/round") && tables.contains("romulus-t") && tables.contains("skinny-tk2-hash"));
    assert!(r.header().contains("Scheme romulus-n: skinny-128-384+ (40 rounds per call)"), "{}", r.header());

    let csv = r.csv();
    let mut lines = csv.lines();
    assert_eq!(lines.next().unwrap(), format!("{},machine", SCHEME_FIELDS.join(",")));
    let machine = format!(",{}", crate::report::format::csv_field(&r.info.machine_cell()));
    assert!(
        lines.all(|l| l.ends_with(&machine) && l[..l.len() - machine.len()].split(',').count() == SCHEME_FIELDS.len()),
        "{csv}"
    );
    let text = r.json().unwrap();
    // The first record's keys come in SCHEME_FIELDS order.
    let first = &text[text.find("\"records\"").unwrap()..];
    let at: Vec<usize> = SCHEME_FIELDS.iter().map(|f| first.find(&format!("\"{f}\":")).unwrap()).collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{at:?}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["report"], "schemes");
    assert_eq!(json["isa"], serde_json::json!(r.info.isa));
    assert_eq!(json["cpu_paths"]["single_block_8bit_cells"], r.info.paths.single_block_8bit_cells);
    assert!(r.header().contains(&format!("\n{}\n", r.info.cpu_line())), "{}", r.header());
    let records = json["records"].as_array().unwrap();
    assert_eq!(records.len(), r.records.len());
    assert_eq!(records[0].as_object().unwrap().len(), SCHEME_FIELDS.len());
    assert_eq!(json["plan"]["families"], serde_json::json!(["aead", "hash"]));
    // The cipher bench's reader refuses it in one line rather than at its first record.
    let e = crate::saved::parse(&text).unwrap_err();
    assert_eq!(e, "a report of the AEAD and hash series: only the cipher bench's reports are read back");

    let svg = r.throughput_svg();
    assert_eq!(svg.matches("<g class=\"chart\"").count(), 3, "seal, open, hash");
    assert_eq!(svg.matches("<path class=\"series\"").count(), 9 * 2 + 3);
    assert_eq!(svg.matches("<g").count(), svg.matches("</g>").count());
}

#[test]
fn a_hash_only_run_has_only_the_hash_table() {
    let r = report(vec![Algorithm::RomulusH], "32");
    assert_eq!(r.records.len(), 1);
    assert_eq!(r.records[0].floor, Floor { calls: 4, rounds: ROMULUS_ROUNDS });
    assert!(!r.tables().contains("AEAD"), "{}", r.tables());
    assert_eq!(r.throughput_svg().matches("<g class=\"chart\"").count(), 1);
}
