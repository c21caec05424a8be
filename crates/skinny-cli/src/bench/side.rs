//! `skinny bench --from-json`: saved results read back (one or several repeats
//! of one experiment, pooled point by point), drawn again, and printed beside
//! the paper's own Tables 3 and 4 from a transcription that marks how surely
//! each cell was read (`--paper-tables`).

use super::measure::{add_speedups, gbps, Record, Timing};
use super::plan::{size_label, Plan};
use super::report::fmt_ms;
use super::stats::Summary;
use super::svg;
use crate::error::CliError;
use serde_json::Value;
use skinny::Variant;
use skinny_bulk::backend::BackendChoice;
use skinny_bulk::mode::{Direction, Mode};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One saved run: its machine line and its records.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// `skinny VERSION (COMMIT), CPU, N CPUs; GPUs`.
    pub machine: String,
    /// The records, speed-ups as saved.
    pub records: Vec<Record>,
}

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("no '{key}'"))
}

fn text<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    field(v, key)?.as_str().ok_or_else(|| format!("'{key}' is not text"))
}

/// Reads the JSON of `skinny bench --json` (any version that has `records`
/// with `times_ms`).
///
/// # Errors
/// What is missing or malformed.
pub fn parse(json: &str) -> Result<Loaded, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    let gpus: Vec<&str> = v
        .get("gpus")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let machine = format!(
        "skinny {} ({}), {}, {} CPUs; {}",
        v.get("version").and_then(Value::as_str).unwrap_or("?"),
        v.get("commit").and_then(Value::as_str).unwrap_or("?"),
        v.get("cpu").and_then(Value::as_str).unwrap_or("?"),
        v.get("logical_cpus").and_then(Value::as_u64).unwrap_or(0),
        if gpus.is_empty() { "no GPU".to_string() } else { gpus.join("; ") }
    );
    let mut records = Vec::new();
    for (i, r) in field(&v, "records")?.as_array().ok_or("'records' is not a list")?.iter().enumerate() {
        let rec = (|| -> Result<Record, String> {
            let variant: Variant = text(r, "variant")?.parse().map_err(|_| "unknown variant".to_string())?;
            let mode: Mode = text(r, "mode")?.parse().map_err(|_| "unknown mode".to_string())?;
            let direction = match text(r, "direction")? {
                "encrypt" => Direction::Encrypt,
                "decrypt" => Direction::Decrypt,
                d => return Err(format!("unknown direction '{d}'")),
            };
            let backend: BackendChoice = text(r, "backend")?.parse().map_err(|_| "unknown backend".to_string())?;
            let timing = Timing::from_name(text(r, "timing")?).ok_or("unknown timing")?;
            let times_ms: Vec<f64> = field(r, "times_ms")?
                .as_array()
                .ok_or("'times_ms' is not a list")?
                .iter()
                .map(|t| t.as_f64().filter(|t| t.is_finite() && *t > 0.0).ok_or("a time is not a positive number"))
                .collect::<Result<_, _>>()?;
            if times_ms.is_empty() {
                return Err("no times".into());
            }
            Ok(Record {
                variant: variant.name(),
                mode,
                direction,
                backend: backend.name(),
                label: text(r, "label")?.to_string(),
                timing,
                bytes: field(r, "bytes")?.as_u64().ok_or("'bytes' is not a count")? as usize,
                reps: r.get("reps").and_then(Value::as_u64).unwrap_or(1) as usize,
                times_ms,
                warmup_ms: r.get("warmup_ms").and_then(Value::as_f64),
                vs_cpu_serial: None,
                vs_cpu: None,
                vs_cpu_serial_mean: None,
                vs_cpu_mean: None,
            })
        })()
        .map_err(|e| format!("record {i}: {e}"))?;
        records.push(rec);
    }
    Ok(Loaded { machine, records })
}

/// One point over every repeat: all runs pooled, and each repeat's median.
#[derive(Clone, Debug)]
pub struct Pooled {
    /// The pooled record (all runs of all repeats, speed-ups from the pooled times).
    pub record: Record,
    /// The median of each repeat that measured this point, in file order.
    pub repeat_medians: Vec<f64>,
}

