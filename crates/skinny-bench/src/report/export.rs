//! The report as CSV and JSON: the same columns, in [`CSV_FIELDS`] order.

use super::format::csv_field;
use super::Report;
use crate::measure::Setup;
use crate::record::{dir_name, Record, SpeedUp};
use crate::system::{CpuPaths, MACHINE_COLUMN};
use serde::Serialize;

impl Report {
    /// CSV: a header line, then one line per record: [`CSV_FIELDS`], then
    /// [`MACHINE_COLUMN`].
    pub fn csv(&self) -> String {
        let mut s = format!("{},{MACHINE_COLUMN}\n", CSV_FIELDS.join(","));
        let machine = csv_field(&self.info.machine_cell());
        for r in &self.records {
            let f = fields(r);
            let mut cells: Vec<String> = f.iter().map(|v| v.csv()).collect();
            cells.push(machine.clone());
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
        let (i, p) = (&self.info, &self.plan);
        let report = JsonReport {
            tool: "skinny bench",
            version: i.version,
            commit: i.commit,
            started: &i.started,
            cpu: &i.cpu,
            logical_cpus: i.cores,
            isa: &i.isa,
            cpu_paths: i.paths,
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
            skipped: self.skipped.iter().map(|s| JsonSkipped { backend: &s.backend, reason: &s.reason }).collect(),
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
    isa: &'a [&'static str],
    cpu_paths: CpuPaths,
    gpu_found: bool,
    gpus: &'a [String],
    plan: JsonPlan<'a>,
    units: Units,
    setup: &'a [Setup],
    skipped: Vec<JsonSkipped<'a>>,
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
struct JsonSkipped<'a> {
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
            speedup_vs_cpu_serial: r.speedups.serial.map(|v| v.speedup),
            efficiency_vs_cpu_serial: r.speedups.serial.map(|v| v.efficiency),
            speedup_vs_cpu: r.speedups.cpu.map(|v| v.speedup),
            efficiency_vs_cpu: r.speedups.cpu.map(|v| v.efficiency),
            max_ms: r.max_ms(),
            sd_ms: r.sd_ms(),
            speedup_mean_vs_cpu_serial: r.speedups.serial_mean.map(|v| v.speedup),
            efficiency_mean_vs_cpu_serial: r.speedups.serial_mean.map(|v| v.efficiency),
            speedup_mean_vs_cpu: r.speedups.cpu_mean.map(|v| v.speedup),
            efficiency_mean_vs_cpu: r.speedups.cpu_mean.map(|v| v.efficiency),
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
        su(r.speedups.serial, false),
        su(r.speedups.serial, true),
        su(r.speedups.cpu, false),
        su(r.speedups.cpu, true),
        Val::Num(Some(r.max_ms())),
        Val::Num(Some(r.sd_ms())),
        su(r.speedups.serial_mean, false),
        su(r.speedups.serial_mean, true),
        su(r.speedups.cpu_mean, false),
        su(r.speedups.cpu_mean, true),
        Val::Str(r.times_ms.iter().map(f64::to_string).collect::<Vec<_>>().join(";")),
    ]
}
