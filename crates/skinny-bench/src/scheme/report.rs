//! The scheme series' results: the header, one table per operation (every
//! point with its floor), a summary of MiB/s by size, CSV, JSON and the chart.

use super::algorithm::{Family, Operation};
use super::measure::SchemeRecord;
use super::plan::SchemePlan;
use crate::plan::MIN_RUNS_UNDER_BUDGET;
use crate::report::format::{columns, csv_field, fmt_ms};
use crate::size::size_label;
use crate::system::{CpuPaths, SystemInfo, MACHINE_COLUMN};
use serde::Serialize;
use std::fmt::Write as _;

/// Everything a scheme run produced.
#[derive(Clone, Debug)]
pub struct SchemeReport {
    /// Machine and build.
    pub info: SystemInfo,
    /// What was asked.
    pub plan: SchemePlan,
    /// The measurements.
    pub records: Vec<SchemeRecord>,
}

/// The columns of the CSV, and the keys of each JSON record, in order.
pub const SCHEME_FIELDS: [&str; 21] = [
    "family",
    "algorithm",
    "operation",
    "route",
    "cipher",
    "bytes",
    "runs",
    "reps",
    "mean_ms",
    "median_ms",
    "min_ms",
    "max_ms",
    "sd_ms",
    "mib_s",
    "ns_per_byte",
    "warmup_ms",
    "tbc_calls",
    "rounds_per_call",
    "floor_rounds",
    "ns_per_round",
    "times_ms",
];

impl SchemeReport {
    /// The header: machine, build, plan, what each algorithm runs on, units.
    pub fn header(&self) -> String {
        let (i, p) = (&self.info, &self.plan);
        let mut s = String::new();
        let _ = writeln!(s, "skinny bench: skinny {} (commit {}), started {}", i.version, i.commit, i.started);
        let _ = writeln!(s, "{}", i.cpu_line());
        let _ = writeln!(
            s,
            "Schemes {}; one message per call ({} route), no associated data, on the CPU; {} sizes {}..{}; \
             {} timed runs per size after a warm-up call{}",
            p.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>().join(", "),
            p.route.name(),
            p.sizes.len(),
            p.sizes.first().map_or(String::new(), |&n| size_label(n)),
            p.sizes.last().map_or(String::new(), |&n| size_label(n)),
            p.runs,
            p.max_time_per_size.map_or(String::new(), |b| format!(
                " (fewer, at least {}, once a size has taken {b} s)",
                p.runs.min(MIN_RUNS_UNDER_BUDGET)
            )),
        );
        for a in &p.algorithms {
            let f = a.floor(16);
            let _ = writeln!(s, "Scheme {a}: {} ({} rounds per call)", a.cipher(), f.rounds);
        }
        let _ = writeln!(
            s,
            "Times: ms per message, median of the runs. MiB/s: 2^20 bytes / s at the median; ns/B: ns per \
             message byte. Floor: block-cipher calls per message x rounds per call (key schedules and the \
             mode's own work on top); ns/round: the median time over the floor's rounds. Open checks a tag \
             that verifies."
        );
        s
    }

    /// One table per operation (seal, open, hash), every point with its floor,
    /// then the MiB/s of each algorithm by size.
    pub fn tables(&self) -> String {
        let mut s = String::new();
        for op in self.plan.operations() {
            let recs: Vec<&SchemeRecord> = self.records.iter().filter(|r| r.operation == op).collect();
            if recs.is_empty() {
                continue;
            }
            let _ = writeln!(s, "\n{}, one message per call", title(op));
            let head: Vec<String> =
                ["Scheme", "Size", "ms", "MiB/s", "ns/B", "calls", "rounds", "ns/round"].map(String::from).to_vec();
            let rows: Vec<Vec<String>> = recs
                .iter()
                .map(|r| {
                    vec![
                        r.algorithm.name().to_string(),
                        size_label(r.bytes),
                        fmt_ms(r.median_ms()),
                        fmt_ms(r.mib_s()),
                        fmt_ms(r.ns_per_byte()),
                        r.floor.calls.to_string(),
                        r.floor.total_rounds().to_string(),
                        fmt_ms(r.ns_per_round()),
                    ]
                })
                .collect();
            s.push_str(&columns(&head, &rows));
        }
        for op in self.plan.operations() {
            let _ = writeln!(s, "\n{} MiB/s by message size", title(op));
            let mut head = vec!["Scheme".to_string()];
            head.extend(self.plan.sizes.iter().map(|&n| size_label(n)));
            let rows: Vec<Vec<String>> = self
                .plan
                .algorithms
                .iter()
                .filter(|a| a.operations().contains(&op))
                .map(|a| {
                    let mut row = vec![a.name().to_string()];
                    row.extend(self.plan.sizes.iter().map(|&n| {
                        self.records
                            .iter()
                            .find(|r| r.algorithm == *a && r.operation == op && r.bytes == n)
                            .map_or("-".into(), |r| fmt_ms(r.mib_s()))
                    }));
                    row
                })
                .collect();
            s.push_str(&columns(&head, &rows));
        }
        s
    }

