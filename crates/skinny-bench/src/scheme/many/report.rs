//! The many-message series' results: the header, one table per operation
//! (every point beside the single-message path and its floor), what was
//! skipped, CSV and JSON.

use super::measure::{ManyRecord, ManySkipped};
use super::plan::{ManyPlan, BATCH_DATA_BYTES, MESSAGES_PER_THREAD};
use crate::plan::MIN_RUNS_UNDER_BUDGET;
use crate::report::format::{columns, csv_field, fmt_ms};
use crate::scheme::Route;
use crate::size::size_label;
use crate::system::{CpuPaths, SystemInfo, MACHINE_COLUMN};
use serde::Serialize;
use std::fmt::Write as _;

/// Everything a many-message run produced.
#[derive(Clone, Debug)]
pub struct ManyReport {
    /// Machine and build.
    pub info: SystemInfo,
    /// What was asked.
    pub plan: ManyPlan,
    /// The measurements.
    pub records: Vec<ManyRecord>,
    /// Backends, or schemes on a backend, that could not run.
    pub skipped: Vec<ManySkipped>,
}

/// The columns of the CSV, and the keys of each JSON record, in order.
pub const MANY_FIELDS: [&str; 32] = [
    "algorithm",
    "operation",
    "route",
    "backend",
    "ran_on",
    "cipher",
    "bytes",
    "messages",
    "batch_bytes",
    "threads",
    "runs",
    "reps",
    "mean_ms",
    "median_ms",
    "min_ms",
    "max_ms",
    "sd_ms",
    "messages_per_s",
    "gb_s",
    "warmup_ms",
    "single_reps",
    "single_median_ms",
    "single_messages_per_s",
    "single_gb_s",
    "ratio",
    "tbc_calls",
    "rounds_per_call",
    "floor_rounds",
    "ns_per_round",
    "single_warmup_ms",
    "times_ms",
    "single_times_ms",
];