/// Pools the repeats point by point (variant, mode, direction, label, size):
/// the runs of every file that measured a point, in file order; speed-ups
/// from the pooled times, against the pooled baselines (which may come from
/// another file than the series: cpu-serial measured apart, say).
pub fn pool(runs: &[Loaded]) -> Vec<Pooled> {
    let mut out: Vec<Pooled> = Vec::new();
    for l in runs {
        for r in &l.records {
            let same = |p: &&mut Pooled| {
                let q = &p.record;
                q.variant == r.variant
                    && q.mode == r.mode
                    && q.direction == r.direction
                    && q.label == r.label
                    && q.bytes == r.bytes
            };
            match out.iter_mut().find(same) {
                Some(p) => {
                    p.record.times_ms.extend_from_slice(&r.times_ms);
                    p.repeat_medians.push(r.median_ms());
                }
                None => out.push(Pooled { record: r.clone(), repeat_medians: vec![r.median_ms()] }),
            }
        }
    }
    let mut recs: Vec<Record> = out.iter().map(|p| p.record.clone()).collect();
    add_speedups(&mut recs);
    for (p, r) in out.iter_mut().zip(recs) {
        p.record = r;
    }
    out
}

/// How surely a cell of the paper's tables was read from the scrambled text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// The digits stand together in the text and agree with the rest of the row.
    Sure,
    /// Pieced together from fragments; agrees with the rest of the row.
    Likely,
    /// One of several readings; the one most consistent with the row.
    Guess,
    /// Not read: computed from the other cells of the row (E = Tc/Tg, S = 1 - 1/E).
    Derived,
    /// Not read, nothing to compute it from.
    Unread,
}

impl Certainty {
    fn parse(s: &str) -> Result<Self, String> {
        Ok(match s.trim() {
            "sure" => Certainty::Sure,
            "likely" => Certainty::Likely,
            "guess" => Certainty::Guess,
            "derived" => Certainty::Derived,
            "unread" | "" => Certainty::Unread,
            x => return Err(format!("unknown certainty '{x}' (sure, likely, guess, derived, unread)")),
        })
    }

    /// A value with its mark: `0.27` sure, `0.27~` likely, `0.27?` a guess,
    /// `[0.27]` derived, `-` unread.
    fn mark(self, v: Option<f64>, fmt: impl Fn(f64) -> String) -> String {
        match (self, v) {
            (_, None) | (Certainty::Unread, _) => "-".into(),
            (Certainty::Sure, Some(x)) => fmt(x),
            (Certainty::Likely, Some(x)) => format!("{}~", fmt(x)),
            (Certainty::Guess, Some(x)) => format!("{}?", fmt(x)),
            (Certainty::Derived, Some(x)) => format!("[{}]", fmt(x)),
        }
    }
}

/// One cell of the paper's tables.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The value, if read or derived.
    pub value: Option<f64>,
    /// How surely.
    pub read: Certainty,
    /// The value as transcribed (trailing zeros kept: `0.30`).
    pub raw: String,
}

impl Cell {
    /// The value as transcribed, with its mark.
    fn marked(&self) -> String {
        self.read.mark(self.value, |_| self.raw.clone())
    }
}

/// One row of the paper's Table 3 (ECB) or 4 (CTR).
#[derive(Clone, Debug, PartialEq)]
pub struct PaperRow {
    /// ECB (Table 3) or CTR (Table 4).
    pub mode: Mode,
    /// Plaintext size, bytes (the paper's KB and MB are binary).
    pub bytes: usize,
    /// Serial C on the Xeon, ms.
    pub cpu_ms: Cell,
    /// The GPU, ms.
    pub gpu_ms: Cell,
    /// E = Tcpu / Tgpu.
    pub speedup: Cell,
    /// S = (Tcpu - Tgpu) / Tcpu, %.
    pub efficiency_pct: Cell,
}

/// The columns of the transcription file (`#` lines are comments; a last
/// `note` column may hold anything).
pub const PAPER_FIELDS: [&str; 11] = [
    "table",
    "mode",
    "bytes",
    "cpu_ms",
    "cpu_ms_read",
    "gpu_ms",
    "gpu_ms_read",
    "speedup",
    "speedup_read",
    "efficiency_pct",
    "efficiency_pct_read",
];

