//! The results as text: the header, the paper-style tables (one per mode and
//! compared backend), CSV and JSON. The JSON is serde's, from the structs below.

use super::measure::{dir_name, Record, SpeedUp, Timing};
use super::plan::{size_label, Plan};
use super::system::SystemInfo;
use serde::Serialize;
use std::fmt::Write as _;

/// How one backend was opened (also its JSON object in `setup`).
#[derive(Clone, Debug, Serialize)]
pub struct Setup {
    /// Backend name.
    pub backend: &'static str,
    /// The backend's own description.
    pub description: String,
    /// Whether its code is constant time.
    pub constant_time: bool,
    /// Opening the backend (device, context, module compilation), ms.
    pub open_ms: f64,
    /// Opening the engine for the key, ms.
    pub engine_ms: f64,
}

/// Everything a run produced.
pub struct Report<'a> {
    /// Machine and build.
    pub info: &'a SystemInfo,
    /// What was asked.
    pub plan: &'a Plan,
    /// The backends measured.
    pub setups: Vec<Setup>,
    /// Backends left out: (name, reason).
    pub skipped: Vec<(String, String)>,
    /// The measurements.
    pub records: Vec<Record>,
}

/// The two CPU baselines the speed-ups are computed against.
pub const BASELINES: [&str; 2] = ["cpu-serial", "cpu"];

