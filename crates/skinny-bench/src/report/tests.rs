use super::*;
use crate::record::add_speedups;
use crate::record::tests::rec;
use crate::system::CpuPaths;
use crate::timing::Timing;
use skinny_bulk::backend::{BackendChoice, GpuSelection};

fn info() -> SystemInfo {
    SystemInfo {
        cpu: "Test CPU, \"quoted\"".into(),
        cores: 16,
        isa: vec!["avx2", "avx512f"],
        paths: CpuPaths {
            bitsliced: "avx512",
            single_block_8bit_cells: "ssse3-split",
            single_block_4bit_cells: "ssse3",
        },
        gpus: vec!["Test GPU".into()],
        gpu_found: true,
        version: "0.0.0",
        commit: "abc1234",
        started: "2026-01-01T00:00:00Z".into(),
    }
}

fn report() -> Report {
    let plan = Plan {
        variant: skinny::Variant::Skinny128_256,
        modes: vec![Mode::Ecb],
        directions: vec![Direction::Encrypt],
        sizes: vec![16, 1024],
        backends: vec![BackendChoice::CpuSerial, BackendChoice::Cpu, BackendChoice::Gpu],
        runs: 3,
        timings: Timing::ALL.to_vec(),
        max_time_per_size: None,
        min_run_secs: 0.002,
        threads: None,
        gpus: GpuSelection::All,
    };
    let mut records = Vec::new();
    for &n in &plan.sizes {
        let k = n as f64 / 16.0;
        records.push(rec("cpu-serial", Timing::EndToEnd, "cpu-serial", n, 100.0 * k));
        records.push(rec("cpu", Timing::EndToEnd, "cpu", n, 10.0 * k));
        records.push(rec("gpu", Timing::EndToEnd, "gpu e2e", n, 4.0 * k));
        records.push(rec("gpu", Timing::Kernel, "gpu kernel", n, 1.0 * k));
    }
    add_speedups(&mut records);
    let skipped = vec![Skipped { backend: "gpu-paper".into(), reason: "no GPU".into() }];
    Report { info: info(), plan, setups: vec![], skipped, records }
}

#[test]
fn gpu_run_gives_one_paper_table_per_gpu_series() {
    let report = report();
    let t = report.tables();
    assert_eq!(t.matches("ECB encrypt, skinny-128-256: gpu").count(), 2, "{t}");
    assert!(t.contains("gpu kernel against cpu-serial and cpu"), "{t}");
    assert!(t.contains("E vs cpu-serial") && t.contains("S vs cpu") && t.contains("gpu kernel Gb/s"), "{t}");
    // Kernel at 16 B: 1 ms against 100 ms (serial) and 10 ms (cpu).
    let row = t.lines().skip_while(|l| !l.contains("gpu kernel against")).find(|l| l.starts_with("16 B")).unwrap();
    assert!(
        row.contains("100.00") && row.contains("99.00%") && row.contains("10.00") && row.contains("90.00%"),
        "{row}"
    );
    assert!(report.header().contains("Skipped gpu-paper: no GPU"), "{}", report.header());
    assert!(
        report.header().contains(
            "\nCPU: Test CPU, \"quoted\", 16 logical CPUs; ISA: avx2 avx512f (not ssse3 avx512bw avx512vl avx512vbmi \
             gfni); paths: bitsliced avx512, one block ssse3-split (8-bit cells) / ssse3 (4-bit cells)\n"
        ),
        "{}",
        report.header()
    );
}

#[test]
fn csv_and_json_have_the_same_columns() {
    let report = report();
    let json = report.json().unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert_eq!(v["cpu"], "Test CPU, \"quoted\"", "{json}");
    assert_eq!(v["isa"], serde_json::json!(["avx2", "avx512f"]), "{json}");
    assert_eq!(v["cpu_paths"]["bitsliced"], "avx512", "{json}");
    assert_eq!(v["skipped"][0]["backend"], "gpu-paper", "{json}");
    let recs = v["records"].as_array().unwrap();
    assert_eq!(recs.iter().filter(|r| r["timing"] == "kernel").count(), 2);
    // The JSON records have the CSV's columns, `times_ms` included.
    for r in recs {
        let mut keys: Vec<&str> = r.as_object().unwrap().keys().map(String::as_str).collect();
        let mut want: Vec<&str> = CSV_FIELDS.to_vec();
        keys.sort_unstable();
        want.sort_unstable();
        assert_eq!(keys, want);
    }
    // No speed-up of a baseline against itself: null, as in the CSV's empty cell.
    assert!(recs[0]["speedup_vs_cpu_serial"].is_null(), "{json}");
    let csv = report.csv();
    assert_eq!(csv.lines().count(), 1 + 8);
    // The CSV's rows carry the machine, quoted where it has a comma.
    assert_eq!(csv.lines().next().unwrap(), format!("{},machine", CSV_FIELDS.join(",")));
    let machine = ",\"Test CPU, \"\"quoted\"\"; 16 logical CPUs; avx2 avx512f\"";
    assert!(csv.lines().skip(1).all(|l| l.ends_with(machine)), "{csv}");
    assert!(csv.lines().nth(4).unwrap().contains(",gpu,kernel,gpu kernel,16,3,1,"), "{csv}");
    // Every run is kept: the cell before the machine lists the three times (1, 2, 0.5 ms).
    assert!(csv.lines().nth(4).unwrap().contains(",1;2;0.5,\"Test CPU"), "{csv}");
    // At the means: cpu-serial (100 + 200 + 50) / 3 against (1 + 2 + 0.5) / 3.
    assert!((recs[3]["speedup_mean_vs_cpu_serial"].as_f64().unwrap() - 100.0).abs() < 1e-9, "{json}");
}

#[test]
fn charts_carry_the_machine() {
    let report = report();
    for svg in [report.throughput_svg(), report.speedup_svg()] {
        assert!(svg.contains("Test CPU, &quot;quoted&quot;, 16 CPUs, avx2 avx512f; Test GPU"), "{svg}");
    }
}