/// Reads the transcription of the paper's Tables 3 and 4.
///
/// # Errors
/// A line that does not fit [`PAPER_FIELDS`].
pub fn parse_paper(csv: &str) -> Result<Vec<PaperRow>, String> {
    let mut rows = Vec::new();
    let mut header_seen = false;
    for (n, line) in csv.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells: Vec<&str> = line.splitn(PAPER_FIELDS.len() + 1, ',').map(str::trim).collect();
        if !header_seen {
            if cells.len() < PAPER_FIELDS.len() || cells[..PAPER_FIELDS.len()] != PAPER_FIELDS {
                return Err(format!("line {}: expected the header {}", n + 1, PAPER_FIELDS.join(",")));
            }
            header_seen = true;
            continue;
        }
        let bad = |what: &str| format!("line {}: {what}", n + 1);
        if cells.len() < PAPER_FIELDS.len() {
            return Err(bad("too few cells"));
        }
        let num = |s: &str| -> Result<Option<f64>, String> {
            if s.is_empty() {
                Ok(None)
            } else {
                s.parse::<f64>().map(Some).map_err(|_| bad(&format!("'{s}' is not a number")))
            }
        };
        let cell = |i: usize| -> Result<Cell, String> {
            let read = Certainty::parse(cells[i + 1]).map_err(|e| bad(&e))?;
            let value = num(cells[i])?;
            if value.is_none() && read != Certainty::Unread {
                return Err(bad(&format!("{} is empty but marked read", PAPER_FIELDS[i])));
            }
            Ok(Cell { value, read, raw: cells[i].to_string() })
        };
        let mode: Mode = cells[1].parse().map_err(|_| bad("unknown mode"))?;
        let bytes: usize = cells[2].parse().map_err(|_| bad("bytes is not a count"))?;
        rows.push(PaperRow {
            mode,
            bytes,
            cpu_ms: cell(3)?,
            gpu_ms: cell(5)?,
            speedup: cell(7)?,
            efficiency_pct: cell(9)?,
        });
    }
    if !header_seen {
        return Err("no header line".into());
    }
    Ok(rows)
}

/// The paper's (mode, bytes, E) for the charts: E as read, else from the two times.
pub fn paper_speedups(rows: &[PaperRow]) -> Vec<(Mode, usize, f64)> {
    rows.iter()
        .filter_map(|r| {
            let e = match (r.speedup.value, r.cpu_ms.value, r.gpu_ms.value) {
                (Some(e), _, _) if r.speedup.read != Certainty::Unread => Some(e),
                (_, Some(c), Some(g)) => Some(c / g),
                _ => None,
            };
            e.map(|e| (r.mode, r.bytes, e))
        })
        .collect()
}

/// Reads the files, prints the tables asked for and draws the charts asked for.
///
/// # Errors
/// A file that cannot be read or parsed, an output not written.
pub fn run(
    files: &[PathBuf],
    paper: Option<&Path>,
    plot: Option<&Path>,
    speedup_plot: Option<&Path>,
) -> Result<(), CliError> {
    let mut loaded = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| CliError::Io(format!("cannot read '{}': {}", f.display(), crate::error::reason(&e))))?;
        loaded.push(parse(&text).map_err(|e| CliError::Usage(format!("'{}': {e}", f.display())))?);
    }
    let rows = match paper {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| CliError::Io(format!("cannot read '{}': {}", p.display(), crate::error::reason(&e))))?;
            parse_paper(&text).map_err(|e| CliError::Usage(format!("'{}': {e}", p.display())))?
        }
        None => Vec::new(),
    };
    let pooled = pool(&loaded);
    let records: Vec<Record> = pooled.iter().map(|p| p.record.clone()).collect();
    let mut machines: Vec<&str> = Vec::new();
    for l in &loaded {
        if !machines.contains(&l.machine.as_str()) {
            machines.push(&l.machine);
        }
    }
    let subtitle = if loaded.len() > 1 {
        format!("{}; {} runs pooled", machines.join(" | "), loaded.len())
    } else {
        machines.join(" | ")
    };
    if let Some(p) = plot {
        super::write_atomic(p, svg::render(&plan_of(&records), &records, &subtitle).as_bytes())?;
    }
    if let Some(p) = speedup_plot {
        let series = svg::speedup_series(&records, &paper_speedups(&rows));
        super::write_atomic(p, svg::render_speedups(&series, &subtitle).as_bytes())?;
    }
    let text = markdown(&pooled, &rows, files, &machines);
    let mut out = std::io::stdout().lock();
    std::io::Write::write_all(&mut out, text.as_bytes()).map_err(CliError::Output)
}