impl Report<'_> {
    /// The header: machine, build, plan, setup costs, skipped backends, units.
    pub fn header(&self) -> String {
        let (i, p) = (self.info, self.plan);
        let mut s = String::new();
        let _ = writeln!(s, "skinny bench: skinny {} (commit {}), started {}", i.version, i.commit, i.started);
        let _ = writeln!(s, "CPU: {}, {} logical CPUs", i.cpu, i.cores);
        for g in &i.gpus {
            let _ = writeln!(s, "GPU: {g}");
        }
        let _ = writeln!(
            s,
            "Cipher {}; modes {}; {}; {} sizes {}..{}; {} timed runs per size after a warm-up call{}",
            p.variant,
            p.modes.iter().map(|m| m.name()).collect::<Vec<_>>().join(", "),
            p.directions.iter().map(|d| dir_name(*d)).collect::<Vec<_>>().join(" and "),
            p.sizes.len(),
            p.sizes.first().map_or(String::new(), |&n| size_label(n)),
            p.sizes.last().map_or(String::new(), |&n| size_label(n)),
            p.runs,
            p.max_time_per_size.map_or(String::new(), |b| format!(
                " (fewer, at least {}, once a size has taken {b} s)",
                p.runs.min(super::plan::MIN_RUNS_UNDER_BUDGET)
            )),
        );
        for su in &self.setups {
            let _ = writeln!(
                s,
                "Backend {}: {}{}; setup (not in the timings): open {:.3} ms, engine {:.3} ms",
                su.backend,
                su.description,
                if su.constant_time { "" } else { " (NOT constant time)" },
                su.open_ms,
                su.engine_ms
            );
        }
        for (name, why) in &self.skipped {
            let _ = writeln!(s, "Skipped {name}: {why}");
        }
        let _ = writeln!(
            s,
            "Times: ms per operation, median of the runs. Gb/s: decimal, bits / 1e9 / s at the median. \
             E = Tcpu / T (speed-up), S = (Tcpu - T) / Tcpu (efficiency), against each CPU baseline. \
             e2e = host buffer in and out, transfers included; kernel = device events, data resident; \
             pageable = e2e through plain pageable copies (the paper's way); cold = engine opened, used once \
             and dropped inside every operation (allocation, key and table upload, copies, kernel, free)."
        );
        s
    }

    /// Series labels in the order measured, for one mode and direction.
    fn labels(&self, recs: &[&Record]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in recs {
            if !out.contains(&r.label) {
                out.push(r.label.clone());
            }
        }
        out
    }

    /// The tables, laid out like the paper's Tables 3 and 4 (size, CPU time,
    /// device time, speed-up, efficiency, throughput): one per mode, direction and
    /// compared series. A CPU-only run compares `cpu` with `cpu-serial`.
    pub fn tables(&self) -> String {
        let mut s = String::new();
        for &mode in &self.plan.modes {
            for &dir in &self.plan.directions {
                let recs: Vec<&Record> = self.records.iter().filter(|r| r.mode == mode && r.direction == dir).collect();
                if recs.is_empty() {
                    continue;
                }
                let labels = self.labels(&recs);
                let is_base = |l: &String| BASELINES.contains(&l.as_str());
                let mut subjects: Vec<String> = labels.iter().filter(|l| !is_base(l)).cloned().collect();
                if subjects.is_empty() {
                    subjects.push(labels.last().cloned().unwrap_or_default());
                }
                for subject in subjects {
                    let bases: Vec<&str> =
                        BASELINES.iter().copied().filter(|b| *b != subject && labels.iter().any(|l| l == b)).collect();
                    let paper = match mode {
                        skinny_bulk::mode::Mode::Ecb => " (cf. the paper's Table 3)",
                        _ => " (cf. the paper's Table 4)",
                    };
                    let _ = writeln!(
                        s,
                        "\n{} {}, {}: {subject}{}{}",
                        mode.name().to_uppercase(),
                        dir_name(dir),
                        self.plan.variant,
                        if bases.is_empty() { String::new() } else { format!(" against {}", bases.join(" and ")) },
                        if dir == skinny_bulk::mode::Direction::Encrypt { paper } else { "" }
                    );
                    s.push_str(&self.table(&recs, &subject, &bases));
                }
            }
        }
        s
    }

    fn table(&self, recs: &[&Record], subject: &str, bases: &[&str]) -> String {
        let mut head = vec!["Size".to_string()];
        head.extend(bases.iter().map(|b| format!("{b} ms")));
        head.push(format!("{subject} ms"));
        for b in bases {
            head.push(format!("E vs {b}"));
            head.push(format!("S vs {b}"));
        }
        head.extend(bases.iter().map(|b| format!("{b} Gb/s")));
        head.push(format!("{subject} Gb/s"));

        let find = |label: &str, bytes: usize| recs.iter().find(|r| r.label == label && r.bytes == bytes);
        let mut rows = Vec::new();
        for &bytes in &self.plan.sizes {
            let Some(x) = find(subject, bytes) else { continue };
            let mut row = vec![size_label(bytes)];
            row.extend(bases.iter().map(|b| find(b, bytes).map_or("-".into(), |r| fmt_ms(r.median_ms()))));
            row.push(fmt_ms(x.median_ms()));
            for b in bases {
                let su = if *b == "cpu-serial" { x.vs_cpu_serial } else { x.vs_cpu };
                row.push(su.map_or("-".into(), |v| format!("{:.2}", v.speedup)));
                row.push(su.map_or("-".into(), |v| format!("{:.2}%", v.efficiency * 100.0)));
            }
            row.extend(bases.iter().map(|b| find(b, bytes).map_or("-".into(), |r| fmt_gbps(r.gbps()))));
            row.push(fmt_gbps(x.gbps()));
            rows.push(row);
        }
        let widths: Vec<usize> = (0..head.len())
            .map(|c| rows.iter().map(|r| r[c].len()).chain([head[c].len()]).max().unwrap_or(0))
            .collect();
        let line = |cells: &[String]| {
            let parts: Vec<String> = cells
                .iter()
                .zip(&widths)
                .enumerate()
                .map(|(i, (c, w))| if i == 0 { format!("{c:<w$}") } else { format!("{c:>w$}") })
                .collect();
            format!("{}\n", parts.join("  ").trim_end())
        };
        let mut out = line(&head);
        out.push_str(&line(&widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>()));
        for r in &rows {
            out.push_str(&line(r));
        }
        out
    }

    /// CSV: a header line, then one line per record.
    pub fn csv(&self) -> String {
        let mut s = CSV_FIELDS.join(",");
        s.push('\n');
        for r in &self.records {
            let f = fields(r);
            let cells: Vec<String> = f.iter().map(|v| v.csv()).collect();
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        s
    }

    /// JSON: one object with the header facts, the setup, the skipped backends and
    /// `records`, one object per record (the CSV's columns plus `times_ms`).
    ///
    /// # Errors
    /// None in practice (plain structs, strings and numbers); kept rather than
    /// unwrapped so that no path can panic or write an empty file.
    pub fn json(&self) -> Result<String, serde_json::Error> {
        let (i, p) = (self.info, self.plan);
        let report = JsonReport {
            tool: "skinny bench",
            version: i.version,
            commit: i.commit,
            started: &i.started,
            cpu: &i.cpu,
            logical_cpus: i.cores,
            gpu_found: i.gpu_found,
            gpus: &i.gpus,
            plan: JsonPlan {
                variant: p.variant.name(),
                modes: p.modes.iter().map(|m| m.name()).collect(),
                directions: p.directions.iter().map(|d| dir_name(*d)).collect(),
                sizes: &p.sizes,
                runs: p.runs,
                max_time_per_size_s: p.max_time_per_size,
                min_run_ms: p.min_run_secs * 1e3,
                threads: p.threads,
            },
            units: Units {
                times: "milliseconds per operation",
                gbps: "decimal gigabits per second: bytes * 8 / 1e9 / seconds, at the median time",
                speedup: "T_baseline / T (median; the _mean_ fields: at the means)",
                efficiency: "(T_baseline - T) / T_baseline (median; the _mean_ fields: at the means)",
            },
            setup: &self.setups,
            skipped: self.skipped.iter().map(|(backend, reason)| Skipped { backend, reason }).collect(),
            records: self.records.iter().map(JsonRecord::from).collect(),
        };
        // NaN and infinities, which JSON cannot hold, become null.
        let mut text = serde_json::to_string_pretty(&report)?;
        text.push('\n');
        Ok(text)
    }
}