    /// CSV: a header line, then one line per record, in [`SCHEME_FIELDS`] order
    /// and then [`MACHINE_COLUMN`].
    pub fn csv(&self) -> String {
        let mut s = format!("{},{MACHINE_COLUMN}\n", SCHEME_FIELDS.join(","));
        let machine = csv_field(&self.info.machine_cell());
        for r in &self.records {
            let j = JsonRecord::from(r);
            let num = |x: f64| if x.is_finite() { x.to_string() } else { String::new() };
            let cells = [
                csv_field(j.family),
                csv_field(j.algorithm),
                j.operation.into(),
                j.route.into(),
                csv_field(j.cipher),
                j.bytes.to_string(),
                j.runs.to_string(),
                j.reps.to_string(),
                num(j.mean_ms),
                num(j.median_ms),
                num(j.min_ms),
                num(j.max_ms),
                num(j.sd_ms),
                num(j.mib_s),
                num(j.ns_per_byte),
                j.warmup_ms.map_or(String::new(), num),
                j.tbc_calls.to_string(),
                j.rounds_per_call.to_string(),
                j.floor_rounds.to_string(),
                num(j.ns_per_round),
                j.times_ms.iter().map(f64::to_string).collect::<Vec<_>>().join(";"),
                machine.clone(),
            ];
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        s
    }

    /// JSON: the header facts, the plan, the units and `records`, one object
    /// per record (the CSV's columns, `times_ms` a list). `"report":
    /// "schemes"` tells it from the cipher bench's JSON.
    ///
    /// # Errors
    /// None in practice (plain structs, strings and numbers).
    pub fn json(&self) -> Result<String, serde_json::Error> {
        let (i, p) = (&self.info, &self.plan);
        let doc = JsonReport {
            tool: "skinny bench",
            report: "schemes",
            version: i.version,
            commit: i.commit,
            started: &i.started,
            cpu: &i.cpu,
            logical_cpus: i.cores,
            isa: &i.isa,
            cpu_paths: i.paths,
            plan: JsonPlan {
                algorithms: p.algorithms.iter().map(|a| a.name()).collect(),
                families: Family::ALL
                    .into_iter()
                    .filter(|f| p.algorithms.iter().any(|a| a.family() == *f))
                    .map(Family::name)
                    .collect(),
                route: p.route.name(),
                associated_data_bytes: 0,
                sizes: &p.sizes,
                runs: p.runs,
                max_time_per_size_s: p.max_time_per_size,
                min_run_ms: p.min_run_secs * 1e3,
            },
            units: JsonUnits {
                times: "milliseconds per message",
                mib_s: "binary megabytes per second: bytes / 2^20 / seconds, at the median time",
                ns_per_byte: "nanoseconds per message byte, at the median time",
                floor: "tbc_calls: block-cipher calls per message (no AD); floor_rounds = tbc_calls x rounds_per_call",
                ns_per_round: "the median time over floor_rounds, nanoseconds",
            },
            records: self.records.iter().map(JsonRecord::from).collect(),
        };
        let mut text = serde_json::to_string_pretty(&doc)?;
        text.push('\n');
        Ok(text)
    }

    /// The charts' caption: the machine and build.
    pub fn caption(&self) -> Vec<String> {
        vec![self.info.machine_line()]
    }

    /// Throughput against message size, one chart per operation, as SVG.
    pub fn throughput_svg(&self) -> String {
        super::chart::scheme_throughput(&self.records, &self.caption())
    }
}

/// `AEAD seal`, `AEAD open` or `Hash`.
fn title(op: Operation) -> String {
    match op {
        Operation::Hash => "Hash".into(),
        o => format!("AEAD {}", o.name()),
    }
}

/// The JSON document; field names and order are the format.
#[derive(Serialize)]
struct JsonReport<'a> {
    tool: &'static str,
    report: &'static str,
    version: &'a str,
    commit: &'a str,
    started: &'a str,
    cpu: &'a str,
    logical_cpus: usize,
    isa: &'a [&'static str],
    cpu_paths: CpuPaths,
    plan: JsonPlan<'a>,
    units: JsonUnits,
    records: Vec<JsonRecord<'a>>,
}

/// What was asked, in `plan`.
#[derive(Serialize)]
struct JsonPlan<'a> {
    algorithms: Vec<&'static str>,
    families: Vec<&'static str>,
    route: &'static str,
    associated_data_bytes: usize,
    sizes: &'a [usize],
    runs: usize,
    max_time_per_size_s: Option<f64>,
    min_run_ms: f64,
}

/// What the numbers mean, in `units`.
#[derive(Serialize)]
struct JsonUnits {
    times: &'static str,
    mib_s: &'static str,
    ns_per_byte: &'static str,
    floor: &'static str,
    ns_per_round: &'static str,
}

/// One record: the keys are [`SCHEME_FIELDS`] in order.
#[derive(Serialize)]
struct JsonRecord<'a> {
    family: &'static str,
    algorithm: &'static str,
    operation: &'static str,
    route: &'static str,
    cipher: &'static str,
    bytes: usize,
    runs: usize,
    reps: usize,
    mean_ms: f64,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    sd_ms: f64,
    mib_s: f64,
    ns_per_byte: f64,
    warmup_ms: Option<f64>,
    tbc_calls: u64,
    rounds_per_call: u32,
    floor_rounds: u64,
    ns_per_round: f64,
    times_ms: &'a [f64],
}

impl<'a> From<&'a SchemeRecord> for JsonRecord<'a> {
    fn from(r: &'a SchemeRecord) -> Self {
        Self {
            family: r.algorithm.family().name(),
            algorithm: r.algorithm.name(),
            operation: r.operation.name(),
            route: r.route.name(),
            cipher: r.algorithm.cipher(),
            bytes: r.bytes,
            runs: r.runs(),
            reps: r.reps,
            mean_ms: r.mean_ms(),
            median_ms: r.median_ms(),
            min_ms: r.min_ms(),
            max_ms: r.max_ms(),
            sd_ms: r.sd_ms(),
            mib_s: r.mib_s(),
            ns_per_byte: r.ns_per_byte(),
            warmup_ms: r.warmup_ms,
            tbc_calls: r.floor.calls,
            rounds_per_call: r.floor.rounds,
            floor_rounds: r.floor.total_rounds(),
            ns_per_round: r.ns_per_round(),
            times_ms: &r.times_ms,
        }
    }
}