/// A plan that covers the records (for the throughput chart).
fn plan_of(records: &[Record]) -> Plan {
    let mut sizes: Vec<usize> = records.iter().map(|r| r.bytes).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let mut modes = Vec::new();
    let mut directions = Vec::new();
    for r in records {
        if !modes.contains(&r.mode) {
            modes.push(r.mode);
        }
        if !directions.contains(&r.direction) {
            directions.push(r.direction);
        }
    }
    Plan {
        variant: records.first().and_then(|r| r.variant.parse().ok()).unwrap_or(Variant::Skinny128_256),
        modes,
        directions,
        sizes,
        backends: Vec::new(),
        runs: 0,
        timings: Vec::new(),
        max_time_per_size: None,
        min_run_secs: 0.0,
        threads: None,
        gpus: skinny_bulk::backend::GpuSelection::All,
    }
}

/// Series labels of one mode's encryption records, in the order first seen.
fn labels(pooled: &[Pooled], mode: Mode) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in pooled.iter().filter(|p| p.record.mode == mode && p.record.direction == Direction::Encrypt) {
        if !out.contains(&p.record.label) {
            out.push(p.record.label.clone());
        }
    }
    out
}

/// E with three significant digits or so: 0.268, 12.3, 671.
fn fmt_e(e: f64) -> String {
    if !e.is_finite() {
        "-".into()
    } else if e.abs() >= 100.0 {
        format!("{e:.0}")
    } else if e.abs() >= 10.0 {
        format!("{e:.1}")
    } else if e.abs() >= 1.0 {
        format!("{e:.2}")
    } else {
        format!("{e:.3}")
    }
}

/// S in % with two decimals.
fn fmt_s(s: f64) -> String {
    if s.is_finite() {
        format!("{s:.2}")
    } else {
        "-".into()
    }
}