/// The JSON document; field names and order are the format (docs and scripts
/// read them).
#[derive(Serialize)]
struct JsonReport<'a> {
    tool: &'static str,
    version: &'a str,
    commit: &'a str,
    started: &'a str,
    cpu: &'a str,
    logical_cpus: usize,
    gpu_found: bool,
    gpus: &'a [String],
    plan: JsonPlan<'a>,
    units: Units,
    setup: &'a [Setup],
    skipped: Vec<Skipped<'a>>,
    records: Vec<JsonRecord<'a>>,
}

/// What was asked, in `plan`.
#[derive(Serialize)]
struct JsonPlan<'a> {
    variant: &'static str,
    modes: Vec<&'static str>,
    directions: Vec<&'static str>,
    sizes: &'a [usize],
    runs: usize,
    max_time_per_size_s: Option<f64>,
    min_run_ms: f64,
    threads: Option<usize>,
}

/// What the numbers mean, in `units`.
#[derive(Serialize)]
struct Units {
    times: &'static str,
    gbps: &'static str,
    speedup: &'static str,
    efficiency: &'static str,
}

/// A backend left out, in `skipped`.
#[derive(Serialize)]
struct Skipped<'a> {
    backend: &'a str,
    reason: &'a str,
}

/// One record: the keys are [`CSV_FIELDS`] in order (`times_ms` a list here, a
/// `;`-separated cell in the CSV; a test keeps the two in step).
#[derive(Serialize)]
struct JsonRecord<'a> {
    variant: &'a str,
    mode: &'static str,
    direction: &'static str,
    backend: &'a str,
    timing: &'static str,
    label: &'a str,
    bytes: usize,
    runs: usize,
    reps: usize,
    mean_ms: f64,
    median_ms: f64,
    min_ms: f64,
    gbps: f64,
    gbps_mean: f64,
    gbps_max: f64,
    warmup_ms: Option<f64>,
    speedup_vs_cpu_serial: Option<f64>,
    efficiency_vs_cpu_serial: Option<f64>,
    speedup_vs_cpu: Option<f64>,
    efficiency_vs_cpu: Option<f64>,
    max_ms: f64,
    sd_ms: f64,
    speedup_mean_vs_cpu_serial: Option<f64>,
    efficiency_mean_vs_cpu_serial: Option<f64>,
    speedup_mean_vs_cpu: Option<f64>,
    efficiency_mean_vs_cpu: Option<f64>,
    times_ms: &'a [f64],
}