impl ManyReport {
    /// The header: machine, build, plan, the ciphers, units.
    pub fn header(&self) -> String {
        let (i, p) = (&self.info, &self.plan);
        let mut s = String::new();
        let _ = writeln!(s, "skinny bench: skinny {} (commit {}), started {}", i.version, i.commit, i.started);
        let _ = writeln!(s, "{}", i.cpu_line());
        for g in &i.gpus {
            let _ = writeln!(s, "GPU: {g}");
        }
        let batch = match p.messages {
            Some(n) => format!("{n} messages per batch"),
            None => format!(
                "messages per batch: {} of message data, at least {MESSAGES_PER_THREAD} a thread ({})",
                size_label(BATCH_DATA_BYTES),
                p.sizes
                    .iter()
                    .map(|&n| format!("{} x {}", p.messages(n), size_label(n)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let _ = writeln!(
            s,
            "Many messages per call: schemes {}; backends {}; {} threads; {batch}; each message its own random \
             key and nonce, no associated data; {} timed runs per point after a warm-up call{}",
            p.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>().join(", "),
            p.backends.iter().map(|b| b.name()).collect::<Vec<_>>().join(", "),
            p.threads,
            p.runs,
            p.max_time_per_size.map_or(String::new(), |b| format!(
                " (fewer, at least {}, once a point has taken {b} s)",
                p.runs.min(MIN_RUNS_UNDER_BUDGET)
            )),
        );
        for a in &p.algorithms {
            let _ = writeln!(s, "Scheme {a}: {} ({} rounds per call)", a.cipher(), a.floor(16).rounds);
        }
        let _ = writeln!(
            s,
            "Times: ms per batch, median of the runs. msg/s and GB/s (10^9 bytes of message; tags not counted) at \
             the median. single: the same messages one per call through the single-message types on the same \
             threads; ratio: its time over the batch's. Floor: block-cipher calls per message x rounds per \
             call; ns/round: the batch's median over the floor rounds of all its messages. Each output is \
             checked once after the timed runs (seal: as the single-message path seals; open: the plaintexts)."
        );
        s
    }

    /// One table per operation, then what was skipped.
    pub fn tables(&self) -> String {
        let mut s = String::new();
        for op in self.plan.operations() {
            let recs: Vec<&ManyRecord> = self.records.iter().filter(|r| r.operation == op).collect();
            if recs.is_empty() {
                continue;
            }
            let _ = writeln!(
                s,
                "\nAEAD {}, many messages per call ({} threads), beside one message per call",
                op.name(),
                self.plan.threads
            );
            let head: Vec<String> = [
                "Scheme",
                "Size",
                "Messages",
                "Backend",
                "ms",
                "M msg/s",
                "GB/s",
                "single M msg/s",
                "single GB/s",
                "ratio",
                "calls",
                "rounds",
                "ns/round",
            ]
            .map(String::from)
            .to_vec();
            let rows: Vec<Vec<String>> = recs
                .iter()
                .map(|r| {
                    let backend = if r.backend.name() == r.ran_on {
                        r.ran_on.to_string()
                    } else {
                        format!("{} ({})", r.backend.name(), r.ran_on)
                    };
                    vec![
                        r.algorithm.name().to_string(),
                        size_label(r.bytes),
                        r.messages.to_string(),
                        backend,
                        fmt_ms(r.engine.median_ms()),
                        fmt_ms(r.messages_per_s() / 1e6),
                        fmt_ms(r.gb_s()),
                        fmt_ms(r.single_messages_per_s() / 1e6),
                        fmt_ms(r.single_gb_s()),
                        fmt_ms(r.ratio()),
                        r.floor.calls.to_string(),
                        r.floor.total_rounds().to_string(),
                        fmt_ms(r.ns_per_round()),
                    ]
                })
                .collect();
            s.push_str(&columns(&head, &rows));
        }
        if !self.skipped.is_empty() {
            s.push('\n');
        }
        for k in &self.skipped {
            let what = k.algorithm.map_or(String::new(), |a| format!(" for {a}"));
            let _ = match k.backend.name() {
                "gpu" => writeln!(s, "GPU: not available{what} ({}); skipped", k.reason),
                b => writeln!(s, "{b}: not available{what} ({}); skipped", k.reason),
            };
        }
        s
    }

    /// CSV: a header line, then one line per record, in [`MANY_FIELDS`] order
    /// and then [`MACHINE_COLUMN`].
    pub fn csv(&self) -> String {
        let mut s = format!("{},{MACHINE_COLUMN}\n", MANY_FIELDS.join(","));
        let machine = csv_field(&self.info.machine_cell());
        let num = |x: f64| if x.is_finite() { x.to_string() } else { String::new() };
        let list = |v: &[f64]| v.iter().map(f64::to_string).collect::<Vec<_>>().join(";");
        for r in &self.records {
            let j = JsonRecord::from(r);
            let cells = [
                csv_field(j.algorithm),
                j.operation.into(),
                j.route.into(),
                j.backend.into(),
                j.ran_on.into(),
                csv_field(j.cipher),
                j.bytes.to_string(),
                j.messages.to_string(),
                j.batch_bytes.to_string(),
                j.threads.to_string(),
                j.runs.to_string(),
                j.reps.to_string(),
                num(j.mean_ms),
                num(j.median_ms),
                num(j.min_ms),
                num(j.max_ms),
                num(j.sd_ms),
                num(j.messages_per_s),
                num(j.gb_s),
                num(j.warmup_ms),
                j.single_reps.to_string(),
                num(j.single_median_ms),
                num(j.single_messages_per_s),
                num(j.single_gb_s),
                num(j.ratio),
                j.tbc_calls.to_string(),
                j.rounds_per_call.to_string(),
                j.floor_rounds.to_string(),
                num(j.ns_per_round),
                num(j.single_warmup_ms),
                list(j.times_ms),
                list(j.single_times_ms),
                machine.clone(),
            ];
            s.push_str(&cells.join(","));
            s.push('\n');
        }
        s
    }

    /// JSON: the header facts, the plan, the units, what was skipped and
    /// `records` (the CSV's columns, the times as lists). `"report": "many"`
    /// tells it from the other reports.
    ///
    /// # Errors
    /// None in practice (plain structs, strings and numbers).
    pub fn json(&self) -> Result<String, serde_json::Error> {
        let (i, p) = (&self.info, &self.plan);
        let doc = JsonReport {
            tool: "skinny bench",
            report: "many",
            version: i.version,
            commit: i.commit,
            started: &i.started,
            cpu: &i.cpu,
            logical_cpus: i.cores,
            isa: &i.isa,
            cpu_paths: i.paths,
            gpus: &i.gpus,
            plan: serde_json::json!({
                "algorithms": p.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>(),
                "backends": p.backends.iter().map(|b| b.name()).collect::<Vec<_>>(),
                "threads": p.threads,
                "gpus": p.gpus.describe(),
                "sizes": p.sizes,
                "messages": p.sizes.iter().map(|&n| p.messages(n)).collect::<Vec<_>>(),
                "associated_data_bytes": 0,
                "runs": p.runs,
                "max_time_per_size_s": p.max_time_per_size,
                "min_run_ms": p.min_run_secs * 1e3,
            }),
            units: serde_json::json!({
                "times": "milliseconds per batch (single_*: the same messages one per call on the same threads)",
                "messages_per_s": "messages per second at the median time",
                "gb_s": "decimal gigabytes of message (tags not counted) per second at the median time",
                "ratio": "single_median_ms / median_ms",
                "floor": "tbc_calls: block-cipher calls per message (no AD); floor_rounds = tbc_calls x rounds_per_call",
                "ns_per_round": "the median time over floor_rounds x messages, nanoseconds (wall clock, all threads)",
            }),
            skipped: self
                .skipped
                .iter()
                .map(|k| {
                    serde_json::json!({
                        "backend": k.backend.name(),
                        "algorithm": k.algorithm.map(|a| a.name()),
                        "reason": k.reason,
                    })
                })
                .collect(),
            records: self.records.iter().map(JsonRecord::from).collect(),
        };
        let mut text = serde_json::to_string_pretty(&doc)?;
        text.push('\n');
        Ok(text)
    }
}

/// The JSON document; the top level's and the records' field order is the format.
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
    gpus: &'a [String],
    plan: serde_json::Value,
    units: serde_json::Value,
    skipped: Vec<serde_json::Value>,
    records: Vec<JsonRecord<'a>>,
}

/// One record: the keys are [`MANY_FIELDS`] in order.
#[derive(Serialize)]
struct JsonRecord<'a> {
    algorithm: &'static str,
    operation: &'static str,
    route: &'static str,
    backend: &'static str,
    ran_on: &'static str,
    cipher: &'static str,
    bytes: usize,
    messages: usize,
    batch_bytes: usize,
    threads: usize,
    runs: usize,
    reps: usize,
    mean_ms: f64,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    sd_ms: f64,
    messages_per_s: f64,
    gb_s: f64,
    warmup_ms: f64,
    single_reps: usize,
    single_median_ms: f64,
    single_messages_per_s: f64,
    single_gb_s: f64,
    ratio: f64,
    tbc_calls: u64,
    rounds_per_call: u32,
    floor_rounds: u64,
    ns_per_round: f64,
    single_warmup_ms: f64,
    times_ms: &'a [f64],
    single_times_ms: &'a [f64],
}

impl<'a> From<&'a ManyRecord> for JsonRecord<'a> {
    fn from(r: &'a ManyRecord) -> Self {
        Self {
            algorithm: r.algorithm.name(),
            operation: r.operation.name(),
            route: Route::Many.name(),
            backend: r.backend.name(),
            ran_on: r.ran_on,
            cipher: r.algorithm.cipher(),
            bytes: r.bytes,
            messages: r.messages,
            batch_bytes: r.batch_bytes(),
            threads: r.threads,
            runs: r.engine.times_ms.len(),
            reps: r.engine.reps,
            mean_ms: r.engine.mean_ms(),
            median_ms: r.engine.median_ms(),
            min_ms: r.engine.min_ms(),
            max_ms: r.engine.max_ms(),
            sd_ms: r.engine.sd_ms(),
            messages_per_s: r.messages_per_s(),
            gb_s: r.gb_s(),
            warmup_ms: r.engine.warmup_ms,
            single_reps: r.single.reps,
            single_median_ms: r.single.median_ms(),
            single_messages_per_s: r.single_messages_per_s(),
            single_gb_s: r.single_gb_s(),
            ratio: r.ratio(),
            tbc_calls: r.floor.calls,
            rounds_per_call: r.floor.rounds,
            floor_rounds: r.floor.total_rounds(),
            ns_per_round: r.ns_per_round(),
            single_warmup_ms: r.single.warmup_ms,
            times_ms: &r.engine.times_ms,
            single_times_ms: &r.single.times_ms,
        }
    }
}