fn row(cells: &[String]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

fn head(cells: &[String]) -> String {
    let mut s = row(cells);
    s.push_str(&row(&cells
        .iter()
        .enumerate()
        .map(|(i, _)| if i == 0 { ":--" } else { "--:" }.to_string())
        .collect::<Vec<_>>()));
    s
}

/// The Markdown: the paper beside the results, mode by mode; the throughput
/// the paper's times imply; run-to-run spread; every run of the baseline and
/// of the paper's kernel; CTR against ECB; where each series first wins.
pub fn markdown(pooled: &[Pooled], paper: &[PaperRow], files: &[PathBuf], machines: &[&str]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<!-- generated by: skinny bench --from-json {} -->",
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(",")
    );
    let _ = writeln!(s, "Results: {} file(s), pooled point by point; {}.\n", files.len(), machines.join(" | "));
    let _ = writeln!(
        s,
        "Paper cells: plain = read with certainty, `~` = pieced together from fragments, `?` = a guess \
         among readings, `[x]` = not read, computed from the row (E = Tc/Tg, S = 1 - 1/E), `-` = not read. \
         Ours: E and S at the means of all runs (the paper averaged 10 runs), against cpu-serial.\n"
    );
    let find = |mode: Mode, label: &str, bytes: usize| {
        pooled.iter().find(|p| {
            p.record.mode == mode
                && p.record.direction == Direction::Encrypt
                && p.record.label == label
                && p.record.bytes == bytes
        })
    };
    for mode in [Mode::Ecb, Mode::Ctr] {
        let labels = labels(pooled, mode);
        if labels.is_empty() {
            continue;
        }
        let table = if mode == Mode::Ecb { 3 } else { 4 };
        let series: Vec<&String> = labels.iter().filter(|l| l.as_str() != "cpu-serial").collect();
        let mut sizes: Vec<usize> = pooled.iter().filter(|p| p.record.mode == mode).map(|p| p.record.bytes).collect();
        sizes.extend(paper.iter().filter(|r| r.mode == mode).map(|r| r.bytes));
        sizes.sort_unstable();
        sizes.dedup();
        let prow = |bytes: usize| paper.iter().find(|r| r.mode == mode && r.bytes == bytes);

        // E and S side by side.
        for (what, is_s) in [("speed-up E", false), ("efficiency S (%)", true)] {
            let _ = writeln!(s, "\n### {} {what}: the paper's Table {table} beside ours\n", mode.name().to_uppercase());
            let mut h: Vec<String> = vec![
                "Size".into(),
                "paper Tcpu ms".into(),
                "paper Tgpu ms".into(),
                format!("paper {}", if is_s { "S %" } else { "E" }),
            ];
            h.push("cpu-serial ms (mean, runs)".into());
            h.extend(series.iter().map(|l| format!("{l} {}", if is_s { "S %" } else { "E" })));
            s.push_str(&head(&h));
            for &b in &sizes {
                let mut c = vec![size_label(b)];
                match prow(b) {
                    Some(r) => {
                        c.push(r.cpu_ms.marked());
                        c.push(r.gpu_ms.marked());
                        c.push(if is_s { r.efficiency_pct.marked() } else { r.speedup.marked() });
                    }
                    None => c.extend(["-".to_string(), "-".into(), "-".into()]),
                }
                c.push(
                    find(mode, "cpu-serial", b)
                        .map_or("-".into(), |p| format!("{} ({})", fmt_ms(p.record.mean_ms()), p.record.runs())),
                );
                for l in &series {
                    c.push(find(mode, l, b).and_then(|p| p.record.vs_cpu_serial_mean).map_or("-".into(), |v| {
                        if is_s {
                            fmt_s(v.efficiency * 100.0)
                        } else {
                            fmt_e(v.speedup)
                        }
                    }));
                }
                s.push_str(&row(&c));
            }
        }

        // Rates.
        let _ = writeln!(
            s,
            "\n### {} throughput (Gb/s, decimal, at the mean): the paper's implied by its times, and ours\n",
            mode.name().to_uppercase()
        );
        let mut h: Vec<String> = vec!["Size".into(), "paper CPU".into(), "paper GPU".into()];
        h.extend(labels.iter().cloned());
        s.push_str(&head(&h));
        for &b in &sizes {
            let mut c = vec![size_label(b)];
            let rate = |cell: Option<&Cell>| match cell {
                Some(Cell { value: Some(ms), read, .. }) if *read != Certainty::Unread => {
                    read.mark(Some(gbps(b, *ms)), fmt_ms)
                }
                _ => "-".into(),
            };
            c.push(rate(prow(b).map(|r| &r.cpu_ms)));
            c.push(rate(prow(b).map(|r| &r.gpu_ms)));
            for l in &labels {
                c.push(find(mode, l, b).map_or("-".into(), |p| fmt_ms(gbps(b, p.record.mean_ms()))));
            }
            s.push_str(&row(&c));
        }

        // Spread.
        let _ = writeln!(
            s,
            "\n### {} spread: runs (all repeats), mean / median, cv = sd / mean of the runs, and the \
             repeats' medians' range / median\n",
            mode.name().to_uppercase()
        );
        let mut h: Vec<String> = vec!["Size".into()];
        h.extend(labels.iter().cloned());
        s.push_str(&head(&h));
        for &b in &sizes {
            let mut c = vec![size_label(b)];
            for l in &labels {
                c.push(find(mode, l, b).map_or("-".into(), |p| {
                    let runs = Summary::of(&p.record.times_ms);
                    let reps = Summary::of(&p.repeat_medians);
                    format!(
                        "{}: {:.3} cv {:.1}%{}",
                        runs.n,
                        runs.mean / runs.median,
                        runs.cv() * 100.0,
                        if reps.n > 1 {
                            format!(", {} rep {:.1}%", reps.n, reps.spread() * 100.0)
                        } else {
                            String::new()
                        }
                    )
                }));
            }
            s.push_str(&row(&c));
        }

        // Every run of the baseline and of the paper's kernel.
        for l in labels.iter().filter(|l| l.as_str() == "cpu-serial" || l.starts_with("gpu-paper")) {
            let _ = writeln!(s, "\n### {} {l}: every run, ms (the paper ran 10 a size)\n", mode.name().to_uppercase());
            s.push_str(&head(&["Size".to_string(), "runs".into(), "times".into()]));
            for &b in &sizes {
                if let Some(p) = find(mode, l, b) {
                    let t: Vec<String> = p.record.times_ms.iter().map(|&x| fmt_ms(x)).collect();
                    s.push_str(&row(&[size_label(b), p.record.runs().to_string(), t.join(" ")]));
                }
            }
        }
    }

    // CTR against ECB, and where each series first beats the baselines.
    let _ = writeln!(s, "\n### CTR against ECB, and where each series first wins (means)\n");
    s.push_str(&head(&[
        "Series".to_string(),
        "ECB peak Gb/s".into(),
        "CTR peak Gb/s".into(),
        "CTR / ECB at peak".into(),
        "CTR / ECB at the largest size".into(),
        "first E > 1 vs cpu-serial (ECB, CTR)".into(),
        "first E > 1 vs cpu (ECB, CTR)".into(),
    ]));
    let all_labels = {
        let mut v = labels(pooled, Mode::Ecb);
        for l in labels(pooled, Mode::Ctr) {
            if !v.contains(&l) {
                v.push(l);
            }
        }
        v
    };
    for l in &all_labels {
        let pts = |mode: Mode| {
            let mut v: Vec<&Pooled> = pooled
                .iter()
                .filter(|p| p.record.mode == mode && p.record.direction == Direction::Encrypt && &p.record.label == l)
                .collect();
            v.sort_by_key(|p| p.record.bytes);
            v
        };
        let (e, c) = (pts(Mode::Ecb), pts(Mode::Ctr));
        let peak = |v: &[&Pooled]| v.iter().map(|p| gbps(p.record.bytes, p.record.mean_ms())).fold(f64::NAN, f64::max);
        let last = |v: &[&Pooled]| v.last().map(|p| (p.record.bytes, gbps(p.record.bytes, p.record.mean_ms())));
        let ratio = match (last(&e), last(&c)) {
            (Some((be, ge)), Some((bc, gc))) if be == bc => {
                format!("{:+.1}% ({})", (gc / ge - 1.0) * 100.0, size_label(be))
            }
            _ => "-".into(),
        };
        let first = |v: &[&Pooled], serial: bool| {
            v.iter()
                .find(|p| {
                    let su = if serial { p.record.vs_cpu_serial_mean } else { p.record.vs_cpu_mean };
                    su.is_some_and(|x| x.speedup > 1.0)
                })
                .map_or("never".to_string(), |p| size_label(p.record.bytes))
        };
        let has = |v: &[&Pooled], serial: bool| {
            v.iter()
                .any(|p| if serial { p.record.vs_cpu_serial_mean.is_some() } else { p.record.vs_cpu_mean.is_some() })
        };
        let wins = |serial: bool| {
            if has(&e, serial) || has(&c, serial) {
                format!("{}, {}", first(&e, serial), first(&c, serial))
            } else {
                "-".into()
            }
        };
        let (pe, pc) = (peak(&e), peak(&c));
        s.push_str(&row(&[
            l.clone(),
            fmt_ms(pe),
            fmt_ms(pc),
            if pe.is_finite() && pc.is_finite() { format!("{:+.1}%", (pc / pe - 1.0) * 100.0) } else { "-".into() },
            ratio,
            wins(true),
            wins(false),
        ]));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(a.machine.contains("Test CPU, 16 CPUs; G"), "{}", a.machine);
        // A second repeat with only the GPU series: the baseline comes from the first.
        let mut b = a.clone();
        b.records.remove(0);
        b.records[0].times_ms = vec![2.0, 2.0];
        let p = pool(&[a, b]);
        assert_eq!(p.len(), 2);
        assert_eq!(p[1].record.times_ms, vec![4.0, 4.0, 2.0, 2.0]);
        assert_eq!(p[1].repeat_medians, vec![4.0, 2.0]);
        // Means: serial 2 ms, cold 3 ms: E = 2/3; medians: 2 and 3.
        let su = p[1].record.vs_cpu_serial_mean.unwrap();
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
        let md = markdown(&p, &rows, &[PathBuf::from("r.json")], &["m"]);
        assert!(md.contains("### ECB speed-up E: the paper's Table 3 beside ours"), "{md}");
        // 16 B: paper 0.08~ ms; ours: cpu-serial mean 2 ms of 3 runs; cold E = 2 / 4.
        let line = md.lines().find(|l| l.starts_with("| 16 B | 0.08~ | 0.27? | - |")).expect(&md);
        assert!(line.ends_with("| 2.000 (3) | 0.500 |"), "{line}");
        assert!(md.contains("| 16 B | 3 | 1.000 3.000 2.000 |"), "{md}");
        assert!(md.contains("| gpu-paper cold | 0.00003200 | - |"), "{md}");
    }
}