impl<'a> From<&'a Record> for JsonRecord<'a> {
    fn from(r: &'a Record) -> Self {
        Self {
            variant: r.variant,
            mode: r.mode.name(),
            direction: dir_name(r.direction),
            backend: r.backend,
            timing: r.timing.name(),
            label: &r.label,
            bytes: r.bytes,
            runs: r.runs(),
            reps: r.reps,
            mean_ms: r.mean_ms(),
            median_ms: r.median_ms(),
            min_ms: r.min_ms(),
            gbps: r.gbps(),
            gbps_mean: r.gbps_at(r.mean_ms()),
            gbps_max: r.gbps_at(r.min_ms()),
            warmup_ms: r.warmup_ms,
            speedup_vs_cpu_serial: r.vs_cpu_serial.map(|v| v.speedup),
            efficiency_vs_cpu_serial: r.vs_cpu_serial.map(|v| v.efficiency),
            speedup_vs_cpu: r.vs_cpu.map(|v| v.speedup),
            efficiency_vs_cpu: r.vs_cpu.map(|v| v.efficiency),
            max_ms: r.max_ms(),
            sd_ms: r.sd_ms(),
            speedup_mean_vs_cpu_serial: r.vs_cpu_serial_mean.map(|v| v.speedup),
            efficiency_mean_vs_cpu_serial: r.vs_cpu_serial_mean.map(|v| v.efficiency),
            speedup_mean_vs_cpu: r.vs_cpu_mean.map(|v| v.speedup),
            efficiency_mean_vs_cpu: r.vs_cpu_mean.map(|v| v.efficiency),
            times_ms: &r.times_ms,
        }
    }
}

/// The columns of the CSV, and the keys of each JSON record. New columns go at
/// the end, so readers of older files by position keep working.
pub const CSV_FIELDS: [&str; 27] = [
    "variant",
    "mode",
    "direction",
    "backend",
    "timing",
    "label",
    "bytes",
    "runs",
    "reps",
    "mean_ms",
    "median_ms",
    "min_ms",
    "gbps",
    "gbps_mean",
    "gbps_max",
    "warmup_ms",
    "speedup_vs_cpu_serial",
    "efficiency_vs_cpu_serial",
    "speedup_vs_cpu",
    "efficiency_vs_cpu",
    "max_ms",
    "sd_ms",
    "speedup_mean_vs_cpu_serial",
    "efficiency_mean_vs_cpu_serial",
    "speedup_mean_vs_cpu",
    "efficiency_mean_vs_cpu",
    "times_ms",
];

/// A value of one field.
enum Val {
    Str(String),
    Int(usize),
    Num(Option<f64>),
}

impl Val {
    fn csv(&self) -> String {
        match self {
            Val::Str(s) => csv_field(s),
            Val::Int(n) => n.to_string(),
            Val::Num(Some(x)) if x.is_finite() => x.to_string(),
            Val::Num(_) => String::new(),
        }
    }
}

/// One record's values, in [`CSV_FIELDS`] order.
fn fields(r: &Record) -> Vec<Val> {
    let su = |s: Option<SpeedUp>, eff: bool| Val::Num(s.map(|v| if eff { v.efficiency } else { v.speedup }));
    vec![
        Val::Str(r.variant.into()),
        Val::Str(r.mode.name().into()),
        Val::Str(dir_name(r.direction).into()),
        Val::Str(r.backend.into()),
        Val::Str(r.timing.name().into()),
        Val::Str(r.label.clone()),
        Val::Int(r.bytes),
        Val::Int(r.runs()),
        Val::Int(r.reps),
        Val::Num(Some(r.mean_ms())),
        Val::Num(Some(r.median_ms())),
        Val::Num(Some(r.min_ms())),
        Val::Num(Some(r.gbps())),
        Val::Num(Some(r.gbps_at(r.mean_ms()))),
        Val::Num(Some(r.gbps_at(r.min_ms()))),
        Val::Num(r.warmup_ms),
        su(r.vs_cpu_serial, false),
        su(r.vs_cpu_serial, true),
        su(r.vs_cpu, false),
        su(r.vs_cpu, true),
        Val::Num(Some(r.max_ms())),
        Val::Num(Some(r.sd_ms())),
        su(r.vs_cpu_serial_mean, false),
        su(r.vs_cpu_serial_mean, true),
        su(r.vs_cpu_mean, false),
        su(r.vs_cpu_mean, true),
        Val::Str(r.times_ms.iter().map(f64::to_string).collect::<Vec<_>>().join(";")),
    ]
}

