//! Saved results read back: the JSON of a run, and several repeats of one
//! experiment pooled point by point.

use crate::record::{add_speedups, Record, SpeedUps};
use crate::system::machine_line;
use crate::timing::Timing;
use serde_json::Value;
use skinny::Variant;
use skinny_bulk::backend::BackendChoice;
use skinny_bulk::mode::{Direction, Mode};

/// One saved run: its machine line and its records.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// `skinny VERSION (COMMIT), CPU, N CPUs, ISA; GPUs`.
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

/// Reads the JSON of [`Report::json`](crate::Report::json) (any version that has `records`
/// with `times_ms`).
///
/// # Errors
/// What is missing or malformed.
pub fn parse(json: &str) -> Result<Loaded, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("not JSON: {e}"))?;
    match v.get("report").and_then(Value::as_str) {
        Some("schemes") => {
            return Err("a report of the AEAD and hash series: only the cipher bench's reports are read back".into())
        }
        Some("many") => {
            return Err("a report of the many-message series: only the cipher bench's reports are read back".into())
        }
        _ => {}
    }
    let gpus: Vec<&str> = v
        .get("gpus")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // Reports written before the ISA was recorded say so rather than guess.
    let isa = match v.get("isa").and_then(Value::as_array) {
        Some(a) if a.is_empty() => "none of ssse3, avx2, avx512*, gfni".to_string(),
        Some(a) => a.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" "),
        None => "ISA not recorded".to_string(),
    };
    let machine = machine_line(
        v.get("version").and_then(Value::as_str).unwrap_or("?"),
        v.get("commit").and_then(Value::as_str).unwrap_or("?"),
        v.get("cpu").and_then(Value::as_str).unwrap_or("?"),
        v.get("logical_cpus").and_then(Value::as_u64).unwrap_or(0) as usize,
        &isa,
        &if gpus.is_empty() { "no GPU".to_string() } else { gpus.join("; ") },
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
                speedups: SpeedUps::default(),
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
            let same = |p: &&mut Pooled| p.record.label == r.label && p.record.same_point(r);
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
