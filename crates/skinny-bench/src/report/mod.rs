//! The results as text: the header, the paper-style tables (one per mode and
//! compared series), CSV and JSON ([`Report::csv`], [`Report::json`]), and the charts.

mod export;
pub mod format;

#[cfg(test)]
mod tests;

pub use export::CSV_FIELDS;

use crate::chart;
use crate::measure::{Setup, Skipped};
use crate::plan::{Plan, MIN_RUNS_UNDER_BUDGET};
use crate::record::{dir_name, labels, Record, BASELINES};
use crate::size::size_label;
use crate::system::SystemInfo;
use format::{columns, fmt_gbps, fmt_ms};
use skinny_bulk::mode::{Direction, Mode};
use std::fmt::Write as _;

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    /// Machine and build.
    pub info: SystemInfo,
    /// What was asked.
    pub plan: Plan,
    /// The backends measured.
    pub setups: Vec<Setup>,
    /// Backends left out.
    pub skipped: Vec<Skipped>,
    /// The measurements.
    pub records: Vec<Record>,
}

impl Report {
    /// The header: machine, build, plan, setup costs, skipped backends, units.
    pub fn header(&self) -> String {
        let (i, p) = (&self.info, &self.plan);
        let mut s = String::new();
        let _ = writeln!(s, "skinny bench: skinny {} (commit {}), started {}", i.version, i.commit, i.started);
        let _ = writeln!(s, "{}", i.cpu_line());
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
                p.runs.min(MIN_RUNS_UNDER_BUDGET)
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
        for sk in &self.skipped {
            let _ = writeln!(s, "Skipped {}: {}", sk.backend, sk.reason);
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
                let labels = labels(recs.iter().copied());
                let mut subjects: Vec<&str> = labels.iter().copied().filter(|l| !BASELINES.contains(l)).collect();
                if subjects.is_empty() {
                    subjects.push(labels.last().copied().unwrap_or_default());
                }
                for subject in subjects {
                    let bases: Vec<&str> =
                        BASELINES.iter().copied().filter(|b| *b != subject && labels.contains(b)).collect();
                    let paper = match mode {
                        Mode::Ecb => " (cf. the paper's Table 3)",
                        _ => " (cf. the paper's Table 4)",
                    };
                    let _ = writeln!(
                        s,
                        "\n{} {}, {}: {subject}{}{}",
                        mode.name().to_uppercase(),
                        dir_name(dir),
                        self.plan.variant,
                        if bases.is_empty() { String::new() } else { format!(" against {}", bases.join(" and ")) },
                        if dir == Direction::Encrypt { paper } else { "" }
                    );
                    s.push_str(&self.table(&recs, subject, &bases));
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
                let su = if *b == "cpu-serial" { x.speedups.serial } else { x.speedups.cpu };
                row.push(su.map_or("-".into(), |v| format!("{:.2}", v.speedup)));
                row.push(su.map_or("-".into(), |v| format!("{:.2}%", v.efficiency * 100.0)));
            }
            row.extend(bases.iter().map(|b| find(b, bytes).map_or("-".into(), |r| fmt_gbps(r.gbps()))));
            row.push(fmt_gbps(x.gbps()));
            rows.push(row);
        }
        columns(&head, &rows)
    }

    /// The charts' caption: the machine and build.
    pub fn caption(&self) -> Vec<String> {
        vec![self.info.machine_line()]
    }

    /// Throughput against size, one chart per mode and direction (the paper's
    /// Figures 6 and 7), as an SVG document.
    pub fn throughput_svg(&self) -> String {
        chart::throughput(&self.plan, &self.records, &self.caption())
    }

    /// The speed-up E and efficiency S against `cpu-serial` by size, ECB and
    /// CTR together, as an SVG document.
    pub fn speedup_svg(&self) -> String {
        chart::speedups(&chart::speedup_series(&self.records, &[]), &self.caption())
    }
}