/// A CSV field, quoted when it holds a comma, quote or line break (RFC 4180).
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Milliseconds with four significant digits, no exponent.
pub fn fmt_ms(ms: f64) -> String {
    if !ms.is_finite() || ms <= 0.0 {
        return "-".into();
    }
    let decimals = (3 - ms.log10().floor() as i32).clamp(0, 9) as usize;
    format!("{ms:.decimals$}")
}

/// Gb/s with four significant digits.
pub fn fmt_gbps(g: f64) -> String {
    fmt_ms(g)
}

/// Whether a record is a kernel timing (for the chart's dashes).
pub fn is_kernel(r: &Record) -> bool {
    r.timing == Timing::Kernel
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::measure::Timing;

    #[test]
    fn escaping() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }

    fn rec(backend: &'static str, timing: Timing, label: &str, bytes: usize, ms: f64) -> Record {
        Record {
            variant: "skinny-128-256",
            mode: skinny_bulk::mode::Mode::Ecb,
            direction: skinny_bulk::mode::Direction::Encrypt,
            backend,
            label: label.into(),
            timing,
            bytes,
            reps: 1,
            times_ms: vec![ms, ms * 2.0, ms / 2.0],
            warmup_ms: None,
            vs_cpu_serial: None,
            vs_cpu: None,
            vs_cpu_serial_mean: None,
            vs_cpu_mean: None,
        }
    }

    #[test]
    fn gpu_run_gives_one_paper_table_per_gpu_series() {
        use super::super::measure::add_speedups;
        use skinny_bulk::backend::BackendChoice;
        let info = SystemInfo {
            cpu: "Test CPU, \"quoted\"".into(),
            cores: 16,
            gpus: vec!["Test GPU".into()],
            gpu_found: true,
            version: "0.0.0",
            commit: "abc1234",
            started: "2026-01-01T00:00:00Z".into(),
        };
        let plan = Plan {
            variant: skinny::Variant::Skinny128_256,
            modes: vec![skinny_bulk::mode::Mode::Ecb],
            directions: vec![skinny_bulk::mode::Direction::Encrypt],
            sizes: vec![16, 1024],
            backends: vec![BackendChoice::CpuSerial, BackendChoice::Cpu, BackendChoice::Gpu],
            runs: 3,
            timings: Timing::ALL.to_vec(),
            max_time_per_size: None,
            min_run_secs: 0.002,
            threads: None,
            gpus: skinny_bulk::backend::GpuSelection::All,
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
        let report = Report { info: &info, plan: &plan, setups: vec![], skipped: vec![], records };
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
        let json = report.json().unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        assert_eq!(v["cpu"], "Test CPU, \"quoted\"", "{json}");
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
        assert!(csv.lines().nth(4).unwrap().contains(",gpu,kernel,gpu kernel,16,3,1,"), "{csv}");
        // Every run is kept: the last cell lists the three times (1, 2, 0.5 ms).
        assert!(csv.lines().nth(4).unwrap().ends_with(",1;2;0.5"), "{csv}");
        // At the means: cpu-serial (100 + 200 + 50) / 3 against (1 + 2 + 0.5) / 3.
        assert!((recs[3]["speedup_mean_vs_cpu_serial"].as_f64().unwrap() - 100.0).abs() < 1e-9, "{json}");
    }

    #[test]
    fn number_formats() {
        assert_eq!(fmt_ms(1234.5678), "1235");
        assert_eq!(fmt_ms(1.23456), "1.235");
        assert_eq!(fmt_ms(0.000123456), "0.0001235");
        assert_eq!(fmt_ms(0.0), "-");
    }
}
